//===- FuzzCompile.h - What accel-compile runs after its front end -*- C++
//-*-=//
//
// Shared by the ONNX and the MLIR harness: a context set up like
// accel-compile's (diagnostics swallowed), the size bound both apply before
// lowering, and the middle / back end (default pipeline, isa.program ->
// Program, validation, binary writer).
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TEST_FUZZ_FUZZCOMPILE_H
#define ACCEL_TEST_FUZZ_FUZZCOMPILE_H

#include "FuzzCommon.h"
#include "Graph/GraphDialect.h"
#include "Isa/IsaDialect.h"
#include "accel/Conversion/Passes.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Target/Binary.h"
#include "accel/Target/IsaProgram.h"
#include "accel/Target/Validate.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"

#include <memory>

namespace accel::fuzz {

/// Tensors with more elements than this are not lowered: "sizes are checked
/// only after code generation" (huge Gemm / pooling window / splat constant
/// exhausting memory or time) is a known issue fixed separately; without the
/// bound the fuzzer spends its time in out-of-memory and timeout reports.
constexpr int64_t kMaxTensorElements = int64_t(1) << 20;

/// A fresh single-threaded context with accel-compile's dialects, one per
/// input so nothing one input uniques leaks into the next.
inline std::unique_ptr<mlir::MLIRContext> makeContext() {
  mlir::DialectRegistry registry;
  registry.insert<graph::GraphDialect, isa::IsaDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::tensor::TensorDialect,
                  mlir::tosa::TosaDialect, mlir::linalg::LinalgDialect>();
  auto ctx = std::make_unique<mlir::MLIRContext>(
      registry, mlir::MLIRContext::Threading::DISABLED);
  ctx->loadAllAvailableDialects();
  return ctx;
}

/// True when every ranked tensor type of an operand or result in `module`
/// has at most kMaxTensorElements elements.
inline bool withinSizeBound(mlir::ModuleOp module) {
  auto small = [](mlir::Type t) {
    auto rt = llvm::dyn_cast<mlir::RankedTensorType>(t);
    if (!rt)
      return true;
    int64_t n = 1;
    for (int64_t d : rt.getShape()) {
      if (d < 0)
        continue; // dynamic: the pipeline rejects it
      if (d > kMaxTensorElements || (n *= d) > kMaxTensorElements)
        return false;
    }
    return true;
  };
  bool ok = true;
  module->walk([&](mlir::Operation *op) {
    for (mlir::Type t : op->getOperandTypes())
      ok = ok && small(t);
    for (mlir::Type t : op->getResultTypes())
      ok = ok && small(t);
    for (mlir::Region &r : op->getRegions())
      for (mlir::Block &b : r)
        for (mlir::Type t : b.getArgumentTypes())
          ok = ok && small(t);
  });
  return ok;
}

/// Runs accel-compile's middle and back end on `module` with the default
/// hardware. Rejections are fine; a program the compiler emits must validate
/// (accel-compile reports that as an internal error).
inline void compileModule(mlir::ModuleOp module) {
  mlir::PassManager pm(module.getContext());
  buildDefaultPipeline(pm, /*hwPath=*/"");
  if (mlir::failed(pm.run(module)))
    return;
  isa::ProgramOp programOp;
  module.walk([&](isa::ProgramOp p) { programOp = p; });
  if (!programOp)
    return;
  Program program;
  if (mlir::failed(programFromIsa(programOp, program)))
    return;
  std::string err;
  fuzzCheck(validateProgram(program, defaultHardware(), err),
            "the compiler emitted an invalid program: " + err);
  std::vector<uint8_t> bytes;
  if (!writeBinary(program, bytes, err))
    fuzzCheck(!err.empty(), "writeBinary failed without a message");
}

} // namespace accel::fuzz

#endif
