// Application examples 1 and 2 of spec/labels-and-splits.md as a reduction
// tree (docs/labels-and-splits.md, "Lowering: reduction trees, constant
// packets, materialisation"): FC i 1x1024 . w 1024x4 = o 1x4, model
// parallel, K (the reduction dim c) split over the four clusters of the
// default 2 x 2 grid: cluster (r, c) computes o(1 + 2r + c) into its
// partial copy (K part j at 20544 + 16 j). The pairwise tree of
// split::reductionTree(4): level 0 o5 = o1 + o2 in (0, 0), o6 = o3 + o4 in
// (1, 0); level 1 o7 = o5 + o6 in (0, 0), written to the output (20480).
//
// Example 1 (swap = core, shared cluster storage): the sources SEND their
// running sum over the mesh into the destination's receive slot R(level,
// parity) (storage 87360 bytes per slot: 2 sum slots + 2 per level), the
// destination RECVs (semaphore = 4 + the source's cluster index: the
// tree's range above the dependency tracker's), adds with an
// SPU add and SIGNALs the source a credit.
// Layer ends are read off sync=barrier listings (the default SIGNAL / RECV
// synchronisation: sync-events.mlir).
// RUN: accel-opt %s --select-tiling --convert-graph-to-isa="dram-placement=linear sync=barrier residency=off" | FileCheck %s --check-prefix=MESH
// Example 2 (swap = mem): the same tree through DRAM, a SIGNAL / RECV per
// level instead of a barrier.
// RUN: sed 's/swap = core/swap = mem/' %s | accel-opt --select-tiling --convert-graph-to-isa="dram-placement=linear sync=barrier residency=off" | FileCheck %s --check-prefix=MEM
// A fused ReLU is applied by the root's last add only.
// RUN: sed 's/^  return %o : .*$/  %r = graph.relu %o : tensor<1x4xf32>\n  return %r : tensor<1x4xf32>/' %s | accel-opt --select-tiling --convert-graph-to-isa="dram-placement=linear sync=barrier residency=off" | FileCheck %s --check-prefix=RELU
// The binary round trip validates the synchronisation (every RECV matched).
// RUN: accel-opt %s --select-tiling --convert-graph-to-isa="dram-placement=linear sync=barrier residency=off" | accel-translate --isa-to-binary -o %t.bin
// RUN: sed 's/swap = core/swap = mem/' %s | accel-opt --select-tiling --convert-graph-to-isa="dram-placement=linear sync=barrier residency=off" | accel-translate --isa-to-binary -o %t.mem.bin
// Negative: without (1, 0)'s RECV of (1, 1)'s partial, or without
// (1, 0)'s SEND to the root, the validator rejects the program at load time.
// RUN: accel-opt %s --select-tiling --convert-graph-to-isa="dram-placement=linear sync=barrier residency=off" | sed '0,/isa.recv sem 7 count 1/{/isa.recv sem 7 count 1/d}' | not accel-translate --isa-to-binary --hw=default -o %t.bad 2>&1 | FileCheck %s --check-prefix=NORECV
// NORECV: error: invalid program: cluster (1,1) command {{[0-9]+}} (SEND): SEND/SIGNAL to (1,0) sem 7 never received: 1 arrival but the RECVs of cluster (1,0) take 0
// RUN: accel-opt %s --select-tiling --convert-graph-to-isa="dram-placement=linear sync=barrier residency=off" | sed '0,/isa.send src 0 dst 349440/{/isa.send src 0 dst 349440/d}' | not accel-translate --isa-to-binary --hw=default -o %t.bad 2>&1 | FileCheck %s --check-prefix=NOSEND
// NOSEND: error: invalid program: cluster (0,0) {{.*}}RECV sem 6 waits for 1 arrival but only 0 SEND/SIGNAL target it
// A bus-contention machine (no cluster caches) reduces through memory even
// when the label asks for swap = core (the spec's example 2).
// RUN: accel-opt %s --accel-hw=%S/../../../hw/labels-example-nocache.json --select-tiling --convert-graph-to-isa="dram-placement=linear sync=barrier residency=off" | FileCheck %s --check-prefix=NOCACHE
// NOCACHE-LABEL: isa.cluster(0, 0)
// NOCACHE:       isa.recv sem 3 count 1
// NOCACHE-NOT:   isa.send
// NOCACHE-LABEL: isa.cluster(0, 1)
// NOCACHE:       isa.signal to [(0, 0)] sem 3
// NOCACHE-NOT:   isa.send

// MESH-LABEL: isa.cluster(0, 0)
// MESH:      isa.dma store tag {{[0-9]}} src {{[0-9]+}} dst 20544 shape [1, 4]
// MESH:      isa.barrier 0
// A destination hands out its first credits once its earlier work is done.
// MESH:      isa.wait tags [0, 1, 2, 3, 4, 5, 6, 7] pe
// MESH-NEXT: isa.signal to [(0, 1)] sem 4
// MESH-NEXT: isa.signal to [(1, 0)] sem 4
// MESH:      isa.dma load tag 0 src 20544 dst 0 shape [1, 4]
// MESH-NEXT: isa.wait tags [0]
// MESH-NEXT: isa.recv sem 5 count 1
// MESH-NEXT: isa.execute ibuf 0 last patches [{{.*}}#isa.patch<1, addr, 174720>
// MESH-NEXT: isa.wait tags [] pe
// MESH-NEXT: isa.recv sem 6 count 1
// MESH-NEXT: isa.execute ibuf 0 last patches [#isa.patch<1, addr, 349440>]
// MESH-NEXT: isa.wait tags [] pe
// MESH-NEXT: isa.dma store tag 4 src 0 dst 20480 shape [1, 4]
// MESH-LABEL: isa.cluster(0, 1)
// MESH:      isa.barrier 0
// MESH-NEXT: isa.wait tags [2, 4] pe
// MESH-NEXT: isa.dma load tag 0 src 20560 dst 0 shape [1, 4]
// MESH-NEXT: isa.wait tags [0]
// A source sends only into a slot its destination has freed.
// MESH-NEXT: isa.recv sem 4 count 1
// MESH-NEXT: isa.send src 0 dst 174720 bytes 16 to [(0, 0)] sem 5 tag 2
// MESH-LABEL: isa.cluster(1, 0)
// MESH:      isa.barrier 0
// MESH:      isa.wait tags [0, 1, 2, 3, 4, 5, 6, 7] pe
// MESH-NEXT: isa.signal to [(1, 1)] sem 6
// MESH:      isa.dma load tag 0 src 20576 dst 0 shape [1, 4]
// MESH-NEXT: isa.wait tags [0]
// MESH-NEXT: isa.recv sem 7 count 1
// MESH-NEXT: isa.execute ibuf 0 last
// MESH-NEXT: isa.wait tags [] pe
// MESH-NEXT: isa.recv sem 4 count 1
// MESH-NEXT: isa.send src 0 dst 349440 bytes 16 to [(0, 0)] sem 6 tag 2
// MESH-LABEL: isa.cluster(1, 1)
// MESH:      isa.dma load tag 0 src 20592 dst 0 shape [1, 4]
// MESH-NEXT: isa.wait tags [0]
// MESH-NEXT: isa.recv sem 6 count 1
// MESH-NEXT: isa.send src 0 dst 174720 bytes 16 to [(1, 0)] sem 7 tag 2
// MESH-NOT:  isa.dma store

// MEM-LABEL: isa.cluster(0, 0)
// MEM:      isa.barrier 0
// MEM:      isa.recv sem 5 count 1
// MEM-NEXT: isa.wait tags [4] pe
// MEM-NEXT: isa.dma load tag 0 src 20544 dst 0 shape [1, 4]
// MEM-NEXT: isa.dma load tag 0 src 20560 dst 262144 shape [1, 4]
// MEM-NEXT: isa.wait tags [0]
// MEM-NEXT: isa.execute ibuf 0 last
// MEM-NEXT: isa.wait tags [] pe
// MEM-NEXT: isa.dma store tag 4 src 0 dst 20544 shape [1, 4]
// MEM-NEXT: isa.wait tags [0, 1, 2, 3, 4, 5, 6, 7] pe
// MEM-NEXT: isa.recv sem 6 count 1
// MEM:      isa.dma load tag 0 src 20544 dst 0 shape [1, 4]
// MEM-NEXT: isa.dma load tag 0 src 20576 dst 262144 shape [1, 4]
// MEM:      isa.dma store tag 4 src 0 dst 20480 shape [1, 4]
// MEM-LABEL: isa.cluster(0, 1)
// MEM:      isa.barrier 0
// MEM-NEXT: isa.wait tags [0, 1, 2, 3, 4, 5, 6, 7] pe
// MEM-NEXT: isa.signal to [(0, 0)] sem 5
// MEM-LABEL: isa.cluster(1, 0)
// MEM:      isa.recv sem 7 count 1
// MEM:      isa.dma store tag 4 src 0 dst 20576 shape [1, 4]
// MEM-NEXT: isa.wait tags [0, 1, 2, 3, 4, 5, 6, 7] pe
// MEM-NEXT: isa.signal to [(0, 0)] sem 6
// MEM-LABEL: isa.cluster(1, 1)
// MEM:      isa.signal to [(1, 0)] sem 7
// MEM-NOT:  isa.send

// RELU-LABEL: isa.cluster(0, 0)
// RELU:      isa.barrier 0
// RELU-NEXT: isa.config ibuf 0 layer {{[0-9]+}} {
// RELU:        isa.spu binary in 0 out 0 <{{.*}}func = add>
// RELU-NOT:    func = relu
// RELU:      isa.config ibuf 1 layer {{[0-9]+}} {
// RELU:        isa.spu binary in 0 out 0 <{{.*}}func = add>
// RELU-NEXT:   isa.spu unary in 0 out 0 <{{.*}}func = relu>
// RELU:      isa.recv sem 5 count 1
// RELU-NEXT: isa.execute ibuf 0
// RELU:      isa.recv sem 6 count 1
// RELU-NEXT: isa.execute ibuf 1
// RELU:      isa.dma store tag 4 src 0 dst 20480
// RELU-LABEL: isa.cluster(0, 1)

func.func @main(%i: tensor<1x1024xf32> {accel.name = "i"}, %w: tensor<1024x4xf32> {accel.name = "w"})
    -> (tensor<1x4xf32> {accel.name = "o"}) {
  %o = graph.matmul %i, %w {accel.mapping = #accel.mapping<dataflow = output_stationary, array = [K, K]>,
      accel.labels = [#accel.label<static = #accel.static_label<category = on, type = "float32", order = "nc", dims = [1, 4]>,
        dynamic = #accel.dynamic_label<type = "float32", order = "nc", tile_dim = "c", tile = 4, pad_dim = "c", pad = 0, size = 16, split_dim = "c", ranges = [(0, 3)], store = "cluster", swap = core>>]}
      : (tensor<1x1024xf32>, tensor<1024x4xf32>) -> tensor<1x4xf32>
  return %o : tensor<1x4xf32>
}
