// Partitions that leave a grid dimension unsplit ("none", outside the
// spec's nine): only the clusters at index 0 along that dimension work. The
// spec's I (4x8) . W (8x8) = O (4x8) on 2 x 2 (a at 0, b at 128, y at 384).
// [K,none]: K halves on the first column (cluster (r, 0) loads I[:, 4r..]
// and W[4r.., :]), partial sums at 512 + 128 r, one add layer across rows;
// the second column idles. [none,none]: cluster (0, 0) computes everything.
// The slices are read off the addresses of the linear DRAM plan
// (dram-placement=linear); placement on memory channels: channel-placement.mlir.
// Layer ends are read off sync=barrier listings (one BARRIER per layer);
// the default SIGNAL / RECV synchronisation: sync-events.mlir.
// RUN: accel-opt %s --select-tiling --select-mapping="array=K,none dataflow=output_stationary" --convert-graph-to-isa="dram-placement=linear sync=barrier residency=off" | FileCheck %s --check-prefix=KX
// RUN: accel-opt %s --select-tiling --select-mapping="array=none,none dataflow=output_stationary" --convert-graph-to-isa="dram-placement=linear sync=barrier residency=off" | FileCheck %s --check-prefix=XX
// Where every DMA holds its channel for the whole latency (one in flight,
// hw/serial-dram.json), the selection leaves the grid unsplit for this tiny
// layer:
// RUN: accel-opt --accel-hw=%S/../../../hw/serial-dram.json %s --select-tiling --select-mapping | FileCheck %s --check-prefix=SEL

// KX-LABEL: isa.cluster(0, 0)
// KX:   isa.dma load tag 0 src 0 dst {{[0-9]+}} shape [4, 4] src_strides [8, 1]
// KX-NEXT: isa.dma load tag 0 src 128 dst {{[0-9]+}} shape [4, 8] src_strides [8, 1]
// KX:   isa.dma store tag 2 src {{[0-9]+}} dst 512 shape [4, 8]
// KX:   isa.barrier 0
// KX:   isa.dma load tag 0 src 512 dst {{[0-9]+}} shape [32]
// KX:   isa.dma load tag 0 src 640 dst {{[0-9]+}} shape [32]
// KX:   isa.dma store tag 2 src {{[0-9]+}} dst 384 shape [32]
// KX-LABEL: isa.cluster(0, 1)
// KX-NOT: isa.dma
// KX-LABEL: isa.cluster(1, 0)
// KX:   isa.dma load tag 0 src 16 dst {{[0-9]+}} shape [4, 4] src_strides [8, 1]
// KX-NEXT: isa.dma load tag 0 src 256 dst {{[0-9]+}} shape [4, 8] src_strides [8, 1]
// KX:   isa.dma store tag 2 src {{[0-9]+}} dst 640 shape [4, 8]
// KX-LABEL: isa.cluster(1, 1)
// KX-NOT: isa.dma

// XX-LABEL: isa.cluster(0, 0)
// XX:   isa.dma load tag 0 src 0 dst {{[0-9]+}} shape [4, 8] src_strides [8, 1]
// XX-NEXT: isa.dma load tag 0 src 128 dst {{[0-9]+}} shape [8, 8] src_strides [8, 1]
// XX:   isa.dma store tag 2 src {{[0-9]+}} dst 384 shape [4, 8]
// XX-LABEL: isa.cluster(0, 1)
// XX-NOT: isa.dma
// XX-LABEL: isa.cluster(1, 0)
// XX-NOT: isa.dma
// XX-LABEL: isa.cluster(1, 1)
// XX-NOT: isa.dma

// SEL: accel.mapping = #accel.mapping<dataflow = {{[a-z_]+}}, array = [{{.*}}none{{.*}}]

func.func @main(%a: tensor<4x8xf32> {accel.name = "a"}, %b: tensor<8x8xf32> {accel.name = "b"})
    -> (tensor<4x8xf32> {accel.name = "y"}) {
  %0 = graph.matmul %a, %b : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
