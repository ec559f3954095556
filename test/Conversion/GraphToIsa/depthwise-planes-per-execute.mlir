// Several packed planes per EXECUTE (docs/depthwise.md, "Several planes per
// EXECUTE"). 100 channels of 7 x 7, 3x3 pad 1, bias, fused relu, lane rows:
// every plane is one MAC group (G = 4 PEs x laneRows 2) and a tile holds 3
// planes. ibuf 0 holds the groups of all three plane slots of a tile one
// after the other (taps, bias, queue, MAC, store: 15 records; the slots'
// bias floats one after the other), so one
// EXECUTE runs a tile; the next tile's EXECUTE patches the slots' addresses
// to the other storage half. The 34 tiles are dealt 9, 9, 8, 8: the last
// tile of cluster (1, 1) has one plane, which runs alone in ibuf 1,
// configured the first time a tile leaves planes over.
// RUN: accel-opt --convert-graph-to-isa="sync=barrier depthwise-lane-rows=on" %s | FileCheck %s
// A register file of 16 records leaves room for two slots beside the
// one-plane group: a tile's three planes in an EXECUTE of ibuf 0 (two) and
// one of ibuf 1.
// RUN: sed 's/"register_file_entries": 64/"register_file_entries": 16/' %S/../../../hw/default.json > %t.hw.json
// RUN: accel-opt --accel-hw=%t.hw.json --convert-graph-to-isa="sync=barrier depthwise-lane-rows=on" %s | FileCheck %s --check-prefix=REGS
// Without a bias each plane's MACs would add to the accumulators the
// previous plane left: one EXECUTE per plane.
// RUN: sed -e 's/, %b {groups/ {groups/' -e 's/, tensor<100xf32>) -> tensor<1x100x7x7xf32>$/) -> tensor<1x100x7x7xf32>/' %s | accel-opt --convert-graph-to-isa="sync=barrier depthwise-lane-rows=on" | FileCheck %s --check-prefix=NOBIAS

// CHECK-LABEL: isa.cluster(0, 0) {
// CHECK-NEXT: isa.config ibuf 0 layer 0 {
// CHECK-NEXT: isa.ld acts slot 0 <addr = {{[0-9]+}}, rows = 4, cols = 18, row_stride = -3, pe_rows = 1>
// CHECK-NEXT: isa.ld psums slot 0 <addr = [[#BIAS:]], rows = 4, cols = 14, col_stride = 0, pe_rows = 1>
// CHECK-NEXT: isa.ld weights slot 0 <addr = {{[0-9]+}}, rows = 18, cols = 14, row_stride = 14, queue_mode = SW>
// CHECK-NEXT: isa.mac slot 0 acc 0 sfu <rows = 4, cols = 14, pe_rows = 1, depth = 18>
// CHECK-NEXT: isa.st acc slot 0 acc 0 <addr = {{[0-9]+}}, rows = 4, cols = 14, row_stride = 14, pe_rows = 1, func = relu>
// CHECK-NEXT: isa.ld acts slot 0 <addr = {{[0-9]+}}, rows = 4, cols = 18, row_stride = -3, pe_rows = 1>
// CHECK-NEXT: isa.ld psums slot 0 <addr = [[#BIAS+4]], rows = 4, cols = 14, col_stride = 0, pe_rows = 1>
// CHECK-NEXT: isa.ld weights slot 0 <addr = {{[0-9]+}}, rows = 18, cols = 14, row_stride = 14, queue_mode = SW>
// CHECK-NEXT: isa.mac slot 0 acc 0 sfu <rows = 4, cols = 14, pe_rows = 1, depth = 18>
// CHECK-NEXT: isa.st acc slot 0 acc 0 <addr = {{[0-9]+}}, rows = 4, cols = 14, row_stride = 14, pe_rows = 1, func = relu>
// CHECK-NEXT: isa.ld acts slot 0 <addr = {{[0-9]+}}, rows = 4, cols = 18, row_stride = -3, pe_rows = 1>
// CHECK-NEXT: isa.ld psums slot 0 <addr = [[#BIAS+8]], rows = 4, cols = 14, col_stride = 0, pe_rows = 1>
// CHECK-NEXT: isa.ld weights slot 0 <addr = {{[0-9]+}}, rows = 18, cols = 14, row_stride = 14, queue_mode = SW>
// CHECK-NEXT: isa.mac slot 0 acc 0 sfu <rows = 4, cols = 14, pe_rows = 1, depth = 18>
// CHECK-NEXT: isa.st acc slot 0 acc 0 <addr = {{[0-9]+}}, rows = 4, cols = 14, row_stride = 14, pe_rows = 1, func = relu>
// CHECK-NEXT: }
// CHECK-NOT: isa.config ibuf 1
// CHECK-NOT: isa.execute ibuf 1
// CHECK: isa.execute ibuf 0 shift last layer 0
// CHECK-NOT: isa.execute ibuf 1
// CHECK: isa.execute ibuf 0 shift last patches [#isa.patch<0, addr, {{[0-9]+}}>, #isa.patch<1, addr, {{[0-9]+}}>, #isa.patch<2, addr, {{[0-9]+}}>, #isa.patch<4, addr, {{[0-9]+}}>, #isa.patch<5, addr, {{[0-9]+}}>, #isa.patch<6, addr, {{[0-9]+}}>, #isa.patch<7, addr, {{[0-9]+}}>, #isa.patch<9, addr, {{[0-9]+}}>, #isa.patch<10, addr, {{[0-9]+}}>, #isa.patch<11, addr, {{[0-9]+}}>, #isa.patch<12, addr, {{[0-9]+}}>, #isa.patch<14, addr, {{[0-9]+}}>]
// CHECK-NOT: isa.execute ibuf 1
// CHECK: isa.barrier 0
// CHECK-LABEL: isa.cluster(1, 1) {
// CHECK-NOT: isa.config ibuf 1
// CHECK: isa.config ibuf 1 layer 0 {
// CHECK-NEXT: isa.ld acts slot 0
// CHECK-NEXT: isa.ld psums slot 0
// CHECK-NEXT: isa.ld weights slot 0
// CHECK-NEXT: isa.mac slot 0
// CHECK-NEXT: isa.st acc slot 0
// CHECK-NEXT: }
// CHECK-NEXT: isa.execute ibuf 1 shift last layer 0
// CHECK-NEXT: isa.wait tags [] pe
// CHECK-NEXT: isa.dma store tag 3 src {{[0-9]+}} dst {{[0-9]+}} shape [1, 3, 2, 7]

// REGS-LABEL: isa.cluster(0, 0) {
// REGS-NEXT: isa.config ibuf 0 layer 0 {
// REGS-COUNT-2: isa.ld acts slot 0
// REGS-NOT: isa.ld acts
// REGS: }
// REGS-NOT: isa.execute
// REGS: isa.execute ibuf 0 shift last layer 0
// REGS-NEXT: isa.config ibuf 1 layer 0 {
// REGS-NEXT: isa.ld acts slot 0
// REGS-NEXT: isa.ld psums slot 0
// REGS-NEXT: isa.ld weights slot 0
// REGS-NEXT: isa.mac slot 0
// REGS-NEXT: isa.st acc slot 0
// REGS-NEXT: }
// REGS-NEXT: isa.execute ibuf 1 shift last layer 0
// REGS-NOT: isa.config
// REGS: isa.execute ibuf 0 shift last patches
// REGS-NEXT: isa.execute ibuf 1 shift last patches [#isa.patch<0, addr, {{[0-9]+}}>, #isa.patch<1, addr, {{[0-9]+}}>, #isa.patch<2, addr, {{[0-9]+}}>, #isa.patch<4, addr, {{[0-9]+}}>] layer 0

// NOBIAS-LABEL: isa.cluster(0, 0) {
// NOBIAS-NEXT: isa.config ibuf 0 layer 0 {
// NOBIAS-NEXT: isa.ld acts slot 0
// NOBIAS-NEXT: isa.ld weights slot 0
// NOBIAS-NEXT: isa.mac slot 0
// NOBIAS-NEXT: isa.st acc slot 0
// NOBIAS-NEXT: }
// NOBIAS: isa.execute ibuf 0 shift last layer 0
// NOBIAS-NEXT: isa.execute ibuf 0 shift last patches [#isa.patch<0, addr, {{[0-9]+}}>, #isa.patch<1, addr, {{[0-9]+}}>, #isa.patch<3, addr, {{[0-9]+}}>] layer 0

func.func @main(%x: tensor<1x100x7x7xf32> {accel.name = "x"}, %w: tensor<100x1x3x3xf32> {accel.name = "w"}, %b: tensor<100xf32> {accel.name = "b"}) -> (tensor<1x100x7x7xf32> {accel.name = "y"}) {
  %y = graph.conv2d %x, %w, %b {groups = 100, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x100x7x7xf32>, tensor<100x1x3x3xf32>, tensor<100xf32>) -> tensor<1x100x7x7xf32>
  %r = graph.relu %y : tensor<1x100x7x7xf32>
  return %r : tensor<1x100x7x7xf32>
}
