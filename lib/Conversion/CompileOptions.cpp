//===- CompileOptions.cpp - The options accel-compile forwards ------------===//
//
// Shared by accel-compile's command line and the Python package: the names
// come from the lowering pass's own option set, the values are checked by the
// passes' parsers (convert-graph-to-isa, split-strategy) and
// parseSplitOptions, so nothing here repeats an option's declaration.
//
//===----------------------------------------------------------------------===//
#include "accel/Conversion/CompileOptions.h"
#include "Accel/AccelDialect.h"
#include "Graph/GraphDialect.h"
#include "Isa/IsaDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

std::map<std::string, bool> accel::compileOptionNames() {
  // "convert-graph-to-isa{conv=gemm depthwise=sw ... sparse-weights=auto}"
  std::string text;
  llvm::raw_string_ostream os(text);
  createConvertGraphToIsa()->printAsTextualPipeline(os);
  std::map<std::string, bool> names;
  llvm::StringRef rest = llvm::StringRef(text).split('{').second.rtrim("}");
  while (!rest.empty()) {
    auto [item, tail] = rest.split(' ');
    auto [name, value] = item.split('=');
    if (!name.empty())
      names[name.str()] = value == "true" || value == "false";
    rest = tail.ltrim();
  }
  for (StringRef split : splitOptionNames())
    names[split.str()] = false;
  return names;
}

bool accel::parseCompileOptions(const std::vector<std::string> &pairs,
                                CompileOptions &out, std::string &err) {
  std::map<std::string, bool> names = compileOptionNames();
  std::vector<std::string> loweringArgs, splitArgs;
  for (const std::string &pair : pairs) {
    llvm::StringRef name = llvm::StringRef(pair).split('=').first;
    if (!names.count(name.str())) {
      err = "unknown option '" + name.str() + "'";
      return false;
    }
    // The pairs are joined with spaces into one pass-option string: a value
    // with white space or braces would set other options ("entry=main
    // load-balance=true" set load-balance).
    llvm::StringRef value = llvm::StringRef(pair).split('=').second;
    if (value.find_first_of(" \t\n\r\v\f{}") != llvm::StringRef::npos) {
      err = "option '" + name.str() + "': value '" + value.str() +
            "' has white space or braces (one value per option)";
      return false;
    }
    (isSplitOptionName(name) ? splitArgs : loweringArgs).push_back(pair);
  }
  std::string reason;
  auto onError = [&](const llvm::Twine &msg) {
    reason = msg.str();
    return failure();
  };
  out.loweringText = llvm::join(loweringArgs, " ");
  auto pass = createConvertGraphToIsaFromString(out.loweringText, onError);
  if (failed(pass)) { // the option parser may have printed the reason
    err = "invalid lowering option in '" + out.loweringText + "'" +
          (reason.empty() ? "" : ": " + reason);
    return false;
  }
  out.lowering = std::move(*pass);
  if (failed(parseSplitOptions(splitArgs, out.split, onError))) {
    err = "invalid pipeline option in '" + llvm::join(splitArgs, " ") + "'" +
          (reason.empty() ? "" : ": " + reason);
    return false;
  }
  return true;
}

void accel::registerCompilerDialects(mlir::DialectRegistry &registry) {
  registry.insert<graph::GraphDialect, isa::IsaDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::tensor::TensorDialect,
                  mlir::tosa::TosaDialect, mlir::linalg::LinalgDialect>();
  registerAccelDialect(registry);
}
