// ONNX TensorProto (.pb) files are decoded by libAccelTensorProto.so,
// which accel-run loads on the first .pb file it reads (so that a run with
// .npy files never loads the protobuf library; lib/Sim/TensorProtoFields.h).
// ACCEL_TENSORPROTO_MODULE names the module; when it cannot be loaded a
// .pb input is a clear error, and .npy inputs still run.
// RUN: accel-translate --isa-to-binary %S/accel-run.mlir -o %t.bin
// RUN: rm -rf %t.out %t.out2
// RUN: %python -c "import numpy as np,sys; np.save(sys.argv[1], np.arange(60, dtype=np.float32).reshape(3, 4, 5) - 30)" %t.x.npy
// RUN: env ACCEL_TENSORPROTO_MODULE=%t.nonexistent.so accel-run %t.bin --input x=%t.x.npy --output-dir %t.out --quiet
// RUN: %python -c "import numpy as np,sys; print('y', np.load(sys.argv[1]).ravel()[28:33].tolist())" %t.out/y.npy | FileCheck %s --check-prefix=NPY
// NPY: y [0.0, 0.0, 0.0, 1.0, 2.0]
// RUN: env ACCEL_TENSORPROTO_MODULE=%t.nonexistent.so not accel-run %t.bin --input x=%onnx_data/node/test_relu/test_data_set_0/input_0.pb 2>&1 | FileCheck %s --check-prefix=NOMODULE
// NOMODULE: input_0.pb: reading ONNX TensorProto files needs libAccelTensorProto.so, which could not be loaded ({{.*}}nonexistent.so{{.*}})
// With the module (found next to accel-run) the .pb input runs.
// RUN: accel-run %t.bin --input x=%onnx_data/node/test_relu/test_data_set_0/input_0.pb --expect y=%onnx_data/node/test_relu/test_data_set_0/output_0.pb --output-dir %t.out2 | FileCheck %s --check-prefix=PB
// PB: y matches the reference (max abs error 0)
