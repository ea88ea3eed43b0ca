#!/usr/bin/env python3
"""Runs one zoo case in one other system and times it.

    peer.py SYSTEM --data DIR --out DIR [--repeat N] [--warmup N]
            [--threads N] [--device cpu|cuda] [--cuda-graph]

SYSTEM is `torch` (PyTorch eager on --device, or with --cuda-graph the
forward call captured once and replayed), `onnxruntime` (the PyTorch
model exported with torch.onnx.export, run by onnxruntime's CPU provider) or
`plaidml` (PlaidML 0.7.0's Tile API on the DIR/plaidml.tile text that
`tilec --emit=plaidml` printed, on its LLVM CPU device). DIR is a case's data
folder (zoo.py): the inputs come from there, the outputs go to --out as
NAME.npy under the .tile output names. compare.py starts one process per
system, so a system that is missing or crashes costs only its own cell, and
each library sets up its threads once.

Prints one JSON object: {"system", "version", "median_seconds",
"min_seconds", "outputs": {NAME: PATH}, "note"}. Times are the median and
minimum of --repeat timed calls after --warmup untimed ones; each call is one
inference, inputs already in place, outputs complete (copied back to the
host for PlaidML, synchronised for CUDA). A system that cannot run exits with
1 and one line on stderr that says why.
"""

import argparse
import functools
import importlib.metadata
import json
import os
import statistics
import sys
import time

import numpy as np

import zoo


class PeerError(Exception):
    """Why a system could not run the case."""


def wall_times(fn, repeat, warmup):
    """Median and minimum wall seconds of fn()."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def load_inputs(folder, signature):
    """The inputs as {name: array}, in parameter order."""
    return {name: zoo.load_array(os.path.join(folder, "in%d.npy" % k))
            for k, (name, _, _) in enumerate(signature["inputs"])}


def torch_dtype(signature):
    """The model's precision: its inputs' type (bf16 for a zoo case bundled
    with --default-type=bf16), else f32."""
    import torch
    types = {"bf16": torch.bfloat16, "f16": torch.float16,
             "f64": torch.float64}
    return types.get(signature["inputs"][0][1], torch.float32)


def torch_module(signature, arrays, device):
    """The case's PyTorch module on `device` and its first input, in the
    case's precision."""
    import torch
    import torch_models
    names = list(arrays)
    weights = {name: torch.from_numpy(arrays[name]) for name in names[1:]}
    dtype = torch_dtype(signature)
    module = torch_models.build(signature["model"], signature["sizes"],
                                weights).to(device=device, dtype=dtype).eval()
    return module, torch.from_numpy(arrays[names[0]]).to(device=device,
                                                          dtype=dtype)


def run_torch(args, signature, arrays):
    import torch
    torch.set_num_threads(args.threads)
    if args.device == "cuda":
        if not torch.cuda.is_available():
            raise PeerError("PyTorch sees no CUDA device")
        # Full f32, as tilec computes: no TF32 rounding of the inputs; and
        # 16-bit products summed in f32, as tilec's tensor cores do.
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = \
            False
        torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = \
            False
        torch.backends.cudnn.benchmark = True
    module, x = torch_module(signature, arrays, args.device)
    with torch.inference_mode():
        call = graph_replay(module, x) if args.cuda_graph else \
            functools.partial(module, x)
        if args.device == "cuda":
            median, fastest = cuda_times(call, args.repeat, args.warmup)
        else:
            median, fastest = wall_times(call, args.repeat, args.warmup)
        outputs = [t.float().cpu().numpy() for t in call()]
    if args.device == "cuda":
        note = "%s, CUDA events; cuDNN %s, %s" % (
            "one CUDA graph" if args.cuda_graph else "eager",
            torch.backends.cudnn.version(),
            str(torch_dtype(signature)).replace("torch.", "") +
            ("" if torch_dtype(signature) != torch.float32 else ", TF32 off"))
    else:
        note = "eager, %d threads" % torch.get_num_threads()
    return torch.__version__, median, fastest, outputs, note


def graph_replay(module, x):
    """The forward call captured once in a CUDA graph: a replay launches all
    its kernels at once, without the per-operator launch cost of eager
    mode. Returns a call that replays it and gives the outputs."""
    import torch
    if x.device.type != "cuda":
        raise PeerError("--cuda-graph needs --device=cuda")
    # Warm up on a side stream (cuDNN picks its algorithms there), then
    # capture; the graph reads x and writes `outputs` in place.
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        for _ in range(3):
            module(x)
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        outputs = module(x)

    def replay():
        graph.replay()
        return outputs
    return replay


def cuda_times(fn, repeat, warmup):
    """Median and minimum seconds of fn() by CUDA events: the same timing as
    bench/gpu/torch_baselines.py's kernel baselines."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                    "..", "gpu"))
    from torch_baselines import time_cuda
    return time_cuda(fn, repeat, max(warmup, 1))


def run_onnxruntime(args, signature, arrays):
    import onnxruntime
    import torch
    torch.set_num_threads(args.threads)
    module, x = torch_module(signature, arrays, "cpu")
    path = os.path.join(args.out, "model.onnx")
    try:
        with torch.inference_mode():
            torch.onnx.export(module, (x,), path, input_names=["input"],
                              output_names=signature["outputs"],
                              opset_version=17, dynamo=False)
    except Exception as e:  # the exporter raises many kinds
        raise PeerError("torch.onnx.export failed: %s" % first_line(e))
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = args.threads
    options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(
        path, options, providers=["CPUExecutionProvider"])
    feed = {"input": x.numpy()}
    median, fastest = wall_times(lambda: session.run(None, feed), args.repeat,
                                 args.warmup)
    note = "CPUExecutionProvider, %d threads, opset 17" % args.threads
    return onnxruntime.__version__, median, fastest, session.run(None, feed), \
        note


def run_plaidml(args, signature, arrays):
    # PlaidML reads its settings from the environment: without them it asks
    # for `plaidml-setup`. llvm_cpu.0 is its LLVM CPU device.
    os.environ.setdefault("PLAIDML_EXPERIMENTAL", "1")
    os.environ.setdefault("PLAIDML_DEVICE_IDS", "llvm_cpu.0")
    import plaidml
    with open(os.path.join(args.data, "plaidml.tile")) as f:
        code = f.read()
    input_names, output_names = zoo.models_check.header_names(code)
    if len(input_names) != len(arrays):
        raise PeerError("plaidml.tile has %d inputs, the case %d" % (
            len(input_names), len(arrays)))
    ctx = plaidml.Context()
    device = plaidml.Device(ctx, plaidml.devices(ctx, limit=10)[0])
    invoker = plaidml.Invoker(ctx, plaidml.Function(code))
    for name, array in zip(input_names, arrays.values()):
        tensor = plaidml.Tensor(device, plaidml.Shape(
            ctx, plaidml.DType.FLOAT32, *array.shape))
        with tensor.mmap_discard(ctx) as view:
            view.copy_from_ndarray(array)
            view.writeback()
        invoker.set_input(name, tensor)
    results = []
    for name in output_names:
        tensor = plaidml.Tensor(device, invoker.get_output_shape(name))
        invoker.set_output(name, tensor)
        results.append(tensor)

    def call():
        invoker.invoke()
        # Mapping an output waits for the run; the copy to the host is small.
        return [tensor.as_ndarray(ctx).copy() for tensor in results]

    median, fastest = wall_times(call, args.repeat, args.warmup)
    note = "%s, Tile API on the --emit=plaidml text" % (
        os.environ["PLAIDML_DEVICE_IDS"])
    return importlib.metadata.version("plaidml"), median, fastest, call(), note


SYSTEMS = {"torch": run_torch, "onnxruntime": run_onnxruntime,
           "plaidml": run_plaidml}


def first_line(error):
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0][:200]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("system", choices=sorted(SYSTEMS))
    parser.add_argument("--data", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--cuda-graph", action="store_true",
                        help="torch: time replays of one CUDA graph")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    signature = zoo.read_signature(args.data)
    try:
        arrays = load_inputs(args.data, signature)
        version, median, fastest, outputs, note = SYSTEMS[args.system](
            args, signature, arrays)
    except ImportError as e:
        sys.exit("not installed: %s" % first_line(e))
    except PeerError as e:
        sys.exit(str(e))
    except Exception as e:  # a library's own failure, reported in the table
        sys.exit("%s: %s" % (type(e).__name__, first_line(e)))
    paths = {}
    for name, value in zip(signature["outputs"], outputs):
        paths[name] = os.path.join(args.out, name + ".npy")
        np.save(paths[name], np.asarray(value))
    json.dump({"system": args.system, "version": version,
               "median_seconds": median, "min_seconds": fastest,
               "outputs": paths, "note": note}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
