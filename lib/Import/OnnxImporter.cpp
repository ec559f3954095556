//===- OnnxImporter.cpp - ONNX model -> graph dialect ---------------------===//
//
// Reads an onnx::ModelProto with the ONNX protobuf library and emits one
// `func.func @main` of graph-dialect ops. The import runs in three steps:
//
//   1. collect graph inputs (runtime arguments vs. initializers), apply the
//      user's static shapes, and sort the nodes topologically;
//   2. walk the sorted nodes, computing every result type with the shape
//      helpers of the graph dialect (the same rules the verifiers use);
//   3. return the graph outputs, attach `accel.name`, verify the module.
//
// Every failure produces one message naming the offending tensor or node.
// See docs/importer.md.
//
//===----------------------------------------------------------------------===//
#include "accel/Import/OnnxImporter.h"

#include "Graph/GraphDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <onnx/onnx_pb.h>

#include <cstring>
#include <deque>
#include <functional>
#include <limits>
#include <queue>
#include <set>
#include <unordered_map>

using namespace mlir;
using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::StringRef;
using accel::OnnxImportOptions;

namespace {

std::string shapeStr(ArrayRef<int64_t> s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i)
    r += (i ? "," : "") + std::to_string(s[i]);
  return r + "]";
}

std::string dataTypeName(int t) {
  if (onnx::TensorProto_DataType_IsValid(t)) {
    const std::string &n =
        onnx::TensorProto_DataType_Name(static_cast<onnx::TensorProto_DataType>(t));
    if (!n.empty())
      return n;
  }
  return "type #" + std::to_string(t);
}

std::string attrTypeName(onnx::AttributeProto::AttributeType t) {
  const std::string &n = onnx::AttributeProto_AttributeType_Name(t);
  return n.empty() ? "type #" + std::to_string((int)t) : n;
}

/// Element count of a static shape; nullopt on a negative dim or overflow.
std::optional<int64_t> numElements(ArrayRef<int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0 || __builtin_mul_overflow(n, d, &n))
      return std::nullopt;
  }
  return n;
}

/// A graph value: either an SSA value already built, or a constant tensor
/// (initializer / Constant node) materialised as arith.constant on first use
/// as a tensor operand (integer constants used only as Reshape shapes never
/// are).
struct Slot {
  Value value;
  const onnx::TensorProto *tensor = nullptr;
};

class Importer {
public:
  Importer(MLIRContext &ctx, const OnnxImportOptions &opts,
           std::string sourceName, std::string baseDir)
      : ctx(ctx), opts(opts), sourceName(std::move(sourceName)),
        baseDir(std::move(baseDir)), builder(&ctx) {}

  OwningOpRef<ModuleOp> run(const onnx::ModelProto &model);

  std::string err;

private:
  LogicalResult fail(const std::string &msg) {
    if (err.empty())
      err = msg;
    return failure();
  }

  // --- naming ---------------------------------------------------------------
  std::string nodeDesc(const onnx::NodeProto &n, size_t idx) const {
    if (!n.name().empty())
      return "node '" + n.name() + "'";
    std::string d = "node #" + std::to_string(idx);
    for (const std::string &o : n.output())
      if (!o.empty())
        return d + " producing '" + o + "'";
    return d;
  }
  Location nodeLoc(const onnx::NodeProto &n) {
    auto file = FileLineColLoc::get(&ctx, sourceName, 0, 0);
    std::string name = n.name().empty() ? n.op_type() : n.name();
    return NameLoc::get(StringAttr::get(&ctx, name), file);
  }

  // --- steps ------------------------------------------------------------------
  LogicalResult collectInitializers(const onnx::GraphProto &g);
  LogicalResult collectInputs(const onnx::GraphProto &g,
                              SmallVector<Type> &argTypes,
                              SmallVector<std::string> &argNames);
  LogicalResult sortNodes(const onnx::GraphProto &g,
                          SmallVector<size_t> &order);
  LogicalResult importNode(const onnx::NodeProto &n, size_t idx);
  LogicalResult checkDeclaredOutput(const onnx::ValueInfoProto &vi, Value v);

  // --- values -----------------------------------------------------------------
  /// The f32 tensor value for input `i` of `n` (materialising a constant).
  FailureOr<Value> operand(const onnx::NodeProto &n, size_t idx, int i);
  /// True when input `i` is present (exists and is not the empty name).
  static bool hasInput(const onnx::NodeProto &n, int i) {
    return i < n.input_size() && !n.input(i).empty();
  }
  FailureOr<Value> materialize(const std::string &name, Slot &slot);
  FailureOr<DenseElementsAttr> tensorToAttr(const onnx::TensorProto &t,
                                            const std::string &what,
                                            bool requireF32);
  LogicalResult tensorDims(const onnx::TensorProto &t, const std::string &what,
                           SmallVector<int64_t> &dims);
  LogicalResult tensorBytes(const onnx::TensorProto &t, const std::string &what,
                            std::string &storage, StringRef &bytes);
  FailureOr<SmallVector<int64_t>> constInts(const onnx::NodeProto &n,
                                            size_t idx, int i);
  LogicalResult define(const onnx::NodeProto &n, size_t idx, Value v);

  // --- attributes -------------------------------------------------------------
  const onnx::AttributeProto *attr(const onnx::NodeProto &n, StringRef name) {
    for (const auto &a : n.attribute())
      if (a.name() == name)
        return &a;
    return nullptr;
  }
  LogicalResult attrType(const onnx::NodeProto &n, size_t idx,
                         const onnx::AttributeProto *a,
                         onnx::AttributeProto::AttributeType t) {
    if (a->type() == t ||
        (a->type() == onnx::AttributeProto::UNDEFINED)) // pre-IR3 models
      return success();
    return fail("attribute '" + a->name() + "' of " + nodeDesc(n, idx) +
                " must be " + attrTypeName(t) + ", got " +
                attrTypeName(a->type()));
  }
  FailureOr<int64_t> intAttr(const onnx::NodeProto &n, size_t idx,
                             StringRef name, int64_t dflt) {
    const auto *a = attr(n, name);
    if (!a)
      return dflt;
    if (failed(attrType(n, idx, a, onnx::AttributeProto::INT)))
      return failure();
    return (int64_t)a->i();
  }
  FailureOr<float> floatAttr(const onnx::NodeProto &n, size_t idx,
                             StringRef name, float dflt) {
    const auto *a = attr(n, name);
    if (!a)
      return dflt;
    if (failed(attrType(n, idx, a, onnx::AttributeProto::FLOAT)))
      return failure();
    return a->f();
  }
  FailureOr<std::string> stringAttr(const onnx::NodeProto &n, size_t idx,
                                    StringRef name, StringRef dflt) {
    const auto *a = attr(n, name);
    if (!a)
      return dflt.str();
    if (failed(attrType(n, idx, a, onnx::AttributeProto::STRING)))
      return failure();
    return a->s();
  }
  /// INTS attribute; `present` tells whether it was given.
  FailureOr<SmallVector<int64_t>> intsAttr(const onnx::NodeProto &n,
                                           size_t idx, StringRef name,
                                           ArrayRef<int64_t> dflt,
                                           bool *present = nullptr) {
    const auto *a = attr(n, name);
    if (present)
      *present = a != nullptr;
    if (!a)
      return SmallVector<int64_t>(dflt);
    if (failed(attrType(n, idx, a, onnx::AttributeProto::INTS)))
      return failure();
    return SmallVector<int64_t>(a->ints().begin(), a->ints().end());
  }

  // --- operators --------------------------------------------------------------
  LogicalResult importMatMul(const onnx::NodeProto &n, size_t idx);
  LogicalResult importGemm(const onnx::NodeProto &n, size_t idx);
  LogicalResult importConv(const onnx::NodeProto &n, size_t idx);
  LogicalResult importRelu(const onnx::NodeProto &n, size_t idx);
  LogicalResult importAdd(const onnx::NodeProto &n, size_t idx);
  LogicalResult importIdentity(const onnx::NodeProto &n, size_t idx);
  LogicalResult importConstant(const onnx::NodeProto &n, size_t idx);
  LogicalResult importReshape(const onnx::NodeProto &n, size_t idx);
  LogicalResult importFlatten(const onnx::NodeProto &n, size_t idx);
  LogicalResult importTranspose(const onnx::NodeProto &n, size_t idx);

  RankedTensorType f32Tensor(ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, builder.getF32Type());
  }
  static ArrayRef<int64_t> shapeOf(Value v) {
    return cast<RankedTensorType>(v.getType()).getShape();
  }
  LogicalResult checkArity(const onnx::NodeProto &n, size_t idx, int minIn,
                           int maxIn);

  MLIRContext &ctx;
  const OnnxImportOptions &opts;
  std::string sourceName, baseDir;
  OpBuilder builder;
  int64_t opsetVersion = 0;
  std::unordered_map<std::string, Slot> values;
  std::set<std::string> initializerNames;
  std::deque<onnx::TensorProto> ownedTensors; // from Constant value_* attrs
};

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

LogicalResult Importer::tensorDims(const onnx::TensorProto &t,
                                   const std::string &what,
                                   SmallVector<int64_t> &dims) {
  dims.assign(t.dims().begin(), t.dims().end());
  if (!numElements(dims))
    return fail(what + " has an invalid shape " + shapeStr(dims));
  return success();
}

/// The little-endian bytes of a tensor stored in raw_data or in an external
/// file. `bytes` is empty when the tensor uses the typed *_data fields.
LogicalResult Importer::tensorBytes(const onnx::TensorProto &t,
                                    const std::string &what,
                                    std::string &storage, StringRef &bytes) {
  if (t.data_location() != onnx::TensorProto::EXTERNAL) {
    bytes = StringRef(t.raw_data());
    return success();
  }
  std::string location;
  int64_t offset = 0, length = -1;
  for (const auto &kv : t.external_data()) {
    try {
      if (kv.key() == "location")
        location = kv.value();
      else if (kv.key() == "offset")
        offset = std::stoll(kv.value());
      else if (kv.key() == "length")
        length = std::stoll(kv.value());
    } catch (...) {
      return fail(what + ": malformed external_data entry '" + kv.key() +
                  "'");
    }
  }
  if (location.empty())
    return fail(what + " uses external data without a location");
  if (baseDir.empty())
    return fail(what + " uses external data ('" + location +
                "'), which needs the model to be imported from a file");
  llvm::SmallString<256> path(baseDir);
  llvm::sys::path::append(path, location);
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!buf)
    return fail(what + ": cannot read external data file '" +
                std::string(path) + "': " + buf.getError().message());
  int64_t size = (int64_t)(*buf)->getBufferSize();
  if (length < 0)
    length = size - offset;
  if (offset < 0 || length < 0 || offset > size || size - offset < length)
    return fail(what + ": external data range [" + std::to_string(offset) +
                ", +" + std::to_string(length) + ") is outside '" + location +
                "' (" + std::to_string(size) + " bytes)");
  storage.assign((*buf)->getBufferStart() + offset, length);
  bytes = StringRef(storage);
  return success();
}

FailureOr<DenseElementsAttr>
Importer::tensorToAttr(const onnx::TensorProto &t, const std::string &what,
                       bool requireF32) {
  SmallVector<int64_t> dims;
  if (failed(tensorDims(t, what, dims)))
    return failure();
  int64_t n = *numElements(dims);
  if (t.has_segment())
    return fail(what + " is a segmented tensor, which is not supported");
  std::string storage;
  StringRef raw;
  if (failed(tensorBytes(t, what, storage, raw)))
    return failure();
  bool external = t.data_location() == onnx::TensorProto::EXTERNAL;

  // Decodes either raw little-endian bytes or the typed repeated field.
  auto decode = [&](auto tag, const auto &typed,
                    Type elemTy) -> FailureOr<DenseElementsAttr> {
    using T = decltype(tag);
    SmallVector<T> data;
    if (!raw.empty() || external) {
      if (raw.size() % sizeof(T) || (int64_t)(raw.size() / sizeof(T)) != n)
        return fail(what + " has " + std::to_string(raw.size()) +
                    " bytes of " + (external ? "external" : "raw") +
                    " data, expected " + std::to_string(n) + " x " +
                    std::to_string(sizeof(T)) + " for shape " +
                    shapeStr(dims));
      data.resize(n);
      if (n)
        std::memcpy(data.data(), raw.data(), raw.size());
    } else {
      if ((int64_t)typed.size() != n)
        return fail(what + " has " + std::to_string(typed.size()) +
                    " values, expected " + std::to_string(n) + " for shape " +
                    shapeStr(dims));
      for (auto v : typed)
        data.push_back(static_cast<T>(v));
    }
    auto type = RankedTensorType::get(dims, elemTy);
    return DenseElementsAttr::get(type, ArrayRef<T>(data));
  };

  int dt = t.data_type();
  if (dt == onnx::TensorProto::FLOAT)
    return decode(float(), t.float_data(), builder.getF32Type());
  if (requireF32)
    return fail(what + " has unsupported element type " + dataTypeName(dt) +
                " (only FLOAT / f32 tensors are supported)");
  switch (dt) {
  case onnx::TensorProto::INT64:
    return decode(int64_t(), t.int64_data(), builder.getI64Type());
  case onnx::TensorProto::INT32:
    return decode(int32_t(), t.int32_data(), builder.getI32Type());
  case onnx::TensorProto::DOUBLE:
    return decode(double(), t.double_data(), builder.getF64Type());
  default:
    return fail(what + " has unsupported element type " + dataTypeName(dt));
  }
}

FailureOr<Value> Importer::materialize(const std::string &name, Slot &slot) {
  if (slot.value)
    return slot.value;
  auto attr = tensorToAttr(*slot.tensor, "tensor '" + name + "'",
                           /*requireF32=*/true);
  if (failed(attr))
    return failure();
  auto loc = NameLoc::get(StringAttr::get(&ctx, name),
                          FileLineColLoc::get(&ctx, sourceName, 0, 0));
  slot.value = arith::ConstantOp::create(builder, loc, *attr).getResult();
  return slot.value;
}

FailureOr<Value> Importer::operand(const onnx::NodeProto &n, size_t idx,
                                   int i) {
  const std::string &name = n.input(i);
  auto it = values.find(name);
  if (it == values.end()) // cannot happen after sortNodes, kept for safety
    return fail("undefined value '" + name + "' used by " + nodeDesc(n, idx));
  return materialize(name, it->second);
}

FailureOr<SmallVector<int64_t>> Importer::constInts(const onnx::NodeProto &n,
                                                    size_t idx, int i) {
  const std::string &name = n.input(i);
  auto it = values.find(name);
  if (it == values.end() || !it->second.tensor)
    return fail("input " + std::to_string(i) + " ('" + name + "') of " +
                nodeDesc(n, idx) +
                " must be a constant (initializer or Constant node)");
  const onnx::TensorProto &t = *it->second.tensor;
  if (t.data_type() != onnx::TensorProto::INT64 &&
      t.data_type() != onnx::TensorProto::INT32)
    return fail("tensor '" + name + "' used by " + nodeDesc(n, idx) +
                " must be INT64, got " + dataTypeName(t.data_type()));
  auto attr = tensorToAttr(t, "tensor '" + name + "'", /*requireF32=*/false);
  if (failed(attr))
    return failure();
  SmallVector<int64_t> out;
  for (const APInt &v : attr->getValues<APInt>())
    out.push_back(v.getSExtValue());
  return out;
}

LogicalResult Importer::define(const onnx::NodeProto &n, size_t idx, Value v) {
  if (n.output_size() < 1)
    return fail(nodeDesc(n, idx) + " (" + n.op_type() + ") has no output");
  if (!numElements(shapeOf(v)))
    return fail(n.op_type() + " " + nodeDesc(n, idx) + ": result shape " +
                shapeStr(shapeOf(v)) + " is too large");
  if (!n.output(0).empty())
    values[n.output(0)] = Slot{v, nullptr};
  return success();
}

LogicalResult Importer::checkArity(const onnx::NodeProto &n, size_t idx,
                                   int minIn, int maxIn) {
  int count = n.input_size();
  // Trailing empty names are omitted optional inputs.
  while (count > 0 && n.input(count - 1).empty())
    --count;
  if (count < minIn || count > maxIn) {
    std::string expect = minIn == maxIn
                             ? std::to_string(minIn)
                             : std::to_string(minIn) + " to " +
                                   std::to_string(maxIn);
    return fail(n.op_type() + " " + nodeDesc(n, idx) + " has " +
                std::to_string(count) + " input(s), expected " + expect);
  }
  for (int i = 0; i < minIn; ++i)
    if (n.input(i).empty())
      return fail(n.op_type() + " " + nodeDesc(n, idx) + ": required input " +
                  std::to_string(i) + " is empty");
  if (n.output_size() < 1 || n.output(0).empty())
    return fail(n.op_type() + " " + nodeDesc(n, idx) + " has no output");
  for (int i = 1; i < n.output_size(); ++i)
    if (!n.output(i).empty())
      return fail(n.op_type() + " " + nodeDesc(n, idx) + ": output " +
                  std::to_string(i) + " ('" + n.output(i) +
                  "') is not supported");
  return success();
}

//===----------------------------------------------------------------------===//
// Graph structure
//===----------------------------------------------------------------------===//

LogicalResult Importer::collectInitializers(const onnx::GraphProto &g) {
  if (g.sparse_initializer_size())
    return fail("sparse initializer '" + g.sparse_initializer(0).values().name() +
                "' is not supported");
  for (const auto &t : g.initializer()) {
    if (t.name().empty())
      return fail("an initializer has no name");
    if (!initializerNames.insert(t.name()).second)
      return fail("initializer '" + t.name() + "' is defined more than once");
    values[t.name()] = Slot{Value(), &t};
  }
  return success();
}

LogicalResult Importer::collectInputs(const onnx::GraphProto &g,
                                      SmallVector<Type> &argTypes,
                                      SmallVector<std::string> &argNames) {
  std::set<std::string> inputNames;
  for (const auto &in : g.input()) {
    const std::string &name = in.name();
    if (name.empty())
      return fail("a graph input has no name");
    if (initializerNames.count(name)) {
      // An input with an initializer is a constant with a default (IR < 4
      // lists every initializer as an input): it is not a runtime argument.
      continue;
    }
    if (!inputNames.insert(name).second)
      return fail("graph input '" + name + "' is listed more than once");
    if (!in.has_type() || !in.type().has_tensor_type())
      return fail("graph input '" + name +
                  "' is not a tensor (sequence, map and optional inputs are "
                  "not supported)");
    const auto &tt = in.type().tensor_type();
    if (tt.elem_type() != onnx::TensorProto::FLOAT)
      return fail("graph input '" + name + "' has unsupported element type " +
                  dataTypeName(tt.elem_type()) +
                  " (only FLOAT / f32 tensors are supported)");

    auto given = opts.inputShapes.find(name);
    SmallVector<int64_t> shape;
    if (!tt.has_shape()) {
      if (given == opts.inputShapes.end())
        return fail("graph input '" + name +
                    "' has an unknown shape; give a static shape for it "
                    "(accel-import --input-shape " +
                    name + "=DxDx...)");
      shape.assign(given->second.begin(), given->second.end());
    } else {
      const auto &dims = tt.shape().dim();
      if (given != opts.inputShapes.end() &&
          given->second.size() != (size_t)dims.size())
        return fail("input shape " + shapeStr(given->second) + " given for '" +
                    name + "' has rank " +
                    std::to_string(given->second.size()) +
                    " but the model declares rank " +
                    std::to_string(dims.size()));
      for (int i = 0; i < dims.size(); ++i) {
        const auto &d = dims.Get(i);
        bool known = d.has_dim_value() && d.dim_value() > 0;
        if (given != opts.inputShapes.end()) {
          int64_t g = given->second[i];
          if (known && d.dim_value() != g)
            return fail("input shape " + shapeStr(given->second) +
                        " given for '" + name + "' disagrees with the model " +
                        "in dimension " + std::to_string(i) + " (" +
                        std::to_string(d.dim_value()) + ")");
          shape.push_back(g);
          continue;
        }
        if (!known) {
          std::string sym =
              d.has_dim_param() ? " ('" + d.dim_param() + "')" : "";
          return fail("graph input '" + name + "' has a dynamic dimension " +
                      std::to_string(i) + sym +
                      "; give a static shape for it (accel-import "
                      "--input-shape " +
                      name + "=DxDx...)");
        }
        shape.push_back(d.dim_value());
      }
    }
    for (int64_t d : shape)
      if (d <= 0)
        return fail("input shape " + shapeStr(shape) + " for '" + name +
                    "' has a non-positive dimension");
    if (!numElements(shape))
      return fail("input shape " + shapeStr(shape) + " for '" + name +
                  "' is too large");
    argTypes.push_back(f32Tensor(shape));
    argNames.push_back(name);
  }
  for (const auto &kv : opts.inputShapes) {
    if (initializerNames.count(kv.first))
      return fail("input shape given for '" + kv.first +
                  "', which is an initializer (a constant), not a runtime "
                  "input");
    if (!inputNames.count(kv.first))
      return fail("input shape given for '" + kv.first +
                  "', which is not a graph input");
  }
  return success();
}

/// Kahn's algorithm, stable (a sorted graph keeps its order). An input that
/// no node, graph input or initializer defines is an error naming it; a
/// cycle is an error naming the nodes on it.
LogicalResult Importer::sortNodes(const onnx::GraphProto &g,
                                  SmallVector<size_t> &order) {
  size_t numNodes = g.node_size();
  std::unordered_map<std::string, size_t> producer;
  std::set<std::string> external(initializerNames);
  for (const auto &in : g.input())
    external.insert(in.name());
  for (size_t i = 0; i < numNodes; ++i) {
    for (const std::string &o : g.node(i).output()) {
      if (o.empty())
        continue;
      if (external.count(o))
        return fail(nodeDesc(g.node(i), i) + " redefines '" + o +
                    "', which is a graph input or initializer");
      if (!producer.emplace(o, i).second)
        return fail("value '" + o + "' is produced by both " +
                    nodeDesc(g.node(producer[o]), producer[o]) + " and " +
                    nodeDesc(g.node(i), i));
    }
  }
  std::vector<std::vector<size_t>> users(numNodes), deps(numNodes);
  std::vector<size_t> indegree(numNodes, 0);
  for (size_t i = 0; i < numNodes; ++i) {
    const auto &n = g.node(i);
    if (n.op_type() == "Loop" || n.op_type() == "If" || n.op_type() == "Scan")
      continue; // reported as unsupported (subgraph captures are not inputs)
    std::set<size_t> seen;
    for (int k = 0; k < n.input_size(); ++k) {
      const std::string &in = n.input(k);
      if (in.empty())
        continue;
      auto p = producer.find(in);
      if (p == producer.end()) {
        if (external.count(in))
          continue;
        return fail("undefined value '" + in + "' used by " + nodeDesc(n, i) +
                    " (" + n.op_type() + " input " + std::to_string(k) +
                    "): it is not a graph input, an initializer or a node "
                    "output (missing initializer?)");
      }
      if (seen.insert(p->second).second) {
        users[p->second].push_back(i);
        deps[i].push_back(p->second);
        ++indegree[i];
      }
    }
  }
  std::priority_queue<size_t, std::vector<size_t>, std::greater<size_t>> ready;
  for (size_t i = 0; i < numNodes; ++i)
    if (!indegree[i])
      ready.push(i);
  std::vector<bool> done(numNodes, false);
  while (!ready.empty()) {
    size_t i = ready.top();
    ready.pop();
    done[i] = true;
    order.push_back(i);
    for (size_t u : users[i])
      if (--indegree[u] == 0)
        ready.push(u);
  }
  if (order.size() == numNodes)
    return success();

  // Every node left has a producer that is also left: walk producers from
  // the first one until a node repeats; the repeated stretch is a cycle.
  size_t start = 0;
  while (done[start])
    ++start;
  std::vector<size_t> path;
  std::unordered_map<size_t, size_t> posInPath;
  size_t cur = start;
  while (!posInPath.count(cur)) {
    posInPath[cur] = path.size();
    path.push_back(cur);
    for (size_t d : deps[cur])
      if (!done[d]) {
        cur = d;
        break;
      }
  }
  // path[pos..] is the cycle walked against the data flow; print it along it.
  std::vector<size_t> cycle(path.begin() + posInPath[cur], path.end());
  std::reverse(cycle.begin(), cycle.end());
  std::string msg = "graph contains a cycle: ";
  for (size_t c : cycle)
    msg += nodeDesc(g.node(c), c) + " -> ";
  msg += nodeDesc(g.node(cycle.front()), cycle.front());
  return fail(msg);
}

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

LogicalResult Importer::importMatMul(const onnx::NodeProto &n, size_t idx) {
  if (failed(checkArity(n, idx, 2, 2)))
    return failure();
  auto a = operand(n, idx, 0);
  if (failed(a))
    return failure();
  auto b = operand(n, idx, 1);
  if (failed(b))
    return failure();
  std::string why;
  auto shape = accel::graph::matmulShape(shapeOf(*a), shapeOf(*b), why);
  if (!shape)
    return fail("MatMul " + nodeDesc(n, idx) + ": " + why);
  auto op = accel::graph::MatMulOp::create(builder, nodeLoc(n),
                                           f32Tensor(*shape), *a, *b);
  return define(n, idx, op);
}

LogicalResult Importer::importGemm(const onnx::NodeProto &n, size_t idx) {
  if (failed(checkArity(n, idx, 2, 3)))
    return failure();
  auto alpha = floatAttr(n, idx, "alpha", 1.0f);
  auto beta = floatAttr(n, idx, "beta", 1.0f);
  auto transA = intAttr(n, idx, "transA", 0);
  auto transB = intAttr(n, idx, "transB", 0);
  if (failed(alpha) || failed(beta) || failed(transA) || failed(transB))
    return failure();
  auto a = operand(n, idx, 0);
  if (failed(a))
    return failure();
  auto b = operand(n, idx, 1);
  if (failed(b))
    return failure();
  Value c;
  ArrayRef<int64_t> cShape;
  if (hasInput(n, 2)) {
    auto cv = operand(n, idx, 2);
    if (failed(cv))
      return failure();
    c = *cv;
    cShape = shapeOf(c);
  }
  std::string why;
  auto shape = accel::graph::gemmShape(shapeOf(*a), shapeOf(*b),
                                       c ? &cShape : nullptr, *transA != 0,
                                       *transB != 0, why);
  if (!shape)
    return fail("Gemm " + nodeDesc(n, idx) + ": " + why);
  auto op = accel::graph::GemmOp::create(
      builder, nodeLoc(n), f32Tensor(*shape), *a, *b, c, llvm::APFloat(*alpha),
      llvm::APFloat(*beta), *transA != 0, *transB != 0);
  return define(n, idx, op);
}

LogicalResult Importer::importConv(const onnx::NodeProto &n, size_t idx) {
  if (failed(checkArity(n, idx, 2, 3)))
    return failure();
  auto x = operand(n, idx, 0);
  if (failed(x))
    return failure();
  auto w = operand(n, idx, 1);
  if (failed(w))
    return failure();
  ArrayRef<int64_t> xs = shapeOf(*x), ws = shapeOf(*w);
  std::string what = "Conv " + nodeDesc(n, idx);
  if (xs.size() != 4 || ws.size() != 4) {
    int64_t spatial = (int64_t)std::max(xs.size(), ws.size()) - 2;
    if (xs.size() >= 3 && xs.size() == ws.size())
      return fail(what + ": " + std::to_string(spatial) +
                  "-D convolution is not supported (only 2-D Conv, input " +
                  shapeStr(xs) + ")");
    return fail(what + ": expected a 4-D input and weight (NCHW / OIHW), got " +
                shapeStr(xs) + " and " + shapeStr(ws));
  }
  bool hasKernelShape = false;
  auto kernel = intsAttr(n, idx, "kernel_shape", {}, &hasKernelShape);
  auto strides = intsAttr(n, idx, "strides", {1, 1});
  auto dilations = intsAttr(n, idx, "dilations", {1, 1});
  bool hasPads = false;
  auto pads = intsAttr(n, idx, "pads", {0, 0, 0, 0}, &hasPads);
  auto group = intAttr(n, idx, "group", 1);
  auto autoPad = stringAttr(n, idx, "auto_pad", "NOTSET");
  if (failed(kernel) || failed(strides) || failed(dilations) || failed(pads) ||
      failed(group) || failed(autoPad))
    return failure();
  if (hasKernelShape &&
      (kernel->size() != 2 || (*kernel)[0] != ws[2] || (*kernel)[1] != ws[3]))
    return fail(what + ": kernel_shape " + shapeStr(*kernel) +
                " does not match the weight's spatial dimensions " +
                shapeStr(ws.drop_front(2)));
  if (strides->size() != 2)
    return fail(what + ": strides must have 2 values, got " +
                shapeStr(*strides));
  if (dilations->size() != 2)
    return fail(what + ": dilations must have 2 values, got " +
                shapeStr(*dilations));
  if (pads->size() != 4)
    return fail(what + ": pads must have 4 values, got " + shapeStr(*pads));
  for (int i = 0; i < 2; ++i)
    if ((*strides)[i] < 1 || (*dilations)[i] < 1)
      return fail(what + ": strides and dilations must be >= 1");

  StringRef mode(*autoPad);
  if (mode != "NOTSET") {
    if (hasPads && llvm::any_of(*pads, [](int64_t p) { return p != 0; }))
      return fail(what + ": explicit pads cannot be combined with auto_pad " +
                  *autoPad);
    if (mode == "VALID") {
      pads->assign(4, 0);
    } else if (mode == "SAME_UPPER" || mode == "SAME_LOWER") {
      // Output = ceil(in / stride); the total padding is split evenly, the
      // odd element going to the end (UPPER) or the beginning (LOWER).
      for (int i = 0; i < 2; ++i) {
        int64_t in = xs[2 + i], s = (*strides)[i];
        int64_t span = (*dilations)[i] * (ws[2 + i] - 1) + 1;
        int64_t out = (in + s - 1) / s;
        int64_t total = std::max<int64_t>(0, (out - 1) * s + span - in);
        int64_t small = total / 2, large = total - small;
        (*pads)[i] = mode == "SAME_UPPER" ? small : large;
        (*pads)[i + 2] = mode == "SAME_UPPER" ? large : small;
      }
    } else {
      return fail(what + ": unsupported auto_pad '" + *autoPad +
                  "' (expected NOTSET, VALID, SAME_UPPER or SAME_LOWER)");
    }
  }

  Value bias;
  ArrayRef<int64_t> biasShape;
  if (hasInput(n, 2)) {
    auto bv = operand(n, idx, 2);
    if (failed(bv))
      return failure();
    bias = *bv;
    biasShape = shapeOf(bias);
  }
  std::string why;
  auto shape = accel::graph::conv2dShape(xs, ws, bias ? &biasShape : nullptr,
                                         *strides, *pads, *dilations, *group,
                                         why);
  if (!shape)
    return fail(what + ": " + why);
  auto op = accel::graph::Conv2DOp::create(
      builder, nodeLoc(n), f32Tensor(*shape), *x, *w, bias, *strides, *pads,
      *dilations, (uint64_t)*group);
  return define(n, idx, op);
}

LogicalResult Importer::importRelu(const onnx::NodeProto &n, size_t idx) {
  if (failed(checkArity(n, idx, 1, 1)))
    return failure();
  auto x = operand(n, idx, 0);
  if (failed(x))
    return failure();
  auto op = accel::graph::ReluOp::create(builder, nodeLoc(n), x->getType(), *x);
  return define(n, idx, op);
}

LogicalResult Importer::importAdd(const onnx::NodeProto &n, size_t idx) {
  if (failed(checkArity(n, idx, 2, 2)))
    return failure();
  if (attr(n, "broadcast") || attr(n, "axis"))
    return fail("Add " + nodeDesc(n, idx) +
                ": legacy (opset < 7) broadcast/axis attributes are not "
                "supported");
  auto a = operand(n, idx, 0);
  if (failed(a))
    return failure();
  auto b = operand(n, idx, 1);
  if (failed(b))
    return failure();
  std::string why;
  auto shape = accel::graph::broadcastShapes(shapeOf(*a), shapeOf(*b), why);
  if (!shape)
    return fail("Add " + nodeDesc(n, idx) + ": " + why);
  auto op = accel::graph::AddOp::create(builder, nodeLoc(n), f32Tensor(*shape),
                                        *a, *b);
  return define(n, idx, op);
}

LogicalResult Importer::importIdentity(const onnx::NodeProto &n, size_t idx) {
  if (failed(checkArity(n, idx, 1, 1)))
    return failure();
  // Forward the value (a constant stays lazily materialised).
  values[n.output(0)] = values[n.input(0)];
  return success();
}

LogicalResult Importer::importConstant(const onnx::NodeProto &n, size_t idx) {
  if (failed(checkArity(n, idx, 0, 0)))
    return failure();
  if (n.attribute_size() != 1)
    return fail("Constant " + nodeDesc(n, idx) +
                " must have exactly one value attribute");
  const auto &a = n.attribute(0);
  const onnx::TensorProto *t = nullptr;
  auto own = [&]() -> onnx::TensorProto & {
    ownedTensors.emplace_back();
    return ownedTensors.back();
  };
  if (a.name() == "value") {
    if (failed(attrType(n, idx, &a, onnx::AttributeProto::TENSOR)))
      return failure();
    t = &a.t();
  } else if (a.name() == "value_float") {
    auto &o = own();
    o.set_data_type(onnx::TensorProto::FLOAT);
    o.add_float_data(a.f());
    t = &o;
  } else if (a.name() == "value_floats") {
    auto &o = own();
    o.set_data_type(onnx::TensorProto::FLOAT);
    o.add_dims(a.floats_size());
    for (float f : a.floats())
      o.add_float_data(f);
    t = &o;
  } else if (a.name() == "value_int") {
    auto &o = own();
    o.set_data_type(onnx::TensorProto::INT64);
    o.add_int64_data(a.i());
    t = &o;
  } else if (a.name() == "value_ints") {
    auto &o = own();
    o.set_data_type(onnx::TensorProto::INT64);
    o.add_dims(a.ints_size());
    for (int64_t v : a.ints())
      o.add_int64_data(v);
    t = &o;
  } else {
    return fail("Constant " + nodeDesc(n, idx) + ": attribute '" + a.name() +
                "' is not supported");
  }
  values[n.output(0)] = Slot{Value(), t};
  return success();
}

LogicalResult Importer::importReshape(const onnx::NodeProto &n, size_t idx) {
  std::string what = "Reshape " + nodeDesc(n, idx);
  FailureOr<SmallVector<int64_t>> target = failure();
  if (opsetVersion && opsetVersion < 5) {
    if (failed(checkArity(n, idx, 1, 1)))
      return failure();
    target = intsAttr(n, idx, "shape", {});
  } else {
    if (failed(checkArity(n, idx, 2, 2)))
      return failure();
    target = constInts(n, idx, 1);
  }
  auto allowZero = intAttr(n, idx, "allowzero", 0);
  if (failed(target) || failed(allowZero))
    return failure();
  auto x = operand(n, idx, 0);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> in = shapeOf(*x);
  SmallVector<int64_t> out(*target);
  int inferred = -1;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == 0) {
      if (*allowZero)
        return fail(what + ": zero-sized dimensions are not supported");
      if (i >= in.size())
        return fail(what + ": shape " + shapeStr(*target) +
                    " copies dimension " + std::to_string(i) +
                    " of a rank-" + std::to_string(in.size()) + " input");
      out[i] = in[i];
    } else if (out[i] == -1) {
      if (inferred >= 0)
        return fail(what + ": shape " + shapeStr(*target) +
                    " has more than one -1");
      inferred = (int)i;
    } else if (out[i] < 0) {
      return fail(what + ": invalid shape " + shapeStr(*target));
    }
  }
  int64_t total = *numElements(in);
  if (inferred >= 0) {
    out[inferred] = 1;
    auto rest = numElements(out);
    if (!rest || *rest == 0 || total % *rest)
      return fail(what + ": cannot reshape " + shapeStr(in) + " to " +
                  shapeStr(*target));
    out[inferred] = total / *rest;
  }
  auto count = numElements(out);
  if (!count || *count != total)
    return fail(what + ": cannot reshape " + shapeStr(in) + " (" +
                std::to_string(total) + " elements) to " + shapeStr(out));
  auto op = accel::graph::ReshapeOp::create(builder, nodeLoc(n), f32Tensor(out),
                                            *x);
  return define(n, idx, op);
}

LogicalResult Importer::importFlatten(const onnx::NodeProto &n, size_t idx) {
  if (failed(checkArity(n, idx, 1, 1)))
    return failure();
  auto axis = intAttr(n, idx, "axis", 1);
  if (failed(axis))
    return failure();
  auto x = operand(n, idx, 0);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> in = shapeOf(*x);
  int64_t r = in.size(), a = *axis < 0 ? *axis + r : *axis;
  if (a < 0 || a > r)
    return fail("Flatten " + nodeDesc(n, idx) + ": axis " +
                std::to_string(*axis) + " is out of range for rank " +
                std::to_string(r));
  int64_t outer = *numElements(in.take_front(a));
  int64_t inner = *numElements(in.drop_front(a));
  auto op = accel::graph::ReshapeOp::create(builder, nodeLoc(n),
                                            f32Tensor({outer, inner}), *x);
  return define(n, idx, op);
}

LogicalResult Importer::importTranspose(const onnx::NodeProto &n, size_t idx) {
  if (failed(checkArity(n, idx, 1, 1)))
    return failure();
  auto x = operand(n, idx, 0);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> in = shapeOf(*x);
  SmallVector<int64_t> dflt;
  for (int64_t i = (int64_t)in.size() - 1; i >= 0; --i)
    dflt.push_back(i);
  auto perm = intsAttr(n, idx, "perm", dflt);
  if (failed(perm))
    return failure();
  SmallVector<int64_t> out;
  SmallVector<bool> used(in.size(), false);
  bool ok = perm->size() == in.size();
  for (int64_t p : *perm) {
    if (!ok || p < 0 || p >= (int64_t)in.size() || used[p]) {
      ok = false;
      break;
    }
    used[p] = true;
    out.push_back(in[p]);
  }
  if (!ok)
    return fail("Transpose " + nodeDesc(n, idx) + ": perm " + shapeStr(*perm) +
                " is not a permutation of the " + std::to_string(in.size()) +
                " input dimensions");
  auto op = accel::graph::TransposeOp::create(builder, nodeLoc(n),
                                              f32Tensor(out), *x, *perm);
  return define(n, idx, op);
}

LogicalResult Importer::importNode(const onnx::NodeProto &n, size_t idx) {
  const std::string &domain = n.domain();
  if (!domain.empty() && domain != "ai.onnx")
    return fail("unsupported operator '" + domain + "." + n.op_type() + "' (" +
                nodeDesc(n, idx) + ")");
  using Fn = LogicalResult (Importer::*)(const onnx::NodeProto &, size_t);
  static const std::pair<const char *, Fn> table[] = {
      {"MatMul", &Importer::importMatMul},
      {"Gemm", &Importer::importGemm},
      {"Conv", &Importer::importConv},
      {"Relu", &Importer::importRelu},
      {"Add", &Importer::importAdd},
      {"Identity", &Importer::importIdentity},
      {"Constant", &Importer::importConstant},
      {"Reshape", &Importer::importReshape},
      {"Flatten", &Importer::importFlatten},
      {"Transpose", &Importer::importTranspose},
  };
  for (const auto &entry : table)
    if (n.op_type() == entry.first)
      return (this->*entry.second)(n, idx);
  return fail("unsupported operator '" + n.op_type() + "' (" +
              nodeDesc(n, idx) + ")");
}

LogicalResult Importer::checkDeclaredOutput(const onnx::ValueInfoProto &vi,
                                            Value v) {
  if (!vi.has_type() || !vi.type().has_tensor_type())
    return success();
  const auto &tt = vi.type().tensor_type();
  if (tt.elem_type() != onnx::TensorProto::UNDEFINED &&
      tt.elem_type() != onnx::TensorProto::FLOAT)
    return fail("graph output '" + vi.name() +
                "' has unsupported element type " +
                dataTypeName(tt.elem_type()) +
                " (only FLOAT / f32 tensors are supported)");
  if (!tt.has_shape())
    return success();
  ArrayRef<int64_t> got = shapeOf(v);
  const auto &dims = tt.shape().dim();
  bool ok = dims.size() == (int)got.size();
  SmallVector<int64_t> declared;
  for (int i = 0; i < dims.size(); ++i) {
    const auto &d = dims.Get(i);
    bool known = d.has_dim_value() && d.dim_value() > 0;
    declared.push_back(known ? d.dim_value() : -1);
    if (ok && known && d.dim_value() != got[i])
      ok = false;
  }
  if (!ok)
    return fail("graph output '" + vi.name() + "': computed shape " +
                shapeStr(got) + " does not match the declared shape " +
                shapeStr(declared) + " (-1 = symbolic)");
  return success();
}

OwningOpRef<ModuleOp> Importer::run(const onnx::ModelProto &model) {
  ctx.loadDialect<func::FuncDialect, arith::ArithDialect,
                  accel::graph::GraphDialect>();
  if (!model.has_graph()) {
    (void)fail("the model has no graph (is it an ONNX model?)");
    return nullptr;
  }
  for (const auto &os : model.opset_import())
    if (os.domain().empty() || os.domain() == "ai.onnx")
      opsetVersion = os.version();
  const onnx::GraphProto &g = model.graph();
  if (g.output_size() == 0) {
    (void)fail("the graph has no outputs");
    return nullptr;
  }

  SmallVector<Type> argTypes;
  SmallVector<std::string> argNames;
  SmallVector<size_t> order;
  if (failed(collectInitializers(g)) ||
      failed(collectInputs(g, argTypes, argNames)) ||
      failed(sortNodes(g, order)))
    return nullptr;

  Location fileLoc = FileLineColLoc::get(&ctx, sourceName, 0, 0);
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  builder.setInsertionPointToEnd(module->getBody());
  auto func = func::FuncOp::create(builder, fileLoc, "main",
                                   builder.getFunctionType(argTypes, {}));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  for (size_t i = 0; i < argNames.size(); ++i) {
    values[argNames[i]] = Slot{entry->getArgument(i), nullptr};
    func.setArgAttr(i, accel::kAccelNameAttr,
                    builder.getStringAttr(argNames[i]));
  }

  for (size_t i : order)
    if (failed(importNode(g.node(i), i)))
      return nullptr;

  SmallVector<Value> results;
  for (const auto &out : g.output()) {
    auto it = values.find(out.name());
    if (it == values.end()) {
      (void)fail("graph output '" + out.name() +
           "' is not produced by any node, input or initializer");
      return nullptr;
    }
    auto v = materialize(out.name(), it->second);
    if (failed(v) || failed(checkDeclaredOutput(out, *v)))
      return nullptr;
    results.push_back(*v);
  }
  func::ReturnOp::create(builder, fileLoc, results);
  func.setType(builder.getFunctionType(argTypes, ValueRange(results).getTypes()));
  for (int i = 0; i < g.output_size(); ++i)
    func.setResultAttr(i, accel::kAccelNameAttr,
                       builder.getStringAttr(g.output(i).name()));

  // The shape helpers already checked every op; verification catches the
  // rest (and anything a future operator gets wrong).
  std::string diags;
  {
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
      llvm::raw_string_ostream os(diags);
      os << d.getLocation() << ": " << d << "\n";
      return success();
    });
    if (failed(verify(*module))) {
      (void)fail("the imported module does not verify:\n" + diags);
      return nullptr;
    }
  }
  return module;
}

} // namespace

bool accel::parseShapeString(const std::string &text,
                             std::vector<int64_t> &dims) {
  dims.clear();
  StringRef s(text);
  s = s.trim();
  if (s.empty())
    return true;
  SmallVector<StringRef> parts;
  s.split(parts, s.contains(',') ? ',' : 'x');
  for (StringRef p : parts) {
    int64_t v;
    if (p.trim().getAsInteger(10, v) || v <= 0)
      return false;
    dims.push_back(v);
  }
  return true;
}

OwningOpRef<ModuleOp> accel::importOnnxBytes(const void *data, size_t size,
                                             MLIRContext &ctx,
                                             const OnnxImportOptions &opts,
                                             std::string &err,
                                             const std::string &sourceName,
                                             const std::string &baseDir) {
  err.clear();
  onnx::ModelProto model;
  if (size > (size_t)std::numeric_limits<int>::max()) {
    err = "'" + sourceName + "' is larger than 2 GiB, which protobuf cannot "
          "parse (store the weights as external data)";
    return nullptr;
  }
  if (size == 0) {
    err = "'" + sourceName + "' is empty, not an ONNX model";
    return nullptr;
  }
  if (!model.ParseFromArray(data, (int)size)) {
    err = "failed to parse '" + sourceName +
          "' as an ONNX model (malformed or truncated protobuf)";
    return nullptr;
  }
  Importer importer(ctx, opts, sourceName, baseDir);
  auto module = importer.run(model);
  if (!module)
    err = importer.err.empty() ? "import failed" : importer.err;
  return module;
}

OwningOpRef<ModuleOp> accel::importOnnxFile(const std::string &path,
                                            MLIRContext &ctx,
                                            const OnnxImportOptions &opts,
                                            std::string &err) {
  err.clear();
  if (llvm::sys::fs::is_directory(path)) {
    err = "cannot open ONNX model '" + path + "': it is a directory";
    return nullptr;
  }
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!buf) {
    err = "cannot open ONNX model '" + path + "': " + buf.getError().message();
    return nullptr;
  }
  llvm::SmallString<256> dir(path);
  llvm::sys::path::remove_filename(dir);
  if (dir.empty())
    dir = ".";
  return importOnnxBytes((*buf)->getBufferStart(), (*buf)->getBufferSize(),
                         ctx, opts, err, path, std::string(dir));
}
