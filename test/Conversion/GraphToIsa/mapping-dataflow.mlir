// The loop nest of each dataflow inside one cluster. 128x128x128 matmul,
// 64-element tiles, array [M,M]: cluster (0, 0) computes rows 0-31 with two
// N tiles (n0 = 0, 64) and two K chunks (k0 = 0, 64). a at 0, b at 65536
// (B tile (k0, n0) at 65536 + 4 (128 k0 + n0)), y at 131072.
// The slices are read off the addresses of the linear DRAM plan
// (dram-placement=linear); placement on memory channels: channel-placement.mlir.
// Layer ends are read off sync=barrier listings (one BARRIER per layer);
// the default SIGNAL / RECV synchronisation: sync-events.mlir. The partial
// sums go through DRAM (residency=off: the kernels take only the storage
// they use, so residency would keep the scratch on chip). Resident slots
// sit above the ping-pong halves (A strip at 57344 under output
// stationary).
// RUN: accel-opt %s --select-tiling="partition-m=64 partition-n=64 partition-k=64" --select-mapping="array=M,M dataflow=output_stationary" --convert-graph-to-isa="layer-slice-tiles=true dram-placement=linear sync=barrier residency=off" | FileCheck %s --check-prefix=OS
// RUN: accel-opt %s --select-tiling="partition-m=64 partition-n=64 partition-k=64" --select-mapping="array=M,M dataflow=input_stationary" --convert-graph-to-isa="layer-slice-tiles=true dram-placement=linear sync=barrier residency=off" | FileCheck %s --check-prefix=IS
// RUN: accel-opt %s --select-tiling="partition-m=64 partition-n=64 partition-k=64" --select-mapping="array=M,M dataflow=weight_stationary" --convert-graph-to-isa="layer-slice-tiles=true dram-placement=linear sync=barrier residency=off" | FileCheck %s --check-prefix=WS

// Without layer-slice-tiles the cluster's tiles are chosen for its 32 x 128
// x 128 slice (tiling::chooseSliceTiles, docs/mapping.md): input stationary
// then takes the whole 128 columns per step, one B tile [64, 128] per K
// chunk instead of two [64, 64] ones, and stores [32, 128] tiles (where
// every DMA holds its channel for the whole latency, hw/serial-dram.json:
// fewer, larger DMAs pay).
// RUN: accel-opt --accel-hw=%S/../../../hw/serial-dram.json %s --select-tiling="partition-m=64 partition-n=64 partition-k=64" --select-mapping="array=M,M dataflow=input_stationary" --convert-graph-to-isa="dram-placement=linear sync=barrier residency=off" | FileCheck %s --check-prefix=SLICE
// SLICE-LABEL: isa.cluster(0, 0)
// SLICE: isa.dma load tag 0 src 0 dst 147456 shape [32, 64]
// SLICE: isa.dma load tag 0 src 65536 dst {{[0-9]+}} shape [64, 128]
// SLICE: isa.dma store tag 2 {{.*}} dst 196608 shape [32, 128]
// SLICE: isa.dma load tag 1 src 98304 dst {{[0-9]+}} shape [64, 128]
// SLICE: isa.dma store tag 3 {{.*}} dst 131072 shape [32, 128]
// SLICE-NOT: shape [64, 64]
// SLICE: isa.barrier 0

// Output stationary: m, n, k (k fastest). The A strip (both K chunks) is
// loaded once into a storage slot; B tiles (k0,n0) (k1,n0) (k0,n1) (k1,n1);
// the accumulators are shifted out and stored only after the last chunk.
// Output stationary with two K chunks per tile: one shared C region after the
// two ping-pong halves, so every C store uses tag 2.
// OS-LABEL: isa.cluster(0, 0)
// OS: isa.dma load tag 0 src 0 dst 57344 shape [32, 64]
// OS: isa.dma load tag 0 src 65536 dst
// OS: isa.dma load tag 1 src 256 dst 65536 shape [32, 64]
// OS: isa.dma load tag 1 src 98304 dst
// OS: isa.execute ibuf 0 patches
// OS: isa.wait
// OS: isa.dma load tag 0 src 65792 dst
// OS: isa.execute ibuf 0 shift last
// OS: isa.dma store tag 2 {{.*}} dst 131072 shape [32, 64]
// OS: isa.dma load tag 1 src 98560 dst
// OS: isa.execute ibuf 0 patches
// OS: isa.execute ibuf 0 shift last
// OS: isa.dma store tag 2 {{.*}} dst 131328 shape [32, 64]
// OS: isa.barrier 0

// Input stationary: m, k, n (n fastest). A (k0) stays in slot 0 while
// B (k0,n0) and (k0,n1) stream; every step stores its partial sums (to the
// cluster's scratch at 196608 until the last chunk), then A (k1) in slot 1
// and B (k1, n) with the partial sums reloaded (LD psums, ibufs 2 and 3).
// The second N tile of each A tile finds it still in the PE input buffers
// (MappedGemm heldActs): its sequence (ibufs 0 and 2) has no LD acts.
// IS-LABEL: isa.cluster(0, 0)
// IS: isa.config ibuf 0
// IS-NOT: ld  acts
// IS: isa.mac
// IS: isa.config ibuf 1
// IS-NEXT: isa.ld  acts slot 0
// IS: isa.config ibuf 2
// IS-NEXT: isa.ld  psums
// IS-NOT: ld  acts
// IS: isa.mac
// IS: isa.config ibuf 3
// IS-NEXT: isa.ld  psums
// IS-NEXT: isa.ld  acts slot 0
// IS: isa.dma load tag 0 src 0 dst 81920 shape [32, 64]
// IS: isa.dma load tag 0 src 65536 dst
// IS: isa.dma load tag 1 src 65792 dst
// IS: isa.execute ibuf 1 shift last
// IS: isa.dma store tag 2 {{.*}} dst 196608 shape [32, 64]
// IS: isa.dma load tag 0 src 256 dst 90112 shape [32, 64]
// IS: isa.dma load tag 0 src 98304 dst
// IS: isa.dma load tag 0 src 196608 dst
// IS: isa.execute ibuf 0 shift last
// IS: isa.dma store tag 3 {{.*}} dst 196864 shape [32, 64]
// IS: isa.dma load tag 1 src 98560 dst
// IS: isa.dma load tag 1 src 196864 dst
// IS: isa.execute ibuf 3 shift last
// IS: isa.dma store tag 2 {{.*}} dst 131072 shape [32, 64]
// IS: isa.execute ibuf 2 shift last
// IS: isa.dma store tag 3 {{.*}} dst 131328 shape [32, 64]
// IS: isa.barrier 0

// Weight stationary: n, k, m (m fastest; one M tile here). B (k0,n0) stays
// in slot 0 (storage address 0) while the A tile streams; then B (k1,n0) in
// slot 1 with the partial sums reloaded; then the second N tile.
// WS-LABEL: isa.cluster(0, 0)
// WS: isa.dma load tag 0 src 0 dst {{[0-9]+}} shape [32, 64]
// WS: isa.dma load tag 0 src 65536 dst 81920 shape [64, 64]
// WS: isa.dma store tag 2 {{.*}} dst 196608 shape [32, 64]
// WS: isa.dma load tag 1 src 256 dst
// WS: isa.dma load tag 1 src 98304 dst 98304 shape [64, 64]
// WS: isa.dma load tag 1 src 196608 dst
// WS: isa.dma load tag 0 src 0 dst
// WS: isa.dma load tag 0 src 65792 dst 81920 shape [64, 64]
// WS: isa.dma store tag 3 {{.*}} dst 131072 shape [32, 64]
// WS: isa.dma load tag 1 src 98560 dst 98304
// WS: isa.dma store tag 3 {{.*}} dst 131328 shape [32, 64]
// WS: isa.barrier 0

func.func @main(%a: tensor<128x128xf32> {accel.name = "a"}, %b: tensor<128x128xf32> {accel.name = "b"})
    -> (tensor<128x128xf32> {accel.name = "y"}) {
  %0 = graph.matmul %a, %b : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>
  return %0 : tensor<128x128xf32>
}
