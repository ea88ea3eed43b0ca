#!/usr/bin/env python3
"""Small training data for the lit tests of tilec train (docs/training.md).

  make_data.py DIR   writes into DIR:
    x.npy f32[64, 4], lab.npy i32[64, 1] (a separable 3-class problem),
    w1.npy f32[4, 8], b1.npy f32[8], w2.npy f32[8, 3], b2.npy f32[3],
    and files that are wrong on purpose: x_f64.npy, x_cols.npy (5 columns),
    x_few.npy (20 rows), w1_nan.npy.
"""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(0)
lab = rng.integers(0, 3, size=(64, 1)).astype(np.int32)
centres = np.array([[2, 0, 0, 1], [0, 2, 0, -1], [0, 0, 2, 0]], np.float32)
x = (centres[lab[:, 0]] + 0.3 * rng.standard_normal((64, 4))).astype(np.float32)
save = lambda name, a: np.save(os.path.join(out, name), a)
save("x.npy", x)
save("lab.npy", lab)
save("w1.npy", (rng.standard_normal((4, 8)) * 0.7).astype(np.float32))
save("b1.npy", np.zeros(8, np.float32))
save("w2.npy", (rng.standard_normal((8, 3)) * 0.5).astype(np.float32))
save("b2.npy", np.zeros(3, np.float32))
save("x_f64.npy", x.astype(np.float64))
save("x_cols.npy", np.zeros((64, 5), np.float32))
save("x_few.npy", x[:20])
save("w1_nan.npy", np.full((4, 8), np.nan, np.float32))
