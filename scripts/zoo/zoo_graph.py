"""A small ONNX graph builder for the model zoo (scripts/zoo/make_zoo.py).

It writes nodes the way the PyTorch / TensorFlow exporters do: node names
are module paths (`/layer1/layer1.0/conv1/Conv`), BatchNormalization stays a
separate node after a bias-free Conv, constants (Clip bounds, Reshape
shapes, Resize scales, Pad pads) are initializers, and every weight is drawn
from one seeded generator so a model is byte-for-byte reproducible.

Weights are small-magnitude: convolution / linear weights have variance
1 / fan_in (the output keeps the input's scale) and BatchNormalization
statistics are mild, so deep random networks stay well-conditioned in f32.
"""
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


class Graph:
    """Accumulates nodes and initializers; `model()` returns the ModelProto."""

    def __init__(self, name, seed, opset):
        self.name = name
        self.rng = np.random.default_rng(seed)
        self.opset = opset
        self.nodes = []
        self.inits = []
        self.inputs = []
        self.outputs = []
        self.shapes = {}  # value name -> shape (for the builder's own bookkeeping)
        self._names = set()

    # --- values ---------------------------------------------------------
    def _unique(self, name):
        base, i = name, 1
        while name in self._names:
            name = f"{base}_{i}"
            i += 1
        self._names.add(name)
        return name

    def input(self, name, shape):
        self.inputs.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, list(shape)))
        self.shapes[name] = tuple(shape)
        return name

    def output(self, value, name="output"):
        """Makes `value` (a node output) the graph output `name`, renaming it
        as the exporters do (`output`, `logits`, ...)."""
        shape = self.shapes[value]
        for n in self.nodes:
            for i, o in enumerate(n.output):
                if o == value:
                    n.output[i] = name
        self.shapes[name] = shape
        self.outputs.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, list(shape)))

    def const(self, name, array):
        """An initializer (float32 unless `array` is an integer array)."""
        a = np.asarray(array)
        if a.dtype.kind == "f":
            a = a.astype(np.float32)
        name = self._unique(name)
        self.inits.append(numpy_helper.from_array(a, name))
        self.shapes[name] = a.shape
        return name

    def i64(self, name, values):
        return self.const(name, np.asarray(values, dtype=np.int64))

    def weight(self, name, shape, fan_in, gain=1.0):
        std = gain / np.sqrt(fan_in)
        return self.const(name, self.rng.normal(0.0, std, size=shape))

    def bias(self, name, n, scale=0.05):
        return self.const(name, self.rng.normal(0.0, scale, size=(n,)))

    # --- nodes ----------------------------------------------------------
    def node(self, op, inputs, path, shape, n_outputs=1, **attrs):
        """Adds node `path/op` (an exporter-style name); returns its output
        name(s). `shape` is the first output's shape (bookkeeping only)."""
        name = self._unique(f"{path}/{op}")
        outs = [self._unique(f"{path}/{op}_output_{i}") for i in range(n_outputs)]
        self.nodes.append(helper.make_node(op, list(inputs), outs, name=name, **attrs))
        self.shapes[outs[0]] = tuple(shape)
        return outs[0] if n_outputs == 1 else outs

    def model(self):
        graph = helper.make_graph(self.nodes, self.name, self.inputs, self.outputs, self.inits)
        m = helper.make_model(graph, producer_name="accel-zoo", producer_version="1",
                              opset_imports=[helper.make_opsetid("", self.opset)])
        m.ir_version = 8
        onnx.checker.check_model(m)
        return m

    # --- exporter idioms --------------------------------------------------
    def conv(self, x, path, cout, k, stride=1, pad=None, groups=1, bias=False, dilation=1):
        n, cin, h, w = self.shapes[x]
        pad = (k // 2) * dilation if pad is None else pad
        pads = pad if isinstance(pad, (list, tuple)) else [pad] * 4
        wname = self.weight(f"{path}.weight", (cout, cin // groups, k, k), cin // groups * k * k)
        ins = [x, wname]
        if bias:
            ins.append(self.bias(f"{path}.bias", cout))
        oh = (h + pads[0] + pads[2] - dilation * (k - 1) - 1) // stride + 1
        ow = (w + pads[1] + pads[3] - dilation * (k - 1) - 1) // stride + 1
        return self.node("Conv", ins, path, (n, cout, oh, ow), dilations=[dilation] * 2,
                         group=groups, kernel_shape=[k, k], pads=list(pads),
                         strides=[stride] * 2)

    def bn(self, x, path, gamma=(0.5, 1.0)):
        c = self.shapes[x][1]
        r = self.rng
        scale = self.const(f"{path}.weight", r.uniform(gamma[0], gamma[1], c))
        b = self.const(f"{path}.bias", r.normal(0.0, 0.05, c))
        mean = self.const(f"{path}.running_mean", r.normal(0.0, 0.05, c))
        var = self.const(f"{path}.running_var", r.uniform(0.8, 1.2, c))
        return self.node("BatchNormalization", [x, scale, b, mean, var], path, self.shapes[x],
                         epsilon=1e-5, momentum=0.9)

    def unary(self, op, x, path, **attrs):
        return self.node(op, [x], path, self.shapes[x], **attrs)

    def relu(self, x, path):
        return self.unary("Relu", x, path)

    def relu6(self, x, path):
        """torch.nn.ReLU6 / tf.nn.relu6: Clip with constant min 0, max 6."""
        lo = self.const(f"{path}/Constant_min", np.array(0.0, np.float32))
        hi = self.const(f"{path}/Constant_max", np.array(6.0, np.float32))
        return self.node("Clip", [x, lo, hi], path, self.shapes[x])

    def hardswish(self, x, path):
        return self.unary("HardSwish", x, path)

    def hardsigmoid(self, x, path):
        """torch.nn.Hardsigmoid as exported: alpha 1/6, beta 0.5."""
        return self.unary("HardSigmoid", x, path, alpha=1.0 / 6.0, beta=0.5)

    def binary(self, op, a, b, path, shape=None):
        return self.node(op, [a, b], path, shape or self.shapes[a])

    def conv_bn(self, x, path, cout, k, stride=1, groups=1, act=None, pad=None,
                bn_path=None, gamma=(0.5, 1.0)):
        """Conv (no bias) + BatchNormalization (+ activation), torchvision's
        Conv2dNormActivation; `path` names the conv, `bn_path` the norm."""
        y = self.conv(x, path, cout, k, stride, pad=pad, groups=groups)
        y = self.bn(y, bn_path or path + "_bn", gamma=gamma)
        if act == "relu":
            y = self.relu(y, path + "_act")
        elif act == "relu6":
            y = self.relu6(y, path + "_act")
        elif act == "hardswish":
            y = self.hardswish(y, path + "_act")
        return y

    def gap(self, x, path):
        n, c = self.shapes[x][:2]
        return self.node("GlobalAveragePool", [x], path, (n, c, 1, 1))

    def flatten(self, x, path):
        s = self.shapes[x]
        return self.node("Flatten", [x], path, (s[0], int(np.prod(s[1:]))), axis=1)

    def gemm(self, x, path, nout, bias=True):
        n, k = self.shapes[x]
        w = self.weight(f"{path}.weight", (nout, k), k)
        ins = [x, w] + ([self.bias(f"{path}.bias", nout)] if bias else [])
        return self.node("Gemm", ins, path, (n, nout), alpha=1.0, beta=1.0, transB=1)

    def linear3d(self, x, path, nout):
        """torch.nn.Linear on a rank-3 input as exported: MatMul (with the
        transposed weight as initializer) + Add."""
        s = self.shapes[x]
        k = s[-1]
        w = self.weight(f"{path}.weight_T", (k, nout), k)
        y = self.node("MatMul", [x, w], path, s[:-1] + (nout,))
        return self.node("Add", [self.bias(f"{path}.bias", nout), y], path, s[:-1] + (nout,))

    def reshape(self, x, path, shape):
        target = self.i64(f"{path}/Constant_shape", shape)
        out = list(shape)
        if -1 in out:
            known = int(np.prod([d for d in out if d != -1]))
            out[out.index(-1)] = int(np.prod(self.shapes[x])) // known
        return self.node("Reshape", [x, target], path, tuple(out))

    def dynamic_reshape(self, x, path, keep, tail):
        """`x.view(x.size()[:keep] + tail)` as torch exports it with dynamic
        axes: Shape -> Gather -> Unsqueeze per kept dimension, Concat with
        the constant tail, Reshape (the importer folds the shape subgraph)."""
        shape = self.node("Shape", [x], path, (len(self.shapes[x]),))
        parts = []
        for i in range(keep):
            d = self.node("Gather", [shape, self.i64(f"{path}/Constant_{i}", i)], path, (),
                          axis=0)
            parts.append(self.node("Unsqueeze", [d, self.i64(f"{path}/axes_{i}", [0])], path,
                                   (1,)))
        parts.append(self.i64(f"{path}/Constant_tail", list(tail)))
        target = self.node("Concat", parts, path, (keep + len(tail),), axis=0)
        out = tuple(self.shapes[x][:keep]) + tuple(tail)
        return self.node("Reshape", [x, target], path, out)

    def transpose(self, x, path, perm):
        s = self.shapes[x]
        return self.node("Transpose", [x], path, tuple(s[p] for p in perm), perm=list(perm))

    def resize(self, x, path, factor, mode="nearest"):
        """torch.nn.Upsample / F.interpolate(scale_factor) at opset 13:
        Resize(X, roi = "", scales) with the exporter's attributes (bilinear
        with align_corners = False is `linear` + `pytorch_half_pixel`)."""
        n, c, h, w = self.shapes[x]
        scales = self.const(f"{path}/Constant_scales",
                            np.array([1, 1, factor, factor], np.float32))
        attrs = dict(mode=mode, coordinate_transformation_mode="asymmetric",
                     nearest_mode="floor", cubic_coeff_a=-0.75)
        if mode == "linear":
            attrs["coordinate_transformation_mode"] = "pytorch_half_pixel"
        return self.node("Resize", [x, "", scales], path, (n, c, h * factor, w * factor), **attrs)

    def pad(self, x, path, pads):
        """tf2onnx's explicit Pad before a VALID convolution; `pads` is
        top, left, bottom, right."""
        t, l, b, r = pads
        p = self.i64(f"{path}/pads", [0, 0, t, l, 0, 0, b, r])
        n, c, h, w = self.shapes[x]
        return self.node("Pad", [x, p], path, (n, c, h + t + b, w + l + r), mode="constant")

    def maxpool(self, x, path, k, stride, pads=(0, 0, 0, 0)):
        """`k`, `stride`: (h, w) pairs or ints; pads top, left, bottom, right."""
        k = (k, k) if isinstance(k, int) else tuple(k)
        s = (stride, stride) if isinstance(stride, int) else tuple(stride)
        n, c, h, w = self.shapes[x]
        oh = (h + pads[0] + pads[2] - k[0]) // s[0] + 1
        ow = (w + pads[1] + pads[3] - k[1]) // s[1] + 1
        return self.node("MaxPool", [x], path, (n, c, oh, ow), kernel_shape=list(k),
                         pads=list(pads), strides=list(s), ceil_mode=0)

    def conv_transpose(self, x, path, cout, k, stride):
        """torch.nn.ConvTranspose2d(k, stride, padding 0) with bias."""
        n, cin, h, w = self.shapes[x]
        wname = self.weight(f"{path}.weight", (cin, cout, k, k), cin * k * k / (stride * stride))
        b = self.bias(f"{path}.bias", cout)
        oh, ow = (h - 1) * stride + k, (w - 1) * stride + k
        return self.node("ConvTranspose", [x, wname, b], path, (n, cout, oh, ow),
                         dilations=[1, 1], group=1, kernel_shape=[k, k], pads=[0, 0, 0, 0],
                         strides=[stride, stride])
