"""Random valid contractions for the program generator.

A contraction is drawn in three steps. (1) Operands come from the values
defined so far, and each of their dimensions gets an index polynomial: a
variable (new or shared), a shifted, strided or reversed one, a sum such as
`2*y + ky - 1`, a fraction such as `(y + 1 - t) / 2`, or a constant. (2) Every
variable must be bounded (docs/language.md 7.9): one that appears in no
single-variable polynomial gets a constraint `v < n`; more constraints
(`i - j < N`, `k - 2 < 3`) are added at random. (3) The valid index assignments
of 7.3 are enumerated with numpy over the box the single-variable polynomials
allow, which gives the output sizes, proves the contraction feasible, tells
whether `=` writes every cell at most once, and counts the contributions per
cell, from which the value range and exactness of the result follow.
"""

import math

import numpy as np

import shapes
import tiletypes as tt
from tiletypes import Retry

# Most index assignments a contraction may enumerate: a 64 x 64 x 64 matmul
# fits, and the interpreter runs the largest in a few milliseconds.
MAX_BOX = 300000
VAR_NAMES = ["i", "j", "k", "l", "m", "n", "x", "y", "z", "t", "c", "r"]


class Poly:
    """(sum coeffs[v] * v + const) / den with integer coefficients."""

    def __init__(self, coeffs, const=0, den=1):
        self.coeffs = {v: c for v, c in coeffs.items() if c != 0}
        self.const, self.den = const, den

    def variables(self):
        return list(self.coeffs)

    def numerator(self, env):
        total = self.const
        for v, c in self.coeffs.items():
            total = total + c * env[v]
        return total

    def render(self, rng, consts):
        """Tile text; `consts` maps integer values to names that may spell them."""
        parts = []
        for v, c in self.coeffs.items():
            mag = abs(c)
            term = v if mag == 1 else (("%d%s" if rng.random() < 0.2 else "%d*%s")
                                        % (mag, v))
            parts.append((c < 0, term))
        if self.const != 0:
            mag = abs(self.const)
            text = str(mag)
            if mag in consts and rng.random() < 0.5:
                text = rng.choice(consts[mag])
            parts.append((self.const < 0, text))
        if not parts:
            return "0"
        text = ""
        for k, (neg, term) in enumerate(parts):
            if k == 0:
                text = ("-" + term) if neg else term
            else:
                text += (" - " if neg else " + ") + term
        if self.den != 1:
            single = len(parts) == 1 and not parts[0][0]
            text = "%s / %d" % (text if single else "(" + text + ")", self.den)
        return text


def var_interval(poly, limit):
    """Integer bounds on the lone variable of `poly` from 0 <= poly < limit,
    ignoring integrality (as the binder's boundedness check does)."""
    (v, a), = poly.coeffs.items()
    lo_num, hi_num = -poly.const, poly.den * (limit - 1) - poly.const
    if a > 0:
        return v, math.ceil(lo_num / a), math.floor(hi_num / a)
    return v, math.ceil(hi_num / a), math.floor(lo_num / a)


class Access:
    def __init__(self, value, polys):
        self.value, self.polys = value, polys


class ContractionDraw:
    """One attempt at a contraction; raise Retry to give up on it."""

    def __init__(self, builder):
        self.b, self.rng = builder, builder.rng
        self.nominal = {}  # variable -> intended number of values
        self.constraints = []  # (Poly, bound)

    # -- index polynomials ---------------------------------------------------

    def new_var(self, n):
        free = [v for v in VAR_NAMES if v not in self.nominal]
        if not free or len(self.nominal) >= 5:
            raise Retry()
        v = free[0] if self.rng.random() < 0.6 else self.rng.choice(free)
        self.nominal[v] = n
        return v

    def some_var(self, prefer=None):
        if not self.nominal:
            return self.new_var(prefer or self.rng.randint(1, 5))
        matching = [v for v, n in self.nominal.items() if n == prefer]
        if matching and self.rng.random() < 0.8:
            return self.rng.choice(matching)
        return self.rng.choice(list(self.nominal))

    def operand_poly(self, d):
        r = self.rng.random()
        if r < 0.35:
            return Poly({self.some_var(d): 1})
        if r < 0.6:
            return Poly({self.new_var(d): 1})
        if r < 0.7:  # shifted, strided or reversed
            form = self.rng.choice(["shift", "stride", "reverse"])
            if form == "shift":
                return Poly({self.some_var(d): 1}, self.rng.choice([-2, -1, 1, 2]))
            if form == "stride":
                return Poly({self.new_var(max(1, (d + 1) // 2)): 2},
                            self.rng.choice([0, 0, 1]))
            return Poly({self.some_var(d): -1}, d - 1)
        if r < 0.85:  # convolution-like: s*y + k - p
            y = self.some_var()
            k = self.new_var(self.rng.randint(1, 3)) if self.rng.random() < 0.6 \
                else self.some_var()
            if k == y:
                raise Retry()
            s = self.rng.choice([1, 1, 2])
            return Poly({y: s, k: self.rng.choice([1, 1, -1])}, -self.rng.choice([0, 1, 1, 2]))
        if r < 0.93:  # fractional: reads only where the numerator is even
            y = self.some_var()
            if self.rng.random() < 0.5:
                return Poly({y: 1}, self.rng.choice([0, 1]), 2)
            t = self.some_var()
            if t == y:
                t = self.new_var(self.rng.randint(2, 4))
            return Poly({y: 1, t: -1}, 1, 2)
        return Poly({}, self.rng.randint(0, d - 1))

    def dense_poly(self, d):
        """A plain variable for an axis of size d: often one that an axis of
        the same size already has (a reduction or a shared batch axis)."""
        matching = [v for v, n in self.nominal.items() if n == d]
        if matching and self.rng.random() < 0.6:
            return Poly({self.rng.choice(matching): 1})
        return Poly({self.new_var(d): 1})

    def dense_output(self, accesses):
        """The output axes of a dense contraction: the variables only one
        operand has (those several share are mostly summed over), in any
        order, at most 4."""
        uses = {}
        for acc in accesses:
            for v in {v for p in acc.polys for v in p.coeffs}:
                uses[v] = uses.get(v, 0) + 1
        free = [v for v in self.nominal if uses.get(v, 0) <= 1 or self.rng.random() < 0.2]
        self.rng.shuffle(free)
        return [Poly({v: 1}) for v in free[:4]]

    def output_polys(self, rank):
        vars_ = list(self.nominal)
        self.rng.shuffle(vars_)
        polys = []
        for k in range(rank):
            r = self.rng.random()
            if k < len(vars_) and r < 0.7:
                polys.append(Poly({vars_[k]: 1}))
            elif k < len(vars_) and r < 0.8:
                v = vars_[k]
                form = self.rng.choice(["pad", "up", "rev"])
                if form == "pad":
                    polys.append(Poly({v: 1}, self.rng.choice([1, 2, -1])))
                elif form == "up":
                    polys.append(Poly({v: 2}))
                else:
                    polys.append(Poly({v: -1}, self.nominal[v] - 1))
            elif k + 1 < len(vars_) and r < 0.87:  # flatten two variables
                v, w = vars_[k], vars_[k + 1]
                polys.append(Poly({v: self.nominal[w], w: 1}))
            elif r < 0.93:
                polys.append(Poly({}, 0))  # a unit axis
            else:  # a variable only the output uses: copies along it
                polys.append(Poly({self.new_var(self.rng.randint(1, 4)): 1}))
        return polys

    # -- enumeration ---------------------------------------------------------

    def box(self, accesses, out_polys, out_sizes):
        """Per variable [lo, hi] from every single-variable condition."""
        bounds = {}

        def narrow(poly, limit):
            v, lo, hi = var_interval(poly, limit)
            old = bounds.get(v, (-10 ** 9, 10 ** 9))
            bounds[v] = (max(old[0], lo), min(old[1], hi))

        for acc in accesses:
            for poly, d in zip(acc.polys, acc.value.shape):
                if len(poly.coeffs) == 1:
                    narrow(poly, d)
        for poly, bound in self.constraints:
            if len(poly.coeffs) == 1:
                narrow(poly, bound)
        if out_sizes is not None:
            for poly, s in zip(out_polys, out_sizes):
                if len(poly.coeffs) == 1:
                    narrow(poly, s)
        for v, n in self.nominal.items():
            if v not in bounds:
                if out_sizes is not None:
                    raise Retry()  # unbounded: ensure_bounded should prevent it
                bounds[v] = (0, n - 1)
        for lo, hi in bounds.values():
            if lo > hi:
                raise Retry()
        return bounds

    def enumerate(self, bounds):
        names = list(bounds)
        total = 1
        for lo, hi in bounds.values():
            total *= hi - lo + 1
        if total > MAX_BOX:
            raise Retry()
        axes = [np.arange(bounds[v][0], bounds[v][1] + 1, dtype=np.int64) for v in names]
        grids = np.meshgrid(*axes, indexing="ij") if axes else []
        return {v: g.reshape(-1) for v, g in zip(names, grids)}, total

    @staticmethod
    def condition(env, poly, limit, size):
        num = poly.numerator(env)
        if not isinstance(num, np.ndarray):
            num = np.full(size, num, dtype=np.int64)
        ok = (num % poly.den == 0) & (num >= 0) & (num < poly.den * limit)
        return ok, num // poly.den

    def valid(self, env, size, accesses, out_polys=None, out_sizes=None):
        mask = np.ones(size, dtype=bool)
        for acc in accesses:
            for poly, d in zip(acc.polys, acc.value.shape):
                mask &= self.condition(env, poly, d, size)[0]
        for poly, bound in self.constraints:
            mask &= self.condition(env, poly, bound, size)[0]
        cells = None
        if out_sizes is not None:
            cells = np.zeros(size, dtype=np.int64)
            for poly, s in zip(out_polys, out_sizes):
                ok, val = self.condition(env, poly, s, size)
                mask &= ok
                cells = cells * s + np.where(ok, val, 0)
        return mask, cells

    def ensure_bounded(self, accesses, out_polys):
        homed = set()
        for poly in [p for a in accesses for p in a.polys] + out_polys:
            if len(poly.coeffs) == 1:
                homed.update(poly.coeffs)
        for v, n in self.nominal.items():
            if v not in homed:
                self.constraints.append((Poly({v: 1}), n))

    def random_constraints(self):
        vars_ = list(self.nominal)
        if not vars_ or self.rng.random() > 0.35:
            return
        r = self.rng.random()
        if r < 0.4 and len(vars_) >= 2:  # j <= i, both in [0, N)
            i, j = self.rng.sample(vars_, 2)
            self.constraints.append((Poly({i: 1, j: -1}), self.window(i)))
        elif r < 0.6 and len(vars_) >= 2:  # i + j < B
            i, j = self.rng.sample(vars_, 2)
            self.constraints.append((Poly({i: 1, j: 1}), self.window(i) + 1))
        elif r < 0.7 and len(vars_) >= 2:  # i/2 + j/2 + 1/2 < 2
            i, j = self.rng.sample(vars_, 2)
            self.constraints.append((Poly({i: 1, j: 1}, 1, 2), 2))
        else:  # k - 2 < 3 style windows
            v = self.rng.choice(vars_)
            self.constraints.append((Poly({v: 1}, -self.rng.randint(0, 2)),
                                     self.window(v)))

    def window(self, v):
        """A constraint bound: a few values, or a share of v's range (large
        sizes need large windows to leave more than a corner)."""
        n = self.nominal[v]
        if n > 8 and self.rng.random() < 0.5:
            return self.rng.choice([n // 2, n - 1, n + 1, (2 * n) // 3])
        return self.rng.randint(1, 7)


# -- types and values of the result ------------------------------------------


def combine(combo, ops):
    """(type, (lo, hi), exact) of the combined value, 7.4."""
    a = ops[0]
    if combo == "none":
        return a.dtype, (a.lo, a.hi), a.exact
    if combo in ("eq", "cond"):
        # Equality is discontinuous: only exact values may be compared.
        if not (ops[0].exact and ops[1].exact):
            raise Retry()
        if combo == "eq":
            return "bool", (0, 1), True
        c = ops[2]
        return c.dtype, (min(c.lo, 0), max(c.hi, 0)), c.exact
    b = ops[1]
    if a.dtype == "bool" and b.dtype == "bool":
        return "bool", (0, 1), True  # logical and / or
    t = tt.join(a.dtype, b.dtype)
    ra = tt.convert_range(a.lo, a.hi, a.dtype, t, a.exact)
    rb = tt.convert_range(b.lo, b.hi, b.dtype, t, b.exact)
    r = tt.interval_mul(ra, rb) if combo == "mul" else (ra[0] + rb[0], ra[1] + rb[1])
    exact = a.exact and b.exact and tt.exact_arith(t)
    return t, tt.fit_range(r[0], r[1], t), exact


def aggregate(agg, ctype, crange, cexact, counts):
    """(type, (lo, hi), exact) of the output, 7.5; `counts` is the number of
    contributions of every cell."""
    ks = sorted(set(int(k) for k in counts if k > 0))
    empty = bool((counts == 0).any())
    lo, hi = crange
    if agg in ("sum", "prod") and ctype == "bool":
        return "i32", (0, ks[-1] if agg == "sum" else 1), True
    float_type = tt.kind(ctype) == tt.FLOAT
    if agg == "sum":
        cands = [k * lo for k in ks] + [k * hi for k in ks] + ([0] if empty else [])
        exact = cexact and (ks[-1] <= 1 or not float_type)
    elif agg == "prod":
        m = max(abs(lo), abs(hi))
        cands = [0] if empty else []
        try:
            for k in ks:
                if float_type and k * math.log2(max(m, 1)) > 20:
                    raise Retry()
                if lo < 0:
                    cands += [-(m ** k), m ** k]
                else:
                    cands += [lo ** k, hi ** k]
        except OverflowError:
            raise Retry()
        exact = cexact and (ks[-1] <= 1 or not float_type)
    else:
        cands = [lo, hi] + ([0] if empty else [])
        exact = cexact
    return ctype, tt.fit_range(min(cands), max(cands), ctype), exact


AGG_TEXT = {"sum": "+", "prod": "*", "max": ">", "min": "<", "assign": "="}


def draw_contraction(b, name):
    """Returns (statements to define first, statement text, Val) for a new
    contraction defining `name`."""
    rng = b.rng
    d = ContractionDraw(b)
    combo = rng.choice(["none"] * 3 + ["mul"] * 4 + ["add", "eq", "cond"])
    count = {"none": 1, "mul": 2, "add": 2, "eq": 2, "cond": 3}[combo]
    ops = [b.pick_tensor(max_rank=4) for _ in range(count)]
    if rng.random() < 0.4 and combo != "cond":
        # Dense: plain variables only, as in matmuls, batched products and
        # transposes, so that large inputs make large outputs and the
        # register and work-group tiles of real kernels are reached.
        accesses = [Access(v, [d.dense_poly(n) for n in v.shape]) for v in ops]
        out_polys = d.dense_output(accesses)
    else:
        accesses = [Access(v, [d.operand_poly(n) for n in v.shape]) for v in ops]
        nvars = len(d.nominal)
        rank = rng.choice([max(nvars - 1, 0), nvars, nvars, rng.randint(0, 3)])
        rank = min(rank, 4)
        out_polys = d.output_polys(rank)
    d.random_constraints()
    d.ensure_bounded(accesses, out_polys)

    # Pass 1: the output's sizes from the range of its polynomials.
    env, size = d.enumerate(d.box(accesses, out_polys, None))
    mask, _ = d.valid(env, size, accesses)
    if not mask.any():
        raise Retry()
    sizes = []
    for poly in out_polys:
        num = poly.numerator(env)
        num = np.broadcast_to(np.asarray(num, dtype=np.int64), (size,))[mask]
        num = num[num % poly.den == 0] // poly.den
        if num.size == 0 or num.max() < 0:
            raise Retry()
        top = int(num.max()) + 1
        r = rng.random()
        if r < 0.12:
            top += rng.choice([1, 2])
        elif r < 0.2 and top > 1:
            top -= 1
        if top > shapes.MAX_AXIS:
            raise Retry()
        sizes.append(top)

    # Pass 2: exactly the valid assignments, and the writes per cell.
    env, size = d.enumerate(d.box(accesses, out_polys, sizes))
    mask, cells = d.valid(env, size, accesses, out_polys, sizes)
    if not mask.any():
        raise Retry()
    counts = np.bincount(cells[mask], minlength=math.prod(sizes))

    ctype, crange, cexact = combine(combo, ops)
    unique = counts.max() <= 1
    if unique and rng.random() < 0.5:
        agg = "assign"
    else:
        agg = rng.choice(["sum", "sum", "sum", "max", "min", "prod"])
    otype, orange, oexact = aggregate(agg, ctype, crange, cexact, counts)

    suffixes, pre = [], []
    if (counts == 0).any() and rng.random() < 0.6:
        candidates = [v for v in b.tensors() if v.shape == tuple(sizes)]
        if not candidates:
            pre.append(fill_statement(b, sizes))
            candidates = [pre[0][1]]
        if candidates:
            dflt = rng.choice(candidates)
            try:
                r = tt.convert_range(dflt.lo, dflt.hi, dflt.dtype, otype, dflt.exact)
                orange = (min(orange[0], r[0]), max(orange[1], r[1]))
                oexact = oexact and dflt.exact
                suffixes.append("default " + dflt.text)
            except Retry:
                pass
    if rng.random() < 0.05:
        suffixes.insert(0, rng.choice(["no_defract", "no_reduce"]))

    consts = b.poly_consts()

    def access_text(acc):
        return "%s[%s]" % (acc.value.text,
                           ", ".join(p.render(rng, consts) for p in acc.polys))

    texts = [access_text(a) for a in accesses]
    operands = {"none": "{0}", "mul": "{0} * {1}", "add": "{0} + {1}",
                "eq": "{0} == {1}", "cond": "{0} == {1} ? {2}"}[combo].format(*texts)
    out = ", ".join(p.render(rng, consts) for p in out_polys)
    size_text = ", ".join(b.size_expr(s) for s in sizes)
    head = "%s[%s : %s]" % (name, out, size_text) if out_polys else \
        "%s[%s]" % (name, rng.choice(["", ":"]))
    text = "%s = %s(%s)" % (head, AGG_TEXT[agg], operands)
    for poly, bound in d.constraints:
        text += ", %s < %s" % (poly.render(rng, consts), b.size_expr(bound))
    for s in suffixes:
        text += " " + s
    val = tt.Val(name, otype, sizes, orange[0], orange[1], oexact)
    return pre, text, val


def fill_statement(b, sizes):
    """(text, Val) of a new tensor of shape `sizes` for a `default`: the
    maximum of a small tensor, copied to every cell."""
    x = b.pick_tensor(pred=lambda v: v.count() <= 64)
    name = b.fresh()
    out = VAR_NAMES[:len(sizes)]
    inner = VAR_NAMES[len(sizes):len(sizes) + len(x.shape)]
    text = "%s[%s : %s] = >(%s[%s]);" % (name, ", ".join(out),
                                         ", ".join(str(s) for s in sizes),
                                         x.text, ", ".join(inner))
    if not out:
        text = "%s[] = >(%s[%s]);" % (name, x.text, ", ".join(inner))
    return text, tt.Val(name, x.dtype, sizes, min(x.lo, 0), max(x.hi, 0), x.exact)
