"""Element types, promotion and value ranges for the random program generator.

The generator predicts the element type of everything it writes (docs/language.md
5.3) and keeps a conservative interval of the values each tensor can hold, so it
only writes operations whose result is specified for every input the run can
generate: no float-to-integer conversion out of range, no NaN, no logarithm of
zero. It also tracks whether a value is *exact*, i.e. bit-identical on every
correct backend: float sums whose order is unspecified, transcendental
functions and f16/bf16 chains (which a fused kernel may compute without
rounding each step) are not, and discontinuous operations (comparisons,
floor, float-to-integer casts) are only applied to exact values, so rounding
noise can never turn into a different branch.
"""

import math
import re

BOOL, INT, FLOAT = 0, 1, 2

DTYPES = ["bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64",
          "f16", "bf16", "f32", "f64"]

# Largest magnitude a float value may reach. Far below f16's 65504, so that
# sums and products of bounded values never reach infinity (and inf - inf
# never makes a NaN whose max or min would be unspecified).
FLOAT_LIMIT = 1000.0


class Retry(Exception):
    """Raised when a random choice turns out invalid; the caller draws again."""


def kind(t):
    if t == "bool":
        return BOOL
    return FLOAT if t[0] in "fb" else INT


def bits(t):
    if t == "bool":
        return 1
    if t == "bf16":
        return 16
    return int(t.lstrip("iuf"))


def is_signed(t):
    return t[0] == "i"


def type_range(t):
    """The integer range of an integer or bool type."""
    if t == "bool":
        return (0, 1)
    w = bits(t)
    if is_signed(t):
        return (-(1 << (w - 1)), (1 << (w - 1)) - 1)
    return (0, (1 << w) - 1)


def join(s, t):
    """The join of two element types, docs/language.md 5.3."""
    if s == t:
        return s
    if s == "bool":
        return t
    if t == "bool":
        return s
    if kind(s) == FLOAT and kind(t) != FLOAT:
        return s
    if kind(t) == FLOAT and kind(s) != FLOAT:
        return t
    if kind(s) == FLOAT:
        if {s, t} == {"f16", "bf16"}:
            return "f32"
        return s if bits(s) > bits(t) else t
    if is_signed(s) == is_signed(t):
        return s if bits(s) > bits(t) else t
    signed, unsigned = (s, t) if is_signed(s) else (t, s)
    if bits(signed) > bits(unsigned):
        return signed
    return "i%d" % min(2 * bits(unsigned), 64)


def default_type(weak_kind, value=0):
    """The type a weak constant takes when nothing decides it."""
    if weak_kind == FLOAT:
        return "f32"
    return "i32" if -(1 << 31) <= value < (1 << 31) else "i64"


def fits(lo, hi, t):
    if kind(t) == FLOAT:
        return True
    tlo, thi = type_range(t)
    return tlo <= lo and hi <= thi


def fit_range(lo, hi, t):
    """The range of a result of type t whose exact value lies in [lo, hi]:
    integers wrap, so a range that leaves the type covers all of it; floats
    must stay within FLOAT_LIMIT."""
    if t == "bool":
        return (0, 1)
    if kind(t) == INT:
        if not fits(lo, hi, t):
            return type_range(t)
        return (lo, hi)
    if not (-FLOAT_LIMIT <= lo <= hi <= FLOAT_LIMIT):
        raise Retry()
    return (lo, hi)


def convert_range(lo, hi, src, dst, exact):
    """The range after converting a value of type src in [lo, hi] to dst (5.4).
    Raises Retry where the conversion is unspecified or could flip on noise."""
    if dst == "bool":
        if kind(src) == FLOAT and not exact:
            raise Retry()
        return (0, 1)
    if kind(dst) == FLOAT:
        return fit_range(lo, hi, dst)
    if kind(src) == FLOAT:
        # Truncation toward zero is specified only inside the target's range.
        if not exact:
            raise Retry()
        tlo, thi = type_range(dst)
        lo, hi = math.trunc(lo), math.trunc(hi)
        if lo < tlo or hi > thi:
            raise Retry()
        return (lo, hi)
    return fit_range(lo, hi, dst)


def interval_mul(a, b):
    products = [a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1]]
    return (min(products), max(products))


def exact_arith(t):
    """Float + - * / are bit-reproducible only in f32 and f64 (see the module
    comment); integer and bool arithmetic always is."""
    return t not in ("f16", "bf16")


class Val:
    """A typed value or expression: its Tile text, element type, shape, the
    interval [lo, hi] holding every element, and whether it is exact. A weak
    constant (a literal) has dtype None, `weak` set to INT or FLOAT, shape ().
    `constant` marks a typed constant (a typed scalar parameter, or an
    expression over constants only), which is not a tensor (6.1). `listed`
    says whether `tilec --emit=ast` names the value: it does not name an
    alias (`T = X`), a constant (folded) or a call's result (named after the
    helper's value instead)."""

    def __init__(self, text, dtype, shape, lo, hi, exact, weak=None, atom=True):
        self.text, self.dtype, self.shape = text, dtype, tuple(shape)
        self.lo, self.hi, self.exact = lo, hi, exact
        self.weak, self.atom = weak, atom
        self.constant = False
        self.listed = True
        # The value this expression is, up to identities tilec folds away
        # (ident, reverse_grad, rounding an integer, a cast to its own type).
        self.bare = text if atom and re.fullmatch(r"\w+", text) else None

    def operand(self):
        """The text to use inside a larger expression."""
        return self.text if self.atom else "(" + self.text + ")"

    def count(self):
        return math.prod(self.shape)
