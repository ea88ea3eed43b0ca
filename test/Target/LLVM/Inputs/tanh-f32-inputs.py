#!/usr/bin/env python3
"""Writes X.npy for tanh-f32.tile: f32 arguments of tanh over its whole
range, every edge included: NaN, +-inf, +-0, subnormals, tiny arguments
(tanh x = x), both sides of the switch between the polynomial and the exp
form (|x| = 0.625), where exp(2|x|) overflows, where the result rounds to 1
and where the CPU's tanh cuts |x| to 9 (and a dense sweep around it), and
dense sweeps of [-10, 10] and of [-1, 1]."""

import sys

import numpy as np

f = np.float32
edges = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-45, -1e-45, 1e-38, -1e-38, 1e-30, 1e-8,
         -1e-8, 1e-4, 0.625, -0.625, float(np.nextafter(f(0.625), f(0))),
         float(np.nextafter(f(0.625), f(1))), 9.01, -9.01, 44.3, 44.4, -44.4, 88.8, 1e30,
         -1e30, 3.4e38, 9.0, -9.0, float(np.nextafter(f(9), f(0))),
         float(np.nextafter(f(9), f(10))), -float(np.nextafter(f(9), f(10)))]
near = np.linspace(0.6, 0.65, 2048)
cut = np.linspace(8.5, 9.5, 1024)
wide = np.linspace(-10.0, 10.0, 16384)
unit = np.linspace(-1.0, 1.0,
                   32768 - len(edges) - len(near) - len(cut) - len(wide))
x = np.concatenate([np.array(edges, dtype=np.float64), near, cut, -cut, wide,
                    unit[:len(unit) - len(cut)]]).astype(f)
x = x.reshape(256, 128)
np.save(sys.argv[1], x)
