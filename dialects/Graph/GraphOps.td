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
include "mlir/IR/EnumAttr.td"

def Graph_Dialect : Dialect {
  let name = "graph";
  let cppNamespace = "::accel::graph";
  let summary = "Tensor-level operators of the accelerator";
  let description = [{
    One spelling per operation: `graph.add` and `graph.relu` are canonical;
    `graph.binary add` (f32) and `graph.unary relu` are accepted and rewritten
    into them by canonicalisation (see Graph/GraphPatterns.h). Folded
    constants are `arith.constant`s.
  }];
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

class Graph_Op<string mnemonic, list<Trait> traits = []>
    : Op<Graph_Dialect, mnemonic, !listconcat(traits, [Pure])>;

def Graph_F32Tensor : RankedTensorOf<[F32]>;
/// Values the machine stores as f32 words: f32 data, i1 (0.0 / 1.0) and
/// i64 indices (exact below 2^24). The I/O boundary converts.
def Graph_AnyTensor : RankedTensorOf<[F32, I1, I64]>;

def Graph_MatMulOp : Graph_Op<"matmul", [InferTypeOpAdaptor]> {
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
}

def Graph_GemmOp : Graph_Op<"gemm", [InferTypeOpAdaptor]> {
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
}

def Graph_Conv2DOp : Graph_Op<"conv2d", [InferTypeOpAdaptor]> {
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
  let extraClassDeclaration = [{
    /// groups == input channels == output channels: the convolutions the
    /// sliding-window weight-queue kernel runs (docs/depthwise.md), which
    /// have no GEMM partition (one channel included).
    bool isDepthwise();
  }];
}

def Graph_ReluOp : Graph_Op<"relu", [SameOperandsAndResultType, InferTypeOpInterface]> {
  let summary = "max(x, 0)";
  let arguments = (ins Graph_F32Tensor:$input);
  let results = (outs Graph_F32Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def Graph_AddOp : Graph_Op<"add", [InferTypeOpAdaptor]> {
  let summary = "elementwise sum with numpy (multidirectional) broadcasting";
  let arguments = (ins Graph_F32Tensor:$lhs, Graph_F32Tensor:$rhs);
  let results = (outs Graph_F32Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Graph_TransposeOp : Graph_Op<"transpose", [InferTypeOpAdaptor]> {
  let summary = "permute dimensions: result dim i = input dim perm[i]";
  let arguments = (ins Graph_F32Tensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs Graph_F32Tensor:$result);
  let assemblyFormat = "$input $perm attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Graph_RelayoutOp : Graph_Op<"relayout", [SameOperandsAndResultType, InferTypeOpInterface]> {
  let summary = "explicit re-layout between two splits of one tensor";
  let description = [{
    Inserted by split-strategy when the consumers of a tensor want different
    splits (docs/labels-and-splits.md, "Passes"): an identity on the value
    whose `accel.labels` carries the target label (the consumer's split).
    It folds away when that label equals the source's (or is absent);
    convert-graph-to-isa lowers it as an alias of its operand (the data is
    dense in DRAM either way; the split only changes which core reads what).

    ```mlir
    %1 = graph.relayout %0 {accel.labels = [#accel.label<...>]} : tensor<8x64xf32>
    ```
  }];
  let arguments = (ins Graph_AnyTensor:$input);
  let results = (outs Graph_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
  let hasFolder = 1;
}

def Graph_ReshapeOp : Graph_Op<"reshape"> {
  let summary = "same elements, new static shape (row-major order kept)";
  let arguments = (ins Graph_F32Tensor:$input);
  let results = (outs Graph_F32Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise, reductions, pooling, normalisation, layout, recurrent
//===----------------------------------------------------------------------===//

def Graph_UnaryFn : I32EnumAttr<"UnaryFn", "elementwise unary function", [
    I32EnumAttrCase<"neg", 0>, I32EnumAttrCase<"abs", 1>,
    I32EnumAttrCase<"reciprocal", 2>, I32EnumAttrCase<"sqrt", 3>,
    I32EnumAttrCase<"exp", 4>, I32EnumAttrCase<"log", 5>,
    I32EnumAttrCase<"erf", 6>, I32EnumAttrCase<"floor", 7>,
    I32EnumAttrCase<"ceil", 8>, I32EnumAttrCase<"sign", 9>,
    I32EnumAttrCase<"sin", 10>, I32EnumAttrCase<"cos", 11>,
    I32EnumAttrCase<"relu", 12>, I32EnumAttrCase<"sigmoid", 13>,
    I32EnumAttrCase<"tanh", 14>, I32EnumAttrCase<"softplus", 15>,
    I32EnumAttrCase<"softsign", 16>, I32EnumAttrCase<"leaky_relu", 17>,
    I32EnumAttrCase<"elu", 18>, I32EnumAttrCase<"selu", 19>,
    I32EnumAttrCase<"celu", 20>, I32EnumAttrCase<"hard_sigmoid", 21>,
    I32EnumAttrCase<"hard_swish", 22>, I32EnumAttrCase<"thresholded_relu", 23>,
    I32EnumAttrCase<"clip", 24>, I32EnumAttrCase<"affine", 25>,
    I32EnumAttrCase<"round", 26>, I32EnumAttrCase<"tan", 27>,
    I32EnumAttrCase<"square", 28>]> {
  let cppNamespace = "::accel::graph";
  let description = [{
    Parameters: leaky_relu(alpha), elu(alpha), celu(alpha),
    thresholded_relu(alpha), selu(alpha, gamma = beta), hard_sigmoid(alpha,
    beta) = clamp(alpha*x + beta, 0, 1), clip(min = alpha, max = beta),
    affine = alpha*x + beta.
  }];
}

def Graph_UnaryOp : Graph_Op<"unary", [SameOperandsAndResultType, InferTypeOpInterface]> {
  let summary = "elementwise unary function with up to two parameters";
  let description = [{
    ```mlir
    %y = graph.unary leaky_relu %x {alpha = 0.1 : f32} : tensor<3x4xf32>
    ```
  }];
  let arguments = (ins Graph_UnaryFn:$fn, Graph_F32Tensor:$input,
                   DefaultValuedAttr<F32Attr, "0.0">:$alpha,
                   DefaultValuedAttr<F32Attr, "0.0">:$beta);
  let results = (outs Graph_F32Tensor:$result);
  let assemblyFormat = "$fn $input attr-dict `:` type($result)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Graph_BinaryFn : I32EnumAttr<"BinaryFn", "elementwise binary function", [
    I32EnumAttrCase<"add", 0>, I32EnumAttrCase<"sub", 1>,
    I32EnumAttrCase<"mul", 2>, I32EnumAttrCase<"div", 3>,
    I32EnumAttrCase<"pow", 4>, I32EnumAttrCase<"max", 5>,
    I32EnumAttrCase<"min", 6>, I32EnumAttrCase<"prelu", 7>,
    I32EnumAttrCase<"equal", 8>, I32EnumAttrCase<"less", 9>,
    I32EnumAttrCase<"greater", 10>, I32EnumAttrCase<"less_equal", 11>,
    I32EnumAttrCase<"greater_equal", 12>]> {
  let cppNamespace = "::accel::graph";
  let description = [{ prelu(x, slope) = x < 0 ? slope * x : x. The
    comparisons produce i1 (stored as 0.0 / 1.0). }];
}

def Graph_BinaryOp : Graph_Op<"binary", [InferTypeOpAdaptor]> {
  let summary = "elementwise binary function with numpy broadcasting";
  let description = [{
    ```mlir
    %y = graph.binary pow %a, %b : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
    %m = graph.binary less %a, %b : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
    ```
  }];
  let arguments = (ins Graph_BinaryFn:$fn, Graph_AnyTensor:$lhs,
                   Graph_AnyTensor:$rhs);
  let results = (outs Graph_AnyTensor:$result);
  let assemblyFormat = [{
    $fn $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Graph_WhereOp : Graph_Op<"where", [InferTypeOpAdaptor]> {
  let summary = "cond ? x : y with numpy broadcasting";
  let arguments = (ins Graph_AnyTensor:$cond, Graph_AnyTensor:$x,
                   Graph_AnyTensor:$y);
  let results = (outs Graph_AnyTensor:$result);
  let assemblyFormat = [{
    $cond `,` $x `,` $y attr-dict `:` functional-type(operands, results)
  }];
  let hasFolder = 1;
}

def Graph_ReduceFn : I32EnumAttr<"ReduceFn", "reduction", [
    I32EnumAttrCase<"sum", 0>, I32EnumAttrCase<"mean", 1>,
    I32EnumAttrCase<"max", 2>, I32EnumAttrCase<"min", 3>,
    I32EnumAttrCase<"prod", 4>, I32EnumAttrCase<"sum_square", 5>,
    I32EnumAttrCase<"l1", 6>, I32EnumAttrCase<"l2", 7>,
    I32EnumAttrCase<"log_sum", 8>, I32EnumAttrCase<"log_sum_exp", 9>,
    I32EnumAttrCase<"argmax", 10>, I32EnumAttrCase<"argmin", 11>]> {
  let cppNamespace = "::accel::graph";
}

def Graph_ReduceOp : Graph_Op<"reduce", [InferTypeOpAdaptor]> {
  let summary = "reduce over `axes` (sorted, non-negative)";
  let description = [{
    argmax / argmin take exactly one axis and produce i64 indices
    (`select_last_index` picks the last of equal extremes).

    ```mlir
    %s = graph.reduce mean %x {axes = array<i64: 2, 3>, keepdims = true}
        : (tensor<1x8x4x4xf32>) -> tensor<1x8x1x1xf32>
    ```
  }];
  let arguments = (ins Graph_ReduceFn:$fn, Graph_F32Tensor:$input,
                   DenseI64ArrayAttr:$axes,
                   DefaultValuedAttr<BoolAttr, "true">:$keepdims,
                   DefaultValuedAttr<BoolAttr, "false">:$select_last_index);
  let results = (outs Graph_AnyTensor:$result);
  let assemblyFormat = "$fn $input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Graph_SoftmaxOp : Graph_Op<"softmax", [SameOperandsAndResultType, InferTypeOpInterface]> {
  let summary = "softmax (or log-softmax) along one axis";
  let arguments = (ins Graph_F32Tensor:$input, I64Attr:$axis,
                   DefaultValuedAttr<BoolAttr, "false">:$log);
  let results = (outs Graph_F32Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Graph_PoolKind : I32EnumAttr<"PoolKind", "pooling kind", [
    I32EnumAttrCase<"max", 0>, I32EnumAttrCase<"avg", 1>]> {
  let cppNamespace = "::accel::graph";
}

def Graph_Pool2DOp : Graph_Op<"pool2d", [InferTypeOpAdaptor]> {
  let summary = "2-D max / average pooling on NCHW";
  let description = [{
    `pads` is [top, left, bottom, right]; `ceil_mode` rounds the output
    extent up (windows starting in the padding are dropped as ONNX does).
    Average pooling divides by the window size including padding when
    `count_include_pad`, else by the number of real elements.
  }];
  let arguments = (ins Graph_PoolKind:$kind, Graph_F32Tensor:$input,
                   DenseI64ArrayAttr:$kernel,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$pads,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
                   DefaultValuedAttr<BoolAttr, "false">:$ceil_mode,
                   DefaultValuedAttr<BoolAttr, "false">:$count_include_pad);
  let results = (outs Graph_F32Tensor:$result);
  let assemblyFormat = "$kind $input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Graph_ConcatOp : Graph_Op<"concat", [InferTypeOpAdaptor]> {
  let summary = "concatenate along `axis`";
  let arguments = (ins Variadic<Graph_AnyTensor>:$inputs, I64Attr:$axis);
  let results = (outs Graph_AnyTensor:$result);
  let assemblyFormat = "$inputs attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Graph_SliceOp : Graph_Op<"slice"> {
  let summary = "strided static slice: result[i] = input[offsets + i*strides]";
  let description = [{ One offset / stride per dimension; strides may be
    negative (reverse). The result type gives the sizes. }];
  let arguments = (ins Graph_AnyTensor:$input, DenseI64ArrayAttr:$offsets,
                   DenseI64ArrayAttr:$strides);
  let results = (outs Graph_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Graph_PadMode : I32EnumAttr<"PadMode", "padding mode", [
    I32EnumAttrCase<"constant", 0>, I32EnumAttrCase<"reflect", 1>,
    I32EnumAttrCase<"edge", 2>]> {
  let cppNamespace = "::accel::graph";
}

def Graph_PadOp : Graph_Op<"pad", [InferTypeOpAdaptor]> {
  let summary = "pad each dimension (begins then ends, ONNX order)";
  let arguments = (ins Graph_F32Tensor:$input, DenseI64ArrayAttr:$pads,
                   DefaultValuedAttr<Graph_PadMode, "::accel::graph::PadMode::constant">:$mode,
                   DefaultValuedAttr<F32Attr, "0.0">:$value);
  let results = (outs Graph_F32Tensor:$result);
  let assemblyFormat = "$input (`mode` $mode^)? attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Graph_BroadcastOp : Graph_Op<"broadcast"> {
  let summary = "numpy broadcast to the result shape (ONNX Expand)";
  let arguments = (ins Graph_AnyTensor:$input);
  let results = (outs Graph_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Graph_TileOp : Graph_Op<"tile", [InferTypeOpAdaptor]> {
  let summary = "repeat the input `repeats[i]` times along dimension i";
  let arguments = (ins Graph_AnyTensor:$input, DenseI64ArrayAttr:$repeats);
  let results = (outs Graph_AnyTensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Graph_BatchNormOp : Graph_Op<"batch_norm", [InferTypeOpAdaptor]> {
  let summary = "inference batch normalisation over dimension 1";
  let description = [{ y = (x - mean) / sqrt(var + epsilon) * scale + bias.
    `fold-batch-norm` folds it into a preceding conv2d where legal, else
    into a per-channel affine. }];
  let arguments = (ins Graph_F32Tensor:$input, Graph_F32Tensor:$scale,
                   Graph_F32Tensor:$bias, Graph_F32Tensor:$mean,
                   Graph_F32Tensor:$variance,
                   DefaultValuedAttr<F32Attr, "1.0e-5">:$epsilon);
  let results = (outs Graph_F32Tensor:$result);
  let assemblyFormat = "$input `,` $scale `,` $bias `,` $mean `,` $variance attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Graph_ConvTranspose2DOp : Graph_Op<"conv_transpose2d", [InferTypeOpAdaptor]> {
  let summary = "2-D transposed convolution, NCHW input, IOHW weight";
  let description = [{ Weight [C, O/groups, KH, KW]; `pads` [top, left,
    bottom, right] are removed from the full output; `output_padding` adds
    to the bottom / right. }];
  let arguments = (ins Graph_F32Tensor:$input, Graph_F32Tensor:$weight,
                   Optional<Graph_F32Tensor>:$bias,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$pads,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
                   DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">:$output_padding,
                   DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs Graph_F32Tensor:$result);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? attr-dict `:` functional-type(operands, results)
  }];
}

def Graph_RnnKind : I32EnumAttr<"RnnKind", "recurrent cell", [
    I32EnumAttrCase<"rnn", 0>, I32EnumAttrCase<"gru", 1>,
    I32EnumAttrCase<"lstm", 2>]> {
  let cppNamespace = "::accel::graph";
}

def Graph_RecurrentOp : Graph_Op<"recurrent", [AttrSizedOperandSegments, InferTypeOpAdaptor]> {
  let summary = "ONNX RNN / GRU / LSTM layer (all attributes)";
  let description = [{
    Operands as ONNX: X [seq, batch, input] (layout 0), W, R, optional B,
    sequence_lens (i32 / i64: a constant, or a run-time input), initial_h,
    initial_c (LSTM), P (LSTM peepholes).
    Results: Y [seq, dirs, batch, hidden], Y_h [dirs, batch, hidden], Y_c
    (LSTM; for RNN / GRU a copy of Y_h). `activations` names the functions
    (ONNX spelling) with `activation_alpha` / `activation_beta`. The layout
    attribute is resolved by the importer (transposes), so X / Y are
    always in layout 0 here. `direction`: forward, reverse, bidirectional.
  }];
  let arguments = (ins Graph_RnnKind:$kind, Graph_F32Tensor:$x,
                   Graph_F32Tensor:$w, Graph_F32Tensor:$r,
                   Optional<Graph_F32Tensor>:$b,
                   Optional<RankedTensorOf<[I32, I64]>>:$sequence_lens,
                   Optional<Graph_F32Tensor>:$initial_h,
                   Optional<Graph_F32Tensor>:$initial_c,
                   Optional<Graph_F32Tensor>:$p,
                   I64Attr:$hidden_size, StrAttr:$direction,
                   StrArrayAttr:$activations,
                   DefaultValuedAttr<F32ArrayAttr, "{}">:$activation_alpha,
                   DefaultValuedAttr<F32ArrayAttr, "{}">:$activation_beta,
                   OptionalAttr<F32Attr>:$clip,
                   DefaultValuedAttr<BoolAttr, "false">:$input_forget,
                   DefaultValuedAttr<BoolAttr, "false">:$linear_before_reset);
  let results = (outs Graph_F32Tensor:$y, Graph_F32Tensor:$y_h,
                 Graph_F32Tensor:$y_c);
  let assemblyFormat = [{
    $kind $x `,` $w `,` $r (`bias` $b^)? (`seq_lens` $sequence_lens^)?
    (`h0` $initial_h^)? (`c0` $initial_c^)? (`peephole` $p^)?
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif
