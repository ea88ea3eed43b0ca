"""Writes the inputs of run-narrow-float.tile into the folder given.

Values sit on and next to the rounding boundaries of f16 and bf16, where
rounding twice (through f32) or a wrong tie rule would show: exact ties,
ties plus a bit far below f32's precision, overflow edges, subnormals,
signed zeros, infinities and NaNs.
"""
import math
import os
import sys

import numpy as np

out = sys.argv[1]


def ties(half_ulp):
    """Values half a unit in the last place above numbers of the target
    format whose last bit is 0 or 1, and just above and below those ties."""
    values = []
    odd = 1.0 + 2 * half_ulp
    for base in (1.0, odd, 1.5, -1.0, -odd, 2.0 ** 100, 2.0 ** -100):
        scale = 2.0 ** math.floor(math.log2(abs(base)))
        tie = base + math.copysign(half_ulp * scale, base)
        for delta in (0.0, 2.0 ** -40, -(2.0 ** -40)):
            values.append(tie + delta * math.copysign(scale, base))
    return values


doubles = ties(2.0 ** -8) + ties(2.0 ** -11) + [  # bf16, f16
    0.0, -0.0, float("inf"), float("-inf"), float("nan"), -float("nan"),
    3.3895313892515355e38, 3.3961e38, 3.397e38, 1e39, -1e39,  # bf16 max edge
    65504.0, 65519.99, 65520.0, 1e6,                          # f16 max edge
    2.0 ** -25, 2.0 ** -25 + 2.0 ** -60, 2.0 ** -24 * 1.5,    # f16 subnormals
    2.0 ** -134, 2.0 ** -134 + 2.0 ** -160, 2.0 ** -133 * 1.5,  # bf16 subnormals
    1e-45, 2.0 ** -149, 2.0 ** -150 + 2.0 ** -200, 1e-300, 5e-324,
    1.0 / 3.0, -2.0 / 3.0, 0.1, 123456.789,
]
int64s = [0, 1, -1, 255, 257, 2049, 2051, 16809985, -16809985,
          2 ** 32 + 2 ** 24 + 1, 2 ** 32 + 2 ** 24, 2 ** 53 + 1,
          2 ** 62 + 2 ** 54 + 1, 2 ** 63 - 1, -(2 ** 63), -(2 ** 63) + 1,
          65519, 65520, 65535, 4097, -4097]
uint64s = [0, 1, 2 ** 64 - 1, 2 ** 64 - 2 ** 39, 2 ** 64 - 2 ** 40 - 1,
           2 ** 63, 2 ** 63 + 2 ** 55 + 1, 2 ** 32 + 2 ** 24 + 1, 65520,
           16809985]
int32s = [0, -1, 16809985, -16809985, 2 ** 31 - 1, -(2 ** 31), 2049, 2051,
          65519, 65520, 33554435, 2 ** 24 + 2 ** 16 + 1]
uint32s = [0, 1, 2 ** 32 - 1, 2 ** 31 + 2 ** 23 + 1, 16809985, 65520, 2049]

np.save(os.path.join(out, "d.npy"), np.array(doubles, dtype=np.float64))
np.save(os.path.join(out, "i.npy"), np.array(int64s, dtype=np.int64))
np.save(os.path.join(out, "u.npy"), np.array(uint64s, dtype=np.uint64))
np.save(os.path.join(out, "w.npy"), np.array(int32s, dtype=np.int32))
np.save(os.path.join(out, "v.npy"), np.array(uint32s, dtype=np.uint32))
