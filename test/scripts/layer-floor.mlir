// scripts/zoo/layer_floor.py: each layer's DRAM bytes against its
// layer-by-layer floor (its inputs' results read, its result written, its
// weights and network inputs read once; a network output it writes is its
// result), with the layer table of accel-compile --emit=isa and the
// stats.json of accel-run. Two ReLUs write a concatenation in place and a
// third reads it: its floor counts both producers (layers-concat.mlir).
// The maps stay on chip, so every layer moves less than its floor.
// RUN: rm -rf %t && mkdir -p %t
// RUN: accel-compile %s --emit=isa -o %t/m.isa
// RUN: accel-compile %s -o %t/m.bin
// RUN: %python -c "import numpy as n; n.save('%t/x.npy', n.arange(256, dtype=n.float32).reshape(1, 4, 8, 8) - 100); n.save('%t/y.npy', n.ones((1, 4, 8, 8), n.float32))"
// RUN: accel-run %t/m.bin --input input0=%t/x.npy --input input1=%t/y.npy --output-dir %t/out --quiet
// RUN: %python %src_root/scripts/zoo/layer_floor.py %t/m.isa %t/out/stats.json --bytes | FileCheck %s
// Left and right read their 1024-byte input (compulsory) and keep their
// result on chip: floor 1024 + 1024.
// CHECK:      excess B    DRAM B   floor B  layer
// CHECK-NEXT:    -1024      1024      2048  left (graph.relu)
// CHECK-NEXT:    -1024      1024      2048  right (graph.relu)
// After: both slices (2 x 1024) read, the 2048-byte output written.
// CHECK-NEXT:    -2048      2048      4096  after (graph.relu)
// CHECK-NEXT: layers: 4096 B moved, floor 8192 B, 0 B above their floors
// Segments: their layers' DRAM bytes, the sum of their floors and their
// chain floor (the segment's maps on chip). The whole program's chain floor
// is its compulsory bytes: 2 x 1024 of inputs and the 2048-byte output.
// `left` alone reads its input and writes the result `after` reads; with
// `after` it reads `right`'s result and writes the output.
// RUN: %python %src_root/scripts/zoo/layer_floor.py %t/m.isa %t/out/stats.json --bytes --top 0 --segment all=. --segment left=^left$ --segment left+after='^(left|after)$' | FileCheck %s --check-prefix=SEG
// SEG:      segment      layers    DRAM B   floor B   chain B
// SEG-NEXT: all               3      4096      8192      4096
// SEG-NEXT: left              1      1024      2048      2048
// SEG-NEXT: left+after        2      3072      6144      4096
// RUN: not %python %src_root/scripts/zoo/layer_floor.py %t/m.isa %t/out/stats.json --segment none=^nothing 2>&1 | FileCheck %s --check-prefix=NOMATCH
// NOMATCH: layer_floor: segment 'none': no layer matches '^nothing'
// RUN: not %python %src_root/scripts/zoo/layer_floor.py %t/m.isa %t/out/stats.json --segment oops 2>&1 | FileCheck %s --check-prefix=BADARG
// BADARG: 'oops' is not NAME=REGEX
// A stats.json of another compilation is refused: another layer count, or
// the same count with other names.
// RUN: accel-compile %S/../Conversion/GraphToIsa/layers.mlir --emit=isa -o %t/other.isa
// RUN: not %python %src_root/scripts/zoo/layer_floor.py %t/other.isa %t/out/stats.json 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: layer_floor: {{.*}}other.isa has 2 layers, {{.*}}stats.json 3: not the same compilation
// RUN: sed 's/name = "left"/name = "renamed"/' %t/m.isa > %t/renamed.isa
// RUN: not %python %src_root/scripts/zoo/layer_floor.py %t/renamed.isa %t/out/stats.json 2>&1 | FileCheck %s --check-prefix=NAMES
// NAMES: layer_floor: layer 0 is 'renamed' in {{.*}}renamed.isa but 'left' in {{.*}}stats.json: not the same compilation
func.func @f(%x: tensor<1x4x8x8xf32>, %y: tensor<1x4x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %a = graph.relu %x : tensor<1x4x8x8xf32> loc("left")
  %b = graph.relu %y : tensor<1x4x8x8xf32> loc("right")
  %c = graph.concat %a, %b {axis = 1 : i64} : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x8x8x8xf32> loc("cat")
  %d = graph.relu %c : tensor<1x8x8x8xf32> loc("after")
  return %d : tensor<1x8x8x8xf32>
}
