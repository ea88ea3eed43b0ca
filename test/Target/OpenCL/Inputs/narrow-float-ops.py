"""Writes the inputs of narrow-float-ops.tile into the folder given: 4096
random finite f16 and bf16 bit patterns each (subnormals and the largest
values included), the divisors without zeros, so that every result is a
number or an infinity (NaN payloads are not part of the claim)."""
import os
import sys

import numpy as np

out = sys.argv[1]
rng = np.random.default_rng(13)
COUNT = 4096


def patterns(exponent_mask, nonzero):
    """COUNT random 16-bit patterns of finite values (exponent field not all
    ones), zeros left out when `nonzero`."""
    values = []
    while len(values) < COUNT:
        bits = int(rng.integers(0, 1 << 16))
        if bits & exponent_mask == exponent_mask:
            continue
        if nonzero and bits & 0x7FFF == 0:
            continue
        values.append(bits)
    return np.array(values, dtype=np.uint16)


F16_EXP, BF16_EXP = 0x7C00, 0x7F80
np.save(os.path.join(out, "a.npy"), patterns(F16_EXP, False).view(np.float16))
np.save(os.path.join(out, "b.npy"), patterns(F16_EXP, True).view(np.float16))


def save_bf16(path, bits):
    """A .npy of dtype 'bfloat16' (ml_dtypes' name, which tilec reads; numpy
    has no such type) holding the given bit patterns."""
    header = "{'descr': 'bfloat16', 'fortran_order': False, 'shape': (%d,), }" % len(bits)
    header += " " * (63 - (len(header) + 10) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little"))
        f.write(header.encode("latin1") + bits.astype("<u2").tobytes())


save_bf16(os.path.join(out, "p.npy"), patterns(BF16_EXP, False))
save_bf16(os.path.join(out, "q.npy"), patterns(BF16_EXP, True))
