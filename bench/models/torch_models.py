"""The zoo models written with PyTorch's own operators, as a user would.

Each model mirrors its examples/models/*.tile file operation for operation and
takes the same weights, in the .tile layouts, keyed by the .tile parameter
names; they are converted to PyTorch's layouts (OIHW filters, NCHW images)
once, when the module is built, as an inference engine does when it loads a
model. forward() takes the first input (the image or the sequence) in the
.tile layout (NHWC) and returns the outputs in the .tile order. Convolutions
run on channels_last tensors, so the NHWC input is used in place.
"""

import torch
import torch.nn.functional as F


def conv_filter(hwio):
    """[KH, KW, CI, CO] -> [CO, CI, KH, KW] in channels_last memory."""
    return hwio.permute(3, 2, 0, 1).contiguous(
        memory_format=torch.channels_last)


def depthwise_filter(hwc):
    """[KH, KW, C] -> [C, 1, KH, KW], a grouped convolution's filter."""
    return hwc.permute(2, 0, 1).unsqueeze(1).contiguous(
        memory_format=torch.channels_last)


def channel(vector):
    """A per-channel vector broadcast over an NCHW tensor."""
    return vector.view(1, -1, 1, 1)


def same_padding(size, stride, kernel=3):
    """TensorFlow's SAME padding of one axis, as (before, after): the .tile
    file pads max(0, (Ho - 1) * S + K - H) / 2 before, the rest after."""
    out = (size + stride - 1) // stride
    total = max(0, (out - 1) * stride + kernel - size)
    return total // 2, total - total // 2


class Model(torch.nn.Module):
    """Holds the weights as buffers, so .to(device) moves them."""

    def __init__(self, weights):
        super().__init__()
        for name, value in weights.items():
            self.register_buffer(name, value)

    def w(self, name):
        return getattr(self, name)


class MobileNetV1(Model):
    """examples/models/mobilenet_v1.tile."""

    BLOCKS = 13
    STRIDES = [1, 2, 1, 2, 1, 2, 1, 1, 1, 1, 1, 2, 1]

    def __init__(self, w, res):
        weights = {"F0": conv_filter(w["F0"]), "S0": channel(w["S0"]),
                   "B0": channel(w["B0"]), "Fc": w["Fc"], "Fb": w["Fb"]}
        for k in range(1, self.BLOCKS + 1):
            weights["D%d" % k] = depthwise_filter(w["D%d" % k])
            weights["P%d" % k] = conv_filter(w["P%d" % k].unsqueeze(0)
                                             .unsqueeze(0))
            for name in ("DS", "DB", "PS", "PB"):
                weights["%s%d" % (name, k)] = channel(w["%s%d" % (name, k)])
        super().__init__(weights)
        self.res = res

    @staticmethod
    def conv_bn_relu6(x, filt, scale, bias, stride, groups, size):
        pad = same_padding(size, stride)
        x = F.pad(x, (pad[0], pad[1], pad[0], pad[1]))
        x = F.conv2d(x, filt, stride=stride, groups=groups)
        return torch.clamp(x * scale + bias, 0.0, 6.0)

    def forward(self, image):
        x = image.permute(0, 3, 1, 2)  # NHWC as NCHW, channels_last
        size = self.res
        x = self.conv_bn_relu6(x, self.F0, self.S0, self.B0, 2, 1, size)
        size = (size + 1) // 2
        for k, stride in enumerate(self.STRIDES, 1):
            x = self.conv_bn_relu6(x, self.w("D%d" % k), self.w("DS%d" % k),
                                   self.w("DB%d" % k), stride, x.shape[1],
                                   size)
            size = (size + stride - 1) // stride
            x = torch.clamp(F.conv2d(x, self.w("P%d" % k)) * self.w("PS%d" % k)
                            + self.w("PB%d" % k), 0.0, 6.0)
        logits = x.mean(dim=(2, 3)) @ self.Fc + self.Fb
        return torch.softmax(logits, dim=1), logits


class ResNet18(Model):
    """examples/models/resnet18.tile: PyTorch's own padding, BN folded."""

    STAGES = [("L1a", 1, False), ("L1b", 1, False), ("L2a", 2, True),
              ("L2b", 1, False), ("L3a", 2, True), ("L3b", 1, False),
              ("L4a", 2, True), ("L4b", 1, False)]

    def __init__(self, w):
        super().__init__({name: conv_filter(value) if value.dim() == 4
                          else value for name, value in w.items()})

    def conv_bn(self, x, filt, bias, stride=1):
        """The folded batch norm's bias is the convolution's bias."""
        filt = self.w(filt)
        return F.conv2d(x, filt, self.w(bias), stride=stride,
                        padding=filt.shape[-1] // 2)

    def block(self, x, p, stride, project):
        a = F.relu(self.conv_bn(x, p + "F1", p + "B1", stride))
        shortcut = self.conv_bn(x, p + "Fp", p + "Bp", stride) if project \
            else x
        return F.relu(self.conv_bn(a, p + "F2", p + "B2") + shortcut)

    def forward(self, image):
        x = image.permute(0, 3, 1, 2)
        x = F.relu(self.conv_bn(x, "Stem", "StemB", 2))
        x = F.max_pool2d(x, 3, stride=2, padding=1)
        for prefix, stride, project in self.STAGES:
            x = self.block(x, prefix, stride, project)
        logits = x.mean(dim=(2, 3)) @ self.Fc + self.Fb
        return torch.softmax(logits, dim=1), logits


class TransformerBlock(Model):
    """examples/models/transformer_block.tile (post-norm, as BERT)."""

    def __init__(self, w, heads):
        super().__init__(w)
        self.heads = heads

    def heads_of(self, x):
        """[N, S, D] -> [N, Heads, S, D / Heads]: head h owns columns
        [E*h, E*h + E), as in the .tile file."""
        n, s, d = x.shape
        return x.view(n, s, self.heads, d // self.heads).transpose(1, 2)

    def forward(self, x):
        width = x.shape[2]
        q = self.heads_of(x @ self.Wq + self.Bq)
        k = self.heads_of(x @ self.Wk + self.Bk)
        v = self.heads_of(x @ self.Wv + self.Bv)
        ctx = F.scaled_dot_product_attention(q, k, v)
        ctx = ctx.transpose(1, 2).reshape(x.shape)
        a = F.layer_norm(x + ctx @ self.Wo + self.Bo, (width,), self.G1,
                         self.Be1, eps=1e-5)
        hidden = F.gelu(a @ self.W1 + self.B1, approximate="tanh")
        y = F.layer_norm(a + hidden @ self.W2 + self.B2, (width,), self.G2,
                         self.Be2, eps=1e-5)
        return (y,)


class Mlp3(Model):
    """examples/models/mlp3.tile."""

    def forward(self, x):
        h1 = F.relu(x @ self.W1 + self.B1)
        h2 = F.relu(h1 @ self.W2 + self.B2)
        return (torch.softmax(h2 @ self.W3 + self.B3, dim=1),)


def build(model, sizes, weights):
    """The module of examples/models/MODEL.tile at `sizes` ({-D name: value}),
    with `weights` ({.tile name: tensor}, every input but the first)."""
    if model == "mobilenet_v1":
        return MobileNetV1(weights, sizes["Res"])
    if model == "resnet18":
        return ResNet18(weights)
    if model == "transformer_block":
        return TransformerBlock(weights, sizes.get("Heads", 4))
    if model == "mlp3":
        return Mlp3(weights)
    raise ValueError("no PyTorch version of model '%s'" % model)
