// A convolution filter strip no cluster's storage holds, shared over the
// mesh (filter-share, docs/mapping.md "Filter strips shared over the mesh").
// A 3 x 3 convolution of 256 -> 64 channels on 64 x 64 (the FPN neck's
// p2_conv at a quarter of its size): its 590 KB filter is 72 K chunks of
// 8 KiB, over the 512 KiB of a cluster's storage, and every cluster of the
// data split computes with all of it. The home size that pays with the
// least channel time is 10 chunks: each cluster loads its 10 home chunks
// (of chunks 0-39) once into the top 80 KiB of its storage (tag 7), tells
// the others (SIGNAL semaphore 8 = 2 x clusters) and waits for theirs
// (RECV 8, count 3); the chunks of 0-39 its own strip does not keep are
// then remote_loads from their owners instead of DRAM loads per pixel
// block (chunks 40-71 have no home: kept or streamed as before). After its
// last step it tells the others it reads no home region any more
// (semaphore 9) and waits for theirs before the next layer may overwrite
// its own.
// The filter is not a splat (a splat filter is filled at run time), so the
// test writes it with numpy.
// RUN: %python -c "import numpy as n; w = (n.arange(64 * 256 * 9, dtype=n.float32) %% 7 - 3) / 16; print('func.func @main(%%x: tensor<1x256x64x64xf32> {accel.name = \"x\"}) -> (tensor<1x64x64x64xf32> {accel.name = \"y\"}) {'); print('  %%w = arith.constant dense<\"0x' + w.astype('<f4').tobytes().hex().upper() + '\"> : tensor<64x256x3x3xf32>'); print('  %%b = arith.constant dense<0.25> : tensor<64xf32>'); print('  %%y = graph.conv2d %%x, %%w, %%b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x256x64x64xf32>, tensor<64x256x3x3xf32>, tensor<64xf32>) -> tensor<1x64x64x64xf32>'); print('  return %%y : tensor<1x64x64x64xf32>'); print('}')" > %t.mlir
// RUN: accel-compile %t.mlir --emit=isa -o - | FileCheck %s
// RUN: accel-compile %t.mlir --emit=isa --filter-share=false -o - | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: isa.cluster(0, 0) {
// CHECK:      isa.dma load tag 7 src {{[0-9]+}} dst 442368 shape [64, 32]
// CHECK-COUNT-8: isa.dma load tag 7
// CHECK-NEXT: isa.dma load tag 7 src {{[0-9]+}} dst 516096 shape [64, 32]
// CHECK-NEXT: isa.wait tags [7]
// CHECK-NEXT: isa.signal to [(0, 1), (1, 0), (1, 1)] sem 8
// CHECK-NEXT: isa.recv sem 8 count 3
// CHECK:      isa.dma remote_load from (0, 1) tag {{[01]}} src {{[0-9]+}} dst {{[0-9]+}} shape [64, 32] src_strides [32, 1] dst_strides [32, 1]
// CHECK:      isa.signal to [(0, 1), (1, 0), (1, 1)] sem 9
// CHECK-NEXT: isa.recv sem 9 count 3
// CHECK-LABEL: isa.cluster(1, 1) {
// CHECK:      isa.dma load tag 7 src {{[0-9]+}} dst 442368 shape [64, 32]
// CHECK:      isa.signal to [(0, 0), (0, 1), (1, 0)] sem 8
// CHECK-NEXT: isa.recv sem 8 count 3
// CHECK:      isa.dma remote_load from (0, 0)
// CHECK:      isa.signal to [(0, 0), (0, 1), (1, 0)] sem 9
// CHECK-NEXT: isa.recv sem 9 count 3

// OFF-NOT: remote_load
// OFF-NOT: sem 8
