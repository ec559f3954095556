// A batch split (array = [B, ...], outside the spec's nine): every cluster
// computes whole instances of a batched matmul, so no operand is read by
// two clusters and nothing is combined. Five instances of
// [4x8] . [8x8] on 2 x 2 (a at 0, 128 bytes per instance; b at 640, 256
// bytes each; y at 1920, 128 bytes each): [B,B] gives cluster (0, 0)
// instances 0-1, the others one each (2, 3, 4). [B,N]: instances 0-2 on
// grid row 0, 3-4 on row 1, N halves by column. Linear DRAM plan, one
// BARRIER per layer.
// RUN: accel-opt %s --select-tiling --select-mapping="array=B,B dataflow=output_stationary" --convert-graph-to-isa="dram-placement=linear sync=barrier" | FileCheck %s --check-prefix=BB
// RUN: accel-opt %s --select-tiling --select-mapping="array=B,N dataflow=output_stationary" --convert-graph-to-isa="dram-placement=linear sync=barrier" | FileCheck %s --check-prefix=BN
// The selection splits the batch for this batched matmul:
// RUN: accel-opt %s --select-tiling --select-mapping | FileCheck %s --check-prefix=SEL

// BB-LABEL: isa.cluster(0, 0)
// BB:   isa.dma load tag 0 src 0 dst {{[0-9]+}} shape [4, 8] src_strides [8, 1]
// BB-NEXT: isa.dma load tag 0 src 640 dst {{[0-9]+}} shape [8, 8] src_strides [8, 1]
// BB:   isa.dma load tag 1 src 128 dst {{[0-9]+}} shape [4, 8] src_strides [8, 1]
// BB-NEXT: isa.dma load tag 1 src 896 dst {{[0-9]+}} shape [8, 8] src_strides [8, 1]
// BB:   isa.dma store tag 2 src {{[0-9]+}} dst 1920 shape [4, 8]
// BB:   isa.dma store tag 3 src {{[0-9]+}} dst 2048 shape [4, 8]
// BB:   isa.barrier 0
// BB-LABEL: isa.cluster(0, 1)
// BB:   isa.dma load tag 0 src 256 dst {{[0-9]+}} shape [4, 8]
// BB-NEXT: isa.dma load tag 0 src 1152 dst {{[0-9]+}} shape [8, 8]
// BB:   isa.dma store tag 2 src {{[0-9]+}} dst 2176 shape [4, 8]
// BB:   isa.barrier 0
// BB-LABEL: isa.cluster(1, 0)
// BB:   isa.dma load tag 0 src 384 dst {{[0-9]+}} shape [4, 8]
// BB-NEXT: isa.dma load tag 0 src 1408 dst {{[0-9]+}} shape [8, 8]
// BB:   isa.dma store tag 2 src {{[0-9]+}} dst 2304 shape [4, 8]
// BB-LABEL: isa.cluster(1, 1)
// BB:   isa.dma load tag 0 src 512 dst {{[0-9]+}} shape [4, 8]
// BB-NEXT: isa.dma load tag 0 src 1664 dst {{[0-9]+}} shape [8, 8]
// BB:   isa.dma store tag 2 src {{[0-9]+}} dst 2432 shape [4, 8]

// BN-LABEL: isa.cluster(0, 0)
// BN:   isa.dma load tag 0 src 0 dst {{[0-9]+}} shape [4, 8]
// BN-NEXT: isa.dma load tag 0 src 640 dst {{[0-9]+}} shape [8, 4] src_strides [8, 1]
// BN-NOT: src 384
// BN:   isa.dma store tag {{[0-9]+}} src {{[0-9]+}} dst 2176 shape [4, 4] src_strides [4, 1] dst_strides [8, 1]
// BN-LABEL: isa.cluster(0, 1)
// BN:   isa.dma load tag 0 src 0 dst {{[0-9]+}} shape [4, 8]
// BN-NEXT: isa.dma load tag 0 src 656 dst {{[0-9]+}} shape [8, 4] src_strides [8, 1]
// BN-LABEL: isa.cluster(1, 0)
// BN:   isa.dma load tag 0 src 384 dst {{[0-9]+}} shape [4, 8]
// BN-NEXT: isa.dma load tag 0 src 1408 dst {{[0-9]+}} shape [8, 4]
// BN:   isa.dma store tag {{[0-9]+}} src {{[0-9]+}} dst 2432 shape [4, 4]
// BN-LABEL: isa.cluster(1, 1)
// BN:   isa.dma load tag 0 src 384 dst {{[0-9]+}} shape [4, 8]
// BN-NEXT: isa.dma load tag 0 src 1424 dst {{[0-9]+}} shape [8, 4]

// SEL: accel.mapping = #accel.mapping<dataflow = {{[a-z_]+}}, array = [{{.*}}B{{.*}}]

func.func @main(%a: tensor<5x4x8xf32> {accel.name = "a"}, %b: tensor<5x8x8xf32> {accel.name = "b"})
    -> (tensor<5x4x8xf32> {accel.name = "y"}) {
  %0 = graph.matmul %a, %b : (tensor<5x4x8xf32>, tensor<5x8x8xf32>) -> tensor<5x4x8xf32>
  return %0 : tensor<5x4x8xf32>
}
