//===- GraphOps.td - Tensor-level graph dialect ------------*- tablegen -*-===//
//
// The network operators the accelerator runs, on ranked tensors. The ONNX
// importer and the TOSA/linalg legalisation both produce this dialect; the
// analysis passes annotate it with discardable attributes (labels, tiling,
// placement) and `convert-graph-to-isa` lowers it.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_GRAPH_OPS
#define ACCEL_GRAPH_OPS

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def Graph_Dialect : Dialect {
  let name = "graph";
  let cppNamespace = "::accel::graph";
  let summary = "Tensor-level operators of the accelerator";
}

class Graph_Op<string mnemonic, list<Trait> traits = []>
    : Op<Graph_Dialect, mnemonic, !listconcat(traits, [Pure])>;

def Graph_F32Tensor : RankedTensorOf<[F32]>;

def Graph_MatMulOp : Graph_Op<"matmul"> {
  let summary = "numpy-style (batched, broadcasting) matrix product";
  let description = [{
    `lhs` is [..., M, K], `rhs` is [..., K, N]; batch dimensions broadcast as
    in numpy. A 1-D operand is promoted as numpy does (and the promoted
    dimension dropped from the result).

    ```mlir
    %c = graph.matmul %a, %b : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
    ```
  }];
  let arguments = (ins Graph_F32Tensor:$lhs, Graph_F32Tensor:$rhs);
  let results = (outs Graph_F32Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Graph_GemmOp : Graph_Op<"gemm"> {
  let summary = "Y = alpha * op(A) * op(B) + beta * C (ONNX Gemm)";
  let description = [{
    A and B are 2-D; `trans_a` / `trans_b` transpose them first. The optional
    C broadcasts (unidirectionally) to [M, N].

    ```mlir
    %y = graph.gemm %a, %b, %c {alpha = 0.5 : f32, trans_b = true}
        : (tensor<3x5xf32>, tensor<4x5xf32>, tensor<1x4xf32>) -> tensor<3x4xf32>
    ```
  }];
  let arguments = (ins Graph_F32Tensor:$a, Graph_F32Tensor:$b, Optional<Graph_F32Tensor>:$c,
                   DefaultValuedAttr<F32Attr, "1.0">:$alpha,
                   DefaultValuedAttr<F32Attr, "1.0">:$beta,
                   DefaultValuedAttr<BoolAttr, "false">:$trans_a,
                   DefaultValuedAttr<BoolAttr, "false">:$trans_b);
  let results = (outs Graph_F32Tensor:$result);
  let assemblyFormat = [{
    $a `,` $b (`,` $c^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Graph_Conv2DOp : Graph_Op<"conv2d"> {
  let summary = "2-D convolution, NCHW activations, OIHW weights";
  let description = [{
    Input [N, C, H, W], weight [O, C/groups, KH, KW], optional bias [O].
    `pads` is [top, left, bottom, right] (ONNX order: begins then ends).

    ```mlir
    %y = graph.conv2d %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}
        : (tensor<1x1x7x5xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x4x3xf32>
    ```
  }];
  let arguments = (ins Graph_F32Tensor:$input, Graph_F32Tensor:$weight,
                   Optional<Graph_F32Tensor>:$bias,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$pads,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
                   DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs Graph_F32Tensor:$result);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Graph_ReluOp : Graph_Op<"relu", [SameOperandsAndResultType]> {
  let summary = "max(x, 0)";
  let arguments = (ins Graph_F32Tensor:$input);
  let results = (outs Graph_F32Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def Graph_AddOp : Graph_Op<"add"> {
  let summary = "elementwise sum with numpy (multidirectional) broadcasting";
  let arguments = (ins Graph_F32Tensor:$lhs, Graph_F32Tensor:$rhs);
  let results = (outs Graph_F32Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Graph_TransposeOp : Graph_Op<"transpose"> {
  let summary = "permute dimensions: result dim i = input dim perm[i]";
  let arguments = (ins Graph_F32Tensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs Graph_F32Tensor:$result);
  let assemblyFormat = "$input $perm attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Graph_ReshapeOp : Graph_Op<"reshape"> {
  let summary = "same elements, new static shape (row-major order kept)";
  let arguments = (ins Graph_F32Tensor:$input);
  let results = (outs Graph_F32Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

#endif
