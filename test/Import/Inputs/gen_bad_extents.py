#!/usr/bin/python3
"""Writes the models of bad-extents.test into OUTDIR: inputs that crashed,
hung or failed with an internal error before 2026-12-07 (found by probing
the tools with bad input). Run with Debian's python3-onnx:
/usr/bin/python3 gen_bad_extents.py OUTDIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = sys.argv[1]
F = TensorProto.FLOAT


def save(nodes, inputs, inits, name):
    g = helper.make_graph(nodes, name, inputs,
                          [helper.make_tensor_value_info("y", F, None)], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)],
                          ir_version=8)
    data = m.SerializeToString()
    if name == "non_utf8_name":  # a node name with a 0xFF byte
        data = data.replace(b"\x1a\x02cc", b"\x1a\x02c\xff")
    with open(os.path.join(OUT, name + ".onnx"), "wb") as f:
        f.write(data)


def x(shape):
    return [helper.make_tensor_value_info("x", F, shape)]


w = numpy_helper.from_array(np.ones((8, 3, 3, 3), np.float32), "w")
# A weight with no output channel (a division by zero in the tiling).
save([helper.make_node("Conv", ["x", "w"], ["y"], name="c", kernel_shape=[3, 3])],
     x([1, 3, 16, 16]),
     [numpy_helper.from_array(np.zeros((0, 3, 3, 3), np.float32), "w")],
     "conv_zero_weight")
# INT64_MIN / -1 folded (the hardware traps on it).
save([helper.make_node("Div", ["a", "b"], ["c"], name="d"),
      helper.make_node("Reshape", ["x", "c"], ["y"], name="r")],
     x([4]),
     [numpy_helper.from_array(np.array([-(1 << 63)], np.int64), "a"),
      numpy_helper.from_array(np.array([-1], np.int64), "b")],
     "div_int64_min")
# An interpolation matrix of 4 x 4e9 elements (an abort in a vector's growth).
save([helper.make_node("Resize", ["x", "", "s"], ["y"], name="r")],
     x([1, 1, 4, 4]),
     [numpy_helper.from_array(np.array([1, 1, 1e9, 1e9], np.float32), "s")],
     "resize_huge_scale")
# 2^40 rows of padding (the pricing of its rows took hours).
save([helper.make_node("Conv", ["x", "w"], ["y"], name="c", kernel_shape=[3, 3],
                       pads=[1 << 40, 0, 0, 0])],
     x([1, 3, 16, 16]), [w], "conv_huge_pads")
# A node name that is not UTF-8.
save([helper.make_node("Conv", ["x", "w"], ["y"], name="cc", kernel_shape=[3, 3])],
     x([1, 3, 8, 8]), [w], "non_utf8_name")
# Slice steps near +-2^63: the size computation overflowed and the slice
# of one element came out empty.
for name, start, end, step in (("slice_step_min", 7, 0, -(1 << 63)),
                               ("slice_step_max", 0, 8, (1 << 63) - 1)):
    ints = [numpy_helper.from_array(np.array([v], np.int64), k)
            for k, v in (("s", start), ("e", end), ("a", 2), ("t", step))]
    save([helper.make_node("Slice", ["x", "s", "e", "a", "t"], ["y"], name="sl")],
         x([1, 3, 8, 8]), ints, name)
