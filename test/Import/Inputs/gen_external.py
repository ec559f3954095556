#!/usr/bin/python3
"""Writes models whose initializer 'w' is external data, for
test/Import/external-data.test: OUTDIR/secret.bin is outside the model
directory OUTDIR/model/, which holds inside.onnx (location 'w.bin', valid),
dotdot.onnx ('../secret.bin'), absolute.onnx ('<OUTDIR>/secret.bin'),
symlink.onnx ('link.bin', a symlink to ../secret.bin) and device.onnx
('zero.bin', a symlink to /dev/zero inside the directory)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

OUT = os.path.abspath(sys.argv[1])
MODEL_DIR = os.path.join(OUT, "model")
os.makedirs(MODEL_DIR, exist_ok=True)
data = np.arange(4, dtype=np.float32).tobytes()
with open(os.path.join(OUT, "secret.bin"), "wb") as f:
    f.write(data)
with open(os.path.join(MODEL_DIR, "w.bin"), "wb") as f:
    f.write(data)
os.symlink("../secret.bin", os.path.join(MODEL_DIR, "link.bin"))
os.symlink("/dev/zero", os.path.join(MODEL_DIR, "zero.bin"))


def save(location, name):
    w = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[2, 2],
                    data_location=TensorProto.EXTERNAL)
    w.external_data.add(key="location", value=location)
    w.external_data.add(key="length", value="16")
    node = helper.make_node("Add", ["x", "w"], ["y"], name="add")
    g = helper.make_graph(
        [node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 2])],
        initializer=[w])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)],
                          ir_version=8)
    onnx.save_model(m, os.path.join(MODEL_DIR, name))


save("w.bin", "inside.onnx")
save("../secret.bin", "dotdot.onnx")
save(os.path.join(OUT, "secret.bin"), "absolute.onnx")
save("link.bin", "symlink.onnx")
save("zero.bin", "device.onnx")
