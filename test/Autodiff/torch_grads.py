#!/usr/bin/env python3
"""tilec's gradients of the example models against PyTorch autograd.

For each model of MODELS below, at reduced sizes:

  1. The model file is copied into a temporary folder, its entry `main`
     renamed `model` (and, for --dtype f64, every f32 turned into f64), and a
     wrapper entry is appended whose loss is a random projection of the
     model's outputs:

         function wrapped(<the model's inputs>, R0: f64[...], ...) -> (L) {
             (Out0, ...) = model(<the model's inputs>, <constants>);
             Proj0 = Out0 * R0;
             Sum0[] = +(Proj0[i0, i1, ...]);
             L = Sum0 + ...;
         }

     A random R makes every element of every output matter to the loss, so
     the gradient checks the whole backward pass, not only that of a sum.
  2. `tilec grad WRAPPER --wrt=<every weight> -o G.tile` prints the gradient
     program, and `tilec run G.tile --target=T --input ...` runs it on random
     inputs, writing L and one D_<W> per weight.
  3. The same loss is computed with PyTorch in f64 from the same inputs (the
     modules of bench/models/torch_models.py, which take the weights in the
     .tile layouts; small_cnn's is written below), and autograd gives the
     reference gradients.
  4. Each gradient must satisfy ||g - g_torch|| / ||g_torch|| <= rtol
     (1e-10 by default for f64, 1e-4 for f32), and so must the loss.

Prints one line per model,

    mlp3: 6 gradients match PyTorch (worst relative error 3.1e-15)

and exits 1 if a model cannot be differentiated, fails to run, or differs;
2 when PyTorch is missing.

    torch_grads.py --tilec PATH [--target interp] [--dtype f64|f32]
                   [--rtol X] [--keep DIR] [MODEL ...]
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# One entry per model: its file, the -D sizes that shrink it, the constant
# parameters its entry takes after the tensors (passed positionally in the
# wrapper's call), and its PyTorch builder.
MODELS = [
    {"name": "mlp3", "file": "examples/models/mlp3.tile",
     "sizes": {"N": 4, "In": 20, "Hidden": 16, "Classes": 5},
     "consts": []},
    {"name": "small_cnn", "file": "examples/small_cnn.tile",
     "sizes": {}, "consts": []},
    {"name": "mobilenet_v1", "file": "examples/models/mobilenet_v1.tile",
     "sizes": {"N": 2, "Res": 16}, "consts": []},
    {"name": "resnet18", "file": "examples/models/resnet18.tile",
     "sizes": {"N": 1, "Res": 32}, "consts": []},
    {"name": "cnn_bn_train", "file": "examples/models/cnn_bn_train.tile",
     "sizes": {"N": 4, "H": 6, "W": 6, "CI": 3, "C1": 5, "C2": 6, "Classes": 4},
     "consts": []},
    {"name": "transformer_block",
     "file": "examples/models/transformer_block.tile",
     "sizes": {"N": 2, "S": 8, "D": 16, "F": 32, "Heads": 2},
     "consts": ["Heads"]},
]

INPUT_LINE = re.compile(r"^input (\S+): (\w+)\[([0-9, ]*)\]$")
OUTPUT_LINE = re.compile(r"^output (\S+): (\w+)\[([0-9, ]*)\]$")


class Failure(Exception):
    """A model that fails: the message says why."""


def run(cmd):
    """Runs a tilec command; its stdout, or Failure with its output."""
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        raise Failure("cannot run %s: %s" % (cmd[0], e))
    if proc.returncode != 0:
        raise Failure("command failed (exit %d): %s\n%s%s" % (
            proc.returncode, " ".join(cmd), proc.stdout, proc.stderr))
    return proc.stdout


def dims(text):
    return [int(d) for d in text.split(",") if d.strip()]


def signature(tilec, path, entry, defines):
    """The entry's inputs and outputs as [(name, dtype, shape)], read from
    the bound program that --emit=ast prints."""
    text = run([tilec, path, "--entry", entry, "--emit=ast"] + defines)
    inputs, outputs = [], []
    for line in text.splitlines():
        m = INPUT_LINE.match(line)
        if m:
            inputs.append((m.group(1), m.group(2), dims(m.group(3))))
        m = OUTPUT_LINE.match(line)
        if m:
            outputs.append((m.group(1), m.group(2), dims(m.group(3))))
    return inputs, outputs


def fresh_name(base, taken):
    """`base`, or base_2, base_3, ... if a parameter already has that name."""
    name, k = base, 1
    while name in taken:
        k += 1
        name = "%s_%d" % (base, k)
    taken.add(name)
    return name


def wrapper_text(model_text, inputs, outputs, consts, sizes):
    """The model's functions with its entry renamed `model`, then the entry
    `wrapped` that computes the loss L; also the names of the R inputs."""
    text = re.sub(r"\bfunction\s+main\s*\(", "function model(", model_text)
    taken = {name for name, _, _ in inputs} | {"L"}
    params = ["%s: %s[%s]" % (name, dtype, ", ".join(map(str, shape)))
              for name, dtype, shape in inputs]
    args = [name for name, _, _ in inputs] + [str(sizes[c]) for c in consts]
    out_names = [fresh_name("Out%d" % k, taken) for k in range(len(outputs))]
    call_lhs = out_names[0] if len(out_names) == 1 else \
        "(%s)" % ", ".join(out_names)
    body = ["    %s = model(%s);" % (call_lhs, ", ".join(args))]
    r_names, sums = [], []
    for k, (_, dtype, shape) in enumerate(outputs):
        r = fresh_name("R%d" % k, taken)
        proj = fresh_name("Proj%d" % k, taken)
        total = fresh_name("Sum%d" % k, taken)
        r_names.append((r, dtype, shape))
        params.append("%s: %s[%s]" % (r, dtype, ", ".join(map(str, shape))))
        idx = ", ".join("i%d" % a for a in range(len(shape)))
        body.append("    %s = %s * %s;" % (proj, out_names[k], r))
        body.append("    %s[] = +(%s[%s]);" % (total, proj, idx))
        sums.append(total)
    body.append("    L = %s;" % " + ".join(sums))
    text += "\n\n// The loss of torch_grads.py: the outputs projected on R.\n"
    text += "function wrapped(%s) -> (L) {\n%s\n}\n" % (
        ", ".join(params), "\n".join(body))
    return text, r_names


def draw(rng, position, shape, npdtype):
    """The inputs' values, as test/Examples/models_check.py draws them (the
    data uniform in [-1, 1), weights He-uniform, vectors in [0.5, 1.5))."""
    sys.path.insert(0, os.path.join(ROOT, "test", "Examples"))
    import models_check
    dtype = {np.float16: "f16", np.float32: "f32", np.float64: "f64"}[npdtype]
    return models_check.draw(rng, position, dtype, shape)

def grad_outputs(grad_path):
    """The output names of the gradient program, from its function header:
    the wrapper's L, then one D_<W> per --wrt in order."""
    with open(grad_path, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"function\s+\w+\s*\((.*?)\)\s*->\s*\((.*?)\)", text, re.S)
    if not m:
        raise Failure("%s has no function header" % grad_path)
    return [o.strip() for o in m.group(2).split(",") if o.strip()]


# ---------------------------------------------------------------------------
# PyTorch references. Each takes {name: f64 tensor} (the .tile layouts) and
# the sizes, and returns the outputs in the .tile order.
# ---------------------------------------------------------------------------


def torch_small_cnn(w, sizes):
    """examples/small_cnn.tile, from its header comment."""
    import torch
    import torch.nn.functional as F

    def conv3x3_relu(x, hwio, bias):
        # [KH, KW, CI, CO] -> [CO, CI, KH, KW]; one pixel of zero padding.
        return F.relu(F.conv2d(x, hwio.permute(3, 2, 0, 1), bias, padding=1))

    x = w["Img"].permute(0, 3, 1, 2)  # NHWC -> NCHW
    x = conv3x3_relu(x, w["F1"], w["C1"])
    x = F.max_pool2d(x, 2, stride=2)
    x = conv3x3_relu(x, w["F2"], w["C2"])
    pooled = x.mean(dim=(2, 3))
    return [torch.softmax(pooled @ w["W"] + w["B"], dim=1)]


def torch_cnn_bn_train(w, sizes):
    """examples/models/cnn_bn_train.tile: batch norm in training mode is
    F.batch_norm(training=True) without running statistics; its batch
    statistics are the biased variance's."""
    import torch.nn.functional as F

    def conv_bn(x, hwio, gamma, beta):
        y = F.conv2d(x, hwio.permute(3, 2, 0, 1), padding=1)
        mean = y.mean(dim=(0, 2, 3))
        var = y.var(dim=(0, 2, 3), unbiased=False)
        return F.batch_norm(y, None, None, gamma, beta, training=True,
                            eps=1e-5), mean, var

    x = w["Img"].permute(0, 3, 1, 2)  # NHWC -> NCHW
    y1, mean1, var1 = conv_bn(x, w["F1"], w["G1"], w["Be1"])
    y2, mean2, var2 = conv_bn(F.relu(y1), w["F2"], w["G2"], w["Be2"])
    pooled = F.relu(y2).mean(dim=(2, 3))
    return [pooled @ w["Wd"] + w["Bd"], mean1, var1, mean2, var2]


def torch_outputs(name, w, sizes, input_names):
    """The model's outputs computed by PyTorch from the tensors `w`."""
    if name == "small_cnn":
        return torch_small_cnn(w, sizes)
    if name == "cnn_bn_train":
        return torch_cnn_bn_train(w, sizes)
    sys.path.insert(0, os.path.join(ROOT, "bench", "models"))
    import torch_models
    data = input_names[0]
    weights = {n: w[n] for n in input_names[1:]}
    module = torch_models.build(name, sizes, weights)
    return list(module(w[data]))


def check_model(args, model, folder):
    """Differentiates one model with tilec and with PyTorch; returns the
    number of gradients and the worst relative error."""
    import torch
    with open(os.path.join(ROOT, model["file"]), encoding="utf-8") as f:
        text = f.read()
    if args.dtype == "f64":
        text = re.sub(r"\bf32\b", "f64", text)
    npdtype = np.float64 if args.dtype == "f64" else np.float32

    # The model as a library: its entry renamed, so that the wrapper is the
    # only function named as an entry would be.
    base = os.path.join(folder, model["name"] + "_model.tile")
    renamed = re.sub(r"\bfunction\s+main\s*\(", "function model(", text)
    with open(base, "w", encoding="utf-8") as f:
        f.write(renamed)
    defines = []
    for key, value in model["sizes"].items():
        defines += ["-D", "%s=%s" % (key, value)]
    inputs, outputs = signature(args.tilec, base, "model", defines)
    if not inputs or not outputs:
        raise Failure("cannot read the signature of %s" % model["file"])

    wrapper, r_inputs = wrapper_text(text, inputs, outputs, model["consts"],
                                     model["sizes"])
    wrapper_path = os.path.join(folder, model["name"] + "_wrapped.tile")
    with open(wrapper_path, "w", encoding="utf-8") as f:
        f.write(wrapper)

    # Every model input but the first (the image or the sequence) is a
    # weight.
    weights = [name for name, _, _ in inputs[1:]]
    grad_path = os.path.join(folder, model["name"] + "_grad.tile")
    run([args.tilec, "grad", wrapper_path, "--entry", "wrapped",
         "--wrt=" + ",".join(weights), "-o", grad_path])
    names = grad_outputs(grad_path)
    if len(names) != 1 + len(weights):
        raise Failure("%s has outputs %s; expected L and %d gradients" % (
            grad_path, ", ".join(names), len(weights)))

    # Random inputs, one .npy file each.
    rng = np.random.default_rng(args.seed)
    arrays, flags = {}, []
    for position, (name, _, shape) in enumerate(inputs):
        arrays[name] = draw(rng, position, shape, npdtype)
    for name, _, shape in r_inputs:
        arrays[name] = rng.uniform(-1.0, 1.0, size=shape).astype(npdtype)
    for name, values in arrays.items():
        path = os.path.join(folder, name + ".npy")
        np.save(path, values)
        flags += ["--input", "%s=%s" % (name, path)]
    out_dir = os.path.join(folder, model["name"] + "_out")
    run([args.tilec, "run", grad_path, "--target=" + args.target,
         "--output-dir", out_dir] + flags)
    got = [np.load(os.path.join(out_dir, n + ".npy")) for n in names]

    # PyTorch, in f64 from the same (possibly f32) values.
    tensors = {name: torch.tensor(values, dtype=torch.float64,
                                  requires_grad=(name in weights))
               for name, values in arrays.items()}
    input_names = [name for name, _, _ in inputs]
    outs = torch_outputs(model["name"], tensors, model["sizes"], input_names)
    if len(outs) != len(r_inputs):
        raise Failure("PyTorch gives %d outputs, tilec %d" % (
            len(outs), len(r_inputs)))
    loss = sum((out * tensors[r]).sum() for out, (r, _, _) in
               zip(outs, r_inputs))
    grads = torch.autograd.grad(loss, [tensors[w] for w in weights])

    checks = [("L", got[0], loss.detach().numpy())]
    checks += [(w, g, t.numpy()) for w, g, t in zip(weights, got[1:], grads)]
    # A gradient that is zero in exact arithmetic is rounding noise on both
    # sides (transformer_block's Bk: a bias added to every key shifts each
    # row of scores by a constant, which the softmax ignores). One whose
    # PyTorch norm is below 1e-8 of the largest gradient's is measured
    # against that largest norm instead of its own.
    largest = max(np.linalg.norm(t) for _, _, t in checks[1:])
    worst, bad = 0.0, []
    for name, g, t in checks:
        if g.shape != t.shape:
            bad.append("%s: shape %s, PyTorch %s" % (name, g.shape, t.shape))
            continue
        scale = np.linalg.norm(t)
        if name != "L" and scale < 1e-8 * largest:
            scale = largest
        scale = scale or 1.0
        err = np.linalg.norm(g.astype(np.float64) - t) / scale
        if not np.isfinite(err) or err > args.rtol:
            bad.append("%s: relative error %.3g (|g| %.6g, |g_torch| %.6g)"
                       % (name, err, np.linalg.norm(g), np.linalg.norm(t)))
        worst = max(worst, err) if np.isfinite(err) else float("inf")
    if bad:
        raise Failure("gradients differ from PyTorch (rtol %g):\n  %s" % (
            args.rtol, "\n  ".join(bad)))
    return len(weights), worst


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tilec", required=True, help="the tilec binary")
    ap.add_argument("--target", default="interp",
                    help="where tilec runs the gradient programs")
    ap.add_argument("--dtype", choices=["f64", "f32"], default="f64",
                    help="the models' float type on tilec's side "
                         "(PyTorch always computes in f64)")
    ap.add_argument("--rtol", type=float, default=None,
                    help="largest relative error (default 1e-10 for f64, "
                         "1e-4 for f32)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--keep", metavar="DIR",
                    help="write the wrappers, gradient programs and inputs "
                         "here (default a temporary folder, removed)")
    ap.add_argument("models", nargs="*",
                    help="the models to check (default all): " +
                    ", ".join(m["name"] for m in MODELS))
    args = ap.parse_args()
    if args.rtol is None:
        args.rtol = 1e-10 if args.dtype == "f64" else 1e-4
    try:
        import torch
    except ImportError:
        print("torch_grads.py: PyTorch is not installed")
        return 2
    torch.set_default_dtype(torch.float64)
    known = {m["name"]: m for m in MODELS}
    for name in args.models:
        if name not in known:
            ap.error("unknown model '%s'" % name)
    chosen = [known[n] for n in args.models] if args.models else MODELS

    failed = 0
    for model in chosen:
        start = time.time()
        if args.keep:
            folder = os.path.join(args.keep, model["name"])
            shutil.rmtree(folder, ignore_errors=True)
            os.makedirs(folder)
        else:
            folder = tempfile.mkdtemp(prefix="torch_grads_")
        try:
            count, worst = check_model(args, model, folder)
            print("%s: %d gradients match PyTorch (worst relative error "
                  "%.2g)" % (model["name"], count, worst), flush=True)
        except Failure as e:
            failed += 1
            print("%s: FAILED: %s" % (model["name"], e), flush=True)
        finally:
            if not args.keep:
                shutil.rmtree(folder, ignore_errors=True)
        if os.environ.get("TORCH_GRADS_TIMES"):
            print("  (%.1f s)" % (time.time() - start), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
