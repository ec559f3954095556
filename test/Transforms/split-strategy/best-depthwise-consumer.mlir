// parallel=best and the interleaved-store rule (docs/mapping.md,
// "Interleaved output stores"). An N split whose clusters write all output
// channels with one M tile is priced as storing the whole output on one
// memory channel (best-output-channel.mlir), unless a depthwise conv reads
// the result and it is larger than a third of all storage units together
// (here 2 MiB / 3): DRAM placement then cuts it into channel pieces on both
// channels. MobileNetV3-Large's 16 -> 64 expansion at 112 x 112 (3.2 MB)
// before its stride-2 depthwise conv: data 33270 (58708 as the pointwise
// conv of @expand_pw prices the same split), so data is chosen. The same
// expansion at 28 x 28 (200 KB) may stay resident where an M split's
// clusters wrote it: the rule applies, model is chosen.
// RUN: accel-opt --mlir-print-op-on-diagnostic=false --accel-hw=%hw_dir/default.json --fuse-layers --select-tiling --tensor-labeling --split-strategy="parallel=best print=true" %s 2>&1 >/dev/null | FileCheck %s

// CHECK: 16:8: remark: parallel=best: data 33270 model 51780 hybrid 51780 -> data
func.func @expand_dw(%x: tensor<1x16x112x112xf32>, %w: tensor<64x16x1x1xf32>, %b: tensor<64xf32>, %dw: tensor<64x1x3x3xf32>) -> tensor<1x64x56x56xf32> {
  %e = graph.conv2d %x, %w, %b : (tensor<1x16x112x112xf32>, tensor<64x16x1x1xf32>, tensor<64xf32>) -> tensor<1x64x112x112xf32>
  %r = graph.relu %e : tensor<1x64x112x112xf32>
  %y = graph.conv2d %r, %dw {groups = 64 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x64x112x112xf32>, tensor<64x1x3x3xf32>) -> tensor<1x64x56x56xf32>
  return %y : tensor<1x64x56x56xf32>
}

// CHECK: 24:8: remark: parallel=best: data 58708 model 51780 hybrid 51780 -> model
func.func @expand_pw(%x: tensor<1x16x112x112xf32>, %w: tensor<64x16x1x1xf32>, %b: tensor<64xf32>, %pw: tensor<16x64x1x1xf32>) -> tensor<1x16x112x112xf32> {
  %e = graph.conv2d %x, %w, %b : (tensor<1x16x112x112xf32>, tensor<64x16x1x1xf32>, tensor<64xf32>) -> tensor<1x64x112x112xf32>
  %r = graph.relu %e : tensor<1x64x112x112xf32>
  %y = graph.conv2d %r, %pw : (tensor<1x64x112x112xf32>, tensor<16x64x1x1xf32>) -> tensor<1x16x112x112xf32>
  return %y : tensor<1x16x112x112xf32>
}

// CHECK: 32:8: remark: parallel=best: data 4300 model 3456 hybrid 3456 -> model
func.func @small_expand_dw(%x: tensor<1x16x28x28xf32>, %w: tensor<64x16x1x1xf32>, %b: tensor<64xf32>, %dw: tensor<64x1x3x3xf32>) -> tensor<1x64x28x28xf32> {
  %e = graph.conv2d %x, %w, %b : (tensor<1x16x28x28xf32>, tensor<64x16x1x1xf32>, tensor<64xf32>) -> tensor<1x64x28x28xf32>
  %y = graph.conv2d %e, %dw {groups = 64 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x64x28x28xf32>, tensor<64x1x3x3xf32>) -> tensor<1x64x28x28xf32>
  return %y : tensor<1x64x28x28xf32>
}
