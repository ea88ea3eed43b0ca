"""Inputs for row-kernels-run.test: rows of 100 floats (R = 4) in which
special values sit in a vector's lanes and in the scalar remainder: row 0 a
NaN at column 5, row 1 +inf at 17 and a NaN at 98, row 2 -inf at 70, row 3
only negative values; integers with the extremes of i32."""
import sys

import numpy as np

rows, columns = 4, 100
rng = np.random.default_rng(7)
x = rng.uniform(-4, 4, size=(rows, columns)).astype(np.float32)
x[0, 5] = np.nan
x[1, 17] = np.inf
x[1, 98] = np.nan
x[2, 70] = -np.inf
x[3] = -np.abs(x[3]) - 1
i = rng.integers(-1000, 1000, size=(rows, columns)).astype(np.int32)
i[0, 3] = np.iinfo(np.int32).max
i[1, 99] = np.iinfo(np.int32).min
np.save(sys.argv[1], x)
np.save(sys.argv[2], i)
