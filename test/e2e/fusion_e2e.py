"""fuse-layers end to end: small ONNX models with the exporters' idioms
(conv + BN + HardSwish, x * HardSigmoid(x), Clip as ReLU6, residual blocks,
squeeze-and-excite, Pad + Conv, Gemm + activation chains, ConvTranspose +
BN + activations as in the FPN text detector's head) compiled by
accel-compile (fusion on, and --fuse=off for comparison), simulated and
compared with numpy. Also checks that the fused operators produced no
layer of their own (fewer SFU layers than without fusion).

usage: fusion_e2e.py BIN_DIR SRC_ROOT [--bench]

--bench: the figures of docs/passes.md ("fuse-layers"): a MobileNetV3-style
and a MobileNetV2-style block at 1x16x56x56 on hw/default.json with --fuse=off and --fuse=on
(layers = barriers of a --sync=barrier compile; cycles and DRAM bytes from
accel-run's stats.json)."""
import json
import os
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(__file__))
from e2e_common import check_run, compile_and_run, conv_ref  # noqa: E402

RNG = np.random.default_rng(12)


def const(name, a):
    return numpy_helper.from_array(np.asarray(a, np.float32), name)


class Model:
    """A tiny ONNX graph builder with a numpy twin."""

    def __init__(self, x_shape):
        self.nodes, self.inits, self.n = [], [], 0
        self.x_shape = x_shape

    def name(self, op):
        self.n += 1
        return f"{op}_{self.n}"

    def node(self, op, inputs, attrs=None, **kw):
        n = self.name(op)
        self.nodes.append(helper.make_node(op, inputs, [n], name=n, **(attrs or {}), **kw))
        return n

    def init(self, a):
        n = self.name("c")
        self.inits.append(const(n, a))
        return n

    def build(self, out, out_shape):
        g = helper.make_graph(
            self.nodes, "m",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, self.x_shape)],
            [helper.make_tensor_value_info(out, TensorProto.FLOAT, out_shape)],
            self.inits)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)])
        m.ir_version = 8
        return m


def save_case(work, name, build, shape):
    """Case `name`: a uniform [-1, 1] input of `shape` (drawn from RNG), the
    network `build` makes of it (a Net) saved as WORK/NAME.onnx. Returns (the
    input, the output's name, its numpy reference, the model's path)."""
    x = RNG.uniform(-1, 1, shape).astype(np.float32)
    net, out = build(x)
    ref = net.v[out]
    model = os.path.join(work, name + ".onnx")
    onnx.save(net.m.build(out, list(ref.shape)), model)
    return x, out, ref, model


def hsig(x, a=1 / 6, b=0.5):
    return np.clip(a * x + b, 0, 1)


class Net:
    """Parallel ONNX graph and numpy evaluation."""

    def __init__(self, x):
        self.m = Model(list(x.shape))
        self.v = {"x": x.astype(np.float64)}

    def conv(self, x, co, k=1, s=1, p=0, groups=1, bn=True):
        ci = self.v[x].shape[1]
        w = RNG.standard_normal((co, ci // groups, k, k)) * (1.0 / np.sqrt(ci // groups * k * k))
        b = RNG.standard_normal(co) * 0.1
        wn, bn_ = self.m.init(w), self.m.init(b)
        y = self.m.node("Conv", [x, wn, bn_], kernel_shape=[k, k], strides=[s, s],
                        pads=[p] * 4, group=groups)
        self.v[y] = conv_ref(self.v[x], w, b, (s, s), (p,) * 4, (1, 1), groups)
        if not bn:
            return y
        sc, bi = RNG.uniform(0.5, 1.5, co), RNG.standard_normal(co) * 0.1
        mu, var = RNG.standard_normal(co) * 0.1, RNG.uniform(0.5, 1.5, co)
        names = [self.m.init(a) for a in (sc, bi, mu, var)]
        z = self.m.node("BatchNormalization", [y] + names, epsilon=1e-5)
        r = lambda a: a.reshape(1, -1, 1, 1)  # noqa: E731
        self.v[z] = (self.v[y] - r(mu)) / np.sqrt(r(var) + 1e-5) * r(sc) + r(bi)
        return z

    def bn(self, y, co):
        sc, bi = RNG.uniform(0.5, 1.5, co), RNG.standard_normal(co) * 0.1
        mu, var = RNG.standard_normal(co) * 0.1, RNG.uniform(0.5, 1.5, co)
        names = [self.m.init(a) for a in (sc, bi, mu, var)]
        z = self.m.node("BatchNormalization", [y] + names, epsilon=1e-5)
        r = lambda a: a.reshape(1, -1, 1, 1)  # noqa: E731
        self.v[z] = (self.v[y] - r(mu)) / np.sqrt(r(var) + 1e-5) * r(sc) + r(bi)
        return z

    def convt(self, x, co, k=2, s=2, p=0, op=0, groups=1, bias=True, bn=True):
        """ConvTranspose (ONNX semantics), then BatchNormalization."""
        xv = self.v[x]
        n_, ci, h, w_ = xv.shape
        og = co // groups
        w = RNG.standard_normal((ci, og, k, k)) * (1.0 / np.sqrt(ci // groups))
        b = RNG.standard_normal(co) * 0.1 if bias else np.zeros(co)
        ins = [x, self.m.init(w)] + ([self.m.init(b)] if bias else [])
        y = self.m.node("ConvTranspose", ins, kernel_shape=[k, k], strides=[s, s],
                        pads=[p] * 4, output_padding=[op, op], group=groups)
        fh, fw = (h - 1) * s + k, (w_ - 1) * s + k
        full = np.zeros((n_, co, fh + op, fw + op))
        cg = ci // groups
        for g in range(groups):
            for i in range(k):
                for j in range(k):
                    full[:, g * og:(g + 1) * og, i:i + (h - 1) * s + 1:s, j:j + (w_ - 1) * s + 1:s] += np.einsum(
                        "nchw,co->nohw", xv[:, g * cg:(g + 1) * cg], w[g * cg:(g + 1) * cg, :, i, j])
        oh, ow = fh + op - 2 * p, fw + op - 2 * p
        self.v[y] = full[:, :, p:p + oh, p:p + ow] + b.reshape(1, -1, 1, 1)
        return self.bn(y, co) if bn else y

    def unary(self, op, x, fn, **attrs):
        y = self.m.node(op, [x], **attrs)
        self.v[y] = fn(self.v[x])
        return y

    def binary(self, op, a, b, fn):
        y = self.m.node(op, [a, b])
        self.v[y] = fn(self.v[a], self.v[b])
        return y

    def scalar(self, op, x, c, fn):
        cn = self.m.init(np.float32(c))
        self.v[cn] = np.float64(np.float32(c))
        return self.binary(op, x, cn, fn)

    def hardswish_idiom(self, x):
        h = self.unary("HardSigmoid", x, hsig, alpha=1 / 6, beta=0.5)
        return self.binary("Mul", x, h, lambda a, b: a * b)

    def relu6(self, x):
        lo, hi = self.m.init(np.float32(0)), self.m.init(np.float32(6))
        y = self.m.node("Clip", [x, lo, hi])
        self.v[y] = np.clip(self.v[x], 0, 6)
        return y

    def se(self, x, squeeze):
        g = self.m.node("GlobalAveragePool", [x])
        self.v[g] = self.v[x].mean(axis=(2, 3), keepdims=True)
        f = self.unary("Relu", self.conv(g, squeeze, bn=False), lambda a: np.maximum(a, 0))
        e = self.conv(f, self.v[x].shape[1], bn=False)
        h = self.unary("HardSigmoid", e, hsig, alpha=1 / 6, beta=0.5)
        return self.binary("Mul", x, h, lambda a, b: a * b)


def mbv3_block(x):
    """MobileNetV3-style bottleneck: expand 1x1 + BN + HardSwish, depthwise
    3x3 + BN + HardSwish (x * HardSigmoid(x) idiom), SE, project 1x1 + BN,
    residual add."""
    n = Net(x)
    c = x.shape[1]
    e = n.unary("HardSwish", n.conv("x", 4 * c), lambda a: a * hsig(a))
    d = n.hardswish_idiom(n.conv(e, 4 * c, k=3, p=1, groups=4 * c))
    s = n.se(d, c)
    p = n.conv(s, c)
    y = n.binary("Add", p, "x", lambda a, b: a + b)
    return n, y


def mbv2_block(x):
    """MobileNetV2 inverted residual: expand 1x1 + BN + ReLU6, depthwise 3x3
    (stride 1) + BN + ReLU6 (two epilogue steps on the depthwise kernel),
    project 1x1 + BN, residual add."""
    n = Net(x)
    c = x.shape[1]
    e = n.relu6(n.conv("x", 3 * c))
    d = n.relu6(n.conv(e, 3 * c, k=3, p=1, groups=3 * c))
    p = n.conv(d, c)
    return n, n.binary("Add", p, "x", lambda a, b: a + b)


def resnet_block(x):
    n = Net(x)
    c = x.shape[1]
    a = n.unary("Relu", n.conv("x", c, k=3, p=1), lambda v: np.maximum(v, 0))
    b = n.conv(a, c, k=3, p=1)
    s = n.binary("Add", b, "x", lambda u, v: u + v)
    return n, n.unary("Relu", s, lambda v: np.maximum(v, 0))


def pad_conv(x):
    n = Net(x)
    pads = n.m.init(np.array([0, 0, 1, 2, 0, 0, 2, 1], np.int64))
    n.m.inits[-1] = numpy_helper.from_array(np.array([0, 0, 1, 2, 0, 0, 2, 1], np.int64), pads)
    p = n.m.node("Pad", ["x", pads])
    n.v[p] = np.pad(n.v["x"], ((0, 0), (0, 0), (1, 2), (2, 1)))
    y = n.relu6(n.conv(p, 8, k=3))
    return n, y


def gemm_chain(x):
    n = Net(x)
    k = x.shape[1]
    w = RNG.standard_normal((k, 24)) / np.sqrt(k)
    b = RNG.standard_normal(24) * 0.1
    y = n.m.node("Gemm", ["x", n.m.init(w), n.m.init(b)])
    n.v[y] = n.v["x"] @ w + b
    y = n.unary("LeakyRelu", y, lambda a: np.where(a < 0, 0.1 * a, a), alpha=0.1)
    y = n.scalar("Sub", y, 0.25, lambda a, c: a - c)
    y = n.scalar("Div", y, 2.0, lambda a, c: a / c)
    y = n.unary("Sigmoid", y, lambda a: 1 / (1 + np.exp(-a)))
    return n, y


def conv_chain(x):
    """conv + BN + HardSwish, then a scalar Mul and Add, then ReLU6."""
    n = Net(x)
    y = n.unary("HardSwish", n.conv("x", 12, k=3, p=1), lambda a: a * hsig(a))
    y = n.scalar("Mul", y, 1.5, lambda a, c: a * c)
    y = n.scalar("Add", y, -0.5, lambda a, c: a + c)
    return n, n.relu6(y)


def relu(n, x):
    return n.unary("Relu", x, lambda a: np.maximum(a, 0))


def sigmoid(n, x):
    return n.unary("Sigmoid", x, lambda a: 1 / (1 + np.exp(-a)))


def convt_head(x):
    """The FPN text detector's head after its 3x3 conv: ConvTranspose 2x2
    s2 + BN + Relu, ConvTranspose 2x2 s2 (one channel) + Sigmoid (the GEMM
    lowering with the chain in its epilogue)."""
    n = Net(x)
    y = relu(n, n.convt("x", 8))
    return n, sigmoid(n, n.convt(y, 1, bn=False))


def convt_groups_pads(x):
    """Groups 2, no bias, 3x3 stride 3 pads 1 (cropped temporary: the chain
    is one SFU pass), then a 2x2 s2 + BN + LeakyRelu + Add + Relu chain."""
    n = Net(x)
    y = n.unary("LeakyRelu", n.convt("x", 6, k=3, s=3, p=1, groups=2, bias=False),
                lambda a: np.where(a < 0, 0.1 * a, a), alpha=0.1)
    y = n.scalar("Add", n.convt(y, 4), 0.25, lambda a, c: a + c)
    return n, relu(n, y)


def convt_overlap_and_gaps(x):
    """Overlapping taps (3x3 s2 p1 output_padding 1: zero-stuffing, chain as
    a tail layer) and gaps (1x1 s2: pixels only the bias reaches, which the
    fused Sigmoid must see too)."""
    n = Net(x)
    y = n.relu6(n.convt("x", 6, k=3, s=2, p=1, op=1))
    return n, sigmoid(n, n.convt(y, 3, k=1, s=2))


def convt_residual(x):
    """relu(BN(ConvT(x)) + ConvT'(x)): the residual add in the strided
    epilogue of the second ConvTranspose."""
    n = Net(x)
    a = n.convt("x", 4, bn=False)
    b = n.convt("x", 4)
    return n, relu(n, n.binary("Add", b, a, lambda u, v: u + v))


def concat_neck(x):
    """An FPN-neck-like Concat of four maps along the channels: a conv +
    Relu chain, a conv + BN, a ConvTranspose + BN + Sigmoid, and an Add of
    two convs, then a 1x1 conv reading the concat. At batch 1 each producer
    writes its slice of the concat in place (no copy layer); at batch 2 the
    slices are strided and the concat copies."""
    n = Net(x)
    a = relu(n, n.conv("x", 4, k=3, p=1))
    b = n.conv("x", 3)
    c = sigmoid(n, n.convt(n.conv("x", 4, k=2, s=2, bn=False), 2))
    d = n.binary("Add", n.conv("x", 2, bn=False), n.conv("x", 2, bn=False), lambda u, v: u + v)
    y = n.m.node("Concat", [a, b, c, d], axis=1)
    n.v[y] = np.concatenate([n.v[a], n.v[b], n.v[c], n.v[d]], axis=1)
    return n, n.conv(y, 5, bn=False)


CASES = [
    ("conv_chain", conv_chain, (1, 6, 9, 9)),
    ("gemm_chain", gemm_chain, (5, 40)),
    ("resnet_block", resnet_block, (1, 8, 10, 10)),
    ("pad_conv", pad_conv, (1, 5, 8, 8)),
    ("mbv2_block", mbv2_block, (1, 8, 11, 13)),
    ("mbv3_block", mbv3_block, (1, 8, 12, 12)),
    ("mbv3_block_batch2", mbv3_block, (2, 8, 7, 7)),
    ("convt_head", convt_head, (1, 8, 5, 6)),
    ("convt_head_batch2", convt_head, (2, 16, 4, 3)),
    ("convt_groups_pads", convt_groups_pads, (2, 4, 3, 4)),
    ("convt_overlap_and_gaps", convt_overlap_and_gaps, (1, 3, 4, 5)),
    ("convt_residual", convt_residual, (1, 6, 5, 5)),
    ("concat_neck", concat_neck, (1, 3, 8, 8)),
    ("concat_neck_batch2", concat_neck, (2, 3, 6, 8)),
]


def bench(bin_dir):
    for block in (mbv3_block, mbv2_block):
        if bench_block(bin_dir, block):
            return 1
    return 0


def bench_block(bin_dir, block):
    import subprocess
    x = RNG.standard_normal((1, 16, 56, 56)).astype(np.float32)
    net, out = block(x)
    ref = net.v[out]
    with tempfile.TemporaryDirectory() as work:
        model = os.path.join(work, "mbv3.onnx")
        onnx.save(net.m.build(out, list(ref.shape)), model)
        for fuse in ("off", "on"):
            isa = os.path.join(work, f"{fuse}.mlir")
            subprocess.run([os.path.join(bin_dir, "accel-compile"), model, "-o", isa,
                            "--emit=isa", "--sync=barrier", f"--fuse={fuse}"], check=True)
            with open(isa) as f:
                text = f.read()
            layers = text.split("isa.cluster(0, 1)")[0].count("isa.barrier")
            outs, err = compile_and_run(bin_dir, model, work, f"b_{fuse}", {"x": x}, [out],
                                        compile_args=[f"--fuse={fuse}"])
            if err:
                print(f"FAIL bench fuse={fuse}: {err}")
                return 1
            with open(os.path.join(work, f"b_{fuse}_out", "stats.json")) as f:
                st = json.load(f)
            e = float(np.max(np.abs(outs[0] - ref)))
            rd, wr = st["dram_bytes_read"], st["dram_bytes_written"]
            print(f"{block.__name__} fuse={fuse}: layers {layers}, cycles {st['cycles']}, DRAM read {rd}, "
                  f"written {wr}, total {rd + wr}, max error {e:.3g}")
    return 0


def main():
    bin_dir, src = sys.argv[1], sys.argv[2]
    if "--bench" in sys.argv[3:]:
        return bench(bin_dir)
    hws = [None, os.path.join(src, "hw", "bandwidth-starved.json")]
    passed = failed = 0
    with tempfile.TemporaryDirectory() as work:
        for name, build, shape in CASES:
            x = RNG.standard_normal(shape).astype(np.float32)
            net, out = build(x)
            ref = net.v[out]
            model = os.path.join(work, name + ".onnx")
            onnx.save(net.m.build(out, list(ref.shape)), model)
            for hw in hws:
                for fuse in ("on", "off"):
                    tag = f"{name} fuse={fuse} hw={os.path.basename(hw) if hw else 'default'}"
                    run = f"{name}_{fuse}_{0 if hw is None else 1}"
                    ok = check_run(bin_dir, model, work, run, {"x": x}, out, ref, tag,
                                   hw=hw, compile_args=[f"--fuse={fuse}"])
                    passed += ok
                    failed += not ok
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
