"""Inputs for row-kernels-run.test's divisions by a row's sum (R = 8, C =
100): row sums that are normal, subnormal (1/s overflows), above 2^126 (1/s
is subnormal), 0 and negative; quotients just below FLT_MAX, NaN and inf
among the dividends."""
import sys

import numpy as np

rows, columns = 8, 100
rng = np.random.default_rng(11)
x = rng.uniform(-2, 2, size=(rows, columns)).astype(np.float32)
d = np.full((rows, columns), 0.0075, dtype=np.float32)  # sums to 0.75
d[1] = 1e-42                    # a subnormal sum
d[2] = 1e36                     # a sum of 1e38, above 2^126
d[3] = 0.005                    # 0.5: x / 0.5 of 1.7014e38 is near FLT_MAX
x[3, 10] = 1.7014e38
x[3, 90] = -1.7014e38
d[4] = 0                        # a zero divisor
x[4, 0] = 0                     # 0 / 0
d[5, 0] = -1.5                  # a negative sum
x[6, 20] = np.nan
x[6, 99] = np.inf
x[7, 33] = -np.inf
np.save(sys.argv[1], x)
np.save(sys.argv[2], d)
