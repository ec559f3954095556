// RUN: accel-opt %s --convert-tosa-linalg-to-graph --split-input-file -verify-diagnostics
//
// Whatever tosa / linalg / tensor op the pass cannot convert is an error
// naming the op and, for known ops, why.

func.func @unknown_op(%x: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{cannot convert 'tosa.logical_not' to the graph dialect: no graph-dialect equivalent}}
  %0 = tosa.logical_not %x : (tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @mul_integer(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %shift = "tosa.const"() <{values = dense<1> : tensor<1xi8>}> : () -> tensor<1xi8>
  // expected-error @+1 {{cannot convert 'tosa.mul' to the graph dialect: the shift must be a constant 0 (f32 multiply)}}
  %0 = tosa.mul %a, %b, %shift : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @sub_integer(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{cannot convert 'tosa.sub' to the graph dialect: operands have types tensor<4xi32> and tensor<4xi32> (only f32 tensors are supported)}}
  %0 = tosa.sub %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @negate_zero_point(%x: tensor<4xf32>, %zp: tensor<1xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{cannot convert 'tosa.negate' to the graph dialect: zero points must be constant 0 for f32}}
  %0 = tosa.negate %x, %zp, %zp : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @argmax_i32(%x: tensor<2x3xf32>) -> tensor<2xi32> {
  // expected-error @+1 {{cannot convert 'tosa.argmax' to the graph dialect: the result must be i64 (the graph dialect's index type), got i32}}
  %0 = tosa.argmax %x {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @reduce_integer(%x: tensor<2x3xi32>) -> tensor<2x1xi32> {
  // expected-error @+1 {{cannot convert 'tosa.reduce_sum' to the graph dialect: operand #0 has type tensor<2x3xi32> (only statically shaped f32 tensors are supported)}}
  %0 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<2x3xi32>) -> tensor<2x1xi32>
  return %0 : tensor<2x1xi32>
}

// -----

func.func @pad_runtime_value(%x: tensor<2x3xf32>, %v: tensor<1xf32>) -> tensor<3x3xf32> {
  %padding = tosa.const_shape {values = dense<[1, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  // expected-error @+1 {{cannot convert 'tosa.pad' to the graph dialect: pad_const must be a constant f32 value}}
  %0 = tosa.pad %x, %padding, %v : (tensor<2x3xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @avg_pool_zero_point(%x: tensor<1x4x4x1xf32>, %zp: tensor<1xf32>) -> tensor<1x2x2x1xf32> {
  // expected-error @+1 {{cannot convert 'tosa.avg_pool2d' to the graph dialect: zero points must be constant 0 for f32}}
  %0 = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x4x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x1xf32>
  return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @select_integer(%c: tensor<4xi1>, %a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %e = tensor.empty() : tensor<4xi32>
  // expected-error @+1 {{cannot convert 'linalg.select' to the graph dialect: operand #1 has type tensor<4xi32> (only statically shaped f32 / i1 tensors are supported)}}
  %0 = linalg.select ins(%c, %a, %b : tensor<4xi1>, tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @pool_partial_output(%x: tensor<1x1x4x4xf32>, %init: tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32> {
  %w = tensor.empty() : tensor<2x2xf32>
  // expected-error @+1 {{cannot convert 'linalg.pooling_nchw_max' to the graph dialect: pool2d: the graph op would have shape [1,1,2,2], not [1,1,1,2]}}
  %0 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x1x4x4xf32>, tensor<2x2xf32>) outs(%init : tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32>
  return %0 : tensor<1x1x1x2xf32>
}

// -----

func.func @matmul_zero_point(%a: tensor<1x3x4xf32>, %b: tensor<1x4x5xf32>, %zp: tensor<1xf32>) -> tensor<1x3x5xf32> {
  // expected-error @+1 {{cannot convert 'tosa.matmul' to the graph dialect: zero points must be constant 0 for f32}}
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x3x4xf32>, tensor<1x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x5xf32>
  return %0 : tensor<1x3x5xf32>
}

// -----

func.func @dynamic(%a: tensor<?x3xf32>, %b: tensor<?x3xf32>) -> tensor<?x3xf32> {
  // expected-error @+1 {{cannot convert 'tosa.add' to the graph dialect: operand #0 has type tensor<?x3xf32> (only statically shaped f32 tensors are supported)}}
  %0 = tosa.add %a, %b : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

func.func @integer(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{cannot convert 'tosa.add' to the graph dialect: operand #0 has type tensor<4xi32> (only statically shaped f32 tensors are supported)}}
  %0 = tosa.add %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @matmul_broadcast_map(%a: tensor<4xf32>, %b: tensor<4x5xf32>, %c: tensor<3x5xf32>) -> tensor<3x5xf32> {
  // expected-error @+1 {{cannot convert 'linalg.matmul' to the graph dialect: only indexing_maps that transpose A and/or B are supported (no broadcast operands)}}
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<4xf32>, tensor<4x5xf32>) outs(%c : tensor<3x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// A non-zero padding value cannot fold into the convolution: the conv is
// converted on the padded tensor, the tensor.pad itself is left over.
func.func @pad_nonzero(%x: tensor<1x1x4x4xf32>, %w: tensor<1x1x3x3xf32>) -> tensor<1x1x4x4xf32> {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{cannot convert 'tensor.pad' to the graph dialect: tensor.pad is only supported as the padding of the spatial dimensions of a convolution (zero) or pooling (neutral value) input}}
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %one : f32
  } : tensor<1x1x4x4xf32> to tensor<1x1x6x6xf32>
  %e = tensor.empty() : tensor<1x1x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %0 = linalg.conv_2d_nchw_fchw ins(%p, %w : tensor<1x1x6x6xf32>, tensor<1x1x3x3xf32>) outs(%f : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

func.func @generic_sub(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @+1 {{cannot convert 'linalg.generic' to the graph dialect: the body is not a recognised elementwise ReLU or addition}}
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %d = arith.subf %x, %y : f32
    linalg.yield %d : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @linalg_integer_sub(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %e = tensor.empty() : tensor<4xi32>
  // expected-error @+1 {{cannot convert 'linalg.sub' to the graph dialect: operands have types tensor<4xi32> and tensor<4xi32> (only f32 tensors are supported)}}
  %0 = linalg.sub ins(%a, %b : tensor<4xi32>, tensor<4xi32>) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @broadcast(%b: tensor<4xf32>) -> tensor<2x4xf32> {
  %e = tensor.empty() : tensor<2x4xf32>
  // expected-error @+1 {{cannot convert 'linalg.broadcast' to the graph dialect: linalg.broadcast is only supported as the bias of a convolution}}
  %0 = linalg.broadcast ins(%b : tensor<4xf32>) outs(%e : tensor<2x4xf32>) dimensions = [0]
  return %0 : tensor<2x4xf32>
}

// -----

func.func @fill_dynamic_value(%v: f32) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @+1 {{cannot convert 'linalg.fill' to the graph dialect: only fills with a constant f32 value are supported}}
  %0 = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @empty() -> tensor<4xf32> {
  // expected-error @+1 {{cannot convert 'tensor.empty' to the graph dialect: tensor.empty is only supported as the init of a converted op}}
  %e = tensor.empty() : tensor<4xf32>
  return %e : tensor<4xf32>
}

// -----

// A linalg convolution whose output is smaller than the full result
// (linalg allows computing a prefix) has no graph equivalent.
func.func @conv_partial_output(%x: tensor<1x1x5x5xf32>, %w: tensor<1x1x3x3xf32>, %init: tensor<1x1x2x3xf32>) -> tensor<1x1x2x3xf32> {
  // expected-error @+1 {{cannot convert 'linalg.conv_2d_nchw_fchw' to the graph dialect: conv2d: the graph op would have shape [1,1,3,3], not [1,1,2,3]}}
  %0 = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x1x5x5xf32>, tensor<1x1x3x3xf32>) outs(%init : tensor<1x1x2x3xf32>) -> tensor<1x1x2x3xf32>
  return %0 : tensor<1x1x2x3xf32>
}
