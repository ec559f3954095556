// A feature pyramid's top-down add fused into the lateral 1x1 conv
// (fuse-layers broadcast-residual): the residual is the upper level read
// through a nearest 2x upsampling. Each C tile's residual is loaded compact
// (each upper-level element once: 16 channels x 8 pixels per pair of output
// rows) into a staging region after the residual tile, and local copies with
// zero strides along the repeats expand it into the tile before the
// epilogue's EXECUTE (loadResidual, docs/passes.md "fuse-layers").
// Numerics: test/e2e/zoo-e2e.test (the FPN detector against onnxruntime,
// --strict-hazards).
// RUN: accel-opt --accel-hw=%hw_dir/default.json %s --fuse-layers --select-tiling --select-mapping --convert-graph-to-isa="sync=barrier residency=off" | FileCheck %s

// CHECK-LABEL: isa.cluster
// CHECK: isa.execute ibuf 0 shift last patches {{.*}} layer 1
// CHECK-NEXT: isa.dma load tag 4 src [[R0:[0-9]+]] dst [[S0:[0-9]+]] shape [16, 8] src_strides [64, 1] dst_strides [8, 1] layer 1
// CHECK-NEXT: isa.dma load tag 4 src {{[0-9]+}} dst [[S1:[0-9]+]] shape [16, 8] src_strides [64, 1] dst_strides [8, 1] layer 1
// CHECK-NEXT: isa.wait tags [4] layer 1
// CHECK-NEXT: isa.dma local_copy tag 4 src [[S0]] dst [[T:[0-9]+]] shape [16, 2, 8, 2] src_strides [8, 0, 1, 0] dst_strides [64, 16, 2, 1] layer 1
// CHECK-NEXT: isa.dma local_copy tag 4 src [[S1]] dst {{[0-9]+}} shape [16, 2, 8, 2] src_strides [8, 0, 1, 0] dst_strides [64, 16, 2, 1] layer 1
// CHECK-NEXT: isa.wait tags [4] layer 1
// CHECK-NEXT: isa.execute ibuf 1 last
func.func @pyramid(%x: tensor<1x8x16x16xf32>, %u: tensor<1x8x8x8xf32>) -> tensor<1x16x16x16xf32> {
  %w = arith.constant dense<0.5> : tensor<16x8x1x1xf32>
  %v = arith.constant dense<0.25> : tensor<16x8x1x1xf32>
  %lat = graph.conv2d %x, %w : (tensor<1x8x16x16xf32>, tensor<16x8x1x1xf32>) -> tensor<1x16x16x16xf32>
  %up = graph.conv2d %u, %v : (tensor<1x8x8x8xf32>, tensor<16x8x1x1xf32>) -> tensor<1x16x8x8xf32>
  %upr = graph.reshape %up : (tensor<1x16x8x8xf32>) -> tensor<1x16x8x1x8x1xf32>
  %r = graph.reshape %lat : (tensor<1x16x16x16xf32>) -> tensor<1x16x8x2x8x2xf32>
  %s = graph.add %r, %upr : (tensor<1x16x8x2x8x2xf32>, tensor<1x16x8x1x8x1xf32>) -> tensor<1x16x8x2x8x2xf32>
  %y = graph.reshape %s : (tensor<1x16x8x2x8x2xf32>) -> tensor<1x16x16x16xf32>
  return %y : tensor<1x16x16x16xf32>
}
