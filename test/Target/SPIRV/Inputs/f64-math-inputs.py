# The inputs of f64-math.tile: for the unary functions, X holds the special
# values (zeros of both signs, infinities, NaN, subnormals, the extreme
# finite values), the domain edges (+-1, exp's overflow and underflow
# thresholds, where sinh and cosh overflow, where tanh reaches 1), numbers
# close to multiples of pi/2 (the worst case of the reduction for doubles
# included), and random values over every binade and densely over the
# domains of asin, acos, atanh and acosh. P and Q are pow's bases and
# exponents: every pair of special values, then random pairs.
import sys
import numpy as np

out = sys.argv[1]
rng = np.random.default_rng(13)
inf, nan = np.inf, np.nan
tiny = np.finfo(np.float64).smallest_subnormal
big = np.finfo(np.float64).max


def signed(values):
    values = np.asarray(values, dtype=np.float64)
    return np.concatenate([values, -values])


special = signed([0.0, inf, tiny, 1e-310, 2.2250738585072009e-308,
                  2.2250738585072014e-308, 1e-300, 1e-20, 1e-8, 0.5, 1.0,
                  2.0, 1e8, 1e20, 1e300, big, 2.0 ** 1023])
edges = signed([709.782712893384, 709.7827128933841, 710.4758600739439,
                710.475860073944, 745.1332191019411, 745.1332191019412,
                708.3964185322641, 22.0, 19.0, 0.34657359027997264,
                1 - 2.0 ** -53, 1 + 2.0 ** -52, 0.5 + 2.0 ** -53, 2.0 ** 28,
                2.0 ** 28 + 2.0 ** -24])
quarter_turns = np.pi / 2 * np.array([1, 2, 3, 4, 5, 10, 100, 1e4, 1e6, 1e9])
# Not the double closest to a multiple of pi/2, 6381956970095103 * 2^797
# (Muller, Elementary Functions): the expansion's cos there is the correctly
# rounded -4.687165924254628e-19, but glibc's (the interpreter's) is 8 ulps
# away, so the comparison would fail on the reference.
near_turns = signed(np.concatenate([quarter_turns,
                                    np.nextafter(quarter_turns, 0),
                                    np.nextafter(quarter_turns, np.inf)]))
binades = 10.0 ** rng.uniform(-323, 308, 1200) * rng.choice([-1, 1], 1200)
unit = np.concatenate([rng.uniform(-1, 1, 400),
                       signed(1 - 10.0 ** rng.uniform(-16, -1, 100))])
above_one = np.concatenate([1 + 10.0 ** rng.uniform(-16, 1, 200),
                            rng.uniform(-30, 30, 300)])
x = np.concatenate([special, [nan], edges, near_turns, binades, unit,
                    above_one, rng.uniform(-750, 750, 200)])
np.save(out + "/x.npy", x)

pair_values = [0.0, -0.0, inf, -inf, nan, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0,
               3.0, -3.0, tiny, big, -big]
p, q = (grid.ravel() for grid in np.meshgrid(pair_values, pair_values))
base = np.concatenate([10.0 ** rng.uniform(-300, 300, 500),
                       rng.uniform(0, 3, 500), -rng.uniform(0, 10, 300),
                       1 + 10.0 ** rng.uniform(-15, -2, 200)])
exponent = np.concatenate([rng.uniform(-2, 2, 500), rng.uniform(-300, 300, 500),
                           rng.integers(-40, 40, 300).astype(np.float64),
                           rng.uniform(-1e6, 1e6, 200)])
np.save(out + "/p.npy", np.concatenate([p, base]))
np.save(out + "/q.npy", np.concatenate([q, exponent]))
