"""The model zoo: each builder takes a size ("small" for CI, "real" for the
benchmark) and returns (ModelProto, {input name: shape}). Architectures
follow torchvision / the papers; the graph idioms follow the exporters (see
zoo_graph.py). Seeds are fixed per model."""
import numpy as np

from zoo_graph import Graph


def make_divisible(v, divisor=8):
    """torchvision's _make_divisible: round to a multiple of 8, never more
    than 10 % down."""
    new_v = max(divisor, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


# --- ResNet (torchvision resnet18 / resnet50, v1.5 bottleneck) ------------

def _basic_block(g, x, path, planes, stride):
    cin = g.shapes[x][1]
    y = g.conv_bn(x, f"{path}/conv1", planes, 3, stride, act="relu", bn_path=f"{path}/bn1")
    y = g.conv_bn(y, f"{path}/conv2", planes, 3, 1, bn_path=f"{path}/bn2", gamma=(0.2, 0.4))
    if stride != 1 or cin != planes:
        x = g.conv_bn(x, f"{path}/downsample/downsample.0", planes, 1, stride,
                      bn_path=f"{path}/downsample/downsample.1")
    return g.relu(g.binary("Add", y, x, path), path + "/relu")


def _bottleneck(g, x, path, planes, stride):
    cin = g.shapes[x][1]
    y = g.conv_bn(x, f"{path}/conv1", planes, 1, 1, act="relu", bn_path=f"{path}/bn1")
    y = g.conv_bn(y, f"{path}/conv2", planes, 3, stride, act="relu", bn_path=f"{path}/bn2")
    y = g.conv_bn(y, f"{path}/conv3", planes * 4, 1, 1, bn_path=f"{path}/bn3", gamma=(0.2, 0.4))
    if stride != 1 or cin != planes * 4:
        x = g.conv_bn(x, f"{path}/downsample/downsample.0", planes * 4, 1, stride,
                      bn_path=f"{path}/downsample/downsample.1")
    return g.relu(g.binary("Add", y, x, path), path + "/relu")


def _resnet(name, seed, size, block, layers):
    small = size == "small"
    res, width, classes = (64, 8, 10) if small else (224, 64, 1000)
    g = Graph(name, seed, opset=13)
    x = g.input("input", (1, 3, res, res))
    y = _resnet_stem(g, x, width)
    y = _resnet_stages(g, y, block, layers, width)
    y = g.flatten(g.gap(y, "/avgpool"), "/Flatten")
    y = g.gemm(y, "/fc", classes)
    g.output(y)
    return g.model(), {"input": (1, 3, res, res)}


def _resnet_stem(g, x, width):
    y = g.conv_bn(x, "/conv1", width, 7, 2, act="relu", pad=3, bn_path="/bn1")
    return g.maxpool(y, "/maxpool", 3, 2, (1, 1, 1, 1))


def _resnet_stages(g, y, block, layers, width, taps=None):
    for i, n in enumerate(layers):
        for j in range(n):
            stride = 2 if i > 0 and j == 0 else 1
            y = block(g, y, f"/layer{i + 1}/layer{i + 1}.{j}", width << i, stride)
        if taps is not None:
            taps.append(y)
    return y


def resnet18(size):
    return _resnet("resnet18", 18, size, _basic_block, [2, 2, 2, 2])


def resnet50(size):
    return _resnet("resnet50", 50, size, _bottleneck, [3, 4, 6, 3])


# --- MobileNetV2 (Keras applications, exported with tf2onnx: explicit Pad
# before every stride-2 convolution, Clip(0, 6) as ReLU6) -----------------

def mobilenetv2(size):
    small = size == "small"
    res, alpha, classes, last = (64, 0.25, 10, 128) if small else (224, 1.0, 1000, 1280)
    g = Graph("mobilenetv2", 2, opset=13)
    x = g.input("input", (1, 3, res, res))
    cfg = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1),
           (6, 160, 3, 2), (6, 320, 1, 1)]
    y = g.pad(x, "/Conv1_pad", (0, 0, 1, 1))
    y = g.conv_bn(y, "/Conv1", make_divisible(32 * alpha), 3, 2, act="relu6", pad=0,
                  bn_path="/bn_Conv1")
    block = 0
    for t, c, n, s in cfg:
        cout = make_divisible(c * alpha)
        for i in range(n):
            stride = s if i == 0 else 1
            y = _inverted_residual(g, y, f"/block_{block}", t, cout, stride)
            block += 1
    y = g.conv_bn(y, "/Conv_1", last, 1, 1, act="relu6", bn_path="/Conv_1_bn")
    y = g.flatten(g.gap(y, "/global_average_pooling2d"), "/Flatten")
    y = g.gemm(y, "/predictions", classes)
    y = g.unary("Softmax", y, "/predictions/Softmax", axis=-1)
    g.output(y)
    return g.model(), {"input": (1, 3, res, res)}


def _inverted_residual(g, x, path, t, cout, stride):
    cin = g.shapes[x][1]
    y = x
    if t != 1:
        y = g.conv_bn(y, f"{path}_expand", cin * t, 1, 1, act="relu6", bn_path=f"{path}_expand_BN")
    hidden = g.shapes[y][1]
    if stride == 2:
        y = g.pad(y, f"{path}_pad", (0, 0, 1, 1))
        y = g.conv_bn(y, f"{path}_depthwise", hidden, 3, 2, groups=hidden, act="relu6", pad=0,
                      bn_path=f"{path}_depthwise_BN")
    else:
        y = g.conv_bn(y, f"{path}_depthwise", hidden, 3, 1, groups=hidden, act="relu6",
                      bn_path=f"{path}_depthwise_BN")
    y = g.conv_bn(y, f"{path}_project", cout, 1, 1, bn_path=f"{path}_project_BN",
                  gamma=(0.3, 0.6))
    if stride == 1 and cin == cout:
        y = g.binary("Add", x, y, f"{path}_add")
    return y


# --- MobileNetV3 (torchvision, opset 17: HardSwish / HardSigmoid nodes,
# squeeze-and-excite GlobalAveragePool -> Conv -> Relu -> Conv ->
# HardSigmoid -> Mul) -----------------------------------------------------

_V3_LARGE = [(3, 16, 16, False, "RE", 1), (3, 64, 24, False, "RE", 2),
             (3, 72, 24, False, "RE", 1), (5, 72, 40, True, "RE", 2),
             (5, 120, 40, True, "RE", 1), (5, 120, 40, True, "RE", 1),
             (3, 240, 80, False, "HS", 2), (3, 200, 80, False, "HS", 1),
             (3, 184, 80, False, "HS", 1), (3, 184, 80, False, "HS", 1),
             (3, 480, 112, True, "HS", 1), (3, 672, 112, True, "HS", 1),
             (5, 672, 160, True, "HS", 2), (5, 960, 160, True, "HS", 1),
             (5, 960, 160, True, "HS", 1)]
_V3_SMALL = [(3, 16, 16, True, "RE", 2), (3, 72, 24, False, "RE", 2),
             (3, 88, 24, False, "RE", 1), (5, 96, 40, True, "HS", 2),
             (5, 240, 40, True, "HS", 1), (5, 240, 40, True, "HS", 1),
             (5, 120, 48, True, "HS", 1), (5, 144, 48, True, "HS", 1),
             (5, 288, 96, True, "HS", 2), (5, 576, 96, True, "HS", 1),
             (5, 576, 96, True, "HS", 1)]


def _mobilenetv3(name, seed, cfg, last_channel, size):
    small = size == "small"
    res, mult, classes = (64, 0.25, 10) if small else (224, 1.0, 1000)
    last_channel = make_divisible(last_channel * mult) if small else last_channel
    g = Graph(name, seed, opset=17)
    x = g.input("input", (1, 3, res, res))
    y = g.conv_bn(x, "/features/features.0/features.0.0", make_divisible(16 * mult), 3, 2,
                  act="hardswish", bn_path="/features/features.0/features.0.1")
    for i, (k, exp, out, se, act, stride) in enumerate(cfg):
        y = _v3_block(g, y, f"/features/features.{i + 1}/block", k, make_divisible(exp * mult),
                      make_divisible(out * mult), se, act, stride)
    n = len(cfg) + 1
    y = g.conv_bn(y, f"/features/features.{n}/features.{n}.0", 6 * g.shapes[y][1], 1,
                  act="hardswish", bn_path=f"/features/features.{n}/features.{n}.1")
    y = g.flatten(g.gap(y, "/avgpool"), "/Flatten")
    y = g.hardswish(g.gemm(y, "/classifier/classifier.0", last_channel),
                    "/classifier/classifier.1")
    y = g.gemm(y, "/classifier/classifier.3", classes)
    g.output(y)
    return g.model(), {"input": (1, 3, res, res)}


def _v3_block(g, x, path, k, exp, out, se, act, stride):
    cin = g.shapes[x][1]
    a = "relu" if act == "RE" else "hardswish"
    y, i = x, 0
    if exp != cin:
        y = g.conv_bn(y, f"{path}/block.{i}/block.{i}.0", exp, 1, act=a,
                      bn_path=f"{path}/block.{i}/block.{i}.1")
        i += 1
    y = g.conv_bn(y, f"{path}/block.{i}/block.{i}.0", exp, k, stride, groups=exp, act=a,
                  bn_path=f"{path}/block.{i}/block.{i}.1")
    i += 1
    if se:
        y = _squeeze_excite(g, y, f"{path}/block.{i}", make_divisible(exp // 4))
        i += 1
    y = g.conv_bn(y, f"{path}/block.{i}/block.{i}.0", out, 1,
                  bn_path=f"{path}/block.{i}/block.{i}.1", gamma=(0.3, 0.6))
    if stride == 1 and cin == out:
        y = g.binary("Add", y, x, path)
    return y


def _squeeze_excite(g, x, path, squeeze):
    c = g.shapes[x][1]
    s = g.gap(x, f"{path}/avgpool")
    s = g.relu(g.conv(s, f"{path}/fc1", squeeze, 1, bias=True), f"{path}/relu")
    s = g.hardsigmoid(g.conv(s, f"{path}/fc2", c, 1, bias=True), f"{path}/scale_activation")
    return g.binary("Mul", s, x, path, g.shapes[x])


def mobilenetv3_small(size):
    return _mobilenetv3("mobilenetv3-small", 31, _V3_SMALL, 1024, size)


def mobilenetv3_large(size):
    return _mobilenetv3("mobilenetv3-large", 32, _V3_LARGE, 1280, size)


# --- FPN text detector (DBNet: ResNet-18 backbone, FPN neck with nearest
# Resize x2 + Add top-down, bilinear Resize x2/x4/x8 + Concat (PSENet's
# upsampling), head with two stride-2 ConvTranspose layers and a Sigmoid
# probability map) ---------------------------------------------------------

def fpn_textdet(size):
    small = size == "small"
    res, width, inner = (128, 8, 32) if small else (640, 64, 256)
    g = Graph("fpn-textdet", 7, opset=13)
    x = g.input("input", (1, 3, res, res))
    taps = []
    _resnet_stages(g, _resnet_stem(g, x, width), _basic_block, [2, 2, 2, 2], width, taps)
    ins = [g.conv(c, f"/neck/in{i + 2}_conv", inner, 1) for i, c in enumerate(taps)]
    outs = [ins[3]]
    for lvl in (4, 3, 2):  # top-down
        up = g.resize(outs[-1], f"/neck/up{lvl + 1}", 2)
        outs.append(g.binary("Add", ins[lvl - 2], up, f"/neck/out{lvl}"))
    outs = outs[::-1]  # out2, out3, out4, in5
    ps = []
    for i, o in enumerate(outs):
        p = g.conv(o, f"/neck/p{i + 2}_conv", inner // 4, 3)
        ps.append(g.resize(p, f"/neck/p{i + 2}_up", 1 << i, mode="linear") if i else p)
    n, _, h, w = g.shapes[ps[0]]
    fuse = g.node("Concat", ps[::-1], "/neck", (n, inner, h, w), axis=1)
    y = g.conv_bn(fuse, "/head/binarize.0", inner // 4, 3, act="relu", bn_path="/head/binarize.1")
    y = g.conv_transpose(y, "/head/binarize.3", inner // 4, 2, 2)
    y = g.relu(g.bn(y, "/head/binarize.4"), "/head/binarize.5")
    y = g.conv_transpose(y, "/head/binarize.6", 1, 2, 2)
    y = g.unary("Sigmoid", y, "/head/binarize.7")
    g.output(y)
    return g.model(), {"input": (1, 3, res, res)}


# --- CRNN (Shi et al.: VGG-style backbone, two bidirectional LSTMs with a
# Linear embedding each, Softmax over the classes) -------------------------

def crnn(size):
    small = size == "small"
    (h, w), div, hidden, classes = ((32, 32), 8, 16, 11) if small else ((32, 100), 1, 256, 37)
    g = Graph("crnn", 5, opset=13)
    x = g.input("input", (1, 1, h, w))
    c = [64 // div, 128 // div, 256 // div, 256 // div, 512 // div, 512 // div, 512 // div]
    y = g.relu(g.conv(x, "/cnn/conv0", c[0], 3, bias=True), "/cnn/relu0")
    y = g.maxpool(y, "/cnn/pooling0", 2, 2)
    y = g.relu(g.conv(y, "/cnn/conv1", c[1], 3, bias=True), "/cnn/relu1")
    y = g.maxpool(y, "/cnn/pooling1", 2, 2)
    y = g.conv_bn(y, "/cnn/conv2", c[2], 3, act="relu", bn_path="/cnn/batchnorm2")
    y = g.relu(g.conv(y, "/cnn/conv3", c[3], 3, bias=True), "/cnn/relu3")
    y = g.maxpool(y, "/cnn/pooling2", (2, 2), (2, 1), (0, 1, 0, 1))
    y = g.conv_bn(y, "/cnn/conv4", c[4], 3, act="relu", bn_path="/cnn/batchnorm4")
    y = g.relu(g.conv(y, "/cnn/conv5", c[5], 3, bias=True), "/cnn/relu5")
    y = g.maxpool(y, "/cnn/pooling3", (2, 2), (2, 1), (0, 1, 0, 1))
    y = g.conv_bn(y, "/cnn/conv6", c[6], 2, pad=0, act="relu", bn_path="/cnn/batchnorm6")
    n, ch, one, t = g.shapes[y]
    assert one == 1, g.shapes[y]
    axes = g.i64("/Squeeze/axes", [2])
    y = g.node("Squeeze", [y, axes], "", (n, ch, t))
    y = g.transpose(y, "/Transpose", (2, 0, 1))  # [T, N, C]
    y = _bilstm(g, y, "/rnn/rnn.0", hidden, hidden)
    y = _bilstm(g, y, "/rnn/rnn.1", hidden, classes)
    y = g.unary("Softmax", y, "/Softmax", axis=2)
    g.output(y)
    return g.model(), {"input": (1, 1, h, w)}


def _bilstm(g, x, path, hidden, nout):
    """CRNN's BidirectionalLSTM as torch exports it: LSTM (bidirectional,
    zero initial state) -> Transpose / Reshape to [T, N, 2H] -> Reshape
    [T*N, 2H] -> Gemm -> Reshape [T, N, nout]."""
    t, n, cin = g.shapes[x]
    h4 = 4 * hidden
    wx = g.weight(f"{path}/rnn.W", (2, h4, cin), cin)
    wr = g.weight(f"{path}/rnn.R", (2, h4, hidden), hidden)
    b = g.const(f"{path}/rnn.B", g.rng.normal(0, 0.05, (2, 2 * h4)))
    h0 = g.const(f"{path}/rnn.initial_h", np.zeros((2, n, hidden), np.float32))
    c0 = g.const(f"{path}/rnn.initial_c", np.zeros((2, n, hidden), np.float32))
    ys = g.node("LSTM", [x, wx, wr, b, "", h0, c0], f"{path}/rnn", (t, 2, n, hidden),
                n_outputs=3, direction="bidirectional", hidden_size=hidden)
    y = g.transpose(ys[0], f"{path}/Transpose", (0, 2, 1, 3))
    y = g.reshape(y, f"{path}/Reshape", [t * n, 2 * hidden])
    y = g.gemm(y, f"{path}/embedding", nout)
    return g.reshape(y, f"{path}/Reshape_1", [t, n, nout])


# --- BERT-base encoder layer (HuggingFace BertLayer exported at opset 14
# with dynamic axes: MatMul + Add projections, Reshape / Transpose heads
# with the Shape -> Gather -> Unsqueeze -> Concat shape subgraphs, Div by sqrt(d),
# Softmax, GELU as Erf, LayerNorm as ReduceMean / Sub / Pow / Sqrt / Div) --

def bert_layer(size):
    small = size == "small"
    seq, hid, heads, ffn = (16, 64, 4, 128) if small else (128, 768, 12, 3072)
    d = hid // heads
    g = Graph("bert-layer", 12, opset=14)
    x = g.input("hidden_states", (1, seq, hid))
    p = "/attention/self"
    q = _heads(g, g.linear3d(x, f"{p}/query", hid), f"{p}/query", heads, d, (0, 2, 1, 3))
    k = _heads(g, g.linear3d(x, f"{p}/key", hid), f"{p}/key", heads, d, (0, 2, 3, 1))
    v = _heads(g, g.linear3d(x, f"{p}/value", hid), f"{p}/value", heads, d, (0, 2, 1, 3))
    s = g.node("MatMul", [q, k], p, (1, heads, seq, seq))
    s = g.binary("Div", s, g.const(f"{p}/Constant_scale", np.array(np.sqrt(d), np.float32)), p)
    s = g.unary("Softmax", s, p, axis=-1)
    ctx = g.node("MatMul", [s, v], p, (1, heads, seq, d))
    ctx = g.transpose(ctx, p, (0, 2, 1, 3))
    ctx = g.dynamic_reshape(ctx, p, 2, [hid])
    a = g.linear3d(ctx, "/attention/output/dense", hid)
    a = _layer_norm(g, g.binary("Add", a, x, "/attention/output"), "/attention/output/LayerNorm")
    f = g.linear3d(a, "/intermediate/dense", ffn)
    f = _gelu(g, f, "/intermediate/intermediate_act_fn")
    f = g.linear3d(f, "/output/dense", hid)
    y = _layer_norm(g, g.binary("Add", f, a, "/output"), "/output/LayerNorm")
    g.output(y)
    return g.model(), {"hidden_states": (1, seq, hid)}


def _heads(g, x, path, heads, d, perm):
    """HuggingFace's transpose_for_scores: view(size()[:-1] + (heads, d))
    (a Shape / Gather / Unsqueeze / Concat subgraph), then permute."""
    return g.transpose(g.dynamic_reshape(x, path, 2, [heads, d]), path, perm)


def _layer_norm(g, x, path, eps=1e-12):
    hid = g.shapes[x][-1]
    red = g.shapes[x][:-1] + (1,)
    mean = g.node("ReduceMean", [x], path, red, axes=[-1], keepdims=1)
    xc = g.binary("Sub", x, mean, path)
    sq = g.binary("Pow", xc, g.const(f"{path}/Constant_2", np.array(2.0, np.float32)), path)
    var = g.node("ReduceMean", [sq], path, red, axes=[-1], keepdims=1)
    var = g.binary("Add", var, g.const(f"{path}/Constant_eps", np.array(eps, np.float32)),
                   path, red)
    y = g.binary("Div", xc, g.unary("Sqrt", var, path), path)
    y = g.binary("Mul", y, g.const(f"{path}.weight", g.rng.uniform(0.8, 1.2, hid)), path)
    return g.binary("Add", y, g.const(f"{path}.bias", g.rng.normal(0, 0.05, hid)), path)


def _gelu(g, x, path):
    """GELU(x) = x * 0.5 * (1 + erf(x / sqrt(2))), as torch exports it."""
    t = g.binary("Div", x, g.const(f"{path}/Constant", np.array(np.sqrt(2.0), np.float32)), path)
    t = g.unary("Erf", t, path)
    t = g.binary("Add", t, g.const(f"{path}/Constant_1", np.array(1.0, np.float32)), path)
    y = g.binary("Mul", x, t, path)
    return g.binary("Mul", y, g.const(f"{path}/Constant_2", np.array(0.5, np.float32)), path)


# --- 3-layer MLP (Gemm + Relu, Gemm + Relu, Gemm) --------------------------

def mlp3(size):
    small = size == "small"
    din, hid, classes = (64, 32, 10) if small else (784, 1024, 10)
    g = Graph("mlp3", 3, opset=13)
    x = g.input("input", (1, din))
    y = g.relu(g.gemm(x, "/fc1", hid), "/relu1")
    y = g.relu(g.gemm(y, "/fc2", hid), "/relu2")
    y = g.gemm(y, "/fc3", classes)
    g.output(y)
    return g.model(), {"input": (1, din)}


MODELS = {
    "resnet18": resnet18,
    "resnet50": resnet50,
    "mobilenetv2": mobilenetv2,
    "mobilenetv3-small": mobilenetv3_small,
    "mobilenetv3-large": mobilenetv3_large,
    "fpn-textdet": fpn_textdet,
    "crnn": crnn,
    "bert-layer": bert_layer,
    "mlp3": mlp3,
}

# The convolutional networks: the cycles / ideal and DRAM /
# compulsory goals apply to these (CRNN's recurrent half, the BERT layer and
# the MLP are reported but not part of those two worst-case figures).
CNNS = ["resnet18", "resnet50", "mobilenetv2", "mobilenetv3-small", "mobilenetv3-large",
        "fpn-textdet"]


def input_data(model_inputs, seed=0):
    """Deterministic network inputs (uniform in [-1, 1])."""
    rng = np.random.default_rng(seed)
    return {n: rng.uniform(-1.0, 1.0, s).astype(np.float32) for n, s in model_inputs.items()}
