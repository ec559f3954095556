//===- FuzzOnnx.cpp - Fuzz the ONNX importer and the default pipeline ----===//
//
// Input: the bytes of an ONNX ModelProto (seeds: small models of Debian's
// libonnx-testdata node tests). The importer must reject a bad model with a
// message; an imported module goes through accel-compile's pipeline
// (FuzzCompile.h), whose output must be a valid program.
//
// Bounds: inputs over 64 KiB are skipped; modules with a tensor of more than
// kMaxTensorElements elements are imported but not lowered (FuzzCompile.h).
// External tensor data is an import error here (no base directory).
//
//===----------------------------------------------------------------------===//
#include "FuzzCompile.h"
#include "accel/Import/OnnxImporter.h"

using namespace accel;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 64 * 1024)
    return -1;
  auto ctx = fuzz::makeContext();
  mlir::ScopedDiagnosticHandler quiet(
      ctx.get(), [](mlir::Diagnostic &) { return mlir::success(); });
  std::string err;
  auto module = importOnnxBytes(data, size, *ctx, OnnxImportOptions(), err,
                                "fuzz.onnx", /*baseDir=*/"");
  if (!module) {
    fuzz::fuzzCheck(!err.empty(), "importer rejected without a message");
    return 0;
  }
  if (!fuzz::withinSizeBound(*module))
    return 0;
  fuzz::compileModule(*module);
  return 0;
}
