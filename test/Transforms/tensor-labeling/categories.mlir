// Static labels from the graph and step S0 of the dynamic labels on the
// default machine (f32 compute, tiles of the 64-element block): categories
// from in / out degree, operand role and constness; dim letters of the
// GEMM operand roles (matmul A nc, B cn read as nc; conv nchw, bias c) or
// by rank; tiling, padding and size of the innermost processor dim.
// RUN: accel-opt --mlir-print-op-on-diagnostic=false --tensor-labeling=print %s 2>&1 | FileCheck %s
// RUN: accel-opt --tensor-labeling %s | FileCheck %s --check-prefix=IR

// CHECK: remark: argument 0: static:in,float32,dim_nc,{3 100} dynamic:float32,dim_nc,c=64,c=28,1536 bytes,none,mem,none
// CHECK: remark: argument 1: static:iw,float32,dim_cn,{100 5} dynamic:float32,dim_nc,c=64,c=28,2560 bytes,none,mem,none
// CHECK: remark: argument 2: static:ins,float32,dim_c,{7} dynamic:float32,dim_c,c=7,c=0,28 bytes,none,mem,none
// CHECK: remark: argument 3: static:in,float32,dim_nchw,{1 2 5 5} dynamic:float32,dim_nchw,w=5,w=0,200 bytes,none,mem,none
// CHECK: remark: argument 4: static:in,float32,dim_nct,{2 3 4} dynamic:float32,dim_nct,t=4,t=0,96 bytes,none,mem,none
// CHECK: remark: result 0: static:cw,float32,dim_nchw,{4 2 3 3} dynamic:float32,dim_nchw,w=3,w=0,288 bytes,none,mem,none
// CHECK: remark: result 0: static:aux,float32,dim_c,{4} dynamic:float32,dim_c,c=4,c=0,16 bytes,none,mem,none
// CHECK: remark: result 0: static:hn,float32,dim_nc,{3 5} dynamic:float32,dim_nc,c=5,c=0,60 bytes,none,mem,none
// CHECK: remark: result 0: static:on,float32,dim_nc,{3 5} dynamic:float32,dim_nc,c=5,c=0,60 bytes,none,mem,none
// CHECK: remark: result 0: static:on,float32,dim_nchw,{1 4 3 3} dynamic:float32,dim_nchw,w=3,w=0,144 bytes,none,mem,none
// CHECK: remark: result 0: static:on,float32,dim_nct,{2 3 4} dynamic:float32,dim_nct,t=4,t=0,96 bytes,none,mem,none
// IR: %arg1: tensor<100x5xf32> {accel.label = #accel.label<static = #accel.static_label<category = iw, type = "float32", order = "cn", dims = [100, 5]>, dynamic = #accel.dynamic_label<type = "float32", order = "nc", tile_dim = "c", tile = 64, pad_dim = "c", pad = 28, size = 2560>>}
// IR: arith.constant {{.*}}accel.labels = [#accel.label<static = #accel.static_label<category = cw,
func.func @f(%a: tensor<3x100xf32>, %b: tensor<100x5xf32>, %unused: tensor<7xf32>,
             %x: tensor<1x2x5x5xf32>, %t: tensor<2x3x4xf32>)
    -> (tensor<3x5xf32>, tensor<1x4x3x3xf32>, tensor<2x3x4xf32>) {
  %w = arith.constant dense<1.0> : tensor<4x2x3x3xf32>
  %bias = arith.constant dense<0.5> : tensor<4xf32>
  %h = graph.matmul %a, %b : (tensor<3x100xf32>, tensor<100x5xf32>) -> tensor<3x5xf32>
  %o = graph.relu %h : tensor<3x5xf32>
  %c = graph.conv2d %x, %w, %bias : (tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
  %u = graph.relu %t : tensor<2x3x4xf32>
  return %o, %c, %u : tensor<3x5xf32>, tensor<1x4x3x3xf32>, tensor<2x3x4xf32>
}
