// A machine with two instruction buffers: input stationary with a fused
// ReLU and several K chunks needs three sequences (first chunk, reloads,
// last chunk with the ReLU), so forcing it is an error and the selection
// avoids it.
// RUN: not accel-opt %s --accel-hw=%S/Inputs/two-ibufs.json --select-tiling="partition-k=256" --select-mapping="dataflow=input_stationary array=M,N" 2>&1 | FileCheck %s --check-prefix=FORCED
// RUN: accel-opt %s --accel-hw=%S/Inputs/two-ibufs.json --select-tiling="partition-k=256" --select-mapping="array=M,N" | FileCheck %s --check-prefix=CHOSEN

// FORCED: error: 'graph.matmul' op select-mapping: input_stationary [M,N] needs 3 instruction buffers, the hardware has 2
// CHOSEN: accel.mapping = #accel.mapping<dataflow = output_stationary, array = [M, N], cycles = {{[0-9]+}}>

func.func @main(%a: tensor<128x1024xf32> {accel.name = "a"}, %b: tensor<1024x128xf32> {accel.name = "b"})
    -> (tensor<128x128xf32> {accel.name = "y"}) {
  %0 = graph.matmul %a, %b : (tensor<128x1024xf32>, tensor<1024x128xf32>) -> tensor<128x128xf32>
  %1 = graph.relu %0 : tensor<128x128xf32>
  return %1 : tensor<128x128xf32>
}
