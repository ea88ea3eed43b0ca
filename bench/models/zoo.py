"""The zoo models that bench/models compares, and their data.

A case is one model of examples/models/ at given sizes (the -D bindings its
header documents). Its data folder holds what every system runs on:

    signature.json   the program's inputs [name, dtype, shape] in parameter
                     order and its outputs, as `tilec --emit=ast` states them
    in<K>.npy        input K: the data, then the weights, drawn by
                     test/Examples/models_check.py (He-scaled, seeded) so the
                     activations stay in the range a trained network's have

The H200 machine has no compiler, so there the signature comes with the
bundle and the inputs are drawn again from the same seed.
"""

import json
import os
import sys

MODELS_DIR = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(MODELS_DIR))
sys.path.insert(0, os.path.join(ROOT, "test", "Examples"))

import models_check  # noqa: E402  (the weights' generator, shared with the tests)


class Case:
    """One zoo model at fixed sizes."""

    def __init__(self, name, model, sizes):
        self.name = name
        self.model = model  # the stem of examples/models/MODEL.tile
        self.sizes = sizes  # {size name: value}, in the header's order

    @property
    def tile_file(self):
        return os.path.join(ROOT, "examples", "models", self.model + ".tile")

    def defines(self):
        """The -D arguments of tilec."""
        return [flag for name, value in self.sizes.items()
                for flag in ("-D", "%s=%d" % (name, value))]

    def shape(self):
        return " ".join("%s=%d" % item for item in self.sizes.items())

    def flops(self):
        """FLOPs of one inference as the .tile header counts them (2 per
        multiply-add of the convolutions and products; elementwise work not
        counted): the same count for every system."""
        return FLOPS[self.model](self.sizes)


def mobilenet_flops(s):
    size = (s["Res"] + 1) // 2
    macs = size * size * 9 * 3 * 32
    widths = [32, 64, 128, 128, 256, 256, 512, 512, 512, 512, 512, 512, 1024,
              1024]
    strides = [1, 2, 1, 2, 1, 2, 1, 1, 1, 1, 1, 2, 1]
    for k, stride in enumerate(strides):
        size = (size + stride - 1) // stride
        macs += size * size * (9 * widths[k] + widths[k] * widths[k + 1])
    return 2 * s["N"] * (macs + 1024 * 1000)


def resnet18_flops(s):
    size = (s["Res"] + 2 * 3 - 7) // 2 + 1
    macs = size * size * 49 * 3 * 64
    size = (size - 1) // 2 + 1  # the max pool
    width = 64
    for stage, out in enumerate([64, 128, 256, 512]):
        if stage:
            size = (size - 1) // 2 + 1
            macs += size * size * (9 * width * out + width * out)
        else:
            macs += size * size * 9 * width * out
        macs += 3 * size * size * 9 * out * out
        width = out
    return 2 * s["N"] * (macs + 512 * 1000)


FLOPS = {
    "mobilenet_v1": mobilenet_flops,
    "resnet18": resnet18_flops,
    "transformer_block": lambda s: 2 * s["N"] * (
        4 * s["S"] * s["D"] ** 2 + 2 * s["S"] ** 2 * s["D"] +
        2 * s["S"] * s["D"] * s["F"]),
    "mlp3": lambda s: 2 * s["N"] * (s["In"] * s["Hidden"] + s["Hidden"] ** 2 +
                                    s["Hidden"] * s["Classes"]),
}


# The sizes issue 7 asks for; each file's header derives them.
FULL = [
    Case("mobilenet_v1", "mobilenet_v1", {"N": 1, "Res": 224}),
    Case("mobilenet_v1-b16", "mobilenet_v1", {"N": 16, "Res": 224}),
    Case("resnet18", "resnet18", {"N": 1, "Res": 224}),
    Case("resnet18-b16", "resnet18", {"N": 16, "Res": 224}),
    Case("transformer_block", "transformer_block",
         {"N": 1, "S": 128, "D": 256, "F": 1024}),
    Case("mlp3", "mlp3", {"N": 1, "In": 784, "Hidden": 512, "Classes": 10}),
]

# The same networks reduced, for a quick dry run of the scripts (--small).
SMALL = [
    Case("mobilenet_v1", "mobilenet_v1", {"N": 1, "Res": 32}),
    Case("mobilenet_v1-b16", "mobilenet_v1", {"N": 2, "Res": 32}),
    Case("resnet18", "resnet18", {"N": 1, "Res": 32}),
    Case("resnet18-b16", "resnet18", {"N": 2, "Res": 32}),
    Case("transformer_block", "transformer_block",
         {"N": 1, "S": 16, "D": 32, "F": 64}),
    Case("mlp3", "mlp3", {"N": 1, "In": 64, "Hidden": 32, "Classes": 10}),
]


def select(small, only):
    """The cases to run: all, or those named in `only` (a list)."""
    cases = SMALL if small else FULL
    if not only:
        return cases
    unknown = set(only) - {case.name for case in cases}
    if unknown:
        sys.exit("unknown case(s): %s (known: %s)" % (
            ", ".join(sorted(unknown)),
            ", ".join(case.name for case in cases)))
    return [case for case in cases if case.name in only]


def write_signature(tilec, case, folder, flags=()):
    """Asks tilec for the case's inputs and outputs (with `flags`, e.g.
    --default-type) and saves them."""
    inputs, outputs = models_check.signature(tilec, case.tile_file,
                                             case.defines() + list(flags))
    signature = {"case": case.name, "model": case.model, "sizes": case.sizes,
                 "inputs": inputs, "outputs": outputs}
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "signature.json"), "w") as f:
        json.dump(signature, f, indent=1)
    return signature


# A .npy, bf16 ones widened to f32 (numpy has no bfloat16).
load_array = models_check.load_array


def read_signature(folder):
    with open(os.path.join(folder, "signature.json")) as f:
        return json.load(f)


def write_inputs(signature, folder, seed):
    """Draws the inputs into folder/in<K>.npy, unless the files there were
    drawn for the same signature and seed (weights are made once); returns
    {input name: path} in parameter order."""
    stamp_path = os.path.join(folder, "inputs.stamp")
    stamp = json.dumps({"inputs": signature["inputs"], "seed": seed})
    paths = [os.path.join(folder, "in%d.npy" % k)
             for k in range(len(signature["inputs"]))]
    fresh = os.path.exists(stamp_path) and all(map(os.path.exists, paths))
    if fresh:
        with open(stamp_path) as f:
            fresh = f.read() == stamp
    if not fresh:
        inputs = [tuple(entry) for entry in signature["inputs"]]
        paths = models_check.write_inputs(inputs, folder, seed)
        with open(stamp_path, "w") as f:
            f.write(stamp)
    names = [entry[0] for entry in signature["inputs"]]
    return dict(zip(names, paths))


def input_flags(files):
    """--input NAME=PATH ... for tilec and tilec-run."""
    return [flag for name, path in files.items()
            for flag in ("--input", "%s=%s" % (name, path))]
