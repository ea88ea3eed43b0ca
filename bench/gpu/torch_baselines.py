#!/usr/bin/env python3
"""PyTorch's CUDA baselines of the benchmark cases, and the cases' data.

  torch_baselines.py --cases BUNDLE/cases.json --data DIR [--repeat=N]
                     [--seed=S] [--only CASE ...]

For every case: writes random inputs (uniform in [-1, 1), seeded) as
DIR/CASE/NAME.npy in the layouts of bench/kernels/*.tile, computes the output
with PyTorch in full f32 (TF32 off, so it is the same arithmetic tilec does)
into DIR/CASE/reference.npy, and times the computation: CUDA events around
each of --repeat runs after warm-up runs, median. For a memory-bound case
(cases.py: softmax, layer norm, gemv, the depthwise convolution) it also
times torch.clone of the case's largest input, the copy bandwidth its rate is
compared with (2 x the input's bytes over the clone's time). tilec-run then
runs on the same files (bench/table.py gpu). Prints one JSON object:
  {"torch": VERSION, "device": NAME, "libraries": "...",
   "cases": {CASE: {"seconds": MEDIAN, "min_seconds": MIN, "call": "...",
                    "copy": {"input": NAME, "bytes": B, "seconds": MEDIAN,
                             "gb_per_s": 2 * B / MEDIAN * 1e-9}}}}
("copy" only for the memory-bound cases).
"""

import argparse
import json
import os
import statistics
import sys

import numpy
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from cases import CaseError, load_cases  # noqa: E402


def operation(case, inputs):
    """The case as a PyTorch call on CUDA tensors of the .tile layouts: the
    function to time (returning the output in the .tile layout) and what it
    calls. Layout changes of the weights happen here, once, untimed."""
    if case.kernel == "matmul":
        a, b = inputs
        return (lambda: torch.matmul(a, b)), "torch.matmul (cuBLAS)"
    if case.kernel == "batched_matmul":
        a, b = inputs
        return (lambda: torch.bmm(a, b)), "torch.bmm (cuBLAS)"
    if case.kernel == "softmax":
        (logits,) = inputs
        return (lambda: torch.softmax(logits, dim=1)), "torch.softmax"
    if case.kernel == "layer_norm":
        x, gamma, beta = inputs
        width = case.sizes["C"]
        return (lambda: F.layer_norm(x, (width,), gamma, beta, eps=1e-5)), \
            "F.layer_norm, weight and bias"
    if case.kernel == "gelu":
        (x,) = inputs
        return (lambda: F.gelu(x, approximate="tanh")), \
            "F.gelu, approximate='tanh'"
    image, filt = inputs
    # NHWC data is NCHW in channels_last memory: permute is a view, no copy.
    x = image.permute(0, 3, 1, 2)
    padding, groups = 1, 1
    if case.kernel == "conv3x3":
        weight = filt.permute(3, 2, 0, 1)  # HWIO -> OIHW
        call = "conv2d, channels_last (cuDNN)"
    elif case.kernel == "conv1x1":
        weight = filt.t()[:, :, None, None]  # [CI, CO] -> OIHW, 1x1
        padding = 0
        call = "conv2d 1x1, channels_last (cuDNN)"
    else:
        weight, groups = filt.permute(2, 0, 1).unsqueeze(1), image.shape[3]
        call = "conv2d groups=C, channels_last"
    weight = weight.contiguous(memory_format=torch.channels_last)
    return (lambda: F.conv2d(x, weight, padding=padding, groups=groups)
            .permute(0, 2, 3, 1)), call


def time_cuda(fn, repeat, warmup=3):
    """Median and minimum seconds of `fn` by CUDA events, after warm-up."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeat):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e-3)
    return statistics.median(times), min(times)


def copy_bandwidth(case, tensors, repeat, batch=10):
    """torch.clone of the case's largest input: the rate a kernel that reads
    and writes as many bytes could reach. `batch` clones run between each
    pair of events and the time is divided by it, so that the launch's host
    overhead (tens of microseconds, as long as a clone of 64 MiB) is hidden
    behind the copies before it, as a kernel's is in tilec's timing."""
    index = max(range(len(tensors)), key=lambda i: tensors[i].numel())
    source = tensors[index]
    size = source.numel() * source.element_size()

    def clones():
        for _ in range(batch):
            torch.clone(source)

    median, fastest = time_cuda(clones, repeat)
    median, fastest = median / batch, fastest / batch
    return {"input": case.inputs[index], "bytes": size, "seconds": median,
            "min_seconds": fastest, "gb_per_s": 2 * size / median * 1e-9}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", required=True)
    parser.add_argument("--data", required=True)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", action="append", default=[],
                        metavar="CASE", help="only this case (repeatable)")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        sys.exit("torch_baselines.py: PyTorch sees no CUDA device")
    try:
        cases = load_cases(args.cases, only=args.only)
    except CaseError as e:
        sys.exit("torch_baselines.py: %s" % e)
    # f32 as f32: no TF32 tensor-core shortcuts, which round the inputs to
    # 10 bits of mantissa; cuDNN may pick its fastest algorithm.
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cudnn.benchmark = True

    rng = numpy.random.default_rng(args.seed)
    report = {"torch": torch.__version__,
              "device": torch.cuda.get_device_name(0),
              "libraries": "CUDA %s, cuDNN %s" % (
                  torch.version.cuda, torch.backends.cudnn.version()),
              "cases": {}}
    for case in cases:
        folder = os.path.join(args.data, case.name)
        os.makedirs(folder, exist_ok=True)
        tensors = []
        for name, shape in zip(case.inputs, case.input_shapes):
            array = rng.uniform(-1, 1, size=shape).astype(numpy.float32)
            numpy.save(os.path.join(folder, name + ".npy"), array)
            tensors.append(torch.from_numpy(array).cuda())
        fn, call = operation(case, tensors)
        with torch.no_grad():
            numpy.save(os.path.join(folder, "reference.npy"),
                       fn().contiguous().cpu().numpy())
            median, fastest = time_cuda(fn, args.repeat)
        entry = {"seconds": median, "min_seconds": fastest, "call": call}
        if case.memory_bound:
            entry["copy"] = copy_bandwidth(case, tensors, args.repeat)
        report["cases"][case.name] = entry
        print("torch_baselines.py: %s %.3g ms%s" % (
            case.name, median * 1e3,
            ", copy %.0f GB/s" % entry["copy"]["gb_per_s"]
            if "copy" in entry else ""), file=sys.stderr, flush=True)
        del tensors, fn
    json.dump(report, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
