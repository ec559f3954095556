// The four target-dim examples of the spec ([0172]-[0177], corrected) as
// convolution inputs [n, c, h, w] whose database row (test database
// Inputs/dimsel.json) lists the splittable dims: model = (n, h), hybrid =
// (n, c). M = memory channels, C = cores.
// RUN: env ACCEL_STRATEGY_DIR=%S/Inputs accel-opt --mlir-print-op-on-diagnostic=false --accel-hw=%S/Inputs/m4-c4.json --tensor-labeling --split-strategy="parallel=model print" %s --split-input-file 2>&1 | FileCheck %s --check-prefix=M4
// RUN: env ACCEL_STRATEGY_DIR=%S/Inputs accel-opt --mlir-print-op-on-diagnostic=false --accel-hw=%S/Inputs/m2-c4.json --tensor-labeling --split-strategy="parallel=hybrid print" %s --split-input-file 2>&1 | FileCheck %s --check-prefix=HYB
// RUN: env ACCEL_STRATEGY_DIR=%S/Inputs accel-opt --mlir-print-op-on-diagnostic=false --accel-hw=%S/Inputs/m2-c4.json --tensor-labeling --split-strategy="parallel=model print" %s --split-input-file 2>&1 | FileCheck %s --check-prefix=M2

// [0172]: w1 = 2, w2 = 32, w3 = 64, splittable w1, w3, M = 4: w1 < 4 fails,
// w3 (64) is the target (the text prints 32); 64 >= C = 4: 4 pieces of 16.
// The input drives the partition (the weight row does not split): output
// rows (N) 16 per cluster.
// M4-LABEL: remark: argument 0: static:in,float32,dim_nchw,{2 32 64 1} dynamic:float32,dim_nchw,w=1,w=0,16384 bytes,h[(0,15),(16,31),(32,47),(48,63)],cluster,cluster
// M4: accel.mapping = #accel.mapping<ranges = [0, 16, 32, 48, 64], array = [N, N]>
func.func @ex0172(%x: tensor<2x32x64x1xf32>, %w: tensor<4x32x1x1xf32>) -> tensor<2x4x64x1xf32> {
  %y = graph.conv2d %x, %w : (tensor<2x32x64x1xf32>, tensor<4x32x1x1xf32>) -> tensor<2x4x64x1xf32>
  return %y : tensor<2x4x64x1xf32>
}

// -----

// [0175] (hybrid row: a, b) M = 2, 2 clusters x 2 cores: a = 1, b = 4,
// c = 2: b (4 >= C) is the target, 4 pieces of length 1. 1x1 kernel: the
// channel split is a K split, two channels per cluster.
// HYB-LABEL: remark: argument 0: static:in,float32,dim_nchw,{1 4 2 1} dynamic:float32,dim_nchw,w=1,w=0,32 bytes,c[(0,0),(1,1),(2,2),(3,3)],mem,none
// HYB: accel.mapping = #accel.mapping<ranges = [0, 2, 4], array = [K, K]>
// [0176] (model row: a, c), same hardware: c, D = 2 = M: mode 2, 2 pieces
// of length 1.
// M2-LABEL: remark: argument 0: static:in,float32,dim_nchw,{1 4 2 1} dynamic:float32,dim_nchw,w=1,w=0,32 bytes,h[(0,0),(1,1)],cluster,cluster
// M2: accel.mapping = #accel.mapping<ranges = [0, 1, 2], array = [N, N]>
func.func @ex0175(%x: tensor<1x4x2x1xf32>, %w: tensor<3x4x1x1xf32>) -> tensor<1x3x2x1xf32> {
  %y = graph.conv2d %x, %w : (tensor<1x4x2x1xf32>, tensor<3x4x1x1xf32>) -> tensor<1x3x2x1xf32>
  return %y : tensor<1x3x2x1xf32>
}

// -----

// [0177]: M = 4, 2 x 2 cores, a = 1, b = 2, c = 2, splittable a, c: none
// reaches 4, the largest is c; D = 2 < M: mode 3, 2 pieces of length 1 (the
// text prints 2). Pieces spread over the cores: clusters 0 and 2 work.
// M4-LABEL: remark: argument 0: static:in,float32,dim_nchw,{1 2 2 1} dynamic:float32,dim_nchw,w=1,w=0,16 bytes,h[(0,0),(1,1)],cluster,cluster
// M4: accel.mapping = #accel.mapping<ranges = [0, 1, 1, 2, 2], array = [N, N]>
func.func @ex0177(%x: tensor<1x2x2x1xf32>, %w: tensor<3x2x1x1xf32>) -> tensor<1x3x2x1xf32> {
  %y = graph.conv2d %x, %w : (tensor<1x2x2x1xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x2x1xf32>
  return %y : tensor<1x3x2x1xf32>
}
