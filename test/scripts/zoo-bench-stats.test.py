import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.join(sys.argv[1], "scripts", "zoo"))
import zoo_bench  # noqa: E402

print("model bounds:", zoo_bench.bounds({"cycles": 100}, 2048, 1280, 1024, 128))
print("stats bounds:", zoo_bench.bounds({"ideal_bound_cycles": 77, "compulsory_bytes": 1000},
                                        2048, 1280, 1024, 128))
print("larger program:", zoo_bench.bounds({"ideal_bound_cycles": 77, "compulsory_bytes": 5000},
                                          2048, 1280, 1024, 128))
print("ideal macs:", zoo_bench.bounds({"ideal_bound_cycles": 77, "ideal_macs": 40960,
                                       "compulsory_bytes": 5000}, 2048, 1280, 1024, 128))
print("byte bound:", zoo_bench.bounds({"ideal_bound_cycles": 77, "ideal_macs": 1024,
                                       "compulsory_bytes": 5000}, 2048, 1280, 1024, 128))
print("zero bounds:", zoo_bench.bounds({"ideal_bound_cycles": 0, "compulsory_bytes": 0},
                                       2048, 1280, 1024, 128))
stats = {"cycles": 1000,
         "layers": [{"name": "conv1", "op": "Conv", "cycles": 150},
                    {"name": "conv2", "op": "Conv", "cycles": 500},
                    {"name": "relu", "op": "Relu", "cycles": 50}],
         "unattributed": {"id": None, "name": "", "op": "", "cycles": 300}}
print("top:", zoo_bench.top_layers(stats))
print("no layers:", zoo_bench.top_layers({"cycles": 10}))

rng = np.random.default_rng(0)
init = lambda name, *shape: numpy_helper.from_array(rng.normal(size=shape).astype(np.float32),
                                                     name)
nodes = [helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
         helper.make_node("ConvTranspose", ["c", "wt"], ["t"], strides=[2, 2]),
         helper.make_node("Flatten", ["c"], ["f"]),
         helper.make_node("Gemm", ["f", "g"], ["y"]),
         helper.make_node("LSTM", ["s", "lw", "lr"], ["h"], direction="bidirectional",
                          hidden_size=3)]
f32 = lambda n, s: helper.make_tensor_value_info(n, TensorProto.FLOAT, s)
graph = helper.make_graph(nodes, "g", [f32("x", [1, 2, 8, 8]), f32("s", [8, 1, 4])],
                          [f32("y", [1, 8]), f32("t", [1, 2, 16, 16]), f32("h", [8, 2, 1, 3])],
                          [init("w", 4, 2, 3, 3), init("wt", 4, 2, 2, 2), init("g", 256, 8),
                           init("lw", 2, 12, 4), init("lr", 2, 12, 3)])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
print("macs:", zoo_bench.count_macs(model))

print("machine:", zoo_bench.machine(os.path.join(sys.argv[1], "hw", "bandwidth-starved.json")))
tiny = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"tiny-{os.getpid()}.json")
with open(tiny, "w") as f:
    f.write('{"grid": {"rows": 1, "cols": 1}, "cluster": {"pes": 1}}')
try:
    print("machine:", zoo_bench.machine(tiny))
finally:
    os.remove(tiny)
