// Weights read by several layers count once in the network's weights
// (docs/passes.md "Layer table"): each layer's compulsory_bytes has every
// constant it reads, its weight_bytes only those no earlier layer read, so
// that Σ weight_bytes is the network's weights moved once. The bands of
// depth-first-rows read their chain's weights this way.
// RUN: accel-opt --accel-default-pipeline="fuse=off" %s | FileCheck %s
// CHECK:      layers [
// first: w (16x16, 1024 bytes), reads x (1x16, 64 bytes).
// CHECK-NEXT:   #isa.layer<name = "first", op = "graph.matmul", macs = 256, compulsory_bytes = 1088, weight_bytes = 1024, input_symbols = ["input0"], output_bytes = 64>,
// second: w again, no weights of its own (weight_bytes 0, not printed);
// writes the output (64 bytes).
// CHECK-NEXT:   #isa.layer<name = "second", op = "graph.matmul", macs = 256, compulsory_bytes = 1088, inputs = [0], output_symbols = ["output0"], output_bytes = 64>
// CHECK-NEXT: ] {
// The network's compulsory bytes: w once + x + the output.
// RUN: accel-opt --accel-default-pipeline="fuse=off" %s | accel-translate --isa-to-binary -o %t.bin
// RUN: %python -c "import numpy as np,sys; np.save(sys.argv[1], np.ones((1, 16), np.float32))" %t.x.npy
// RUN: rm -rf %t.out && accel-run %t.bin --input input0=%t.x.npy --output-dir %t.out --quiet
// RUN: FileCheck %s --check-prefix=STATS < %t.out/stats.json
// STATS: "compulsory_bytes": 1152,

func.func @net(%x: tensor<1x16xf32>) -> tensor<1x16xf32> {
  %w = arith.constant dense<0.5> : tensor<16x16xf32>
  %a = graph.matmul %x, %w : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32> loc("first")
  %b = graph.matmul %a, %w : (tensor<1x16xf32>, tensor<16x16xf32>) -> tensor<1x16xf32> loc("second")
  return %b : tensor<1x16xf32>
}
