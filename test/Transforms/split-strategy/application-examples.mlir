// Application examples 1 and 2 of the spec (Fig. 5 machine: 2 memory
// channels, 2 clusters x 2 cores, fp16 compute, label tiles 256 / 512),
// fully connected, model parallel. The labels of i, w and o as the spec
// prints them (corrected: i's pieces are 256 long, w's size is 8192 bytes
// and it splits on its reduction dim c). @fc has i 1x1024 and w 1024x4;
// @fc_padded has w as the spec stores it (1000 real rows, padded by 24).
// RUN: accel-opt --mlir-print-op-on-diagnostic=false --accel-hw=%hw_dir/labels-example.json --tensor-labeling --split-strategy=print %s 2>&1 | FileCheck %s --check-prefixes=CHECK,CACHE
// RUN: accel-opt --mlir-print-op-on-diagnostic=false --accel-hw=%hw_dir/labels-example-nocache.json --tensor-labeling --split-strategy=print %s 2>&1 | FileCheck %s --check-prefixes=CHECK,NOCACHE
// RUN: accel-opt --accel-hw=%hw_dir/labels-example.json --tensor-labeling --split-strategy %s | FileCheck %s --check-prefix=IR

// CHECK: remark: argument 0: static:in,float32,dim_nc,{1 1024} dynamic:float16,dim_nc,c=256,c=0,2048 bytes,c[(0,255),(256,511),(512,767),(768,1023)],mem,none
// CHECK: remark: argument 1: static:iw,float32,dim_cn,{1024 4} dynamic:float16,dim_nc,c=512,c=0,8192 bytes,c[(0,255),(256,511),(512,767),(768,1023)],mem,none
// CACHE: remark: result 0: static:on,float32,dim_nc,{1 4} dynamic:float16,dim_nc,c=4,c=0,8 bytes,c[(0,3)],cluster,core
// NOCACHE: remark: result 0: static:on,float32,dim_nc,{1 4} dynamic:float16,dim_nc,c=4,c=0,8 bytes,c[(0,3)],mem,cluster
// The weight drives the partition: its K pieces 0-1 on cluster 0's cores,
// 2-3 on cluster 1's.
// IR-LABEL: func.func @fc(
// IR-SAME: accel.label = #accel.label<static = #accel.static_label<category = in, type = "float32", order = "nc", dims = [1, 1024]>, dynamic = #accel.dynamic_label<type = "float16", order = "nc", tile_dim = "c", tile = 256, pad_dim = "c", size = 2048, split_dim = "c", ranges = [(0, 255), (256, 511), (512, 767), (768, 1023)], store = "mem">>
// IR: graph.matmul {{.*}}accel.labels = [#accel.label<static = #accel.static_label<category = on, type = "float32", order = "nc", dims = [1, 4]>, dynamic = #accel.dynamic_label<type = "float16", order = "nc", tile_dim = "c", tile = 4, pad_dim = "c", size = 8, split_dim = "c", ranges = [(0, 3)], store = "cluster", swap = core>>], accel.mapping = #accel.mapping<ranges = [0, 512, 1024], array = [K, K]>}
func.func @fc(%i: tensor<1x1024xf32>, %w: tensor<1024x4xf32>) -> tensor<1x4xf32> {
  %o = graph.matmul %i, %w : (tensor<1x1024xf32>, tensor<1024x4xf32>) -> tensor<1x4xf32>
  return %o : tensor<1x4xf32>
}

// CHECK: remark: argument 0: static:in,float32,dim_nc,{1 1000} dynamic:float16,dim_nc,c=256,c=24,2048 bytes,c[(0,255),(256,511),(512,767),(768,1023)],mem,none
// CHECK: remark: argument 1: static:iw,float32,dim_cn,{1000 4} dynamic:float16,dim_nc,c=512,c=24,8192 bytes,c[(0,255),(256,511),(512,767),(768,1023)],mem,none
// CACHE: remark: result 0: static:on,float32,dim_nc,{1 4} dynamic:float16,dim_nc,c=4,c=0,8 bytes,c[(0,3)],cluster,core
// NOCACHE: remark: result 0: static:on,float32,dim_nc,{1 4} dynamic:float16,dim_nc,c=4,c=0,8 bytes,c[(0,3)],mem,cluster
// The padded rows 1000-1023 are no GEMM work: cluster 1 gets K 512-999.
// IR-LABEL: func.func @fc_padded(
// IR: accel.mapping = #accel.mapping<ranges = [0, 512, 1000], array = [K, K]>
func.func @fc_padded(%i: tensor<1x1000xf32>, %w: tensor<1000x4xf32>) -> tensor<1x4xf32> {
  %o = graph.matmul %i, %w : (tensor<1x1000xf32>, tensor<1000x4xf32>) -> tensor<1x4xf32>
  return %o : tensor<1x4xf32>
}
