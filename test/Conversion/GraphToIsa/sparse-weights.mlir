// Compile-time sparse weights, load balancing and SFU mode options of
// convert-graph-to-isa (docs/passes.md). The constant weight-queue operand
// has 7 non-zeros of 32 (78 % zeros >= the default threshold 0.5): its one
// K x N tile (one accumulation group) becomes a 7-pair list, 14 words DMA'd
// 1-D into the B region; CONFIG carries 1 pair, the EXECUTE patches rows 7.
// RUN: accel-opt --convert-graph-to-isa %s | FileCheck %s --check-prefix=SPARSE
// RUN: accel-opt --convert-graph-to-isa="sparse-weights=auto sparse-threshold=0.75" %s | FileCheck %s --check-prefix=SPARSE
// Dense fallback: switched off, or the zero fraction below the threshold.
// RUN: accel-opt --convert-graph-to-isa="sparse-weights=off" %s | FileCheck %s --check-prefix=DENSE
// RUN: accel-opt --convert-graph-to-isa="sparse-threshold=0.8" %s | FileCheck %s --check-prefix=DENSE
// MAC bits: load balance (bit 3) and the sfu bit (chained / decoupled).
// RUN: accel-opt --convert-graph-to-isa="load-balance=true" %s | FileCheck %s --check-prefix=LB
// RUN: accel-opt --convert-graph-to-isa="sfu-mode=decoupled" %s | FileCheck %s --check-prefix=DEC
// RUN: accel-opt --convert-graph-to-isa="load-balance=true sfu-mode=decoupled" %s | FileCheck %s --check-prefix=LBDEC
// The mapped kernel (default pipeline, which picks [M,none] for this tiny
// layer): clusters (0, 0) and (1, 0) each compute two rows with all four
// columns and place their own copy of the 7-pair list; the second grid
// column idles. split=labels: the partition is select-mapping's cost-model
// choice here, not the strategy database's, on hw/serial-dram.json (each DMA
// holds its channel for the whole latency: fewer clusters pay fewer).
// RUN: accel-opt --accel-hw=%S/../../../hw/serial-dram.json --accel-default-pipeline=split=labels %s | FileCheck %s --check-prefix=MAPPED
// RUN: accel-opt --accel-hw=%S/../../../hw/serial-dram.json --accel-default-pipeline="split=labels sparse-weights=off load-balance=true sfu-mode=decoupled" %s | FileCheck %s --check-prefix=MAPPED-DENSE
// Bad values are errors.
// RUN: not accel-opt --convert-graph-to-isa="sparse-weights=on" %s 2>&1 | FileCheck %s --check-prefix=ERR-MODE
// RUN: not accel-opt --convert-graph-to-isa="sparse-threshold=1.5" %s 2>&1 | FileCheck %s --check-prefix=ERR-THR
// RUN: not accel-opt --convert-graph-to-isa="sfu-mode=fused" %s 2>&1 | FileCheck %s --check-prefix=ERR-SFU
// RUN: not accel-compile %s -o %t.bin --sparse-weights=yes 2>&1 | FileCheck %s --check-prefix=ERR-CMODE
// RUN: not accel-compile %s -o %t.bin --sparse-threshold=2 2>&1 | FileCheck %s --check-prefix=ERR-CTHR
// RUN: not accel-compile %s -o %t.bin --sfu-mode=x 2>&1 | FileCheck %s --check-prefix=ERR-CSFU
// RUN: accel-compile %s -o %t.isa --emit=isa --load-balance --sfu-mode=decoupled --sparse-threshold=0.7
// RUN: FileCheck %s --check-prefix=CLI < %t.isa

// SPARSE: isa.config ibuf 1 layer {{[0-9]+}} {
// SPARSE-NEXT: isa.ld acts slot 0
// SPARSE-NEXT: isa.ld sparse_weights slot 0 <addr = [[B:[0-9]+]], cols = 4, row_stride = 4, depth = 8>
// SPARSE-NEXT: isa.mac slot 0 acc 0 sfu <rows = 4, cols = 4, pe_rows = 1, depth = 8>
// SPARSE-NEXT: isa.st acc slot 0 acc 0 <{{.*}}func = relu>
// SPARSE: isa.dma load tag 0 src {{[0-9]+}} dst [[B]] shape [14] src_strides [1] dst_strides [1]
// SPARSE: isa.execute ibuf 1 shift last patches [#isa.patch<1, rows, 7>]

// DENSE-NOT: sparse_weights
// DENSE: isa.ld weights slot 0 <{{.*}}rows = 8, cols = 4
// DENSE-NEXT: isa.mac slot 0 acc 0 sfu
// DENSE: isa.dma load tag 0 src {{[0-9]+}} dst {{[0-9]+}} shape [8, 4]
// DENSE-NOT: sparse_weights

// LB: isa.mac slot 0 acc 0 load_balance sfu <
// DEC: isa.mac slot 0 acc 0 <
// DEC: isa.st acc slot 0 acc 0 <{{.*}}func = relu>
// LBDEC: isa.mac slot 0 acc 0 load_balance <

// MAPPED: isa.cluster(0, 0) {
// MAPPED: isa.ld sparse_weights slot 0 <{{.*}}cols = 4, row_stride = 4, depth = 8>
// MAPPED-NEXT: isa.mac slot 0 acc 0 sfu
// MAPPED: isa.dma load tag 0 src {{[0-9]+}} dst {{[0-9]+}} shape [14] src_strides [1] dst_strides [1]
// MAPPED: isa.execute ibuf 0 shift last patches [{{.*}}#isa.patch<1, rows, 7>
// MAPPED: isa.cluster(0, 1) {
// MAPPED-NOT: isa.dma
// MAPPED: isa.cluster(1, 0) {
// MAPPED: isa.ld sparse_weights slot 0

// MAPPED-DENSE-NOT: sparse_weights
// MAPPED-DENSE: isa.ld weights slot 0
// MAPPED-DENSE-NEXT: isa.mac slot 0 acc 0 load_balance <

// ERR-MODE: for the --sparse-weights option: Cannot find option named 'on'!
// ERR-THR: error: sparse-threshold expects a zero fraction in [0, 1], got 1.5
// ERR-SFU: for the --sfu-mode option: Cannot find option named 'fused'!
// ERR-CMODE: for the --sparse-weights option: Cannot find option named 'yes'!
// ERR-CMODE: accel-compile: error: invalid lowering option in 'sparse-weights=yes'
// ERR-CTHR: accel-compile: error: invalid lowering option in 'sparse-threshold=2': sparse-threshold expects a zero fraction in [0, 1], got 2
// ERR-CSFU: for the --sfu-mode option: Cannot find option named 'x'!
// ERR-CSFU: accel-compile: error: invalid lowering option in 'sfu-mode=x'
// CLI: isa.ld sparse_weights
// CLI: isa.mac slot 0 acc 0 load_balance <

func.func @main(%a: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %w = arith.constant dense<[[1.0, 0.0, 0.0, 2.0], [0.0, 0.0, 0.0, 0.0],
                             [0.0, 3.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0],
                             [4.0, 0.0, 0.0, 0.0], [0.0, 0.0, 5.0, 0.0],
                             [0.0, 0.0, 0.0, 0.0], [6.0, 0.0, 0.0, 7.0]]> : tensor<8x4xf32>
  %y = graph.matmul %a, %w : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %r = graph.relu %y : tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
