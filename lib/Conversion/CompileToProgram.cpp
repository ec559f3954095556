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

/// "file:line:col" as the tools print it (a file position anywhere in the
/// location), else the name of an imported ONNX node, else the location.
static void printLocation(llvm::raw_ostream &os, Location loc) {
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  else if (auto name = dyn_cast<NameLoc>(loc))
    os << name.getName().getValue();
  else
    os << loc;
}

static const char *severityName(DiagnosticSeverity s) {
  switch (s) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Note:
    return "note";
  case DiagnosticSeverity::Remark:
    return "remark";
  }
  return "error";
}

bool accel::compileToProgram(ModuleOp module, const std::string &hwPath,
                             const SplitPipelineOptions &split, Program &out,
                             std::string &err, std::unique_ptr<Pass> lowering) {
  PassManager pm(module.getContext());
  buildDefaultPipeline(pm, hwPath, std::move(lowering), split);
  std::string diag;
  {
    // Each diagnostic with its location, as the tools print them: the
    // callers (benchmarks, accel.compile in Python) pass the text on.
    ScopedDiagnosticHandler h(module.getContext(), [&](Diagnostic &d) {
      llvm::raw_string_ostream os(diag);
      printLocation(os, d.getLocation());
      os << ": " << severityName(d.getSeverity()) << ": " << d.str() << "\n";
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
