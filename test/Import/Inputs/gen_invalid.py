#!/usr/bin/python3
"""Writes invalid ONNX models for test/Import/invalid-onnx.test and
external-data.test into OUTDIR (run by the tests: /usr/bin/python3
gen_invalid.py OUTDIR). Each model differs from a valid one in one place."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = sys.argv[1]
F = TensorProto.FLOAT
os.makedirs(OUT, exist_ok=True)


def save(m, name):
    onnx.save_model(m, os.path.join(OUT, name))


def model(nodes, inputs, outputs, opsets=(("", 13),), ir_version=8, inits=()):
    g = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(inits))
    return helper.make_model(
        g, opset_imports=[helper.make_opsetid(d, v) for d, v in opsets],
        ir_version=ir_version)


def vi(name, shape):
    return helper.make_tensor_value_info(name, F, shape)


def gemm(opsets=(("", 13),), ir_version=8, **attrs):
    node = helper.make_node("Gemm", ["a", "b"], ["y"], name="fc", **attrs)
    return model([node], [vi("a", [2, 3]), vi("b", [3, 4])], [vi("y", [2, 4])],
                 opsets, ir_version)


save(gemm(), "valid_gemm.onnx")
save(gemm(opsets=(("", 9999),)), "opset_9999.onnx")
save(gemm(opsets=(("", 0),)), "opset_0.onnx")
save(gemm(opsets=(("com.example", 1),)), "no_default_opset.onnx")
save(gemm(opsets=(("", 13), ("ai.onnx", 13))), "opset_twice.onnx")
save(gemm(ir_version=99), "ir_version_99.onnx")
# A bit flip in the attribute name: 'beta' (0x62) became 'bgta'.
save(gemm(alpha=2.0, bgta=0.5), "renamed_beta.onnx")

# RNN with hidden_size = -1 (R says 4).
rnn = helper.make_node("RNN", ["x", "w", "r"], ["", "yh"], name="rnn",
                       hidden_size=-1)
save(model([rnn], [vi("x", [5, 1, 3]), vi("w", [1, 4, 3]), vi("r", [1, 4, 4])],
           [vi("yh", [1, 1, 4])]), "rnn_hidden_negative.onnx")

# MaxPool with a zero kernel, Conv with group 0.
pool = helper.make_node("MaxPool", ["x"], ["y"], name="pool",
                        kernel_shape=[0, 2])
save(model([pool], [vi("x", [1, 1, 4, 4])], [vi("y", [1, 1, 5, 3])]),
     "pool_zero_kernel.onnx")
conv = helper.make_node("Conv", ["x", "w"], ["y"], name="conv", group=0)
save(model([conv], [vi("x", [1, 2, 4, 4]), vi("w", [2, 2, 1, 1])],
           [vi("y", [1, 2, 4, 4])]), "conv_group_zero.onnx")

# DepthToSpace whose blocksize squared overflows int64.
d2s = helper.make_node("DepthToSpace", ["x"], ["y"], name="d2s",
                       blocksize=1 << 32)
save(model([d2s], [vi("x", [1, 4, 2, 2])], [vi("y", [1, 1, 4, 4])]),
     "depth_to_space_overflow.onnx")
