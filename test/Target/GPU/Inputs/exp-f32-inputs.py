#!/usr/bin/env python3
"""Writes X.npy for exp-f32.tile: f32 arguments of exp over its whole range,
every edge included: NaN, +-inf, +-0, the overflow and underflow thresholds
and their neighbours, arguments whose results are subnormal, near-halfway
reductions (multiples of ln2 / 2), and a dense sweep of [-104, 89]."""

import sys

import numpy as np

f = np.float32
edges = [np.nan, np.inf, -np.inf, 0.0, -0.0, 88.72283935546875, 88.7228469848632,
         88.72282409667969, -103.97208404541015625, -103.97207641601562,
         -103.9720916748047, -87.33654, -87.3365478515625, -100.0, -102.5, 1e-30,
         -1e-30, 1e-8, 0.5, 1.0, -1.0, 10.0, -10.0]
halfway = np.arange(-300, 257, dtype=np.float64) * (np.log(2.0) / 2.0)
sweep = np.linspace(-104.0, 89.0, 32768 - len(edges) - len(halfway))
x = np.concatenate([np.array(edges, dtype=np.float64), halfway, sweep]).astype(f)
x = x.reshape(256, 128)
np.save(sys.argv[1], x)
