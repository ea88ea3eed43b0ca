#!/usr/bin/env python3
"""Golden tests for examples/*.tile.

Each case pairs an example with an independent numpy implementation written from
the math the example's header comment describes (not by translating the Tile
text). The script draws the inputs with numpy from a fixed seed, saves them as
.npy files, runs

    tilec run EXAMPLE --target=interp --input NAME=NAME.npy ... --output-dir DIR

loads every NAME.npy that tilec wrote and compares it with the numpy result:
same shape, same dtype, and values within a tolerance that fits the dtype
(exact for integers). Exit status 0 when every output matches, 1 otherwise,
2 for a usage error.

    golden.py --tilec PATH/tilec --example examples/matmul.tile [--case matmul]
    golden.py --list
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

F32 = np.float32

# ---------------------------------------------------------------------------
# Reference implementations, one per example. Each takes the dict of inputs
# and returns the dict of expected outputs.
# ---------------------------------------------------------------------------


def ref_matmul(x):
    return {"C": x["A"].astype(np.float64) @ x["B"]}


def ref_dense_relu(x):
    z = x["X"].astype(np.float64) @ x["W"] + x["Bias"]
    return {"Y": np.maximum(z, 0.0)}


def conv2d_nhwc(img, filt, stride=1, pad=0, dilation=1):
    """Direct convolution: zero padding on all sides, then strided, dilated taps."""
    n, h, w, ci = img.shape
    kh, kw, _, co = filt.shape
    padded = np.zeros((n, h + 2 * pad, w + 2 * pad, ci))
    padded[:, pad:pad + h, pad:pad + w, :] = img
    ho = (h + 2 * pad - dilation * (kh - 1) - 1) // stride + 1
    wo = (w + 2 * pad - dilation * (kw - 1) - 1) // stride + 1
    out = np.zeros((n, ho, wo, co))
    for ky in range(kh):
        for kx in range(kw):
            y0, x0 = ky * dilation, kx * dilation
            patch = padded[:, y0:y0 + stride * (ho - 1) + 1:stride,
                           x0:x0 + stride * (wo - 1) + 1:stride, :]
            out += np.einsum("nyxc,cd->nyxd", patch, filt[ky, kx])
    return out


def ref_conv2d(x):
    i, f = x["I"], x["F"]
    return {
        "Valid": conv2d_nhwc(i, f),
        "Strided": conv2d_nhwc(i, f, stride=2, pad=1),
        "Dilated": conv2d_nhwc(i, f, dilation=2),
    }


def ref_depthwise_conv(x):
    img, filt = x["I"], x["F"]
    n, h, w, c = img.shape
    m = filt.shape[3]
    padded = np.pad(img.astype(np.float64), ((0, 0), (1, 1), (1, 1), (0, 0)))
    out = np.zeros((n, h, w, c, m))
    for ky in range(3):
        for kx in range(3):
            out += padded[:, ky:ky + h, kx:kx + w, :, None] * filt[ky, kx]
    return {"O": out.reshape(n, h, w, c * m)}  # channel c*M + m


def same_windows(img, size, stride):
    """Yields (oy, ox, window) for TensorFlow-style SAME pooling; window holds
    only the in-bounds pixels."""
    _, h, w, _ = img.shape
    ho, wo = -(-h // stride), -(-w // stride)
    pad_y = max(0, (ho - 1) * stride + size - h) // 2
    pad_x = max(0, (wo - 1) * stride + size - w) // 2
    for oy in range(ho):
        for ox in range(wo):
            y0, x0 = oy * stride - pad_y, ox * stride - pad_x
            ys = slice(max(y0, 0), min(y0 + size, h))
            xs = slice(max(x0, 0), min(x0 + size, w))
            yield oy, ox, img[:, ys, xs, :]


def ref_pooling(x):
    img = x["I"].astype(np.float64)
    n, h, w, c = img.shape
    ho, wo = -(-h // 2), -(-w // 2)
    mx = np.zeros((n, ho, wo, c))
    avg = np.zeros((n, ho, wo, c))
    for oy, ox, win in same_windows(img, 3, 2):
        mx[:, oy, ox, :] = win.max(axis=(1, 2))
        avg[:, oy, ox, :] = win.mean(axis=(1, 2))
    return {"MaxOut": mx, "AvgOut": avg}


def ref_softmax(x):
    logits = x["L"].astype(np.float64)
    shifted = logits - logits.max(axis=-1, keepdims=True)
    e = np.exp(shifted)
    z = e.sum(axis=-1, keepdims=True)
    return {"P": e / z, "LogP": shifted - np.log(z)}


def ref_layer_norm(x, eps=1e-5):
    v = x["X"].astype(np.float64)
    mean = v.mean(axis=1, keepdims=True)
    var = v.var(axis=1, keepdims=True)
    return {"Y": (v - mean) / np.sqrt(var + eps) * x["Gamma"] + x["Beta"]}


def ref_batch_norm(x, eps=1e-3):
    v = x["X"].astype(np.float64)
    var = np.square(x["Std"].astype(np.float64))
    norm = (v - x["Mean"]) / np.sqrt(var + eps)
    return {"Y": norm * x["Gamma"] + x["Beta"]}


def ref_argmax(x):
    s = x["S"]
    k = s.shape[1]
    # The last position of the maximum: argmax of the reversed rows.
    last = k - 1 - np.argmax(s[:, ::-1], axis=1)
    return {"Arg": last.astype(np.int32), "Best": s.max(axis=1)}


def ref_transpose(x):
    return {"MT": x["M"].T, "P": np.transpose(x["X"], (2, 0, 1))}


def ref_concat(x):
    return {"O": np.concatenate([x["A"], x["B"], x["C"]], axis=1)}


def ref_slice(x):
    v = x["X"]
    return {"Window": v[1:5, 2:10:3], "Flipped": v[::-1, :]}


def ref_gather(x):
    table, ids = x["Table"], x["Ids"]
    return {"O": table[np.clip(ids, 0, table.shape[0] - 1)]}


def ref_cumsum(x):
    v = x["X"].astype(np.float64)
    return {"Sum": np.cumsum(v, axis=1), "Max": np.maximum.accumulate(v, axis=1)}


def ref_conv_transpose(x, stride=2, pad=1, out_pad=1):
    img, filt = x["I"].astype(np.float64), x["F"].astype(np.float64)
    n, h, w, _ = img.shape
    kh, kw, co, _ = filt.shape
    ho = (h - 1) * stride - 2 * pad + kh + out_pad
    wo = (w - 1) * stride - 2 * pad + kw + out_pad
    out = np.zeros((n, ho, wo, co))
    # Every input pixel, weighted by every tap, lands on one output pixel.
    for y in range(h):
        for xx in range(w):
            for ky in range(kh):
                for kx in range(kw):
                    oy, ox = y * stride + ky - pad, xx * stride + kx - pad
                    if 0 <= oy < ho and 0 <= ox < wo:
                        out[:, oy, ox, :] += img[:, y, xx, :] @ filt[ky, kx].T
    return {"Scatter": out, "Gather": out}


def softmax_rows(z):
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def ref_mlp(x):
    h = x["X"].astype(np.float64)
    h = np.maximum(h @ x["W1"] + x["B1"], 0.0)
    h = np.maximum(h @ x["W2"] + x["B2"], 0.0)
    return {"P": softmax_rows(h @ x["W3"] + x["B3"])}


def ref_small_cnn(x):
    a = np.maximum(conv2d_nhwc(x["Img"].astype(np.float64), x["F1"], pad=1) + x["C1"], 0.0)
    n, h, w, c = a.shape
    a = a[:, :h // 2 * 2, :w // 2 * 2, :].reshape(n, h // 2, 2, w // 2, 2, c).max(axis=(2, 4))
    a = np.maximum(conv2d_nhwc(a, x["F2"], pad=1) + x["C2"], 0.0)
    g = a.mean(axis=(1, 2))
    return {"P": softmax_rows(g @ x["W"] + x["B"])}


# ---------------------------------------------------------------------------
# Cases: inputs (name -> (shape, kind)) and the reference.
# kind: "normal" (standard normal f32) or a callable taking the random
# generator.
# ---------------------------------------------------------------------------


def ids_with_out_of_range(rng):
    ids = rng.integers(0, 10, size=(2, 3)).astype(np.int32)
    ids[0, 0], ids[1, 2] = -1, 12  # gather clamps these to rows 0 and 9
    return ids


CASES = {
    "matmul": ({"A": (4, 6), "B": (6, 5)}, ref_matmul),
    "dense_relu": ({"X": (4, 8), "W": (8, 16), "Bias": (16,)}, ref_dense_relu),
    "conv2d": ({"I": (2, 9, 9, 3), "F": (3, 3, 3, 4)}, ref_conv2d),
    "depthwise_conv": ({"I": (1, 8, 8, 4), "F": (3, 3, 4, 2)}, ref_depthwise_conv),
    "pooling": ({"I": (2, 7, 7, 3)}, ref_pooling),
    "softmax": ({"L": (2, 3, 8)}, ref_softmax),
    "layer_norm": ({"X": (4, 16), "Gamma": (16,), "Beta": (16,)}, ref_layer_norm),
    "batch_norm": ({"X": (2, 4, 4, 3), "Mean": (3,), "Std": (3,),
                    "Gamma": (3,), "Beta": (3,)}, ref_batch_norm),
    "argmax": ({"S": (4, 10)}, ref_argmax),
    "transpose": ({"M": (3, 5), "X": (2, 3, 4)}, ref_transpose),
    "concat": ({"A": (2, 3, 4), "B": (2, 2, 4), "C": (2, 1, 4)}, ref_concat),
    "slice": ({"X": (6, 10)}, ref_slice),
    "gather": ({"Table": (10, 4), "Ids": ((2, 3), ids_with_out_of_range)}, ref_gather),
    "cumsum": ({"X": (3, 6)}, ref_cumsum),
    "conv_transpose": ({"I": (1, 4, 4, 3), "F": (3, 3, 2, 3)}, ref_conv_transpose),
    "mlp": ({"X": (4, 16), "W1": (16, 32), "B1": (32,), "W2": (32, 32), "B2": (32,),
             "W3": (32, 10), "B3": (10,)}, ref_mlp),
    "small_cnn": ({"Img": (2, 8, 8, 1), "F1": (3, 3, 1, 4), "C1": (4,),
                   "F2": (3, 3, 4, 8), "C2": (8,), "W": (8, 10), "B": (10,)},
                  ref_small_cnn),
}


def make_inputs(spec, seed):
    rng = np.random.default_rng(seed)
    inputs = {}
    for name, entry in spec.items():
        shape, kind = entry if isinstance(entry[0], tuple) else (entry, "normal")
        if kind == "normal":
            value = rng.standard_normal(shape).astype(F32)
        else:
            value = kind(rng)
        inputs[name] = value
    return inputs


def tolerance(dtype):
    """(rtol, atol) for comparing a float64 reference with tilec's result."""
    if dtype == np.float16:
        return 1e-2, 1e-2
    if dtype == np.float32:
        return 1e-4, 1e-4
    if dtype == np.float64:
        return 1e-10, 1e-12
    return 0, 0  # integers and bools: exact


def compare(name, got, want):
    """Returns a list of problems (empty when `got` matches `want`)."""
    if got.shape != want.shape:
        return ["%s: shape %s, expected %s" % (name, got.shape, want.shape)]
    problems = []
    want_dtype = want.dtype if want.dtype.kind in "biu" else np.dtype(F32)
    if got.dtype != want_dtype:
        problems.append("%s: dtype %s, expected %s" % (name, got.dtype, want_dtype))
    rtol, atol = tolerance(got.dtype)
    if not np.allclose(got.astype(np.float64), want.astype(np.float64),
                       rtol=rtol, atol=atol, equal_nan=True):
        diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
        worst = np.unravel_index(np.nanargmax(diff), diff.shape)
        problems.append("%s: largest error %.3g at %s (got %r, expected %r)"
                        % (name, diff[worst], tuple(int(i) for i in worst),
                           got[worst].item(), want[worst].item()))
    return problems


def run_case(tilec, example, case, seed):
    spec, reference = CASES[case]
    inputs = make_inputs(spec, seed)
    expected = reference(inputs)
    with tempfile.TemporaryDirectory(prefix="golden-%s-" % case) as tmp:
        # Every input comes from a file; --seed would only matter for the others.
        cmd = [tilec, "run", example, "--target=interp", "--seed=%d" % seed,
               "--output-dir", tmp]
        for name, value in inputs.items():
            path = os.path.join(tmp, "in_%s.npy" % name)
            np.save(path, value)
            cmd += ["--input", "%s=%s" % (name, path)]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if proc.returncode != 0:
            return ["tilec exited with %d\n  command: %s\n%s"
                    % (proc.returncode, " ".join(cmd), proc.stderr.rstrip())]
        problems = []
        for name, want in expected.items():
            path = os.path.join(tmp, name + ".npy")
            if not os.path.exists(path):
                problems.append("%s: tilec wrote no %s.npy" % (name, name))
                continue
            problems += compare(name, np.load(path), np.asarray(want))
        return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tilec", default="tilec", help="the tilec binary")
    parser.add_argument("--example", help="the .tile file to run")
    parser.add_argument("--case", help="the reference to use (default: the file's stem)")
    parser.add_argument("--seed", type=int, default=2024, help="seed for the inputs")
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    args = parser.parse_args()
    if args.list:
        print("\n".join(sorted(CASES)))
        return 0
    if not args.example:
        parser.error("--example is required")
    case = args.case or os.path.splitext(os.path.basename(args.example))[0]
    if case not in CASES:
        parser.error("no case '%s'; known: %s" % (case, ", ".join(sorted(CASES))))
    problems = run_case(args.tilec, args.example, case, args.seed)
    if problems:
        print("FAIL %s" % case)
        for problem in problems:
            print("  " + problem)
        return 1
    print("PASS %s" % case)
    return 0


if __name__ == "__main__":
    sys.exit(main())
