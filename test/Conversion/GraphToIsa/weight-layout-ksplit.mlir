// Weight layout in DRAM under a K split (docs/mapping.md, "Weight layout in
// DRAM"): a layer whose accel.mapping splits K keeps the filter [O, Cg, KH,
// KW], so that a cluster's channel range is one run per output channel
// (positions at stride 1, channels at KH KW = 9, output channels at 36);
// the same layer split over N stores it [O, KH, KW, Cg] (a chunk of a
// kernel row's three positions x 4 channels at strides 4, 1). Mapped
// kernel, linear DRAM plan.
// RUN: accel-opt %s --select-tiling --select-mapping="dataflow=output_stationary array=K,K" --convert-graph-to-isa="dram-placement=linear sync=barrier" | FileCheck %s --check-prefix=KSPLIT
// RUN: accel-opt %s --select-tiling --select-mapping="dataflow=output_stationary array=N,N" --convert-graph-to-isa="dram-placement=linear sync=barrier" | FileCheck %s --check-prefix=NSPLIT

// KSPLIT: isa.data at {{[0-9]+}} = dense<[0.000000e+00, 1.000000e+00, 2.000000e+00,
// KSPLIT: isa.cluster(0, 0) {
// KSPLIT: isa.dma load tag 0 src {{[0-9]+}} dst {{[0-9]+}} shape [2, {{[0-9]+}}] src_strides [36, 9]
// NSPLIT: isa.data at {{[0-9]+}} = dense<[0.000000e+00, 9.000000e+00, 1.800000e+01, 2.700000e+01, 1.000000e+00,
// NSPLIT: isa.cluster(0, 0) {
// NSPLIT: isa.dma load tag 0 src {{[0-9]+}} dst {{[0-9]+}} shape [2, 3, 4] src_strides [36, 4, 1]
func.func @main(%x: tensor<1x4x6x6xf32> {accel.name = "x"}) -> (tensor<1x2x6x6xf32> {accel.name = "y"}) {
  %w = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0, 64.0, 65.0, 66.0, 67.0, 68.0, 69.0, 70.0, 71.0]> : tensor<72xf32>
  %wr = graph.reshape %w : (tensor<72xf32>) -> tensor<2x4x3x3xf32>
  %y = graph.conv2d %x, %wr {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x6x6xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x6x6xf32>
  return %y : tensor<1x2x6x6xf32>
}
