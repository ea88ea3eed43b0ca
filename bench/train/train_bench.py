#!/usr/bin/env python3
"""Training speed: `tilec train` against the same training in PyTorch.

    train_bench.py --tilec PATH --target llvm-x86|opencl|spirv|ptx [--device D]
                   [--models resnet,mlp,cnn] [--rows N | --rows M=N,...]
                   [--threads 2] [--cuda [--no-torch-cpu]] [--channels-last]
                   [--profile] [--check-step] [--data DIR] [--seed S]
                   [--tilec-run PATH --artefacts DIR] --out results.json

On the H200 machine, which has no compiler, --tilec-run and --artefacts
replace `tilec train` by `tilec-run ARTEFACT.json --train` on the steps that
bench/train/bundle.sh compiled here (the same training loop, lib/Training).

The seed article's protocol (bench/train/README.md), per model:

  - synthetic data of the model's input shape, uniform in [-1, 1), float32,
    NHWC as tilec reads it; the labels of a fixed random teacher: the argmax
    of a random linear map of the flattened input (10 classes);
  - He-normal weights (standard deviation sqrt(2 / fan_in)) and zero biases
    from a seeded numpy generator, written as .npy for `tilec train --init`
    and loaded, permuted to PyTorch's layouts, into an equivalent PyTorch
    module;
  - tilec: `tilec train FILE --batch B --epochs 2 --json` in row order (no
    --shuffle; the last partial batch dropped). Epoch 1 is the warm-up and is
    not timed; the epoch time is epoch 2's `seconds`. The compile time
    (`tilec: compiled for DEVICE in X s` on stderr) is reported apart;
  - PyTorch: the same batches in the same order, torch.optim.SGD(lr) in
    float32, one warm-up epoch and one timed epoch, on the CPU with
    torch.set_num_threads(--threads), and with --cuda also on the GPU eagerly
    and as one CUDA graph of the whole step (forward, backward and optimiser
    step captured with static input tensors), TF32 off;
  - the loss agreement: tilec's epoch-1 mean loss (LossSum / steps) against
    PyTorch's epoch-1 mean step loss, the same weights and batches, so their
    relative difference should stay within 1e-3 (float32 rounding, summed in
    another order). When it does not, or with --check-step, the first step's
    loss alone is compared too (tilec on a one-batch data file).

The speed ratio of a PyTorch row is PyTorch's epoch time over tilec's: above
1, tilec is faster. A table goes to stdout, the numbers as JSON to --out.
"""

import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import time

# Debian's OpenBLAS (numpy's) misdetects these machines' CPUs, as bench/README.md
# says; it only draws the data here, but set it as bench/run.sh does (AVX-512's
# kernels only where the CPU has AVX-512: they die of SIGILL elsewhere).
with open("/proc/cpuinfo") as _cpuinfo:
    _avx512 = " avx512f" in _cpuinfo.read()
os.environ.setdefault("OPENBLAS_CORETYPE", "SkylakeX" if _avx512 else "Haswell")

import numpy as np  # noqa: E402  (after OPENBLAS_CORETYPE)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

LOSS_RTOL = 1e-3   # the largest relative difference of the epoch-1 losses
CLASSES = 10


# ---------------------------------------------------------------------------
# The models: the .tile file, the data shape, and the parameters in the
# order of the step function's inputs. A parameter's kind says how it is
# initialised and how its tilec layout maps to PyTorch's:
#   conv   F[ky, kx, ci, co]  -> weight [co, ci, ky, kx]  (fan_in ky*kx*ci)
#   proj   F[ci, co] (1x1)    -> weight [co, ci, 1, 1]    (fan_in ci)
#   dense  W[k, m]            -> Linear weight [m, k]     (fan_in k)
#   bias   B[c]               -> the same                 (zeros)
#   dense_nhwc W[h*w*c, m] of a dense layer after an NHWC flatten -> Linear
#          weight [m, c*h*w]: its rows reordered to NCHW's flatten order so
#          the PyTorch model flattens its NCHW activations as users do.

class Model:
    def __init__(self, name, tile, rows, batch, shape, params, lr=0.01):
        self.name = name
        self.tile = os.path.join(HERE, tile)
        self.rows = rows          # the protocol's rows (--rows reduces)
        self.batch = batch
        self.shape = shape        # one sample's shape, tilec's layout
        self.params = params      # [(name, tilec shape, kind)]
        self.lr = lr              # the file's `Lr = 0.01` default


def conv(name, ci, co, k=3):
    return [(name, (k, k, ci, co), "conv"), (name_bias(name), (co,), "bias")]


def name_bias(name):
    # resnet_seed.tile names a conv's bias after it: S -> Sb, A1 -> Ab1.
    return name[0] + "b" + name[1:]


def resnet_params():
    p = conv("S", 3, 16) + conv("A1", 16, 16) + conv("A2", 16, 16)
    for letter, ci, co in (("B", 16, 32), ("C", 32, 64), ("D", 64, 128)):
        p += conv(letter + "1", ci, co) + conv(letter + "2", co, co)
        p.append((letter + "p", (ci, co), "proj"))
    p += [("Fc", (128, CLASSES), "dense"), ("Fb", (CLASSES,), "bias")]
    return p


MODELS = {
    "resnet": Model("resnet", "resnet_seed.tile", 3000, 16, (100, 100, 3),
                    resnet_params()),
    "mlp": Model("mlp", "mlp_mnist.tile", 60000, 128, (784,), [
        ("W1", (784, 512), "dense"), ("B1", (512,), "bias"),
        ("W2", (512, 512), "dense"), ("B2", (512,), "bias"),
        ("W3", (512, CLASSES), "dense"), ("B3", (CLASSES,), "bias")]),
    "cnn": Model("cnn", "mnist_cnn.tile", 60000, 128, (28, 28, 1), [
        ("F1", (3, 3, 1, 32), "conv"), ("C1", (32,), "bias"),
        ("F2", (3, 3, 32, 64), "conv"), ("C2", (64,), "bias"),
        ("W1", (9216, 128), "dense_nhwc"), ("B1", (128,), "bias"),
        ("W2", (128, CLASSES), "dense"), ("B2", (CLASSES,), "bias")]),
}
# mnist_cnn.tile's flatten: P is [N, 12, 12, 64] (NHWC).
CNN_POOLED = (12, 12, 64)


def log(message):
    print("train_bench.py: " + message, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------
# Data and weights

def make_data(model, rows, seed):
    """(X [rows, *shape] float32 uniform in [-1, 1), Lab [rows, 1] int32).
    The teacher is drawn from its own generator, so it does not depend on
    `rows`, and X's rows are drawn in order, so a smaller --rows gives the
    first rows of the full data set."""
    features = int(np.prod(model.shape))
    teacher = np.random.default_rng(seed + 1000).standard_normal(
        (features, CLASSES)).astype(np.float32)
    rng = np.random.default_rng(seed)
    x = np.empty((rows,) + model.shape, np.float32)
    labels = np.empty((rows, 1), np.int32)
    chunk = 1024  # bounds the temporaries of the resnet's 30000 features
    for start in range(0, rows, chunk):
        part = rng.random((min(chunk, rows - start),) + model.shape,
                          dtype=np.float32) * 2 - 1
        x[start:start + len(part)] = part
        labels[start:start + len(part), 0] = np.argmax(
            part.reshape(len(part), features) @ teacher, axis=1)
    return x, labels


def he_weights(model, seed):
    """{name: tilec-layout array}: He-normal weights, zero biases."""
    rng = np.random.default_rng(seed + 2000)
    weights = {}
    for name, shape, kind in model.params:
        if kind == "bias":
            weights[name] = np.zeros(shape, np.float32)
            continue
        fan_in = int(np.prod(shape[:-1]))  # every axis but the outputs'
        weights[name] = (rng.standard_normal(shape) *
                         np.sqrt(2.0 / fan_in)).astype(np.float32)
    return weights


def torch_layout(array, kind):
    """A tilec-layout parameter as the PyTorch module holds it."""
    if kind == "conv":      # [ky, kx, ci, co] -> [co, ci, ky, kx]
        return array.transpose(3, 2, 0, 1)
    if kind == "proj":      # [ci, co] -> [co, ci, 1, 1]
        return array.T[:, :, None, None]
    if kind == "dense":     # [k, m] -> [m, k]
        return array.T
    if kind == "dense_nhwc":
        # tilec's row (y*12 + x)*64 + c is PyTorch's column c*144 + y*12 + x.
        h, w, c = CNN_POOLED
        return array.reshape(h, w, c, -1).transpose(2, 0, 1, 3).reshape(
            h * w * c, -1).T
    return array            # bias


# ---------------------------------------------------------------------------
# The PyTorch models: the .tile files' layers, op for op.

def torch_module(model, weights):
    """An nn.Module holding the parameters under their tilec names (in
    PyTorch's layouts) whose forward computes the logits of model.tile."""
    import torch
    import torch.nn.functional as F

    class Step(torch.nn.Module):
        def __init__(self):
            super().__init__()
            for name, _, kind in model.params:
                # A copy: SGD updates the parameters in place, and a view
                # of `weights` (a bias, say) would carry one run's trained
                # values into the next run.
                self.register_parameter(name, torch.nn.Parameter(
                    torch.from_numpy(np.array(
                        torch_layout(weights[name], kind), copy=True,
                        order="C"))))

        def forward(self, x):
            return getattr(self, model.name)(x)

        def resnet(self, x):
            p = self._parameters
            # stem: conv3s2 (pad 1, stride 2, (H+1)/2 outputs), ReLU
            h = F.relu(F.conv2d(x, p["S"], p["Sb"], stride=2, padding=1))
            # block: relu(conv3(relu(conv3(I))) + I)
            t = F.relu(F.conv2d(h, p["A1"], p["Ab1"], padding=1))
            h = F.relu(F.conv2d(t, p["A2"], p["Ab2"], padding=1) + h)
            # down: relu(conv3(relu(conv3s2(I))) + proj(I)); proj reads
            # I[n, 2y, 2x, ci]: a 1x1 stride-2 convolution without padding
            # or bias, (H+1)/2 outputs as tilec's.
            for k in "BCD":
                t = F.relu(F.conv2d(h, p[k + "1"], p[k + "b1"], stride=2,
                                    padding=1))
                h = F.relu(F.conv2d(t, p[k + "2"], p[k + "b2"], padding=1) +
                           F.conv2d(h, p[k + "p"], stride=2))
            # Sum over the 7x7 positions, / 49, as the file writes it.
            pool = h.sum(dim=(2, 3)) / 49
            return F.linear(pool, p["Fc"], p["Fb"])

        def mlp(self, x):
            p = self._parameters
            h = F.relu(F.linear(x, p["W1"], p["B1"]))
            h = F.relu(F.linear(h, p["W2"], p["B2"]))
            return F.linear(h, p["W3"], p["B3"])

        def cnn(self, x):
            p = self._parameters
            h = F.relu(F.conv2d(x, p["F1"], p["C1"]))      # valid, 26x26
            h = F.relu(F.conv2d(h, p["F2"], p["C2"]))      # valid, 24x24
            h = F.max_pool2d(h, 2)                          # 12x12
            h = F.relu(F.linear(h.flatten(1), p["W1"], p["B1"]))
            return F.linear(h, p["W2"], p["B2"])

    return Step()


def torch_inputs(model, x, labels):
    """The data as PyTorch tensors on the host: X in NCHW (one permute of the
    whole set, before any timing), the labels as int64 [rows]."""
    import torch
    data = torch.from_numpy(x)
    if data.dim() == 4:
        data = data.permute(0, 3, 1, 2).contiguous()
    return data, torch.from_numpy(labels[:, 0].astype(np.int64))


def run_torch(model, x, labels, weights, steps, mode, args):
    """Two epochs of PyTorch training in `mode` ("cpu", "cuda" or
    "cuda_graph"): the first untimed, the second timed. Returns
    {epoch_seconds, steps_per_second, epoch_losses, first_step_loss, ...}."""
    import torch
    import torch.nn.functional as F
    device = "cpu" if mode == "cpu" else "cuda"
    data, targets = torch_inputs(model, x, labels)
    if device == "cuda":
        # Batches are uploaded from the host every step, as tilec uploads
        # them; pinned memory lets the copy run asynchronously.
        data, targets = data.pin_memory(), targets.pin_memory()
    module = torch_module(model, weights).to(device)
    memory = torch.channels_last if args.channels_last and \
        data.dim() == 4 else torch.contiguous_format
    module = module.to(memory_format=memory)
    optimiser = torch.optim.SGD(module.parameters(), lr=model.lr)
    loss_sum = torch.zeros((), device=device)  # summed on the device
    b = model.batch

    def batch(k):
        xb, yb = data[k * b:(k + 1) * b], targets[k * b:(k + 1) * b]
        if device == "cuda":
            xb = xb.to(device, non_blocking=True)
            yb = yb.to(device, non_blocking=True)
        return xb.contiguous(memory_format=memory), yb

    def step(xb, yb):
        optimiser.zero_grad(set_to_none=True)
        loss = F.cross_entropy(module(xb), yb)   # the batch mean
        loss.backward()
        optimiser.step()
        loss_sum.add_(loss.detach())
        return loss

    if mode == "cuda_graph":
        static_x, static_y = batch(0)
        static_x, static_y = static_x.clone(), static_y.clone()
        # Warm up on a side stream before capturing (the CUDA graph docs:
        # cuDNN and the allocator settle there), then put the weights back:
        # these steps must not move the trajectory the losses are compared on.
        saved = [p.detach().clone() for p in module.parameters()]
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(3):
                step(static_x, static_y)
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        optimiser.zero_grad(set_to_none=True)
        with torch.cuda.graph(graph):
            # forward, backward, SGD update and the loss sum in one graph;
            # its grads live in the graph's pool and are overwritten by
            # every replay.
            static_loss = F.cross_entropy(module(static_x), static_y)
            static_loss.backward()
            optimiser.step()
            loss_sum.add_(static_loss.detach())
        with torch.no_grad():
            for p, value in zip(module.parameters(), saved):
                p.copy_(value)
            loss_sum.zero_()

        def run_step(k):
            # The batch from pinned host memory straight into the graph's
            # input tensors, then the whole step.
            static_x.copy_(data[k * b:(k + 1) * b], non_blocking=True)
            static_y.copy_(targets[k * b:(k + 1) * b], non_blocking=True)
            graph.replay()
            return static_loss
    else:
        def run_step(k):
            return step(*batch(k))

    def sync():
        if device == "cuda":
            torch.cuda.synchronize()

    losses, seconds, first_step = [], [], None
    for epoch in (1, 2):
        loss_sum.zero_()
        sync()
        start = time.perf_counter()
        for k in range(steps):
            loss = run_step(k)
            if epoch == 1 and k == 0:
                # One sync, in the untimed epoch.
                first_step = float(loss.detach())
        total = float(loss_sum)           # the one read of the epoch
        sync()
        seconds.append(time.perf_counter() - start)
        losses.append(total / steps)
        if not np.isfinite(losses[-1]):
            raise RuntimeError("PyTorch %s: loss %s in epoch %d" % (
                mode, losses[-1], epoch))
    return {"epoch_seconds": seconds[1],
            "steps_per_second": steps / seconds[1],
            "warmup_seconds": seconds[0], "epoch_losses": losses,
            "first_step_loss": first_step}


def torch_note(mode, args):
    import torch
    if mode == "cpu":
        return "PyTorch %s, eager, %d threads%s" % (
            torch.__version__, torch.get_num_threads(),
            ", channels_last" if args.channels_last else "")
    return "PyTorch %s, %s, %s, cuDNN %s, TF32 off%s" % (
        torch.__version__, torch.cuda.get_device_name(),
        "one CUDA graph per step" if mode == "cuda_graph" else "eager",
        torch.backends.cudnn.version(),
        ", channels_last" if args.channels_last else "")


# ---------------------------------------------------------------------------
# tilec

ARTEFACT_EXT = {"opencl": ".cl", "spirv": ".spv", "ptx": ".ptx"}


def artefact(args, model):
    """The compiled step of `model` in the --artefacts folder, as
    bench/train/bundle.sh names it (resnet_seed.cl, mnist_cnn.spv, ...); its
    manifest is this path + .json."""
    stem = os.path.splitext(os.path.basename(model.tile))[0]
    return os.path.join(args.artefacts, stem + ARTEFACT_EXT[args.target])


def tilec_command(args, model, folder, data_name, epochs):
    data = ["--data", "X=" + os.path.join(folder, data_name + "_x.npy"),
            "--data", "Lab=" + os.path.join(folder, data_name + "_lab.npy"),
            "--epochs", str(epochs), "--json"]
    if args.tilec_run:
        # The artefact fixes the batch (and the device, its manifest's).
        command = [args.tilec_run, artefact(args, model) + ".json",
                   "--train"] + data
    else:
        command = [args.tilec, "train", model.tile,
                   "--target=" + args.target, "--batch", str(model.batch)] \
            + data
    if args.device:
        command.append("--device=" + args.device)
    for name, _, _ in model.params:
        command += ["--init", "%s=%s" % (name, os.path.join(folder,
                                                            name + ".npy"))]
    return command


def run_tilec(args, model, folder, data_name="train", epochs=2):
    """`tilec train` over the data files `data_name`_{x,lab}.npy: its epoch
    records, compile time and device, or {"error": ...}."""
    command = tilec_command(args, model, folder, data_name, epochs)
    log(" ".join(command[:4]) + " ... (batch %d, %d epochs)" % (
        model.batch, epochs))
    try:
        result = subprocess.run(command, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True,
                                timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return {"error": "timed out after %d s" % args.timeout,
                "command": command}
    epochs_seen = [json.loads(line) for line in result.stdout.splitlines()
                   if line.startswith("{")]
    compiled = re.search(r"compiled for (\S+) in ([0-9.]+) s", result.stderr)
    report = {"command": command, "records": epochs_seen,
              "compile_seconds": float(compiled.group(2)) if compiled
              else None, "device": compiled.group(1) if compiled else None}
    if args.tilec_run:
        # Compiled on another machine: the manifest's device, and the
        # compile time if the bundle recorded it.
        with open(artefact(args, model) + ".json") as f:
            manifest = json.load(f)
        report.update(compile_seconds=args.compile_times.get(model.name),
                      device=args.device or manifest.get("device") or
                      "tilec-run's default", tool="tilec-run")
    if result.returncode != 0 or len(epochs_seen) != epochs:
        lines = result.stderr.strip().splitlines() or ["no message"]
        errors = [line for line in lines if "error" in line]
        report["error"] = "tilec train exited with %d: %s" % (
            result.returncode, (errors or lines)[0][:300])
    return report


def profile_tilec(args, model):
    """Each kernel of the step at the batch size, slowest first: `tilec
    bench` (which also checks the step against the interpreter, minutes for
    the resnet, and has no switch to skip it), or with --tilec-run
    `tilec-run ARTEFACT --repeat` (generated inputs: weights and data
    uniform, the kernels' times do not depend on them)."""
    if args.tilec_run:
        command = [args.tilec_run, artefact(args, model) + ".json",
                   "--repeat=5", "--json"]
    else:
        command = [args.tilec, "bench", model.tile, "-D",
                   "N=%d" % model.batch, "--target=" + args.target,
                   "--repeat=3", "--warmup=1", "--json"]
    if args.device:
        command.append("--device=" + args.device)
    log(" ".join(command))
    try:
        result = subprocess.run(command, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True,
                                timeout=args.timeout)
        report = json.loads(result.stdout)
    except subprocess.TimeoutExpired:
        return {"error": "timed out after %d s" % args.timeout}
    except ValueError:
        return {"error": "%s exited with %d: %s" % (
            os.path.basename(command[0]), result.returncode,
            result.stderr.strip()[-300:])}
    kernels = []
    for k in report["kernels"]:
        seconds = k.get("median_seconds", k.get("median_s"))
        kernels.append({"name": k["name"], "median_seconds": seconds,
                        "flops": k.get("flops"),
                        "gflops": k["flops"] * 1e-9 / seconds
                        if k.get("flops") and seconds else None})
    kernels.sort(key=lambda k: -k["median_seconds"])
    total = report["total"]
    return {"command": command, "kernels": kernels,
            "total_median_seconds": total.get("median_seconds",
                                              total.get("median_s")),
            "check": report.get("check"),
            "compile_seconds": report.get("compile_seconds")}


# ---------------------------------------------------------------------------
# One model

def relative(a, b):
    return abs(a - b) / abs(b) if b else float("inf")


def bench_model(args, model, rows):
    folder = os.path.join(args.data, model.name)
    os.makedirs(folder, exist_ok=True)
    steps = rows // model.batch
    if steps < 1:
        raise SystemExit("train_bench.py: %s: --rows %d is below one batch "
                         "of %d" % (model.name, rows, model.batch))
    log("%s: %d rows, batch %d, %d steps an epoch" % (model.name, rows,
                                                      model.batch, steps))
    x, labels = make_data(model, rows, args.seed)
    weights = he_weights(model, args.seed)
    np.save(os.path.join(folder, "train_x.npy"), x)
    np.save(os.path.join(folder, "train_lab.npy"), labels)
    for name, value in weights.items():
        np.save(os.path.join(folder, name + ".npy"), value)
    counts = np.bincount(labels[:, 0], minlength=CLASSES)
    result = {"rows": rows, "batch": model.batch, "steps": steps,
              "lr": model.lr, "label_counts": counts.tolist(),
              "file": os.path.relpath(model.tile, ROOT)}

    tilec = run_tilec(args, model, folder)
    if "error" not in tilec:
        first, second = tilec["records"]
        tilec.update(epoch_seconds=second["seconds"],
                     steps_per_second=steps / second["seconds"],
                     warmup_seconds=first["seconds"],
                     epoch_losses=[first["loss"], second["loss"]])
    result["tilec"] = tilec

    result["torch"] = {}
    modes = ([] if args.no_torch_cpu else ["cpu"]) + (
        ["cuda", "cuda_graph"] if args.cuda else [])
    for mode in modes:
        log("%s: PyTorch %s" % (model.name, mode))
        try:
            run = run_torch(model, x, labels, weights, steps, mode, args)
            run["note"] = torch_note(mode, args)
        except Exception as e:  # a failed system is a cell of the table
            run = {"error": "%s: %s" % (type(e).__name__,
                                        str(e).splitlines()[0][:300])}
        result["torch"][mode] = run

    # Speed and loss agreement of each PyTorch run against tilec.
    mismatch = False
    for mode, run in result["torch"].items():
        if "error" in run or "error" in tilec:
            continue
        run["speed_vs_tilec"] = run["epoch_seconds"] / tilec["epoch_seconds"]
        run["loss_rel_diff"] = relative(tilec["epoch_losses"][0],
                                        run["epoch_losses"][0])
        run["loss_ok"] = run["loss_rel_diff"] <= LOSS_RTOL
        mismatch |= not run["loss_ok"]

    # The first step alone, on a one-batch data file: where a disagreement
    # starts (the forward pass and loss, before any update differs).
    if ("error" not in tilec) and (mismatch or args.check_step):
        np.save(os.path.join(folder, "step_x.npy"), x[:model.batch])
        np.save(os.path.join(folder, "step_lab.npy"), labels[:model.batch])
        one = run_tilec(args, model, folder, data_name="step", epochs=1)
        if "error" in one:
            result["first_step"] = {"error": one["error"]}
        else:
            loss = one["records"][0]["loss"]
            result["first_step"] = {"tilec": loss, "torch": {
                mode: {"loss": run["first_step_loss"],
                       "rel_diff": relative(loss, run["first_step_loss"])}
                for mode, run in result["torch"].items()
                if "error" not in run}}
    return result


# ---------------------------------------------------------------------------
# Report

def fmt(value, digits=3):
    if value is None:
        return "—"
    return "%.*g" % (digits, value)


def table(args, results):
    """Markdown rows: one per model and system."""
    lines = ["| model | rows | batch | steps | system | epoch s | steps/s | "
             "PyTorch time / tilec's | epoch-1 loss | loss rel. diff | notes |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, r in results.items():
        head = "| %s | %d | %d | %d" % (name, r["rows"], r["batch"],
                                        r["steps"])
        t = r["tilec"]
        label = "tilec %s%s" % (args.target, " (tilec-run)"
                                if t.get("tool") == "tilec-run" else "")
        if "error" in t:
            lines.append("%s | %s | — | — | — | — | — | not run: %s |"
                         % (head, label, t["error"]))
        else:
            lines.append("%s | %s | %s | %s | 1.00 | %.6g | — | "
                         "compile %s s; warm-up epoch %s s; %s |" % (
                             head, label, fmt(t["epoch_seconds"]),
                             fmt(t["steps_per_second"]),
                             t["epoch_losses"][0], fmt(t["compile_seconds"]),
                             fmt(t["warmup_seconds"]), t["device"]))
        for mode, run in r["torch"].items():
            label = {"cpu": "PyTorch CPU", "cuda": "PyTorch CUDA",
                     "cuda_graph": "PyTorch CUDA graph"}[mode]
            if "error" in run:
                lines.append("%s | %s | — | — | — | — | — | not run: %s |" % (
                    head, label, run["error"]))
                continue
            lines.append("%s | %s | %s | %s | %s | %.6g | %s%s | %s |" % (
                head, label, fmt(run["epoch_seconds"]),
                fmt(run["steps_per_second"]),
                fmt(run.get("speed_vs_tilec")), run["epoch_losses"][0],
                fmt(run.get("loss_rel_diff"), 2),
                "" if run.get("loss_ok", True) else " MISMATCH",
                run["note"]))
    return lines


def pin_threads(threads):
    """This process and its children (tilec) on `threads` cores, with
    OMP_NUM_THREADS to match (tilec's JIT and PyTorch use OpenMP), as
    bench/models/compare.py does."""
    cores = sorted(os.sched_getaffinity(0))
    if threads < len(cores):
        os.sched_setaffinity(0, cores[:threads])
    os.environ["OMP_NUM_THREADS"] = str(threads)


def parse_rows(text, names):
    """--rows N (every model) or --rows resnet=320,mlp=2560: {model: rows}."""
    rows = {name: MODELS[name].rows for name in names}
    if not text:
        return rows
    for part in text.split(","):
        if "=" in part:
            name, value = part.split("=", 1)
            if name not in MODELS:
                raise SystemExit("train_bench.py: --rows: no model %r" % name)
            if name in rows:
                rows[name] = int(value)
        else:
            rows = {name: int(part) for name in names}
    return rows


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.splitlines()[1:]))
    parser.add_argument("--tilec", default=os.path.join(ROOT, "build", "bin",
                                                        "tilec"))
    parser.add_argument("--target", required=True,
                        choices=["llvm-x86", "opencl", "spirv", "ptx"])
    parser.add_argument("--device", help="tilec's --device")
    parser.add_argument("--models", default="resnet,mlp,cnn")
    parser.add_argument("--rows", help="N for every model, or "
                        "MODEL=N,... (default: the protocol's 3000, 60000, "
                        "60000)")
    parser.add_argument("--threads", type=int, default=2,
                        help="cores for everything, PyTorch's threads")
    parser.add_argument("--cuda", action="store_true",
                        help="also PyTorch on the GPU, eager and CUDA graph")
    parser.add_argument("--no-torch-cpu", action="store_true",
                        help="with --cuda: leave out PyTorch on the CPU")
    parser.add_argument("--channels-last", action="store_true",
                        help="PyTorch's images and filters as channels_last")
    parser.add_argument("--profile", action="store_true",
                        help="also `tilec bench` the step: time per kernel")
    parser.add_argument("--check-step", action="store_true",
                        help="always compare the first step's loss too")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=int, default=3600,
                        help="seconds one tilec command may take")
    parser.add_argument("--data", default="/tmp/tilec-train-bench",
                        help="folder for the .npy files")
    parser.add_argument("--out", required=True, help="the JSON report")
    parser.add_argument("--tilec-run", help="on a machine without the "
                        "compiler (the H200): train with `tilec-run --train` "
                        "from the --artefacts of bench/train/bundle.sh "
                        "instead of `tilec train`")
    parser.add_argument("--artefacts", metavar="DIR", help="with --tilec-run:"
                        " the compiled steps (bundle.sh's OUT/steps); "
                        "DIR/compile_seconds.json, if there, gives their "
                        "compile times ({\"resnet\": S, ...})")
    args = parser.parse_args()
    names = [n for n in args.models.split(",") if n]
    unknown = [n for n in names if n not in MODELS]
    if unknown or not names:
        parser.error("unknown or no model: %s (have %s)" % (
            ", ".join(unknown), ", ".join(MODELS)))
    rows = parse_rows(args.rows, names)
    if bool(args.tilec_run) != bool(args.artefacts):
        parser.error("--tilec-run and --artefacts go together")
    if args.tilec_run and args.target == "llvm-x86":
        parser.error("--tilec-run is for opencl, spirv and ptx artefacts")
    args.compile_times = {}
    if args.artefacts:
        path = os.path.join(args.artefacts, "compile_seconds.json")
        if os.path.exists(path):
            with open(path) as f:
                args.compile_times = json.load(f)

    pin_threads(args.threads)
    import torch
    torch.set_num_threads(args.threads)
    if args.cuda:
        if not torch.cuda.is_available():
            raise SystemExit("train_bench.py: --cuda, but PyTorch sees no "
                             "CUDA device")
        # Full float32, as tilec computes: no TF32 rounding.
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        torch.backends.cudnn.benchmark = True

    load_before = os.getloadavg()[0]
    results = {}
    for name in names:
        results[name] = bench_model(args, MODELS[name], rows[name])
        if args.profile:
            results[name]["tilec_profile"] = profile_tilec(args, MODELS[name])

    lines = table(args, results)
    report = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime(
            "%Y-%m-%d %H:%M UTC"),
        "host": platform.node(), "cpu": cpu_name(),
        "cores": len(os.sched_getaffinity(0)), "threads": args.threads,
        "load_before": load_before, "load_after": os.getloadavg()[0],
        "target": args.target, "device": args.device,
        "torch": torch.__version__, "seed": args.seed,
        "channels_last": args.channels_last,
        "command": " ".join(sys.argv), "models": results, "table": lines}
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(report, f, indent=1)
        f.write("\n")

    print("%s; %s, %d threads; load %.2f before, %.2f after" % (
        report["date"], report["cpu"], args.threads, load_before,
        report["load_after"]))
    print("\n".join(lines))
    for name, r in results.items():
        if "first_step" in r:
            print("%s first step: %s" % (name, json.dumps(r["first_step"])))
        profile = r.get("tilec_profile", {})
        if "error" in profile:
            print("%s kernel profile: %s" % (name, profile["error"]))
        elif profile:
            total = profile["total_median_seconds"]
            print("%s: %d kernels, %.2f ms a step; the slowest:" % (
                name, len(profile["kernels"]), total * 1e3))
            for k in profile["kernels"][:8]:
                print("  %-32s %9.2f ms %5.1f%%  %s GFLOP/s" % (
                    k["name"][:32], k["median_seconds"] * 1e3,
                    100 * k["median_seconds"] / total, fmt(k["gflops"])))
    failed = any("error" in r["tilec"] or any(
        not run.get("loss_ok", True) for run in r["torch"].values())
        for r in results.values())
    return 1 if failed else 0


def cpu_name():
    """The CPU's model name, as bench/models/compare.py reports it."""
    sys.path.insert(0, os.path.join(ROOT, "bench", "models"))
    from compare import cpu_name as models_cpu_name
    return models_cpu_name()


if __name__ == "__main__":
    sys.exit(main())
