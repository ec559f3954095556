// The layer table of convert-graph-to-isa through accel-default-pipeline
// (docs/passes.md "Layer table"): one #isa.layer per source operator, named
// by its location, with its MACs and weight / compulsory bytes and its data
// flow (the layers and program inputs it reads, the outputs it writes, the
// bytes of its result); the relu fused into the conv's store is listed as
// fused, the reshape has no layer (the matmul reads the conv through it),
// and every command carries the index of the layer it works for.
// rounding=ceil (the pass's default, not the pipeline's clusters) keeps the
// conv on three clusters, as the synchronisation described below.
// RUN: accel-opt --accel-default-pipeline="fuse=off rounding=ceil" %s | FileCheck %s
// CHECK:      isa.program grid(2 x 2) dram {{[0-9]+}} hw {{-?[0-9]+}} layers [
// conv: N*OH*OW*|W| = 16 * 72 = 1152 MACs; W + b = 288 + 16 bytes; reads x
// (288 bytes).
// CHECK-NEXT:   #isa.layer<name = "stem/conv", op = "Conv", macs = 1152, compulsory_bytes = 592, weight_bytes = 304, fused = ["stem/relu"], input_symbols = ["input0"], output_bytes = 256>,
// matmul: 1x64 * 64x10 = 640 MACs, w2 = 2560 bytes; a NameLoc without a
// kind gets the graph op's name.
// CHECK-NEXT:   #isa.layer<name = "head/fc", op = "graph.matmul", macs = 640, compulsory_bytes = 2560, weight_bytes = 2560, inputs = [0], output_bytes = 40>,
// add without a location of its own: file:line:col; its constant (40
// bytes) and the output it writes (40).
// CHECK-NEXT:   #isa.layer<name = "layers.mlir:{{[0-9]+}}:8", op = "graph.add", compulsory_bytes = 80, weight_bytes = 40, inputs = [1], output_symbols = ["output0"], output_bytes = 40>
// CHECK-NEXT: ] {
// Cluster (0, 0) runs all three layers; it waits for the SIGNAL cluster
// (1, 0) sends at the end of the conv before the matmul reads the conv's
// output.
// CHECK:      isa.cluster(0, 0) {
// CHECK-NEXT:   isa.config ibuf {{[0-9]+}} layer 0 {
// CHECK:        isa.wait tags [0, 1, 2, 3, 4, 5, 6, 7] pe layer 0
// CHECK:        isa.recv sem 2 count 1 layer 1
// CHECK:        isa.wait tags [0, 1, 2, 3, 4, 5, 6, 7] pe layer 1
// CHECK:        isa.wait tags [0, 1, 2, 3, 4, 5, 6, 7] pe layer 2
// CHECK-NEXT: }
// CHECK:      isa.cluster(1, 0) {
// CHECK:        isa.signal to [(0, 0)] sem 2 layer 0
//
// With fuse-layers (the default pipeline) the bias add is the matmul's
// residual step: its constant (40 bytes) and the output it writes (40) join
// the matmul's layer, which lists the add among its fused operators.
// RUN: accel-opt --accel-default-pipeline %s | FileCheck %s --check-prefix=FUSED
// FUSED: #isa.layer<name = "head/fc", op = "graph.matmul", macs = 640, compulsory_bytes = 2640, weight_bytes = 2600, fused = ["layers.mlir:{{[0-9]+}}:8"], inputs = [0], output_symbols = ["output0"], output_bytes = 40>
// FUSED-NEXT: ] {
//
// Barrier synchronisation: each layer's barrier belongs to it.
// RUN: accel-opt --accel-default-pipeline="fuse=off sync=barrier rounding=ceil" %s | FileCheck %s --check-prefix=BARRIER
// BARRIER: isa.barrier 0 layer 0
// BARRIER: isa.barrier 1 layer 1
// BARRIER: isa.barrier 2 layer 2
//
// Every command of every cluster names its layer.
// RUN: accel-opt --accel-default-pipeline="fuse=off rounding=ceil" %s | grep -E '^ *isa\.(config|execute|dma|wait|barrier|send|signal|recv) ' > %t.cmds
// RUN: not grep -v -E ' layer [0-2]( \{|$)' %t.cmds
// RUN: grep -c . %t.cmds | FileCheck %s --check-prefix=SOME
// SOME: {{^[1-9][0-9]*$}}
//
// The SIGNALs / RECVs of a layer belong to it too.
// RUN: accel-opt --accel-default-pipeline="fuse=off rounding=ceil" %s | grep -E '^ *isa\.(signal|recv) ' > %t.sync
// RUN: not grep -v -E ' layer [0-2]$' %t.sync
// RUN: grep -c . %t.sync | FileCheck %s --check-prefix=SOME
//
// A K split reduced over the mesh (SEND / RECV, partial-sum combine): the
// reduction commands belong to the matmul's layer.
// RUN: accel-opt %S/split-reduction.mlir --select-tiling --convert-graph-to-isa="dram-placement=linear sync=barrier" | FileCheck %s --check-prefix=MESH
// MESH:     layers [
// MESH-NEXT:  #isa.layer<name = "split-reduction.mlir:{{[0-9]+}}:{{[0-9]+}}", op = "graph.matmul"
// MESH-NEXT: ] {
// MESH:     isa.send {{.*}} layer 0
// MESH:     isa.recv {{.*}} layer 0

#file = loc("model.onnx":0:0)
func.func @net(%x: tensor<1x2x6x6xf32>) -> tensor<1x10xf32> {
  %w = arith.constant dense<0.5> : tensor<4x2x3x3xf32>
  %b = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %w2 = arith.constant dense<0.25> : tensor<64x10xf32>
  %bias = arith.constant dense<1.0> : tensor<1x10xf32>
  %c = graph.conv2d %x, %w, %b : (tensor<1x2x6x6xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32> loc("stem/conv"("Conv"(#file)))
  %r = graph.relu %c : tensor<1x4x4x4xf32> loc("stem/relu"("Relu"(#file)))
  %f = graph.reshape %r : (tensor<1x4x4x4xf32>) -> tensor<1x64xf32> loc("flatten"("Flatten"(#file)))
  %m = graph.matmul %f, %w2 : (tensor<1x64xf32>, tensor<64x10xf32>) -> tensor<1x10xf32> loc("head/fc")
  %a = graph.add %m, %bias : (tensor<1x10xf32>, tensor<1x10xf32>) -> tensor<1x10xf32>
  return %a : tensor<1x10xf32>
}
