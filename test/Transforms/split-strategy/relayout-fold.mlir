// graph.relayout folds away when its target label equals its source's (or
// it has none); a real change of split stays.
// RUN: accel-opt --canonicalize %s | FileCheck %s

#s = #accel.static_label<category = in, type = "float32", order = "nc", dims = [4, 8]>
#d0 = #accel.dynamic_label<type = "float32", order = "nc", tile_dim = "c", tile = 8, pad_dim = "c", size = 128, split_dim = "n", ranges = [(0, 1), (2, 3)], store = "mem">
#d1 = #accel.dynamic_label<type = "float32", order = "nc", tile_dim = "c", tile = 8, pad_dim = "c", size = 128, split_dim = "c", ranges = [(0, 3), (4, 7)], store = "mem">

// CHECK-LABEL: func.func @same
// CHECK-NOT: graph.relayout
// CHECK: return %arg0, %arg0
func.func @same(%x: tensor<4x8xf32> {accel.label = #accel.label<static = #s, dynamic = #d0>}) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = graph.relayout %x {accel.labels = [#accel.label<static = #s, dynamic = #d0>]} : tensor<4x8xf32>
  %1 = graph.relayout %x : tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// CHECK-LABEL: func.func @other
// CHECK: %[[R:.*]] = graph.relayout %arg0
// CHECK: return %[[R]]
func.func @other(%x: tensor<4x8xf32> {accel.label = #accel.label<static = #s, dynamic = #d0>}) -> tensor<4x8xf32> {
  %0 = graph.relayout %x {accel.labels = [#accel.label<static = #s, dynamic = #d1>]} : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
