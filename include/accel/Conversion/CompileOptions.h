//===- CompileOptions.h - The options accel-compile forwards ----*- C++ -*-===//
//
// The default pipeline's options as accel-compile and the Python package
// (accel.compile(model, **options)) accept them: convert-graph-to-isa's own
// options and the split options (isSplitOptionName). They are declared once,
// by the passes (Passes.td) and parseSplitOptions; this file only names them
// and parses "name=value" pairs into the pipeline's two parts.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_CONVERSION_COMPILEOPTIONS_H
#define ACCEL_CONVERSION_COMPILEOPTIONS_H

#include "accel/Conversion/Passes.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "mlir/IR/DialectRegistry.h"

namespace accel {

/// The forwarded option names (keys of the lowering pass's printed option
/// set and the split options) and whether each is a flag (a bool option,
/// printed `true` / `false`).
std::map<std::string, bool> compileOptionNames();

/// The default pipeline configured by "name=value" pairs.
struct CompileOptions {
  std::unique_ptr<mlir::Pass> lowering; ///< convert-graph-to-isa
  SplitPipelineOptions split;
  /// The lowering pairs joined ("depthwise=gemm load-balance=true").
  std::string loweringText;
};

/// Parses `pairs` (names as compileOptionNames) into `out`. False with `err`
/// ("invalid lowering option in 'x=y'[: reason]") on an unknown name or a
/// value a parser rejects.
bool parseCompileOptions(const std::vector<std::string> &pairs,
                         CompileOptions &out, std::string &err);

/// The dialects a model may arrive in and the compiler's own: graph, ISA
/// and accel, func / arith / tensor, and TOSA / linalg (ONNX-lowered MLIR).
/// accel-compile and the Python package compile in a context of these.
void registerCompilerDialects(mlir::DialectRegistry &registry);

} // namespace accel

#endif
