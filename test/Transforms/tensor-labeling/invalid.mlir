// Malformed labels are verifier errors naming the field.
// RUN: accel-opt %s -split-input-file -verify-diagnostics

// expected-error @+2 {{failed to parse Accel_LabelAttr parameter 'static_label'}}
// expected-error @+1 {{accel.static_label: order "nn" must use distinct letters of n, c, h, w, d, t}}
func.func @f(%a: tensor<2x2xf32> {accel.label = #accel.label<static = #accel.static_label<category = in, type = "float32", order = "nn", dims = [2, 2]>, dynamic = #accel.dynamic_label<type = "float32", order = "nc">>})

// -----

// expected-error @+2 {{failed to parse Accel_LabelAttr parameter 'static_label'}}
// expected-error @+1 {{accel.static_label: 1 dims for the order "nc"}}
func.func @f(%a: tensor<2x2xf32> {accel.label = #accel.label<static = #accel.static_label<category = in, type = "float32", order = "nc", dims = [2]>, dynamic = #accel.dynamic_label<type = "float32", order = "nc">>})

// -----

// expected-error @+2 {{failed to parse Accel_LabelAttr parameter 'static_label'}}
// expected-error @+1 {{accel.static_label: unknown type "float8"}}
func.func @f(%a: tensor<2x2xf32> {accel.label = #accel.label<static = #accel.static_label<category = in, type = "float8", order = "nc", dims = [2, 2]>, dynamic = #accel.dynamic_label<type = "float32", order = "nc">>})

// -----

// expected-error @+3 {{failed to parse Accel_LabelAttr parameter 'static_label'}}
// expected-error @+2 {{failed to parse Accel_StaticLabelAttr parameter 'category'}}
// expected-error @+1 {{expected ::accel::TensorCategory to be one of: ins, in, on, hn, cn, iw, ow, cw, aux}}
func.func @f(%a: tensor<2x2xf32> {accel.label = #accel.label<static = #accel.static_label<category = weight, type = "float32", order = "nc", dims = [2, 2]>, dynamic = #accel.dynamic_label<type = "float32", order = "nc">>})

// -----

// expected-error @+2 {{failed to parse Accel_LabelAttr parameter 'dynamic_label'}}
// expected-error @+1 {{accel.dynamic_label: split_dim "h" is not a dim of the order "nc"}}
func.func @f(%a: tensor<2x2xf32> {accel.label = #accel.label<static = #accel.static_label<category = in, type = "float32", order = "nc", dims = [2, 2]>, dynamic = #accel.dynamic_label<type = "float32", order = "nc", split_dim = "h", ranges = [(0, 1)]>>})

// -----

// expected-error @+2 {{failed to parse Accel_LabelAttr parameter 'dynamic_label'}}
// expected-error @+1 {{accel.dynamic_label: piece 1 (3, 3) must be non-empty and start at 2}}
func.func @f(%a: tensor<2x4xf32> {accel.label = #accel.label<static = #accel.static_label<category = in, type = "float32", order = "nc", dims = [2, 4]>, dynamic = #accel.dynamic_label<type = "float32", order = "nc", split_dim = "c", ranges = [(0, 1), (3, 3)]>>})

// -----

// expected-error @+2 {{failed to parse Accel_LabelAttr parameter 'dynamic_label'}}
// expected-error @+1 {{accel.dynamic_label: store "mem0" must be mem, cluster, memK or clusterK (K >= 1)}}
func.func @f(%a: tensor<2x2xf32> {accel.label = #accel.label<static = #accel.static_label<category = in, type = "float32", order = "nc", dims = [2, 2]>, dynamic = #accel.dynamic_label<type = "float32", order = "nc", split_dim = "c", ranges = [(0, 1)], store = "mem0">>})

// -----

// expected-error @+1 {{accel.label: dynamic order "nh" is not a permutation of the static order "nc"}}
func.func @f(%a: tensor<2x2xf32> {accel.label = #accel.label<static = #accel.static_label<category = in, type = "float32", order = "nc", dims = [2, 2]>, dynamic = #accel.dynamic_label<type = "float32", order = "nh">>})

// -----

// expected-error @+1 {{'func.func' op accel.label of argument 0: static dims [2, 3] differ from the tensor's shape [2, 2]}}
func.func @f(%a: tensor<2x2xf32> {accel.label = #accel.label<static = #accel.static_label<category = in, type = "float32", order = "nc", dims = [2, 3]>, dynamic = #accel.dynamic_label<type = "float32", order = "nc">>}) {
  return
}

// -----

func.func @f(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'graph.relu' op accel.labels: expected an array of 1 #accel.label (one per result), got []}}
  %0 = graph.relu %a {accel.labels = []} : tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @f(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'graph.matmul' op accel.mapping: ranges end at 3, the GEMM's K is 2}}
  %0 = graph.matmul %a, %b {accel.mapping = #accel.mapping<ranges = [0, 1, 3], array = [K, K]>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @f(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{accel.mapping: ranges need array = [D, D] with D one of M, N, K, got [K, N]}}
  %0 = graph.matmul %a, %b {accel.mapping = #accel.mapping<ranges = [0, 1, 2], array = [K, N]>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @f(%a: tensor<2x2x2xf32>, %b: tensor<2x2x2xf32>) -> tensor<2x2x2xf32> {
  // expected-error @+1 {{accel.mapping: ranges need array = [D, D] with D one of M, N, K, got [B, B]}}
  %0 = graph.matmul %a, %b {accel.mapping = #accel.mapping<ranges = [0, 1, 2], array = [B, B]>} : (tensor<2x2x2xf32>, tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  return %0 : tensor<2x2x2xf32>
}

// -----

func.func @f(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{accel.mapping: ranges must not decrease, got 2 before 1}}
  %0 = graph.matmul %a, %b {accel.mapping = #accel.mapping<ranges = [0, 2, 1, 2], array = [M, M]>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
