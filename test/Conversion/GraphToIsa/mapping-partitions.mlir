// The spec's partition example (Figs. 8 / 9): I (4x8) . W (8x8) = O (4x8) on
// the default 2 x 2 cluster grid, for each of the nine array partitions
// (rows split / columns split). a is at DRAM 0 (row i at 32 i), b at 128
// (element (k, n) at 128 + 4 (8 k + n)), y at 384. Per cluster: the A slice
// it loads (rows x K), the B slice (K x columns) and where its result goes.
// M split: W shared, rows concatenated; N split: I shared, columns
// concatenated (both straight into y); K split: each cluster writes a
// partial sum (K part j at 512 + 128 j), then SFU add layers (in cluster
// (0, 0): the tensors are tiny) sum them first across each grid row, then
// across rows, into y.
// The slices are read off the addresses of the linear DRAM plan
// (dram-placement=linear); placement on memory channels: channel-placement.mlir.
// Layer ends are read off sync=barrier listings (one BARRIER per layer);
// the default SIGNAL / RECV synchronisation: sync-events.mlir.
// RUN: accel-opt %s --select-tiling --select-mapping="array=M,M dataflow=output_stationary" --convert-graph-to-isa="dram-placement=linear sync=barrier residency=off" | FileCheck %s --check-prefix=MM
// RUN: accel-opt %s --select-tiling --select-mapping="array=M,N dataflow=output_stationary" --convert-graph-to-isa="dram-placement=linear sync=barrier residency=off" | FileCheck %s --check-prefix=MN
// RUN: accel-opt %s --select-tiling --select-mapping="array=M,K dataflow=output_stationary" --convert-graph-to-isa="dram-placement=linear sync=barrier residency=off" | FileCheck %s --check-prefix=MK
// RUN: accel-opt %s --select-tiling --select-mapping="array=N,M dataflow=output_stationary" --convert-graph-to-isa="dram-placement=linear sync=barrier residency=off" | FileCheck %s --check-prefix=NM
// RUN: accel-opt %s --select-tiling --select-mapping="array=N,N dataflow=output_stationary" --convert-graph-to-isa="dram-placement=linear sync=barrier residency=off" | FileCheck %s --check-prefix=NN
// RUN: accel-opt %s --select-tiling --select-mapping="array=N,K dataflow=output_stationary" --convert-graph-to-isa="dram-placement=linear sync=barrier residency=off" | FileCheck %s --check-prefix=NK
// RUN: accel-opt %s --select-tiling --select-mapping="array=K,M dataflow=output_stationary" --convert-graph-to-isa="dram-placement=linear sync=barrier residency=off" | FileCheck %s --check-prefix=KM
// RUN: accel-opt %s --select-tiling --select-mapping="array=K,N dataflow=output_stationary" --convert-graph-to-isa="dram-placement=linear sync=barrier residency=off" | FileCheck %s --check-prefix=KN
// RUN: accel-opt %s --select-tiling --select-mapping="array=K,K dataflow=output_stationary" --convert-graph-to-isa="dram-placement=linear sync=barrier residency=off" | FileCheck %s --check-prefix=KK
// The slices do not depend on the dataflow (each cluster has one K chunk
// here, so the three loop nests coincide):
// RUN: accel-opt %s --select-tiling --select-mapping="array=M,N dataflow=input_stationary" --convert-graph-to-isa="dram-placement=linear sync=barrier residency=off" | FileCheck %s --check-prefix=MN
// RUN: accel-opt %s --select-tiling --select-mapping="array=M,N dataflow=weight_stationary" --convert-graph-to-isa="dram-placement=linear sync=barrier residency=off" | FileCheck %s --check-prefix=MN
// RUN: accel-opt %s --select-tiling --select-mapping="array=K,K dataflow=input_stationary" --convert-graph-to-isa="dram-placement=linear sync=barrier residency=off" | FileCheck %s --check-prefix=KK
// RUN: accel-opt %s --select-tiling --select-mapping="array=K,K dataflow=weight_stationary" --convert-graph-to-isa="dram-placement=linear sync=barrier residency=off" | FileCheck %s --check-prefix=KK
// The default pipeline follows an attribute set beforehand. split=off: this
// tests select-mapping's partition and its SFU-add K reduction, without
// the labels (with them a K split is a reduction tree, split-reduction.mlir).
// RUN: sed 's/graph.matmul %a, %b :/graph.matmul %a, %b {accel.mapping = #accel.mapping<dataflow = output_stationary, array = [K, K]>} :/' %s | accel-opt --accel-default-pipeline="split=off dram-placement=linear sync=barrier residency=off" | FileCheck %s --check-prefix=KK
// With the labels (the default split=partition keeps a hand-written
// partition without ranges; the same slices), it also labels the output (tensor-labeling / split-strategy), so
// the K parts meet in the reduction tree of docs/labels-and-splits.md
// (mesh: the result's swap is core on the shared-cache machine) instead of
// the combine layers:
// RUN: sed 's/graph.matmul %a, %b :/graph.matmul %a, %b {accel.mapping = #accel.mapping<dataflow = output_stationary, array = [K, K]>} :/' %s | accel-opt --accel-default-pipeline="dram-placement=linear sync=barrier residency=off" | FileCheck %s --check-prefix=KKP
// KKP-LABEL: isa.cluster(0, 0)
// KKP:   isa.dma load tag 0 src 0 dst {{[0-9]+}} shape [4, 2] src_strides [8, 1]
// KKP-NEXT: isa.dma load tag 0 src 128 dst {{[0-9]+}} shape [2, 8] src_strides [8, 1]
// KKP:   isa.dma store tag 2 src {{[0-9]+}} dst 512 shape [4, 8]
// KKP:   isa.dma load tag 0 src 512 dst 0 shape [4, 8]
// KKP:   isa.recv sem 5 count 1
// KKP:   isa.recv sem 6 count 1
// KKP:   isa.dma store tag 4 src 0 dst 384 shape [4, 8]
// KKP-LABEL: isa.cluster(0, 1)
// KKP:   isa.dma store tag 2 src {{[0-9]+}} dst 640 shape [4, 8]
// KKP:   isa.send src 0 dst {{[0-9]+}} bytes 128 to [(0, 0)] sem 5 tag 2
// KKP-LABEL: isa.cluster(1, 0)
// KKP:   isa.dma store tag 2 src {{[0-9]+}} dst 768 shape [4, 8]
// KKP:   isa.recv sem 7 count 1
// KKP:   isa.send src 0 dst {{[0-9]+}} bytes 128 to [(0, 0)] sem 6 tag 2
// KKP-LABEL: isa.cluster(1, 1)
// KKP:   isa.dma store tag 2 src {{[0-9]+}} dst 896 shape [4, 8]
// KKP:   isa.send src 0 dst {{[0-9]+}} bytes 128 to [(1, 0)] sem 7 tag 2

// MM-LABEL: isa.cluster(0, 0)
// MM:   isa.dma load tag 0 src 0 dst {{[0-9]+}} shape [1, 8] src_strides [8, 1]
// MM-NEXT: isa.dma load tag 0 src 128 dst {{[0-9]+}} shape [8, 8] src_strides [8, 1]
// MM:   isa.dma store tag 2 src {{[0-9]+}} dst 384 shape [1, 8] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// MM-LABEL: isa.cluster(0, 1)
// MM:   isa.dma load tag 0 src 32 dst {{[0-9]+}} shape [1, 8] src_strides [8, 1]
// MM-NEXT: isa.dma load tag 0 src 128 dst {{[0-9]+}} shape [8, 8] src_strides [8, 1]
// MM:   isa.dma store tag 2 src {{[0-9]+}} dst 416 shape [1, 8] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// MM-LABEL: isa.cluster(1, 0)
// MM:   isa.dma load tag 0 src 64 dst {{[0-9]+}} shape [1, 8] src_strides [8, 1]
// MM-NEXT: isa.dma load tag 0 src 128 dst {{[0-9]+}} shape [8, 8] src_strides [8, 1]
// MM:   isa.dma store tag 2 src {{[0-9]+}} dst 448 shape [1, 8] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// MM-LABEL: isa.cluster(1, 1)
// MM:   isa.dma load tag 0 src 96 dst {{[0-9]+}} shape [1, 8] src_strides [8, 1]
// MM-NEXT: isa.dma load tag 0 src 128 dst {{[0-9]+}} shape [8, 8] src_strides [8, 1]
// MM:   isa.dma store tag 2 src {{[0-9]+}} dst 480 shape [1, 8] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// MN-LABEL: isa.cluster(0, 0)
// MN:   isa.dma load tag 0 src 0 dst {{[0-9]+}} shape [2, 8] src_strides [8, 1]
// MN-NEXT: isa.dma load tag 0 src 128 dst {{[0-9]+}} shape [8, 4] src_strides [8, 1]
// MN:   isa.dma store tag 2 src {{[0-9]+}} dst 384 shape [2, 4] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// MN-LABEL: isa.cluster(0, 1)
// MN:   isa.dma load tag 0 src 0 dst {{[0-9]+}} shape [2, 8] src_strides [8, 1]
// MN-NEXT: isa.dma load tag 0 src 144 dst {{[0-9]+}} shape [8, 4] src_strides [8, 1]
// MN:   isa.dma store tag 2 src {{[0-9]+}} dst 400 shape [2, 4] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// MN-LABEL: isa.cluster(1, 0)
// MN:   isa.dma load tag 0 src 64 dst {{[0-9]+}} shape [2, 8] src_strides [8, 1]
// MN-NEXT: isa.dma load tag 0 src 128 dst {{[0-9]+}} shape [8, 4] src_strides [8, 1]
// MN:   isa.dma store tag 2 src {{[0-9]+}} dst 448 shape [2, 4] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// MN-LABEL: isa.cluster(1, 1)
// MN:   isa.dma load tag 0 src 64 dst {{[0-9]+}} shape [2, 8] src_strides [8, 1]
// MN-NEXT: isa.dma load tag 0 src 144 dst {{[0-9]+}} shape [8, 4] src_strides [8, 1]
// MN:   isa.dma store tag 2 src {{[0-9]+}} dst 464 shape [2, 4] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// MK-LABEL: isa.cluster(0, 0)
// MK:   isa.dma load tag 0 src 0 dst {{[0-9]+}} shape [2, 4] src_strides [8, 1]
// MK-NEXT: isa.dma load tag 0 src 128 dst {{[0-9]+}} shape [4, 8] src_strides [8, 1]
// MK:   isa.dma store tag 2 src {{[0-9]+}} dst 512 shape [2, 8] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// MK: isa.spu binary in 0 out 0 {{.*}}func = add
// MK: isa.dma load tag 0 src 512 dst {{[0-9]+}} shape [32]
// MK-NEXT: isa.dma load tag 0 src 640 dst
// MK: isa.dma store tag 2 src {{[0-9]+}} dst 384 shape [32]
// MK-LABEL: isa.cluster(0, 1)
// MK:   isa.dma load tag 0 src 16 dst {{[0-9]+}} shape [2, 4] src_strides [8, 1]
// MK-NEXT: isa.dma load tag 0 src 256 dst {{[0-9]+}} shape [4, 8] src_strides [8, 1]
// MK:   isa.dma store tag 2 src {{[0-9]+}} dst 640 shape [2, 8] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// MK-LABEL: isa.cluster(1, 0)
// MK:   isa.dma load tag 0 src 64 dst {{[0-9]+}} shape [2, 4] src_strides [8, 1]
// MK-NEXT: isa.dma load tag 0 src 128 dst {{[0-9]+}} shape [4, 8] src_strides [8, 1]
// MK:   isa.dma store tag 2 src {{[0-9]+}} dst 576 shape [2, 8] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// MK-LABEL: isa.cluster(1, 1)
// MK:   isa.dma load tag 0 src 80 dst {{[0-9]+}} shape [2, 4] src_strides [8, 1]
// MK-NEXT: isa.dma load tag 0 src 256 dst {{[0-9]+}} shape [4, 8] src_strides [8, 1]
// MK:   isa.dma store tag 2 src {{[0-9]+}} dst 704 shape [2, 8] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// NM-LABEL: isa.cluster(0, 0)
// NM:   isa.dma load tag 0 src 0 dst {{[0-9]+}} shape [2, 8] src_strides [8, 1]
// NM-NEXT: isa.dma load tag 0 src 128 dst {{[0-9]+}} shape [8, 4] src_strides [8, 1]
// NM:   isa.dma store tag 2 src {{[0-9]+}} dst 384 shape [2, 4] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// NM-LABEL: isa.cluster(0, 1)
// NM:   isa.dma load tag 0 src 64 dst {{[0-9]+}} shape [2, 8] src_strides [8, 1]
// NM-NEXT: isa.dma load tag 0 src 128 dst {{[0-9]+}} shape [8, 4] src_strides [8, 1]
// NM:   isa.dma store tag 2 src {{[0-9]+}} dst 448 shape [2, 4] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// NM-LABEL: isa.cluster(1, 0)
// NM:   isa.dma load tag 0 src 0 dst {{[0-9]+}} shape [2, 8] src_strides [8, 1]
// NM-NEXT: isa.dma load tag 0 src 144 dst {{[0-9]+}} shape [8, 4] src_strides [8, 1]
// NM:   isa.dma store tag 2 src {{[0-9]+}} dst 400 shape [2, 4] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// NM-LABEL: isa.cluster(1, 1)
// NM:   isa.dma load tag 0 src 64 dst {{[0-9]+}} shape [2, 8] src_strides [8, 1]
// NM-NEXT: isa.dma load tag 0 src 144 dst {{[0-9]+}} shape [8, 4] src_strides [8, 1]
// NM:   isa.dma store tag 2 src {{[0-9]+}} dst 464 shape [2, 4] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// NN-LABEL: isa.cluster(0, 0)
// NN:   isa.dma load tag 0 src 0 dst {{[0-9]+}} shape [4, 8] src_strides [8, 1]
// NN-NEXT: isa.dma load tag 0 src 128 dst {{[0-9]+}} shape [8, 2] src_strides [8, 1]
// NN:   isa.dma store tag 2 src {{[0-9]+}} dst 384 shape [4, 2] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// NN-LABEL: isa.cluster(0, 1)
// NN:   isa.dma load tag 0 src 0 dst {{[0-9]+}} shape [4, 8] src_strides [8, 1]
// NN-NEXT: isa.dma load tag 0 src 136 dst {{[0-9]+}} shape [8, 2] src_strides [8, 1]
// NN:   isa.dma store tag 2 src {{[0-9]+}} dst 392 shape [4, 2] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// NN-LABEL: isa.cluster(1, 0)
// NN:   isa.dma load tag 0 src 0 dst {{[0-9]+}} shape [4, 8] src_strides [8, 1]
// NN-NEXT: isa.dma load tag 0 src 144 dst {{[0-9]+}} shape [8, 2] src_strides [8, 1]
// NN:   isa.dma store tag 2 src {{[0-9]+}} dst 400 shape [4, 2] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// NN-LABEL: isa.cluster(1, 1)
// NN:   isa.dma load tag 0 src 0 dst {{[0-9]+}} shape [4, 8] src_strides [8, 1]
// NN-NEXT: isa.dma load tag 0 src 152 dst {{[0-9]+}} shape [8, 2] src_strides [8, 1]
// NN:   isa.dma store tag 2 src {{[0-9]+}} dst 408 shape [4, 2] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// NK-LABEL: isa.cluster(0, 0)
// NK:   isa.dma load tag 0 src 0 dst {{[0-9]+}} shape [4, 4] src_strides [8, 1]
// NK-NEXT: isa.dma load tag 0 src 128 dst {{[0-9]+}} shape [4, 4] src_strides [8, 1]
// NK:   isa.dma store tag 2 src {{[0-9]+}} dst 512 shape [4, 4] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// NK: isa.spu binary in 0 out 0 {{.*}}func = add
// NK: isa.dma load tag 0 src 512 dst {{[0-9]+}} shape [32]
// NK-NEXT: isa.dma load tag 0 src 640 dst
// NK: isa.dma store tag 2 src {{[0-9]+}} dst 384 shape [32]
// NK-LABEL: isa.cluster(0, 1)
// NK:   isa.dma load tag 0 src 16 dst {{[0-9]+}} shape [4, 4] src_strides [8, 1]
// NK-NEXT: isa.dma load tag 0 src 256 dst {{[0-9]+}} shape [4, 4] src_strides [8, 1]
// NK:   isa.dma store tag 2 src {{[0-9]+}} dst 640 shape [4, 4] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// NK-LABEL: isa.cluster(1, 0)
// NK:   isa.dma load tag 0 src 0 dst {{[0-9]+}} shape [4, 4] src_strides [8, 1]
// NK-NEXT: isa.dma load tag 0 src 144 dst {{[0-9]+}} shape [4, 4] src_strides [8, 1]
// NK:   isa.dma store tag 2 src {{[0-9]+}} dst 528 shape [4, 4] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// NK-LABEL: isa.cluster(1, 1)
// NK:   isa.dma load tag 0 src 16 dst {{[0-9]+}} shape [4, 4] src_strides [8, 1]
// NK-NEXT: isa.dma load tag 0 src 272 dst {{[0-9]+}} shape [4, 4] src_strides [8, 1]
// NK:   isa.dma store tag 2 src {{[0-9]+}} dst 656 shape [4, 4] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// KM-LABEL: isa.cluster(0, 0)
// KM:   isa.dma load tag 0 src 0 dst {{[0-9]+}} shape [2, 4] src_strides [8, 1]
// KM-NEXT: isa.dma load tag 0 src 128 dst {{[0-9]+}} shape [4, 8] src_strides [8, 1]
// KM:   isa.dma store tag 2 src {{[0-9]+}} dst 512 shape [2, 8] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// KM: isa.spu binary in 0 out 0 {{.*}}func = add
// KM: isa.dma load tag 0 src 512 dst {{[0-9]+}} shape [32]
// KM-NEXT: isa.dma load tag 0 src 640 dst
// KM: isa.dma store tag 2 src {{[0-9]+}} dst 384 shape [32]
// KM-LABEL: isa.cluster(0, 1)
// KM:   isa.dma load tag 0 src 64 dst {{[0-9]+}} shape [2, 4] src_strides [8, 1]
// KM-NEXT: isa.dma load tag 0 src 128 dst {{[0-9]+}} shape [4, 8] src_strides [8, 1]
// KM:   isa.dma store tag 2 src {{[0-9]+}} dst 576 shape [2, 8] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// KM-LABEL: isa.cluster(1, 0)
// KM:   isa.dma load tag 0 src 16 dst {{[0-9]+}} shape [2, 4] src_strides [8, 1]
// KM-NEXT: isa.dma load tag 0 src 256 dst {{[0-9]+}} shape [4, 8] src_strides [8, 1]
// KM:   isa.dma store tag 2 src {{[0-9]+}} dst 640 shape [2, 8] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// KM-LABEL: isa.cluster(1, 1)
// KM:   isa.dma load tag 0 src 80 dst {{[0-9]+}} shape [2, 4] src_strides [8, 1]
// KM-NEXT: isa.dma load tag 0 src 256 dst {{[0-9]+}} shape [4, 8] src_strides [8, 1]
// KM:   isa.dma store tag 2 src {{[0-9]+}} dst 704 shape [2, 8] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// KN-LABEL: isa.cluster(0, 0)
// KN:   isa.dma load tag 0 src 0 dst {{[0-9]+}} shape [4, 4] src_strides [8, 1]
// KN-NEXT: isa.dma load tag 0 src 128 dst {{[0-9]+}} shape [4, 4] src_strides [8, 1]
// KN:   isa.dma store tag 2 src {{[0-9]+}} dst 512 shape [4, 4] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// KN: isa.spu binary in 0 out 0 {{.*}}func = add
// KN: isa.dma load tag 0 src 512 dst {{[0-9]+}} shape [32]
// KN-NEXT: isa.dma load tag 0 src 640 dst
// KN: isa.dma store tag 2 src {{[0-9]+}} dst 384 shape [32]
// KN-LABEL: isa.cluster(0, 1)
// KN:   isa.dma load tag 0 src 0 dst {{[0-9]+}} shape [4, 4] src_strides [8, 1]
// KN-NEXT: isa.dma load tag 0 src 144 dst {{[0-9]+}} shape [4, 4] src_strides [8, 1]
// KN:   isa.dma store tag 2 src {{[0-9]+}} dst 528 shape [4, 4] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// KN-LABEL: isa.cluster(1, 0)
// KN:   isa.dma load tag 0 src 16 dst {{[0-9]+}} shape [4, 4] src_strides [8, 1]
// KN-NEXT: isa.dma load tag 0 src 256 dst {{[0-9]+}} shape [4, 4] src_strides [8, 1]
// KN:   isa.dma store tag 2 src {{[0-9]+}} dst 640 shape [4, 4] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// KN-LABEL: isa.cluster(1, 1)
// KN:   isa.dma load tag 0 src 16 dst {{[0-9]+}} shape [4, 4] src_strides [8, 1]
// KN-NEXT: isa.dma load tag 0 src 272 dst {{[0-9]+}} shape [4, 4] src_strides [8, 1]
// KN:   isa.dma store tag 2 src {{[0-9]+}} dst 656 shape [4, 4] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// KK-LABEL: isa.cluster(0, 0)
// KK:   isa.dma load tag 0 src 0 dst {{[0-9]+}} shape [4, 2] src_strides [8, 1]
// KK-NEXT: isa.dma load tag 0 src 128 dst {{[0-9]+}} shape [2, 8] src_strides [8, 1]
// KK:   isa.dma store tag 2 src {{[0-9]+}} dst 512 shape [4, 8] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// First across each grid row: P(r,0) + P(r,1) for both rows at once
// (partials 512 + 128 * (2r + c)), into the row sums at 1024.
// KK: isa.spu binary in 0 out 0 {{.*}}func = add
// KK: isa.dma load tag 0 src 512 dst {{[0-9]+}} shape [2, 32] src_strides [64, 1]
// KK-NEXT: isa.dma load tag 0 src 640 dst {{[0-9]+}} shape [2, 32] src_strides [64, 1]
// KK: isa.dma store tag 2 src {{[0-9]+}} dst 1024 shape [2, 32]
// Then across the rows: S(0) + S(1) into y.
// KK: isa.spu binary in 0 out 0 {{.*}}func = add
// KK: isa.dma load tag 0 src 1024 dst {{[0-9]+}} shape [32]
// KK-NEXT: isa.dma load tag 0 src 1152 dst
// KK: isa.dma store tag 2 src {{[0-9]+}} dst 384 shape [32]
// KK-LABEL: isa.cluster(0, 1)
// KK:   isa.dma load tag 0 src 8 dst {{[0-9]+}} shape [4, 2] src_strides [8, 1]
// KK-NEXT: isa.dma load tag 0 src 192 dst {{[0-9]+}} shape [2, 8] src_strides [8, 1]
// KK:   isa.dma store tag 2 src {{[0-9]+}} dst 640 shape [4, 8] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// KK-LABEL: isa.cluster(1, 0)
// KK:   isa.dma load tag 0 src 16 dst {{[0-9]+}} shape [4, 2] src_strides [8, 1]
// KK-NEXT: isa.dma load tag 0 src 256 dst {{[0-9]+}} shape [2, 8] src_strides [8, 1]
// KK:   isa.dma store tag 2 src {{[0-9]+}} dst 768 shape [4, 8] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]
// KK-LABEL: isa.cluster(1, 1)
// KK:   isa.dma load tag 0 src 24 dst {{[0-9]+}} shape [4, 2] src_strides [8, 1]
// KK-NEXT: isa.dma load tag 0 src 320 dst {{[0-9]+}} shape [2, 8] src_strides [8, 1]
// KK:   isa.dma store tag 2 src {{[0-9]+}} dst 896 shape [4, 8] src_strides [{{[0-9]+}}, 1] dst_strides [8, 1]


func.func @main(%a: tensor<4x8xf32> {accel.name = "a"}, %b: tensor<8x8xf32> {accel.name = "b"})
    -> (tensor<4x8xf32> {accel.name = "y"}) {
  %0 = graph.matmul %a, %b : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
