import os, sys
import numpy as np
import accel

src = sys.argv[1]
program = accel.compile(os.path.join(src, "examples", "small_cnn.onnx"))
image = np.load(os.path.join(src, "examples", "small_cnn_image.npy"))
outputs, stats = program.run({"image": image})
print("outputs:", sorted(outputs))
expected = np.load(os.path.join(src, "examples", "small_cnn_expected.npy"))
print("match:", bool(np.allclose(outputs["logits"], expected, rtol=1e-3, atol=1e-5)))
print("cycles > 0:", stats["cycles"] > 0)
try:
    accel.run(program, {"image": np.zeros((2, 2), np.float32)})
except accel.AccelError as e:
    print("error:", type(e).__name__, isinstance(e, accel.Error))
