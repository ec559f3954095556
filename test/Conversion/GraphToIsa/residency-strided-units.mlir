// On-chip residency in strided units (docs/passes.md, "Strided units"): two
// 1x1 convolutions whose mapping splits the pixels over the 2 x 2 grid
// ([N, N]): each cluster computes rows 7c .. 7c + 6 of every channel plane
// of %a (32 x 28 x 28), so its share is 32 runs of 7 x 28 floats (784
// bytes) one plane (3136 bytes) apart. Each run is below the 8 KiB minimum
// of a piece cut between runs, but the 32 runs of one writer form a unit
// of 25 KiB, kept in the writer's storage unit with the runs back to back
// (plane stride 196 floats there instead of 784). The store of %a and the
// second conv's loads of it become local copies of one box each.
// RUN: accel-opt --accel-hw=%S/../../../hw/default.json --accel-default-pipeline %s | FileCheck %s
// RUN: accel-opt --accel-hw=%S/../../../hw/default.json --accel-default-pipeline="residency=off" %s | FileCheck %s --check-prefix=OFF
// RUN: accel-opt --accel-hw=%S/../../../hw/default.json --accel-default-pipeline %s | accel-translate --isa-to-binary -o %t.bin
// RUN: %python -c "import numpy as np; x = (np.arange(16 * 784, dtype='f4').reshape(1, 16, 28, 28) % 13) - 6; np.save('%t.x.npy', x); a = np.einsum('oc,nchw->nohw', np.full((32, 16), 0.25, 'f4'), x); np.save('%t.ref.npy', np.einsum('oc,nchw->nohw', np.full((16, 32), 0.5, 'f4'), a))"
// RUN: accel-run %t.bin --hw %S/../../../hw/default.json --strict-hazards -i x=%t.x.npy --expect y=%t.ref.npy --atol 0 --rtol 0 -o %t.out | FileCheck %s --check-prefix=SIM

// CHECK-LABEL: isa.cluster(0, 0) {
// CHECK: isa.dma local_copy tag {{[0-9]+}} src {{[0-9]+}} dst [[A:[0-9]+]] shape [32, 7, 28] src_strides [196, 28, 1] dst_strides [196, 28, 1] layer 0
// CHECK: isa.dma local_copy tag {{[0-9]+}} src [[A]] dst {{[0-9]+}} shape [16, 7, 28] src_strides [196, 28, 1] dst_strides [196, 28, 1] layer 1
// CHECK-LABEL: isa.cluster(0, 1) {

// In DRAM the share is the 32 runs a plane apart.
// OFF-NOT: local_copy
// OFF: isa.dma store tag {{[0-9]+}} src {{[0-9]+}} dst {{[0-9]+}} shape [32, 7, 28] src_strides [196, 28, 1] dst_strides [784, 28, 1] layer 0

// SIM: y matches the reference (max abs error 0)
func.func @main(%x: tensor<1x16x28x28xf32> {accel.name = "x"}) -> (tensor<1x16x28x28xf32> {accel.name = "y"}) {
  %w1 = arith.constant dense<0.25> : tensor<32x16x1x1xf32>
  %w2 = arith.constant dense<0.5> : tensor<16x32x1x1xf32>
  %a = graph.conv2d %x, %w1 : (tensor<1x16x28x28xf32>, tensor<32x16x1x1xf32>) -> tensor<1x32x28x28xf32>
  %y = graph.conv2d %a, %w2 : (tensor<1x32x28x28xf32>, tensor<16x32x1x1xf32>) -> tensor<1x16x28x28xf32>
  return %y : tensor<1x16x28x28xf32>
}
