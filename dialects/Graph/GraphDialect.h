//===- GraphDialect.h - Tensor-level graph dialect --------------*- C++ -*-===//
#ifndef ACCEL_GRAPH_GRAPHDIALECT_H
#define ACCEL_GRAPH_GRAPHDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "Graph/GraphEnums.h.inc"
#include "Graph/GraphOpsDialect.h.inc"

#define GET_OP_CLASSES
#include "Graph/GraphOps.h.inc"

namespace accel::graph {

/// Shape rules shared by the verifiers, the ONNX importer and the TOSA/linalg
/// legalisation, so that all three agree. Each returns std::nullopt when the
/// operand shapes are incompatible and then sets `why`.
std::optional<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b,
                std::string &why);
std::optional<llvm::SmallVector<int64_t>>
matmulShape(llvm::ArrayRef<int64_t> lhs, llvm::ArrayRef<int64_t> rhs,
            std::string &why);
std::optional<llvm::SmallVector<int64_t>>
gemmShape(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b,
          const llvm::ArrayRef<int64_t> *c, bool transA, bool transB,
          std::string &why);
std::optional<llvm::SmallVector<int64_t>>
conv2dShape(llvm::ArrayRef<int64_t> input, llvm::ArrayRef<int64_t> weight,
            const llvm::ArrayRef<int64_t> *bias,
            llvm::ArrayRef<int64_t> strides, llvm::ArrayRef<int64_t> pads,
            llvm::ArrayRef<int64_t> dilations, int64_t groups,
            std::string &why);

std::optional<llvm::SmallVector<int64_t>>
reduceShape(llvm::ArrayRef<int64_t> input, llvm::ArrayRef<int64_t> axes,
            bool keepdims, std::string &why);
/// Output extent of a pooling window along one dimension (ONNX rules,
/// including ceil_mode's "last window must start inside the input").
std::optional<int64_t> poolExtent(int64_t in, int64_t kernel, int64_t stride,
                                  int64_t padBegin, int64_t padEnd,
                                  int64_t dilation, bool ceilMode,
                                  std::string &why);
std::optional<llvm::SmallVector<int64_t>> convTranspose2dShape(
    llvm::ArrayRef<int64_t> input, llvm::ArrayRef<int64_t> weight,
    llvm::ArrayRef<int64_t> strides, llvm::ArrayRef<int64_t> pads,
    llvm::ArrayRef<int64_t> dilations, llvm::ArrayRef<int64_t> outputPadding,
    int64_t groups, std::string &why);

/// Dense multiply-adds of a contraction: conv2d N*OH*OW * |weight|,
/// conv_transpose2d N*H*W * |weight|, matmul / gemm |result| * K, recurrent
/// seq * batch * (|W| + |R|); 0 for every other operator (elementwise,
/// reductions, pooling and copies run no MACs of the array's kind) and for
/// dynamic shapes.
uint64_t denseMacs(mlir::Operation *op);

} // namespace accel::graph

#endif
