#!/usr/bin/env python3
"""`tilec train examples/train/mlp_sgd.tile` against the same training in
PyTorch, on scikit-learn's handwritten digits (load_digits: 1797 images of
8x8 pixels, 10 classes).

The data: the pixels scaled by 1/16 (to [0, 1]) as float32, the labels as
int32 of shape [rows, 1]; the rows permuted by numpy's default_rng(0), the
first 1500 for training and the other 297 for testing. The network
(mlp_sgd.tile): 64 -> 64 (ReLU) -> 10, softmax cross-entropy averaged over
the batch, SGD with the file's default learning rate 0.1, batches of 32
(46 steps an epoch, the last partial batch dropped). The initial weights
are He-normal from numpy's default_rng(0), the biases zero.

tilec runs with --shuffle --seed S; PyTorch visits the batches in the same
order (batch_order below re-implements tilec's shuffle), from the same
initial weights, in float32. Checked:

  - the loss curve: tilec's mean loss of each epoch (`--json`) against the
    mean of PyTorch's step losses in that epoch, relative difference <= 1e-3
    for each of the first epochs that together cover at least 100 steps
    (later epochs drift apart as rounding differences grow, and are only
    printed);
  - the test accuracy of the weights tilec saved (--save-dir) >= 0.95.

--no-torch checks only the accuracy, for a machine without PyTorch.

    torch_train_mlp.py --tilec PATH --target T --out DIR [--epochs 20]
                       [--seed S] [--no-torch]
"""

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
STEP = os.path.join(ROOT, "examples", "train", "mlp_sgd.tile")

TRAIN_ROWS = 1500
HIDDEN = 64
BATCH = 32
LR = 0.1              # mlp_sgd.tile's default `Lr = 0.1`
LOSS_RTOL = 1e-3
MIN_COMPARED_STEPS = 100
MIN_ACCURACY = 0.95

MASK64 = (1 << 64) - 1


def batch_order(rows, seed, epoch):
    """The row order of epoch `epoch` (1-based) under `tilec train --shuffle
    --seed seed`: a Fisher-Yates shuffle of 0..rows-1 driven by splitmix64
    whose state starts at seed + epoch."""
    state = (seed + epoch) & MASK64

    def next_value():
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    order = list(range(rows))
    for i in range(rows - 1, 0, -1):
        j = next_value() % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def make_data():
    """(train x, train labels, test x, test labels), as the docstring says."""
    from sklearn.datasets import load_digits
    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32)
    y = digits.target.astype(np.int32).reshape(-1, 1)
    perm = np.random.default_rng(0).permutation(len(x))
    x, y = x[perm], y[perm]
    return x[:TRAIN_ROWS], y[:TRAIN_ROWS], x[TRAIN_ROWS:], y[TRAIN_ROWS:]


def initial_weights(inputs, classes):
    """He-normal weights (standard deviation sqrt(2 / fan_in)), zero
    biases, float32."""
    rng = np.random.default_rng(0)
    return {
        "W1": (rng.standard_normal((inputs, HIDDEN)) *
               np.sqrt(2.0 / inputs)).astype(np.float32),
        "B1": np.zeros(HIDDEN, np.float32),
        "W2": (rng.standard_normal((HIDDEN, classes)) *
               np.sqrt(2.0 / HIDDEN)).astype(np.float32),
        "B2": np.zeros(classes, np.float32),
    }


def accuracy(w, x, y):
    """The fraction of rows whose largest logit is the label."""
    hidden = np.maximum(x @ w["W1"] + w["B1"], 0.0)
    logits = hidden @ w["W2"] + w["B2"]
    return float(np.mean(np.argmax(logits, axis=1) == y[:, 0]))


def run_tilec(args, folder, weights):
    """Trains with tilec; the per-epoch mean losses and the saved weights."""
    cmd = [args.tilec, "train", STEP, "--target=" + args.target,
           "--data", "X=" + os.path.join(folder, "x.npy"),
           "--data", "Lab=" + os.path.join(folder, "lab.npy"),
           "--batch", str(BATCH), "--epochs", str(args.epochs),
           "--shuffle", "--seed", str(args.seed),
           "--save-dir", os.path.join(folder, "trained"), "--json"]
    for name in weights:
        cmd += ["--init", "%s=%s" % (name, os.path.join(folder,
                                                        name + ".npy"))]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stdout.write("tilec train failed (exit %d): %s\n%s%s" % (
            proc.returncode, " ".join(cmd), proc.stdout, proc.stderr))
        return None, None
    losses = []
    for line in proc.stdout.splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            losses.append(record["loss"])
    trained = {name: np.load(os.path.join(folder, "trained", name + ".npy"))
               for name in weights}
    return losses, trained


def run_torch(args, x, y, weights):
    """The same training in PyTorch, float32: the mean step loss of each
    epoch."""
    import torch
    import torch.nn.functional as F
    params = {name: torch.tensor(value, requires_grad=True)
              for name, value in weights.items()}
    data = torch.from_numpy(x)
    labels = torch.from_numpy(y[:, 0].astype(np.int64))
    steps = len(x) // BATCH
    losses = []
    for epoch in range(1, args.epochs + 1):
        order = torch.tensor(batch_order(len(x), args.seed, epoch))
        total = 0.0
        for step in range(steps):
            rows = order[step * BATCH:(step + 1) * BATCH]
            hidden = F.relu(data[rows] @ params["W1"] + params["B1"])
            logits = hidden @ params["W2"] + params["B2"]
            loss = F.cross_entropy(logits, labels[rows])  # batch mean
            for p in params.values():
                p.grad = None
            loss.backward()
            with torch.no_grad():
                for p in params.values():
                    p -= LR * p.grad
            total += float(loss.detach())
        losses.append(total / steps)
    return losses


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tilec", required=True, help="the tilec binary")
    ap.add_argument("--target", required=True, help="tilec train's target")
    ap.add_argument("--out", required=True, help="folder for data and "
                    "trained weights (created)")
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0, help="the shuffle's seed")
    ap.add_argument("--no-torch", action="store_true",
                    help="check the test accuracy only")
    args = ap.parse_args()
    steps = TRAIN_ROWS // BATCH
    compared = -(-MIN_COMPARED_STEPS // steps)  # epochs covering 100 steps
    if not args.no_torch and args.epochs < compared:
        ap.error("--epochs must be at least %d to compare %d steps" % (
            compared, MIN_COMPARED_STEPS))
    if not args.no_torch:
        try:
            import torch  # noqa: F401
        except ImportError:
            print("torch_train_mlp.py: PyTorch is not installed "
                  "(--no-torch checks the accuracy alone)")
            return 2

    os.makedirs(args.out, exist_ok=True)
    x, y, test_x, test_y = make_data()
    weights = initial_weights(x.shape[1], 10)
    np.save(os.path.join(args.out, "x.npy"), x)
    np.save(os.path.join(args.out, "lab.npy"), y)
    for name, value in weights.items():
        np.save(os.path.join(args.out, name + ".npy"), value)

    start = time.time()
    tilec_losses, trained = run_tilec(args, args.out, weights)
    if tilec_losses is None:
        return 1
    tilec_seconds = time.time() - start
    failed = False
    if len(tilec_losses) != args.epochs:
        print("tilec printed %d epoch losses, expected %d" % (
            len(tilec_losses), args.epochs))
        return 1

    if not args.no_torch:
        start = time.time()
        torch_losses = run_torch(args, x, y, weights)
        torch_seconds = time.time() - start
        worst = 0.0
        for epoch, (got, want) in enumerate(zip(tilec_losses, torch_losses),
                                            1):
            diff = abs(got - want) / abs(want)
            checked = epoch <= compared
            if checked:
                worst = max(worst, diff)
            print("  epoch %2d: tilec %.6f  PyTorch %.6f  relative "
                  "difference %.2g%s" % (epoch, got, want, diff,
                                         "" if checked else " (not checked)"))
            if checked and not diff <= LOSS_RTOL:
                failed = True
        verdict = "matches" if not failed else "DIFFERS FROM"
        print("loss curve %s PyTorch over %d epochs (worst relative "
              "difference %.2g)" % (verdict, compared, worst))
        print("  (tilec %.1f s, PyTorch %.1f s)" % (tilec_seconds,
                                                    torch_seconds))

    acc = accuracy(trained, test_x, test_y)
    print("test accuracy %.2f%s" % (acc, "" if acc >= MIN_ACCURACY else
                                    " (below %.2f)" % MIN_ACCURACY))
    if acc < MIN_ACCURACY:
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
