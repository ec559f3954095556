import os, sys, tempfile
import numpy as np
import accel

src = sys.argv[1]
with tempfile.TemporaryDirectory() as d:
    binary = accel.compile(os.path.join(src, "examples", "small_cnn.onnx"), os.path.join(d, "m.bin"))
    image = np.load(os.path.join(src, "examples", "small_cnn_image.npy"))
    outputs, stats = accel.run(binary, {"image": image})
    print("outputs:", sorted(outputs))
    expected = np.load(os.path.join(src, "examples", "small_cnn_expected.npy"))
    print("match:", bool(np.allclose(outputs["logits"], expected, rtol=1e-3, atol=1e-5)))
    print("cycles > 0:", stats["cycles"] > 0)
    try:
        accel.run(binary, {"image": np.zeros((2, 2), np.float32)})
    except accel.AccelError as e:
        print("error:", type(e).__name__)
