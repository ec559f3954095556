//===- OnnxImporter.h - ONNX model -> graph dialect -------------*- C++ -*-===//
//
// Reads an ONNX ModelProto (file or in-memory bytes) and builds a module with
// one public `func.func @main` in the graph dialect:
//
//   * arguments  = graph inputs that are not initializers, in ONNX order,
//                  each with the arg attribute    accel.name = "<input name>"
//   * results    = graph outputs, in ONNX order,
//                  each with the result attribute accel.name = "<output name>"
//   * initializers and Constant nodes become `arith.constant dense<...>`;
//     nodes whose inputs are all compile-time constants are folded
//
// Supported operators and error messages are documented in docs/importer.md.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_IMPORT_ONNXIMPORTER_H
#define ACCEL_IMPORT_ONNXIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace accel {

/// Name of the arg/result attribute carrying the ONNX tensor name. The binary
/// symbol table is built from it.
inline constexpr const char *kAccelNameAttr = "accel.name";

struct OnnxImportOptions {
  /// Static shapes for graph inputs, by ONNX input name. Required for inputs
  /// whose shape has symbolic / unknown dimensions; when given for a fully
  /// static input it must agree with the model. The rank must always match.
  std::map<std::string, std::vector<int64_t>> inputShapes;
  /// Graph inputs bound to constants: input name -> path of a serialized
  /// onnx::TensorProto (.pb). A bound input is not a runtime argument; its
  /// value is a compile-time constant (shapes, axes, indices, ...). Its type
  /// and static dimensions must match the model's declaration.
  std::map<std::string, std::string> boundInputs;
  /// Tensors (node outputs) returned as further results, after the graph
  /// outputs, each named by its tensor name (accel-compile --networks: the
  /// results an interaction combines).
  std::vector<std::string> exposedTensors;
  /// Tensor -> name of a new argument (appended after the graph inputs,
  /// with the tensor's type) that every reader of the tensor reads instead
  /// (an interaction's result fed to a network). The tensor is still
  /// computed when it is exposed or a graph output.
  std::map<std::string, std::string> replacedTensors;
};

/// Imports the ONNX model at `path`. Returns a null OwningOpRef and sets
/// `err` (one or more lines, no "error:" prefix) on failure. Loads the func,
/// arith and graph dialects into `ctx`.
mlir::OwningOpRef<mlir::ModuleOp> importOnnxFile(const std::string &path,
                                                 mlir::MLIRContext &ctx,
                                                 const OnnxImportOptions &opts,
                                                 std::string &err);

/// Same, from the serialized ModelProto bytes (e.g. for unit tests).
/// `sourceName` is used in locations and messages; external tensor data is
/// resolved relative to `baseDir` (empty: external data is an error).
mlir::OwningOpRef<mlir::ModuleOp>
importOnnxBytes(const void *data, size_t size, mlir::MLIRContext &ctx,
                const OnnxImportOptions &opts, std::string &err,
                const std::string &sourceName = "<memory>",
                const std::string &baseDir = "");

/// Convenience overload of importOnnxBytes for a byte string.
inline mlir::OwningOpRef<mlir::ModuleOp>
importOnnxBytes(const std::string &bytes, mlir::MLIRContext &ctx,
                const OnnxImportOptions &opts, std::string &err) {
  return importOnnxBytes(bytes.data(), bytes.size(), ctx, opts, err);
}

/// Names (in model order) of the graph inputs the importer needs as
/// compile-time constants: those feeding a shape / axes / indices / pads /
/// scales / sizes / targets / sequence-length position directly or through
/// shape arithmetic. They must be bound with OnnxImportOptions::boundInputs
/// (data inputs, even integer ones, are not listed). Returns false and sets
/// `err` when the model cannot be read.
bool onnxConstantInputs(const std::string &path,
                        std::vector<std::string> &names, std::string &err);

/// Parses "1x3x224x224" (also "1,3,224,224"; "" is a scalar) into dims.
/// Returns false on a malformed or non-positive dimension.
bool parseShapeString(const std::string &text, std::vector<int64_t> &dims);

} // namespace accel

#endif
