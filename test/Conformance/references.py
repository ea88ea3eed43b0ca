"""numpy references for the PlaidML corpus programs that have no literal test data.

Each entry computes, from the op that the program's header or INDEX.md names
(matmul, conv2d SAME, reflection padding, ...), the outputs tilec must give for
the random inputs conformance.py draws. They are written from the ops' usual
definitions, not by transcribing the Tile text; where Tile's own rules decide a
detail (the SAME padding split of op.py, '>' keeping the last of equal
maxima, clamping in scatter) the comment says so.

REFERENCES maps a program number to f(x) -> {output: array}, where x holds the
inputs by name (tensors as arrays, -D constants as floats).
"""

import numpy as np


def f64(a):
    return np.asarray(a, dtype=np.float64)


def conv_nhwc(inp, ker, stride, pad_before, out_size, dilation=1):
    """N-d convolution, channels last: inp [N, *S, CI], ker [*K, CI, CO].
    out[n, o, co] = sum inp[n, stride*o + dilation*k - pad_before, ci] * ker[k, ci, co],
    reads outside inp counting as zero."""
    inp, ker = f64(inp), f64(ker)
    rank = inp.ndim - 2
    window = ker.shape[:rank]
    # Zero-pad: pad_before in front, and behind as far as the last window reaches.
    after = [max(0, stride * (o - 1) + dilation * (k - 1) - pad_before + 1 - s)
             for o, k, s in zip(out_size, window, inp.shape[1:-1])]
    padded = np.pad(inp, [(0, 0)] + [(pad_before, a) for a in after] + [(0, 0)])
    out = np.zeros((inp.shape[0],) + tuple(out_size) + (ker.shape[-1],))
    for tap in np.ndindex(*window):
        region = tuple(slice(dilation * t, dilation * t + stride * (o - 1) + 1, stride)
                       for t, o in zip(tap, out_size))
        out += np.tensordot(padded[(slice(None),) + region], ker[tap], axes=([-1], [0]))
    return out


def same_pad(size, stride, window):
    """op.py's SAME_UPPER: output ceil(size / stride); the smaller half of the
    padding goes before."""
    out = (size + stride - 1) // stride
    return out, max(0, (out - 1) * stride + window - size) // 2


def depthwise(inp, ker, pad):
    """out[..., c*M + m] = sum over the window of inp[..., c] * ker[ky, kx, c, m]."""
    n, h, w, c = inp.shape
    m = ker.shape[3]
    padded = np.pad(f64(inp), ((0, 0), (pad, pad), (pad, pad), (0, 0)))
    out = np.zeros((n, h, w, c, m))
    for ky in range(ker.shape[0]):
        for kx in range(ker.shape[1]):
            out += padded[:, ky:ky + h, kx:kx + w, :, None] * ker[ky, kx]
    return out.reshape(n, h, w, c * m)


def pool_windows(inp, window, stride, pad_before, out_size, reduce):
    """Pools NHWC over the in-bounds part of every window."""
    n, h, w, c = inp.shape
    out = np.zeros((n,) + tuple(out_size) + (c,))
    for oy in range(out_size[0]):
        for ox in range(out_size[1]):
            y0, x0 = oy * stride - pad_before, ox * stride - pad_before
            win = inp[:, max(y0, 0):min(y0 + window, h), max(x0, 0):min(x0 + window, w), :]
            out[:, oy, ox, :] = reduce(win, axis=(1, 2))
    return out


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def log_softmax(x):
    s = x - x.max(axis=-1, keepdims=True)
    return s - np.log(np.exp(s).sum(axis=-1, keepdims=True))


def transposed_conv_nhwc(inp, ker, stride, pad_before, out_size):
    """Every input pixel times every tap adds into output pixel stride*x + k - pad.
    ker is [KH, KW, C_result, C_inp]: 031 names the result's channels CI."""
    n, h, w, _ = inp.shape
    out = np.zeros((n,) + tuple(out_size) + (ker.shape[2],))
    for y in range(h):
        for x in range(w):
            for ky in range(ker.shape[0]):
                for kx in range(ker.shape[1]):
                    oy, ox = stride * y + ky - pad_before, stride * x + kx - pad_before
                    if 0 <= oy < out_size[0] and 0 <= ox < out_size[1]:
                        out[:, oy, ox, :] += f64(inp[:, y, x, :]) @ f64(ker[ky, kx]).T
    return out


def power(base, exponent):
    """pow; a negative base with a fractional exponent gives NaN, silently."""
    with np.errstate(invalid="ignore"):
        return np.power(f64(base), f64(exponent))


def round_half_away(x):
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def ref_029(x):
    """Grouped convolution, NCHW, 4 groups of 2 input channels, valid."""
    inp, ker = f64(x["I"]), f64(x["K"])          # I [1, 8, 16, 16], K [8, 2, 3, 3]
    groups, gci = 4, 2
    gco = ker.shape[0] // groups
    out = np.zeros((1, 8, 14, 14))
    for g in range(groups):
        part = inp[:, g * gci:(g + 1) * gci].transpose(0, 2, 3, 1)       # NHWC
        k = ker[g * gco:(g + 1) * gco].transpose(2, 3, 1, 0)             # [3, 3, CI, CO]
        out[:, g * gco:(g + 1) * gco] = conv_nhwc(part, k, 1, 0, (14, 14)).transpose(0, 3, 1, 2)
    return {"O": out}


def ref_099(x):
    """Bilinear upsampling by 2 written as a transposed convolution whose 3x3 kernel
    is the outer product of the two triangle filters built from HBase and WBase."""
    def triangle(base):
        f = len(base)
        return np.array([sum(base[y + j - f + 1] for j in range(f) if 0 <= y + j - f + 1 < f)
                         for y in range(2 * f - 1)])
    hb, wb = f64(x["HBase"]), f64(x["WBase"])
    ker = np.outer(triangle(hb), triangle(wb))
    img = f64(x["I"])
    n, h, w, c = img.shape
    fh, fw = len(hb), len(wb)
    out = np.zeros((n, fh * h, fw * w, c))
    for y in range(h):
        for xx in range(w):
            for j in range(2 * fh - 1):
                for i in range(2 * fw - 1):
                    oy, ox = fh * y + j - fh + 1, fw * xx + i - fw + 1
                    if 0 <= oy < fh * h and 0 <= ox < fw * w:
                        out[:, oy, ox, :] += img[:, y, xx, :] * ker[j, i]
    return {"O": out}


def ref_134(x):
    """Gather's gradient: rows of DY added into the rows X2 picks (clamped)."""
    dx = np.zeros(x["X1"].shape)
    np.add.at(dx, np.clip(x["X2"], 0, x["X1"].shape[0] - 1), f64(x["DY"]))
    return {"DX1": dx, "DX2": 0}


def conv_022_to_027():
    return {
        "022": lambda x: {"O": conv_nhwc(x["I"], x["K"], 1, 0, (30, 30))},
        "023": lambda x: {"O": conv_nhwc(x["I"], x["K"], 2, same_pad(32, 2, 3)[1], (16, 16))},
        "024": lambda x: {"O": conv_nhwc(x["I"], x["K"], 1, 0, (28, 28), dilation=2)},
        "025": lambda x: {"O": conv_nhwc(f64(x["I"]).transpose(0, 2, 3, 1),
                                         f64(x["K"]).transpose(2, 3, 1, 0), 1, 1,
                                         (32, 32)).transpose(0, 3, 1, 2)},
        "026": lambda x: {"O": conv_nhwc(x["I"], x["K"], 1, 0, (96,))},
        "027": lambda x: {"O": conv_nhwc(x["I"], x["K"], 1, same_pad(16, 1, 3)[1],
                                         (16, 16, 16))},
    }


REFERENCES = {
    "016": lambda x: {"C": f64(x["A"]) @ x["B"]},
    "017": lambda x: {"C": f64(x["A"]) @ x["B"]},
    "018": lambda x: {"R": np.einsum("abz,yzc->abyc", f64(x["X"]), f64(x["Y"]))},
    "019": lambda x: {"R": f64(x["X"]) * x["Y"]},
    "020": lambda x: {"O": 0.5 * (f64(x["A"]) @ x["B"]) + 2.0 * f64(x["C"])},
    "021": lambda x: {"O": f64(x["A"]) @ f64(x["B"]).T + x["C"]},
    **conv_022_to_027(),
    "028": lambda x: {"O": depthwise(x["I"], x["K"], same_pad(32, 1, 3)[1])},
    "029": ref_029,
    "031": lambda x: {"I": transposed_conv_nhwc(x["O"], x["K"], 2, same_pad(32, 2, 3)[1],
                                                (32, 32))},
    "032": lambda x: {"O": f64(x["I"]).reshape(1, 3, 16, 2, 16, 2).max(axis=(3, 5))},
    "033": lambda x: {"O": pool_windows(f64(x["I"]).transpose(0, 2, 3, 1), 3, 2, 1, (4, 4),
                                        np.max).transpose(0, 3, 1, 2)},
    "034": lambda x: {"O": pool_windows(f64(x["I"]), 3, 2, same_pad(32, 2, 3)[1], (16, 16),
                                        np.mean)},
    "035": lambda x: {"O": softmax(f64(x["I"]))},
    "036": lambda x: {"O": log_softmax(f64(x["I"]))},
    "037": lambda x: {"O": (x["I"] == x["I"].max(axis=1, keepdims=True)).astype(np.float64)},
    "038": lambda x: {"Y": np.maximum(f64(x["X"]), 0)},
    "039": lambda x: {"Y": np.minimum(np.where(x["X"] < 0, x["Alpha"] * f64(x["X"]), x["X"]),
                                      x["MaxValue"])},
    "040": lambda x: {"Y": np.where(x["X"] < x["Thresh"], 0.0, x["X"])},
    "041": lambda x: {"R": np.where(x["X"] < 0, np.expm1(f64(x["X"])), x["X"])},
    "042": lambda x: {"R": np.where(x["X"] < 0, 0.5 * np.expm1(f64(x["X"])), x["X"])},
    "043": lambda x: {"O": 1 / (1 + np.exp(-f64(x["I"])))},
    "044": lambda x: {"O": np.tanh(f64(x["I"]))},
    "045": lambda x: {"O": np.sqrt(np.maximum(f64(x["I"]), 0))},
    "046": lambda x: {"O": np.maximum(f64(x["I"]), x["MIN_VAL"])},
    "047": lambda x: {"O": np.minimum(f64(x["I"]), x["MAX_VAL"])},
    "048": lambda x: {"O": np.trunc(x["I"])},
    "049": lambda x: {"O": power(x["I"], x["P"])},
    "050": lambda x: {"O": x["L"] == x["R"]},
    "051": lambda x: {"O": x["L"] == 0},
    "052": lambda x: {"O": x["L"] != x["R"]},
    "053": lambda x: {"O": f64(x["I"]).sum(axis=(0, 2))},
    "054": lambda x: {"O": f64(x["I"]).sum()},
    "055": lambda x: {"O": f64(x["I"]).mean(axis=(1, 2))},
    "056": lambda x: {"O": x["I"].max(axis=1)},
    "057": lambda x: {"O": x["I"].max(axis=2, keepdims=True)},
    "058": lambda x: {"O": x["I"].min()},
    "059": lambda x: {"O": f64(x["I"]).prod(axis=0)},
    "060": lambda x: {"O": ((f64(x["I"]) - x["M"]) ** 2).sum(axis=1) / 3},
    "061": lambda x: {"O": (x["I"] != 0).all(axis=1)},
    "062": lambda x: {"O": (x["I"] != 0).any(axis=1)},
    "063": lambda x: {"O": np.argmax(x["I"], axis=1)},
    "064": lambda x: {"O": x["I"] == x["I"].max(axis=1, keepdims=True)},
    "065": lambda x: {"O": np.cumsum(f64(x["I"]), axis=1)},
    "066": lambda x: {"O": np.cumprod(f64(x["I"]))},
    "067": lambda x: {"O": np.concatenate([x["I0"], x["I1"], x["I2"]], axis=1)},
    "068": lambda x: {"O": x["I"][2:7, 1:5]},
    "069": lambda x: {"O": x["V"][x["I"]]},
    "070": lambda x: {"O": x["I"].reshape(-1)},
    "071": lambda x: {"O": x["I"].reshape(6, 4)},
    "072": lambda x: {"O": np.array(x["I"].shape)},
    "073": lambda x: {"R": -x["T"] * np.log(f64(x["O"]))
                      - (1 - f64(x["T"])) * np.log(1 - f64(x["O"]))},
    "074": lambda x: {"O": np.stack([x["I"][:, 2 * ny:2 * ny + 3, 2 * nx:2 * nx + 3, :]
                                     .reshape(1, 27) for ny in range(4) for nx in range(4)],
                                    axis=1).reshape(1, 4, 4, 27)},
    "075": lambda x: {"O": np.stack([np.pad(x["I"], ((0, 0), (0, 1), (0, 1), (0, 0)))
                                     [:, 2 * ny:2 * ny + 3, 2 * nx:2 * nx + 3, :]
                                     .reshape(1, 27) for ny in range(5) for nx in range(5)],
                                    axis=1).reshape(1, 5, 5, 27)},
    "076": lambda x: {"O": np.pad(x["I"], ((0, 0), (2, 1), (1, 1), (0, 0)), mode="reflect")},
    "077": lambda x: {"O": x["I"][2:8:2, ..., -1]},
    "078": lambda x: {"O": f64(x["L"]) + x["R"]},
    "079": lambda x: {"O": np.floor(x["L"] / x["R"])},
    "080": lambda x: {"O": np.maximum(x["L"], x["R"])},
    "081": lambda x: {"O": f64(x["X"]) @ x["Y"]},
    "082": lambda x: {"O": f64(x["X"]) @ f64(x["Y"]).transpose(0, 2, 1)},
    "083": lambda x: {"O": x["I"].reshape(8, 60)},
    "084": lambda x: {"R": -(f64(x["T"]) * np.log(f64(x["O"]))).sum(axis=1)},
    "090": lambda x: {"OUT": x["IN"][:, None, :]},
    "091": lambda x: {"R": np.clip(0.2 * f64(x["X"]) + 0.5, 0, 1)},
    "092": lambda x: {"O": x["Idx"][:, None] == x["Count"][None, :]},
    "093": lambda x: {"OUT": np.full((4, 10), x["ONE"][0])},
    "094": lambda x: {"OUT": np.full((4, 10), x["ZERO"][0])},
    "095": lambda x: {"R": x["X"].transpose(2, 0, 1)},
    "096": lambda x: {"R": x["X"].T},
    "097": lambda x: {"O": np.repeat(x["I"][:, None, :], 3, axis=1)},
    "098": lambda x: {"O": np.repeat(x["I"], 3, axis=1)},
    "099": ref_099,
    "100": lambda x: {"O": x["I"][:, ::-1]},
    "101": lambda x: {"O": np.sign(x["I"])},
    "102": lambda x: {"O": round_half_away(f64(x["I"]))},
    "103": lambda x: {"O": np.pad(x["I"], ((0, 0), (1, 1), (2, 2), (0, 0)))},
    "104": lambda x: {"O": np.where(x["C"], x["T"], x["E"])},
    "105": lambda x: {"O": np.tile(x["I"], (2, 2))},
    "106": lambda x: {"O": np.stack([x["I"], 0 * x["I"], 0 * x["I"]], axis=1)},
    "107": lambda x: {"O": np.stack([x["P"][:, 0], x["I"], x["P"][:, 2]], axis=1)},
    "108": lambda x: {"O": x["I"][:, 1, :]},
    "109": lambda x: {"O": depthwise(x["I"], x["K"], same_pad(16, 1, 3)[1])},
    "110": lambda x: {"O": conv_nhwc(f64(x["I"]).transpose(0, 2, 3, 1), x["K"], 2, 0,
                                     (15, 15)).transpose(0, 3, 1, 2)},
    "112": lambda x: {"O": np.pad(x["I"], ((0, 0), (1, 1), (2, 2), (0, 0)))},
    "117": lambda x: {"A": f64(x["B"]) @ x["C"]},
    "118": lambda x: {"O": f64(x["A"]) @ x["B"]},
    # x < 2 and x + y < 9 leave every y of B[5].
    "120": lambda x: {"THREE": max(0.0, (f64(x["A"])[:2].sum()) * f64(x["B"]).sum())},
    "121": lambda x: {"Output": (lambda o2: np.where(o2 < 0, x["ReluLeak"] * o2, o2))(
        (f64(x["Input"]) @ f64(x["Weights"]).T) * x["Biases"])},
    "122": lambda x: {"Mean": f64(x["Input"]).mean()},
    "123": lambda x: {"Y": np.maximum(f64(x["X"]), 0)},
    # T = 1.0 selects O1 = sum X[i, j] * Y[j, i], the trace of X Y.
    "124": lambda x: {"O": np.trace(f64(x["X"]) @ x["Y"])},
    "125": lambda x: {"O": f64(x["A"]) @ x["B"]},
    "126": lambda x: {"A": (lambda t: np.minimum(np.where(t < 0, 0.3 * t, t), 0.9))(
        f64(x["B"]) @ x["C"])},
    "127": lambda x: {"E": (-np.log(f64(x["Y"])) * x["TY"]).sum()},
    "128": lambda x: {"Y": 3 * f64(x["X"]) ** 2 + np.exp(f64(x["X"]))},
    "129": lambda x: {"C": f64(x["A"]) * f64(x["B"]).T},
    "130": lambda x: {"Y": softmax(f64(x["X1"]))},
    "131": lambda x: {"Y": log_softmax(f64(x["X1"]))},
    "132": lambda x: {"Y": np.maximum(f64(x["X1"]), 0)},
    "133": lambda x: {"DX1": (lambda dyy: dyy - dyy.sum(axis=1, keepdims=True) * x["Y"])(
        f64(x["DY"]) * x["Y"]), "DX2": 0, "DX3": 0},
    "134": ref_134,
}
