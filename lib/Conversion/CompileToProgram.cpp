//===- CompileToProgram.cpp - A module through the default pipeline ------===//
//
// What the benchmarks that build their networks in memory share with
// accel-compile: accel-default-pipeline on a graph-dialect module, the
// pipeline's diagnostics collected as the error, and the isa.program as a
// Program ready for the simulator.
//
//===----------------------------------------------------------------------===//
#include "Isa/IsaDialect.h"
#include "accel/Conversion/Passes.h"
#include "accel/Target/IsaProgram.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

bool accel::compileToProgram(ModuleOp module, const std::string &hwPath,
                             const SplitPipelineOptions &split, Program &out,
                             std::string &err, std::unique_ptr<Pass> lowering) {
  PassManager pm(module.getContext());
  buildDefaultPipeline(pm, hwPath, std::move(lowering), split);
  std::string diag;
  {
    ScopedDiagnosticHandler h(module.getContext(), [&](Diagnostic &d) {
      diag += d.str() + "\n";
      return success();
    });
    if (failed(pm.run(module))) {
      err = "compilation failed: " + diag;
      return false;
    }
  }
  isa::ProgramOp po;
  module.walk([&](isa::ProgramOp p) { po = p; });
  if (!po || failed(programFromIsa(po, out))) {
    err = "no ISA program";
    return false;
  }
  return true;
}
