"""Random elementwise expressions for the program generator.

Every operator and builtin of docs/language.md 6 and 8.1-8.3 has a function
here that draws operands, predicts the result type with 5.3's promotion rules
(weak literals adapt to the typed operand) and the broadcast shape, and
propagates the value interval and exactness (see tiletypes). Operands outside
a function's domain are first mapped into it (`abs(X) + 0.5` before `log`,
`tanh(X)` before `asin`), so the result is always specified.
"""

import math
import re

import tiletypes as tt
from tiletypes import FLOAT, INT, Retry, Val

FLOAT_LITERALS = [0.5, 0.25, 1.5, 2.0, 3.0, 0.125, 1.0, 4.0]


def broadcast(*shapes):
    rank = max(len(s) for s in shapes)
    out = []
    for k in range(rank):
        dims = {s[len(s) - rank + k] for s in shapes if len(s) - rank + k >= 0}
        dims.discard(1)
        if len(dims) > 1:
            raise Retry()
        out.append(dims.pop() if dims else 1)
    return tuple(out)


def compatible(a, b):
    try:
        broadcast(a, b)
        return True
    except Retry:
        return False


def format_float(x):
    text = repr(float(x))
    return text if "e" not in text else "%.1f" % x


def literal(value, weak):
    if weak == FLOAT:
        text = format_float(abs(value))
    else:
        text = str(abs(int(value)))
    if value < 0:
        text = "-" + text
    return Val(text, None, (), value, value, True, weak=weak, atom=value >= 0)


def adapt(typed, weaks, arithmetic):
    """The result type of an operator on typed operand types and weak literals
    (5.3 steps 1-3); raises Retry for a literal the type cannot hold."""
    t = typed[0]
    for u in typed[1:]:
        t = tt.join(t, u)
    for w in weaks:
        if w.weak == INT and tt.kind(t) == tt.BOOL:
            t = tt.join(t, tt.default_type(INT, w.lo))
        elif w.weak == FLOAT and tt.kind(t) != FLOAT:
            t = tt.join(t, "f32")
    for w in weaks:
        if w.weak == INT and tt.kind(t) == INT and not tt.fits(w.lo, w.lo, t):
            raise Retry()
    if arithmetic and t == "bool":
        t = "i32"
    return t


def as_type(v, t):
    """v's interval once converted to t (promotion never leaves the range:
    integer to float, narrower to wider, or a literal adopting the type)."""
    if v.dtype is None:
        return (v.lo, v.hi)
    return tt.convert_range(v.lo, v.hi, v.dtype, t, v.exact)


class ExprGen:
    """Draws expressions over the values of a ProgramBuilder."""

    def __init__(self, builder):
        self.b, self.rng = builder, builder.rng

    # -- operands ------------------------------------------------------------

    def constant(self, v):
        """Whether v's text refers to no tensor (so tilec folds it)."""
        words = set(re.findall(r"\w+", v.text))
        return not any(t.text in words for t in self.b.tensors())

    def leaf(self, shape=None, exact=False):
        def ok(v):
            return (shape is None or compatible(v.shape, shape)) and (v.exact or not exact)
        if self.rng.random() < 0.06:
            base = self.b.pick_tensor(pred=lambda v: len(v.shape) > 0 and ok(v))
            axis = self.rng.randrange(len(base.shape))
            return Val("index(%s, %d)" % (base.text, axis), "i32", base.shape, 0,
                       base.shape[axis] - 1, True)
        return self.b.pick_value(pred=ok)

    def expr(self, depth, shape=None, exact=False):
        if depth <= 0 or self.rng.random() < 0.2:
            return self.leaf(shape, exact)
        ops = [(self.arith, 12), (self.compare, 4), (self.bitwise, 3), (self.shift, 2),
               (self.unary, 3), (self.select, 4), (self.math, 9), (self.rounding, 2),
               (self.power, 2), (self.minmax, 4), (self.cast, 5), (self.misc, 2)]
        for _ in range(8):
            fn = self.rng.choices([f for f, _ in ops], [w for _, w in ops])[0]
            try:
                v = fn(depth - 1, shape)
                if exact and not v.exact:
                    continue
                if len(v.shape) > 4:
                    continue
                return v
            except Retry:
                continue
        return self.leaf(shape, exact)

    def other(self, depth, a, allow_literal=True, exact=False, int_only=False):
        """A second operand for `a`: a literal (typed like a) or an expression."""
        if allow_literal and self.rng.random() < 0.4:
            t = a.dtype
            param = self.b.pick_weak_param(int_only or tt.kind(t) != FLOAT or t[0] == "u")
            if param is not None and self.rng.random() < 0.3 and not (
                    t[0] == "u" and param.lo < 0):
                return param
            if int_only or tt.kind(t) != FLOAT or self.rng.random() < 0.4:
                choices = [0, 1, 2, 3, 5] if (t[0] == "u" or int_only) else [-2, -1, 1, 2, 3]
                return literal(self.rng.choice(choices), INT)
            return literal(self.rng.choice(FLOAT_LITERALS + [-0.5, -2.0]), FLOAT)
        return self.expr(depth, a.shape, exact)

    # -- operators -----------------------------------------------------------

    def arith(self, depth, shape):
        op = self.rng.choice("+-*/")
        a = self.expr(depth, shape)
        if op == "/":
            return self.divide(depth, a)
        b = self.other(depth, a)
        if self.rng.random() < 0.3:
            a, b = b, a
        return self.binary_arith(op, a, b)

    def binary_arith(self, op, a, b):
        typed = [v.dtype for v in (a, b) if v.dtype]
        if not typed:
            raise Retry()
        t = adapt(typed, [v for v in (a, b) if not v.dtype], True)
        ra, rb = as_type(a, t), as_type(b, t)
        if op == "+":
            r = (ra[0] + rb[0], ra[1] + rb[1])
        elif op == "-":
            r = (ra[0] - rb[1], ra[1] - rb[0])
        else:
            r = tt.interval_mul(ra, rb)
        exact = a.exact and b.exact and tt.exact_arith(t)
        lo, hi = tt.fit_range(r[0], r[1], t)
        shape = broadcast(a.shape, b.shape)
        return Val("%s %s %s" % (a.operand(), op, b.operand()), t, shape, lo, hi,
                   exact, atom=False)

    def divide(self, depth, a):
        if tt.kind(a.dtype) == FLOAT and self.rng.random() < 0.5:
            # A divisor bounded away from zero: X * X + 1.0 or abs(X) + 0.5.
            d = self.expr(depth, a.shape)
            if tt.kind(d.dtype) != FLOAT:
                raise Retry()
            if self.rng.random() < 0.5:
                m = max(abs(d.lo), abs(d.hi))
                b = Val("%s * %s + 1.0" % (d.operand(), d.operand()), d.dtype, d.shape,
                        1.0, m * m + 1.0, False, atom=False)
            else:
                b = Val("abs(%s) + 0.5" % d.text, d.dtype, d.shape, 0.5,
                        max(abs(d.lo), abs(d.hi)) + 0.5, False, atom=False)
            tt.fit_range(b.lo, b.hi, b.dtype)
        elif tt.kind(a.dtype) == FLOAT:
            b = literal(self.rng.choice([0.5, 2.0, 4.0, 3.0, -2.0]), FLOAT)
        else:
            b = literal(self.rng.randint(1, 5), INT)
        t = adapt([v.dtype for v in (a, b) if v.dtype], [v for v in (a, b) if not v.dtype],
                  True)
        ra, rb = as_type(a, t), as_type(b, t)
        if tt.kind(t) == FLOAT:
            if rb[0] <= 0 <= rb[1]:
                raise Retry()
            cands = [x / y for x in ra for y in rb]
            exact = a.exact and b.exact and tt.exact_arith(t)
        else:
            if rb[0] <= 0:
                raise Retry()
            cands = [math.trunc(x / y) for x in ra for y in rb]
            exact = True
        lo, hi = tt.fit_range(min(cands), max(cands), t)
        return Val("%s / %s" % (a.operand(), b.operand()), t,
                   broadcast(a.shape, b.shape), lo, hi, exact, atom=False)

    def compare(self, depth, shape):
        op = self.rng.choice(["<", ">", "<=", ">=", "==", "!="])
        a = self.expr(depth, shape, exact=True)
        b = self.other(depth, a, exact=True)
        if not (a.exact and b.exact):
            raise Retry()
        adapt([v.dtype for v in (a, b) if v.dtype], [v for v in (a, b) if not v.dtype], False)
        return Val("%s %s %s" % (a.operand(), op, b.operand()), "bool",
                   broadcast(a.shape, b.shape), 0, 1, True, atom=False)

    def integer_operand(self, depth, shape):
        a = self.expr(depth, shape)
        if tt.kind(a.dtype) == FLOAT:
            raise Retry()
        return a

    def bitwise(self, depth, shape):
        op = self.rng.choice("&|^")
        a = self.integer_operand(depth, shape)
        b = self.other(depth, a, int_only=True)
        if b.dtype and tt.kind(b.dtype) == FLOAT:
            raise Retry()
        t = adapt([v.dtype for v in (a, b) if v.dtype], [v for v in (a, b) if not v.dtype],
                  False)
        if t == "bool":
            lo, hi = 0, 1
        elif op == "&" and min(a.lo, b.lo) >= 0:
            lo, hi = 0, min(a.hi, b.hi)
        elif op == "&" and b.dtype is None and b.lo >= 0:
            lo, hi = 0, b.lo
        elif min(a.lo, b.lo) >= 0:
            lo, hi = 0, (1 << int(max(a.hi, b.hi)).bit_length()) - 1
        else:
            lo, hi = tt.type_range(t)
        lo, hi = tt.fit_range(lo, hi, t)
        return Val("%s %s %s" % (a.operand(), op, b.operand()), t,
                   broadcast(a.shape, b.shape), lo, hi, True, atom=False)

    def shift(self, depth, shape):
        op = self.rng.choice(["<<", ">>"])
        a = self.integer_operand(depth, shape)
        if self.rng.random() < 0.6:
            count = literal(self.rng.randint(0, 3), INT)
            kmax = count.lo
        else:
            c = self.integer_operand(depth, a.shape)
            if c.dtype == "bool":
                raise Retry()
            count = Val("%s & 3" % c.operand(), c.dtype, c.shape, 0, 3, True, atom=False)
            kmax = 3
        t = adapt([v.dtype for v in (a, count) if v.dtype],
                  [v for v in (a, count) if not v.dtype], True)
        ra = as_type(a, t)
        if op == "<<":
            lo, hi = min(ra[0], ra[0] << kmax), max(ra[1], ra[1] << kmax)
        else:
            lo, hi = min(ra[0], -1 if ra[0] < 0 else 0), max(ra[1], 0)
        lo, hi = tt.fit_range(lo, hi, t)
        return Val("%s %s %s" % (a.operand(), op, count.operand()), t,
                   broadcast(a.shape, count.shape), lo, hi, True, atom=False)

    def unary(self, depth, shape):
        a = self.expr(depth, shape)
        if self.rng.random() < 0.5 or tt.kind(a.dtype) == FLOAT:
            t = "i32" if a.dtype == "bool" else a.dtype
            ra = as_type(a, t)
            lo, hi = tt.fit_range(-ra[1], -ra[0], t)
            return Val("-" + a.operand(), t, a.shape, lo, hi,
                       a.exact and tt.exact_arith(t), atom=False)
        t = a.dtype
        if t == "bool":
            lo, hi = 0, 1
        elif tt.is_signed(t):
            lo, hi = tt.fit_range(-a.hi - 1, -a.lo - 1, t)
        else:
            top = tt.type_range(t)[1]
            lo, hi = top - a.hi, top - a.lo
        return Val("~" + a.operand(), t, a.shape, lo, hi, True, atom=False)

    def select(self, depth, shape):
        c = self.expr(depth, shape, exact=True)
        if not c.exact or c.lo == c.hi or self.constant(c):
            # A constant condition would fold the select away, and with it
            # the value tilec is expected to name (program_check.py).
            raise Retry()
        x = self.expr(depth, c.shape)
        y = self.other(depth, x)
        if self.rng.random() < 0.5:
            x, y = y, x
        t = adapt([v.dtype for v in (x, y) if v.dtype], [v for v in (x, y) if not v.dtype],
                  False)
        rx, ry = as_type(x, t), as_type(y, t)
        lo, hi = tt.fit_range(min(rx[0], ry[0]), max(rx[1], ry[1]), t)
        return Val("%s ? %s : %s" % (c.operand(), x.operand(), y.operand()), t,
                   broadcast(c.shape, x.shape, y.shape), lo, hi,
                   x.exact and y.exact, atom=False)

    def float_operand(self, depth, shape):
        a = self.expr(depth, shape)
        t = a.dtype if tt.kind(a.dtype) == FLOAT else "f32"
        lo, hi = as_type(a, t)
        return a, t, lo, hi

    def math(self, depth, shape):
        name = self.rng.choice(["exp", "log", "sqrt", "sin", "cos", "tan", "asin", "acos",
                                "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
                                "sigmoid"])
        a, t, lo, hi = self.float_operand(depth, shape)
        text = a.text
        m = max(abs(lo), abs(hi))
        positive = {"log": 0.5, "sqrt": 0.0, "acosh": 1.5}
        if name in positive and lo < positive[name] + 0.01:
            text, lo, hi = "abs(%s) + %s" % (text, format_float(positive[name] + 0.5)), \
                positive[name] + 0.5, m + positive[name] + 0.5
        bounded = {"asin": 1.0, "acos": 1.0, "atanh": 0.5, "tan": 1.0, "exp": 5.0,
                   "sinh": 5.0, "cosh": 5.0}
        if name in bounded and m > bounded[name]:
            scale = 0.5 if name == "atanh" else 1.0
            text = "tanh(%s)%s" % (text, " * 0.5" if scale != 1.0 else "")
            lo, hi = -scale, scale
        fn = {"exp": math.exp, "log": math.log, "sqrt": math.sqrt, "asin": math.asin,
              "acos": math.acos, "atan": math.atan, "sinh": math.sinh, "tanh": math.tanh,
              "asinh": math.asinh, "acosh": math.acosh, "atanh": math.atanh,
              "tan": math.tan}.get(name)
        if name in ("sin", "cos"):
            r = (-1.0, 1.0)
        elif name == "cosh":
            r = (1.0, math.cosh(max(abs(lo), abs(hi))))
        elif name == "sigmoid":
            r = (0.0, 1.0)
        else:
            ends = sorted([fn(lo), fn(hi)])
            r = (ends[0], ends[1])
        slack = 1e-2 * max(1.0, abs(r[0]), abs(r[1]))
        lo, hi = tt.fit_range(r[0] - slack, r[1] + slack, t)
        return Val("%s(%s)" % (name, text), t, a.shape, lo, hi, False)

    def rounding(self, depth, shape):
        name = self.rng.choice(["floor", "ceil", "round"])
        a = self.expr(depth, shape, exact=True)
        if not a.exact:
            raise Retry()
        v = Val("%s(%s)" % (name, a.text), a.dtype, a.shape, math.floor(a.lo),
                math.ceil(a.hi), True)
        if tt.kind(a.dtype) != FLOAT:
            v.bare = a.bare
        return v

    def power(self, depth, shape):
        a = self.expr(depth, shape)
        if tt.kind(a.dtype) == FLOAT:
            base = Val("abs(%s) + 0.5" % a.text, a.dtype, a.shape, 0.5,
                       max(abs(a.lo), abs(a.hi)) + 0.5, False, atom=False)
        elif a.dtype == "bool":
            raise Retry()
        else:
            base = Val("(%s & 3) + 1" % a.operand(), a.dtype, a.shape, 1, 4, True,
                       atom=False)
        if self.rng.random() < 0.6:
            e = literal(self.rng.choice([2, 3, -1, 0.5, 1.5, 2.0]),
                        self.rng.choice([INT, FLOAT]))
            if e.weak == INT and e.lo != int(e.lo):
                e = literal(e.lo, FLOAT)
        else:
            x, xt, lo, hi = self.float_operand(depth, a.shape)
            e = Val("tanh(%s)" % x.text, xt, x.shape, -1.0, 1.0, False)
        typed = [v.dtype for v in (base, e) if v.dtype]
        t = adapt(typed, [v for v in (base, e) if not v.dtype], False)
        if tt.kind(t) != FLOAT:
            t = "f32"
        cands = [x ** y for x in (base.lo, base.hi) for y in (e.lo, e.hi)]
        lo, hi = tt.fit_range(min(cands) * 0.99, max(cands) * 1.01, t)
        return Val("pow(%s, %s)" % (base.text, e.text), t,
                   broadcast(base.shape, e.shape), lo, hi, False)

    def minmax(self, depth, shape):
        name = self.rng.choice(["max", "min", "relu", "abs"])
        a = self.expr(depth, shape)
        if name in ("relu", "abs"):
            if name == "relu":
                t = adapt([a.dtype], [literal(0, INT)], False)
                ra = as_type(a, t)
                lo, hi = max(ra[0], 0), max(ra[1], 0)
            else:
                t = "i32" if a.dtype == "bool" else a.dtype
                ra = as_type(a, t)
                m = max(abs(ra[0]), abs(ra[1]))
                lo, hi = (0 if ra[0] <= 0 <= ra[1] else min(abs(ra[0]), abs(ra[1]))), m
            lo, hi = tt.fit_range(lo, hi, t)
            return Val("%s(%s)" % (name, a.text), t, a.shape, lo, hi, a.exact)
        b = self.other(depth, a)
        t = adapt([v.dtype for v in (a, b) if v.dtype], [v for v in (a, b) if not v.dtype],
                  False)
        ra, rb = as_type(a, t), as_type(b, t)
        pick = max if name == "max" else min
        lo, hi = tt.fit_range(pick(ra[0], rb[0]), pick(ra[1], rb[1]), t)
        return Val("%s(%s, %s)" % (name, a.text, b.text), t, broadcast(a.shape, b.shape),
                   lo, hi, a.exact and b.exact)

    def cast(self, depth, shape):
        a = self.expr(depth, shape)
        r = self.rng.random()
        if r < 0.3:
            w = self.rng.choice([16, 32, 64])
            t, text = "f%d" % w, "as_float(%s, %d)" % (a.text, w)
        elif r < 0.4:
            t, text = "bf16", "as_bfloat(%s, 16)" % a.text
        elif r < 0.65:
            w = self.rng.choice([8, 16, 32, 64])
            t, text = "i%d" % w, "as_int(%s, %d)" % (a.text, w)
        elif r < 0.9:
            w = self.rng.choice([8, 16, 32, 64])
            t, text = "u%d" % w, "as_uint(%s, %d)" % (a.text, w)
        else:
            t, text = "bool", "as_bool(%s)" % a.text
        if tt.kind(a.dtype) == FLOAT and t != "bool" and tt.kind(t) == INT and a.lo < 0 \
                and t[0] == "u" and a.lo <= -1:
            raise Retry()
        lo, hi = tt.convert_range(a.lo, a.hi, a.dtype, t, a.exact)
        if t[0] == "u" and tt.kind(a.dtype) == FLOAT:
            lo = max(lo, 0)
        # Rounding to a narrower float may move the ends a little.
        if tt.kind(t) == FLOAT:
            lo, hi = lo - 1e-2 * abs(lo), hi + 1e-2 * abs(hi)
        exact = a.exact if tt.kind(t) != FLOAT or tt.kind(a.dtype) == FLOAT else True
        v = Val(text, t, a.shape, lo, hi, exact)
        if t == a.dtype:
            v.bare = a.bare
        return v

    def misc(self, depth, shape):
        a = self.expr(depth, shape)
        # reverse_grad(constant, tensor) is a constant, which the statement's
        # check (gen_programs.py) would take for a tensor: ident then.
        if self.constant(a) or self.rng.random() < 0.5:
            v = Val("ident(%s)" % a.text, a.dtype, a.shape, a.lo, a.hi, a.exact)
        else:
            g = self.leaf()
            v = Val("reverse_grad(%s, %s)" % (a.text, g.text), a.dtype, a.shape, a.lo,
                    a.hi, a.exact)
        v.bare = a.bare
        return v
