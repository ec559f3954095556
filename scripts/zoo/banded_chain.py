#!/usr/bin/env python3
"""A chain of two ResNet basic blocks (four 3x3 convolutions, 64 channels,
160 x 160, residual adds and relus) as ONNX, whole or cut by hand into
row bands: each band slices the rows it needs of the input (the halo of
every convolution after it, recomputed per band) with ONNX Slice on H,
runs the chain on them and the bands are concatenated on H. The
experiment of docs/zoo.md ("DRAM / compulsory"): whether graph-level
banding lowers DRAM traffic with today's lowering.

  /usr/bin/python3 scripts/zoo/banded_chain.py BANDS OUT.onnx
  (also writes OUT.onnx.in.npy, the input)
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

C, H, W = 64, 160, 160


def build(bands):
    rng = np.random.default_rng(0)
    inits, nodes, count = [], [], [0]

    def name(prefix):
        count[0] += 1
        return f"{prefix}{count[0]}"

    def const(arr, dtype=np.float32):
        n = name("k")
        inits.append(numpy_helper.from_array(np.asarray(arr, dtype), n))
        return n

    weights = [const(rng.standard_normal((C, C, 3, 3)) * 0.05) for _ in range(4)]
    biases = [const(rng.standard_normal(C) * 0.1) for _ in range(4)]

    def node(op, inputs, **attrs):
        out = name(op.lower())
        nodes.append(helper.make_node(op, inputs, [out], name=out, **attrs))
        return out

    def rows(x, r0, r1):
        return node("Slice", [x, const([r0], np.int64), const([r1], np.int64),
                              const([2], np.int64)])

    def chain(x, o0, o1):
        # Output rows of conv k for final rows [o0, o1): one more row on
        # each side per later 3x3 convolution, clipped to the image.
        spans, a, b = [], o0, o1
        for _ in range(4):
            spans.append((a, b))
            a, b = max(0, a - 1), min(H, b + 1)
        spans.reverse()
        have = (a, b)  # rows of the band's input
        xin = rows(x, a, b) if have != (0, H) else x

        def conv(t, trows, k):
            oa, ob = spans[k]
            ia, ib = max(0, oa - 1), min(H, ob + 1)
            if (ia, ib) != trows:
                t = rows(t, ia - trows[0], ib - trows[0])
            pads = [1 if oa == 0 else 0, 1, 1 if ob == H else 0, 1]
            return node("Conv", [t, weights[k], biases[k]], kernel_shape=[3, 3],
                        pads=pads), (oa, ob)

        def skip(t, trows, want):
            return t if want == trows else rows(t, want[0] - trows[0],
                                                want[1] - trows[0])

        t0, r0 = conv(xin, have, 0)
        t1, r1 = conv(node("Relu", [t0]), r0, 1)
        y1 = node("Relu", [node("Add", [t1, skip(xin, have, r1)])])
        t2, r2 = conv(y1, r1, 2)
        t3, r3 = conv(node("Relu", [t2]), r2, 3)
        return node("Relu", [node("Add", [t3, skip(y1, r1, r3)])])

    step = H // bands
    outs = [chain("input", i * step, H if i == bands - 1 else (i + 1) * step)
            for i in range(bands)]
    y = outs[0] if bands == 1 else node("Concat", outs, axis=2)
    graph = helper.make_graph(
        nodes, "banded_chain",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, C, H, W])],
        [helper.make_tensor_value_info(y, TensorProto.FLOAT, [1, C, H, W])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model, rng.uniform(-1, 1, (1, C, H, W)).astype(np.float32)


def main():
    if len(sys.argv) != 3 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        sys.exit("usage: banded_chain.py BANDS OUT.onnx")
    model, x = build(int(sys.argv[1]))
    onnx.save(model, sys.argv[2])
    np.save(sys.argv[2] + ".in.npy", x)


if __name__ == "__main__":
    main()
