# The inputs of ieee-specials.tile: every IEEE special value of f32 (zeros
# of both signs, infinities, NaN, the largest finite) against
# zeros, infinities and NaN (no subnormal: NVIDIA flushes f32 ones, as
# Vulkan allows without DenormPreserve).
import sys
import numpy as np

inf, nan = np.inf, np.nan
x = [1, -1, 0, -0.0, inf, -inf, nan, 3e38, 100, -100, 1e-30, -5]
z = [0, 0, 0, -0.0, 0, inf, 1, nan, inf, -inf, nan, -0.0]
np.save(sys.argv[1] + "/x.npy", np.array(x, dtype=np.float32))
np.save(sys.argv[1] + "/z.npy", np.array(z, dtype=np.float32))
