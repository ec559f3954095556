//===- FuzzMlir.cpp - Fuzz the MLIR parser and accel-default-pipeline ----===//
//
// Input: MLIR text, graph dialect (seeds: test/Graph and
// test/Conversion/GraphToIsa inputs). The parser and the verifier must
// reject bad text with diagnostics; a parsed module goes through
// accel-compile's pipeline (FuzzCompile.h), whose output must be a valid
// program.
//
// Bounds: inputs over 32 KiB are skipped; so are texts nesting brackets
// ( [ { < more than kMaxNesting deep: the parser recurses per level and
// overflows the stack thousands deep (a known issue fixed separately);
// modules with a tensor of more than kMaxTensorElements elements are parsed
// but not lowered (FuzzCompile.h).
//
//===----------------------------------------------------------------------===//
#include "FuzzCompile.h"
#include "mlir/Parser/Parser.h"
#include <string>

using namespace accel;

namespace {

constexpr int kMaxNesting = 128;

int maxBracketNesting(llvm::StringRef text) {
  int depth = 0, deepest = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    bool arrow = c == '>' && i > 0 && text[i - 1] == '-';
    if (c == '(' || c == '[' || c == '{' || c == '<')
      deepest = std::max(deepest, ++depth);
    else if ((c == ')' || c == ']' || c == '}' || c == '>') && !arrow)
      depth = std::max(depth - 1, 0);
  }
  return deepest;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 32 * 1024)
    return -1;
  // MLIR's lexer expects the NUL that every file buffer of the tools ends
  // with (MemoryBuffer); libFuzzer's bytes have none, so parse a copy.
  std::string owned(reinterpret_cast<const char *>(data), size);
  llvm::StringRef text(owned.c_str(), size);
  if (maxBracketNesting(text) > kMaxNesting)
    return -1;
  auto ctx = fuzz::makeContext();
  mlir::ScopedDiagnosticHandler quiet(
      ctx.get(), [](mlir::Diagnostic &) { return mlir::success(); });
  mlir::ParserConfig config(ctx.get());
  auto module =
      mlir::parseSourceString<mlir::ModuleOp>(text, config, "fuzz.mlir");
  if (!module || !fuzz::withinSizeBound(*module))
    return 0;
  fuzz::compileModule(*module);
  return 0;
}
