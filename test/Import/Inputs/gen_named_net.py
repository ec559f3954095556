"""A small ONNX model for test/Import/locations.test: Conv -> BatchNormalization
-> Relu (unnamed) -> Flatten -> Gemm, as exporters write it (BN not folded).
Deterministic weights.

usage: gen_named_net.py OUT.onnx
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def main():
    rng = np.random.default_rng(12)
    w = rng.standard_normal((4, 2, 3, 3)).astype(np.float32)
    scale = rng.uniform(0.5, 1.5, 4).astype(np.float32)
    bias = rng.standard_normal(4).astype(np.float32)
    mean = rng.standard_normal(4).astype(np.float32)
    var = rng.uniform(0.5, 2.0, 4).astype(np.float32)
    fc_w = rng.standard_normal((3, 64)).astype(np.float32)
    fc_b = rng.standard_normal(3).astype(np.float32)
    inits = [
        numpy_helper.from_array(a, n)
        for a, n in [(w, "conv.w"), (scale, "bn.scale"), (bias, "bn.bias"),
                     (mean, "bn.mean"), (var, "bn.var"), (fc_w, "fc.w"),
                     (fc_b, "fc.b")]
    ]
    nodes = [
        helper.make_node("Conv", ["x", "conv.w"], ["c"], name="/stem/conv/Conv",
                         pads=[0, 0, 0, 0]),
        helper.make_node("BatchNormalization",
                         ["c", "bn.scale", "bn.bias", "bn.mean", "bn.var"],
                         ["b"], name="/stem/bn/BatchNormalization"),
        helper.make_node("Relu", ["b"], ["r"]),  # unnamed: "Relu_2"
        helper.make_node("Flatten", ["r"], ["f"], name="/head/Flatten"),
        helper.make_node("Gemm", ["f", "fc.w", "fc.b"], ["y"],
                         name="/head/fc/Gemm", transB=1),
    ]
    graph = helper.make_graph(
        nodes, "named_net",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 6, 6])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3])],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, sys.argv[1])


if __name__ == "__main__":
    main()
