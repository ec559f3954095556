#!/usr/bin/python3
"""Builds examples/small_cnn.onnx, a sample input and its reference output.

A small image classifier: Conv(3->8, 3x3, pad 1) -> Relu -> Conv(8->16, 3x3,
stride 2, pad 1) -> Relu -> Reshape -> Gemm(1024 -> 10, transB) + Add(bias
row). Weights are seeded random numbers. The reference output is computed
here with numpy (independently of the compiler), so the quick start can
check the simulator's numbers.

Run with Debian's interpreter: /usr/bin/python3 examples/make_small_cnn.py
"""
import os
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(7)


def conv_ref(x, w, b, stride, pad):
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - kh) // stride + 1
    ow = (wd + 2 * pad - kw) // stride + 1
    y = np.zeros((n, o, oh, ow), dtype=np.float64)
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, :, i:i + stride * oh:stride, j:j + stride * ow:stride]
            y += np.einsum("nchw,oc->nohw", patch, w[:, :, i, j])
    return y + b.reshape(1, o, 1, 1)


def main():
    x = rng.standard_normal((1, 3, 16, 16)).astype(np.float32)
    w1 = (rng.standard_normal((8, 3, 3, 3)) * 0.3).astype(np.float32)
    b1 = (rng.standard_normal(8) * 0.1).astype(np.float32)
    w2 = (rng.standard_normal((16, 8, 3, 3)) * 0.2).astype(np.float32)
    b2 = (rng.standard_normal(16) * 0.1).astype(np.float32)
    wf = (rng.standard_normal((10, 16 * 8 * 8)) * 0.05).astype(np.float32)
    bf = (rng.standard_normal((1, 10)) * 0.1).astype(np.float32)
    shape = np.array([1, 16 * 8 * 8], dtype=np.int64)

    nodes = [
        helper.make_node("Conv", ["image", "w1", "b1"], ["c1"], name="conv1",
                         kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], name="conv2",
                         kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("Relu", ["c2"], ["r2"], name="relu2"),
        helper.make_node("Reshape", ["r2", "shape"], ["flat"], name="flatten"),
        helper.make_node("Gemm", ["flat", "wf"], ["fc"], name="fc", transB=1),
        helper.make_node("Add", ["fc", "bf"], ["logits"], name="bias"),
    ]
    inits = [numpy_helper.from_array(a, n) for a, n in
             [(w1, "w1"), (b1, "b1"), (w2, "w2"), (b2, "b2"), (wf, "wf"),
              (bf, "bf"), (shape, "shape")]]
    graph = helper.make_graph(
        nodes, "small_cnn",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, 16, 16])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 10])],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                              producer_name="accel-examples")
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(HERE, "small_cnn.onnx"))

    r1 = np.maximum(conv_ref(x.astype(np.float64), w1, b1, 1, 1), 0)
    r2 = np.maximum(conv_ref(r1, w2, b2, 2, 1), 0)
    logits = r2.reshape(1, -1) @ wf.T.astype(np.float64) + bf
    np.save(os.path.join(HERE, "small_cnn_image.npy"), x)
    np.save(os.path.join(HERE, "small_cnn_expected.npy"), logits.astype(np.float32))
    print("wrote small_cnn.onnx, small_cnn_image.npy, small_cnn_expected.npy")


if __name__ == "__main__":
    main()
