//===- OnnxImporter.cpp - ONNX model -> graph dialect ---------------------===//
//
// Reads an onnx::ModelProto with the ONNX protobuf library and emits one
// `func.func @main` of graph-dialect ops. The import runs in three steps:
//
//   1. collect graph inputs (runtime arguments, initializers, inputs bound
//      to constants), apply the user's static shapes, and sort the nodes
//      topologically;
//   2. walk the sorted nodes: fold the ones whose inputs are compile-time
//      constants (shape arithmetic), import the others with the graph
//      dialect's shape helpers (the same rules the verifiers use);
//   3. return the graph outputs, attach `accel.name`, verify the module.
//
// This file holds the infrastructure; the operators live in Import*.cpp.
// Every failure produces one message naming the offending tensor or node.
// See docs/importer.md and docs/operators.md.
//
//===----------------------------------------------------------------------===//
#include "ImportUtil.h"
#include "ImporterImpl.h"
#include "accel/Support/FileRead.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <functional>
#include <limits>
#include <queue>

using namespace mlir;
using namespace accel::onnximport;
namespace graph = accel::graph;
using accel::OnnxImportOptions;

//===----------------------------------------------------------------------===//
// Small helpers
//===----------------------------------------------------------------------===//

std::string accel::onnximport::shapeStr(ArrayRef<int64_t> s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i)
    r += (i ? "," : "") + std::to_string(s[i]);
  return r + "]";
}

std::string accel::onnximport::dataTypeName(int t) {
  if (onnx::TensorProto_DataType_IsValid(t)) {
    const std::string &n = onnx::TensorProto_DataType_Name(
        static_cast<onnx::TensorProto_DataType>(t));
    if (!n.empty())
      return n;
  }
  return "type #" + std::to_string(t);
}

std::optional<int64_t> accel::onnximport::numElements(ArrayRef<int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0 || __builtin_mul_overflow(n, d, &n))
      return std::nullopt;
  }
  return n;
}

bool accel::onnximport::isFloatType(int t) {
  return t == onnx::TensorProto::FLOAT || t == onnx::TensorProto::DOUBLE ||
         t == onnx::TensorProto::FLOAT16 || t == onnx::TensorProto::BFLOAT16;
}

bool accel::onnximport::isIntegerType(int t) {
  switch (t) {
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::INT16:
  case onnx::TensorProto::INT32:
  case onnx::TensorProto::INT64:
  case onnx::TensorProto::UINT8:
  case onnx::TensorProto::UINT16:
  case onnx::TensorProto::UINT32:
  case onnx::TensorProto::UINT64:
    return true;
  default:
    return false;
  }
}

SmallVector<int64_t> accel::onnximport::stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> s(shape.size(), 1);
  for (int64_t d = (int64_t)shape.size() - 2; d >= 0; --d)
    s[d] = s[d + 1] * shape[d + 1];
  return s;
}

namespace {
std::string attrTypeName(onnx::AttributeProto::AttributeType t) {
  const std::string &n = onnx::AttributeProto_AttributeType_Name(t);
  return n.empty() ? "type #" + std::to_string((int)t) : n;
}

/// ONNX element type of a runtime graph value.
int onnxTypeOf(Value v) {
  Type e = cast<RankedTensorType>(v.getType()).getElementType();
  if (e.isF32())
    return onnx::TensorProto::FLOAT;
  if (e.isInteger(1))
    return onnx::TensorProto::BOOL;
  if (e.isInteger(32))
    return onnx::TensorProto::INT32;
  if (e.isInteger(64))
    return onnx::TensorProto::INT64;
  return onnx::TensorProto::UNDEFINED;
}

/// Graph inputs used as the sequence_lens of an RNN / GRU / LSTM node: the
/// only integer inputs the accelerator reads at run time (as f32 words,
/// turned into per-step masks on the SFU; docs/importer.md).
std::set<std::string> sequenceLensInputs(const onnx::GraphProto &g) {
  std::set<std::string> names;
  for (const auto &n : g.node())
    if ((n.domain().empty() || n.domain() == "ai.onnx") &&
        (n.op_type() == "RNN" || n.op_type() == "GRU" ||
         n.op_type() == "LSTM") &&
        n.input_size() > 4 && !n.input(4).empty())
      names.insert(n.input(4));
  return names;
}
} // namespace

//===----------------------------------------------------------------------===//
// Naming
//===----------------------------------------------------------------------===//

std::string Importer::nodeDesc(const Node &n) const {
  if (!n.name().empty())
    return "node '" + nodeName(n) + "'";
  auto it = nodeIndex.find(&n);
  std::string d =
      "node #" +
      (it == nodeIndex.end() ? std::string("?") : std::to_string(it->second));
  // An inlined branch numbers its nodes from 0 again: say which branch.
  std::string scope = scopePrefix.empty()
                          ? ""
                          : " in the branch of If node '" +
                                StringRef(scopePrefix).drop_back().str() + "'";
  for (const std::string &o : n.output())
    if (!o.empty())
      return d + " producing '" + o + "'" + scope;
  return d + scope;
}

std::string Importer::nodeName(const Node &n) const {
  // Exporters name nodes as paths ("/If", "/model/conv/Conv"): one slash
  // joins the If's name and the branch node's.
  if (!n.name().empty())
    return n.name()[0] == '/' && !scopePrefix.empty()
               ? scopePrefix + n.name().substr(1)
               : scopePrefix + n.name();
  auto it = nodeIndex.find(&n);
  return scopePrefix + n.op_type() + "_" +
         (it == nodeIndex.end() ? std::string("?")
                                : std::to_string(it->second));
}

/// NameLoc(node name, NameLoc(op type, file:0:0)): the name is what the
/// layer table and the diagnostics call the operator (docs/passes.md
/// "Layer table"); an unnamed node is called "<OpType>_<index in the
/// graph's node list>", which is deterministic for a given model file. The
/// nodes of an inlined If branch are prefixed with the If node's name.
Location Importer::nodeLoc(const Node &n) {
  auto file = FileLineColLoc::get(&ctx, sourceName, 0, 0);
  auto kind = NameLoc::get(StringAttr::get(&ctx, n.op_type()), file);
  return NameLoc::get(StringAttr::get(&ctx, nodeName(n)), kind);
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

LogicalResult Importer::attrType(const Node &n, const onnx::AttributeProto *a,
                                 onnx::AttributeProto::AttributeType t) {
  if (a->type() == t ||
      (a->type() == onnx::AttributeProto::UNDEFINED)) // pre-IR3 models
    return success();
  return fail("attribute '" + a->name() + "' of " + nodeDesc(n) + " must be " +
              attrTypeName(t) + ", got " + attrTypeName(a->type()));
}

FailureOr<int64_t> Importer::intAttr(const Node &n, StringRef name,
                                     int64_t dflt) {
  const auto *a = attr(n, name);
  if (!a)
    return dflt;
  if (failed(attrType(n, a, onnx::AttributeProto::INT)))
    return failure();
  return (int64_t)a->i();
}

FailureOr<float> Importer::floatAttr(const Node &n, StringRef name,
                                     float dflt) {
  const auto *a = attr(n, name);
  if (!a)
    return dflt;
  if (failed(attrType(n, a, onnx::AttributeProto::FLOAT)))
    return failure();
  return a->f();
}

FailureOr<std::string> Importer::stringAttr(const Node &n, StringRef name,
                                            StringRef dflt) {
  const auto *a = attr(n, name);
  if (!a)
    return dflt.str();
  if (failed(attrType(n, a, onnx::AttributeProto::STRING)))
    return failure();
  return a->s();
}

FailureOr<SmallVector<int64_t>> Importer::intsAttr(const Node &n,
                                                   StringRef name,
                                                   ArrayRef<int64_t> dflt,
                                                   bool *present) {
  const auto *a = attr(n, name);
  if (present)
    *present = a != nullptr;
  if (!a)
    return SmallVector<int64_t>(dflt);
  if (failed(attrType(n, a, onnx::AttributeProto::INTS)))
    return failure();
  return SmallVector<int64_t>(a->ints().begin(), a->ints().end());
}

FailureOr<SmallVector<float>> Importer::floatsAttr(const Node &n,
                                                   StringRef name,
                                                   ArrayRef<float> dflt,
                                                   bool *present) {
  const auto *a = attr(n, name);
  if (present)
    *present = a != nullptr;
  if (!a)
    return SmallVector<float>(dflt);
  if (failed(attrType(n, a, onnx::AttributeProto::FLOATS)))
    return failure();
  return SmallVector<float>(a->floats().begin(), a->floats().end());
}

FailureOr<SmallVector<std::string>>
Importer::stringsAttr(const Node &n, StringRef name, bool *present) {
  const auto *a = attr(n, name);
  if (present)
    *present = a != nullptr;
  SmallVector<std::string> out;
  if (!a)
    return out;
  if (failed(attrType(n, a, onnx::AttributeProto::STRINGS)))
    return failure();
  for (const auto &s : a->strings())
    out.push_back(s);
  return out;
}

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
      return fail(what + ": malformed external_data entry '" + kv.key() + "'");
    }
  }
  if (location.empty())
    return fail(what + " uses external data without a location");
  if (baseDir.empty())
    return fail(what + " uses external data ('" + location +
                "'), which needs the model to be imported from a file");
  // The data must stay next to the model: a location with "../", an
  // absolute path or a symlink out of the directory would embed any file
  // the compiler can read into the binary.
  std::string path, fileErr;
  uint64_t fileSize = 0;
  if (!resolvePathInside(baseDir, location, "external data file", path,
                         fileErr) ||
      !checkRegularFile(path, "external data file", kMaxDataFileBytes, fileSize,
                        fileErr))
    return fail(what + ": " + fileErr);
  int64_t size = (int64_t)fileSize;
  if (length < 0)
    length = size - offset;
  if (offset < 0 || length < 0 || offset > size || size - offset < length)
    return fail(what + ": external data range [" + std::to_string(offset) +
                ", +" + std::to_string(length) + ") is outside '" + location +
                "' (" + std::to_string(size) + " bytes)");
  auto buf = llvm::MemoryBuffer::getFileSlice(path, length, offset,
                                              /*IsVolatile=*/false);
  if (!buf)
    return fail(what + ": cannot read external data file '" + path +
                "': " + buf.getError().message());
  storage.assign((*buf)->getBufferStart(), (*buf)->getBufferSize());
  bytes = StringRef(storage);
  return success();
}

/// Decodes any numeric / bool tensor into a ConstTensor.
FailureOr<ConstPtr> Importer::decodeTensor(const onnx::TensorProto &t,
                                           const std::string &what) {
  auto c = std::make_shared<ConstTensor>();
  if (failed(tensorDims(t, what, c->shape)))
    return failure();
  int64_t n = *numElements(c->shape);
  if (t.has_segment())
    return fail(what + " is a segmented tensor, which is not supported");
  std::string storage;
  StringRef raw;
  if (failed(tensorBytes(t, what, storage, raw)))
    return failure();
  bool external = t.data_location() == onnx::TensorProto::EXTERNAL;
  bool useRaw = !raw.empty() || external;
  int dt = t.data_type();
  c->dtype = dt;

  auto checkRaw = [&](size_t elemSize) -> LogicalResult {
    if (raw.size() != (size_t)n * elemSize)
      return fail(what + " has " + std::to_string(raw.size()) + " bytes of " +
                  (external ? "external" : "raw") + " data, expected " +
                  std::to_string(n) + " x " + std::to_string(elemSize) +
                  " for shape " + shapeStr(c->shape));
    return success();
  };
  auto checkCount = [&](int64_t have) -> LogicalResult {
    if (have != n)
      return fail(what + " has " + std::to_string(have) + " values, expected " +
                  std::to_string(n) + " for shape " + shapeStr(c->shape));
    return success();
  };
  // Typed raw decoding.
  auto rawInts = [&](auto tag) -> LogicalResult {
    using T = decltype(tag);
    if (failed(checkRaw(sizeof(T))))
      return failure();
    c->i.resize(n);
    for (int64_t k = 0; k < n; ++k) {
      T v;
      std::memcpy(&v, raw.data() + k * sizeof(T), sizeof(T));
      c->i[k] = (int64_t)v;
    }
    return success();
  };
  auto halfToDouble = [](uint16_t h, bool bf16) -> double {
    if (bf16) {
      uint32_t bits = (uint32_t)h << 16;
      float f;
      std::memcpy(&f, &bits, 4);
      return f;
    }
    llvm::APFloat ap(llvm::APFloat::IEEEhalf(), llvm::APInt(16, h));
    return ap.convertToDouble();
  };

  switch (dt) {
  case onnx::TensorProto::FLOAT:
    if (useRaw) {
      if (failed(checkRaw(4)))
        return failure();
      c->f.resize(n);
      for (int64_t k = 0; k < n; ++k) {
        float v;
        std::memcpy(&v, raw.data() + 4 * k, 4);
        c->f[k] = v;
      }
    } else {
      if (failed(checkCount(t.float_data_size())))
        return failure();
      c->f.assign(t.float_data().begin(), t.float_data().end());
    }
    break;
  case onnx::TensorProto::DOUBLE:
    if (useRaw) {
      if (failed(checkRaw(8)))
        return failure();
      c->f.resize(n);
      if (n)
        std::memcpy(c->f.data(), raw.data(), 8 * n);
    } else {
      if (failed(checkCount(t.double_data_size())))
        return failure();
      c->f.assign(t.double_data().begin(), t.double_data().end());
    }
    break;
  case onnx::TensorProto::FLOAT16:
  case onnx::TensorProto::BFLOAT16: {
    bool bf = dt == onnx::TensorProto::BFLOAT16;
    c->f.resize(n);
    if (useRaw) {
      if (failed(checkRaw(2)))
        return failure();
      for (int64_t k = 0; k < n; ++k) {
        uint16_t h;
        std::memcpy(&h, raw.data() + 2 * k, 2);
        c->f[k] = halfToDouble(h, bf);
      }
    } else {
      if (failed(checkCount(t.int32_data_size())))
        return failure();
      for (int64_t k = 0; k < n; ++k)
        c->f[k] = halfToDouble((uint16_t)t.int32_data(k), bf);
    }
    break;
  }
  case onnx::TensorProto::INT64:
    if (useRaw) {
      if (failed(rawInts(int64_t())))
        return failure();
    } else {
      if (failed(checkCount(t.int64_data_size())))
        return failure();
      c->i.assign(t.int64_data().begin(), t.int64_data().end());
    }
    break;
  case onnx::TensorProto::UINT64:
    if (useRaw) {
      if (failed(rawInts(uint64_t())))
        return failure();
    } else {
      if (failed(checkCount(t.uint64_data_size())))
        return failure();
      c->i.assign(t.uint64_data().begin(), t.uint64_data().end());
    }
    break;
  case onnx::TensorProto::INT32:
  case onnx::TensorProto::INT16:
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::UINT16:
  case onnx::TensorProto::UINT8:
  case onnx::TensorProto::BOOL:
  case onnx::TensorProto::UINT32:
    if (useRaw) {
      LogicalResult r = success();
      switch (dt) {
      case onnx::TensorProto::INT32:
        r = rawInts(int32_t());
        break;
      case onnx::TensorProto::INT16:
        r = rawInts(int16_t());
        break;
      case onnx::TensorProto::INT8:
        r = rawInts(int8_t());
        break;
      case onnx::TensorProto::UINT16:
        r = rawInts(uint16_t());
        break;
      case onnx::TensorProto::UINT8:
        r = rawInts(uint8_t());
        break;
      case onnx::TensorProto::BOOL:
        r = rawInts(uint8_t());
        break;
      default:
        r = rawInts(uint32_t());
        break;
      }
      if (failed(r))
        return failure();
    } else if (dt == onnx::TensorProto::UINT32) {
      if (failed(checkCount(t.uint64_data_size())))
        return failure();
      c->i.assign(t.uint64_data().begin(), t.uint64_data().end());
    } else {
      if (failed(checkCount(t.int32_data_size())))
        return failure();
      c->i.assign(t.int32_data().begin(), t.int32_data().end());
    }
    if (dt == onnx::TensorProto::BOOL)
      for (auto &v : c->i)
        v = v != 0;
    break;
  default:
    return fail("unsupported element type " + dataTypeName(dt) + " for " +
                what);
  }
  return ConstPtr(c);
}

/// The f32 elements attribute of a FLOAT tensor (fast path for weights).
FailureOr<DenseElementsAttr> Importer::tensorToAttr(const onnx::TensorProto &t,
                                                    const std::string &what) {
  auto c = decodeTensor(t, what);
  if (failed(c))
    return failure();
  return toAttr(**c);
}

DenseElementsAttr Importer::toAttr(const ConstTensor &c) {
  if (c.isFloat()) {
    SmallVector<float> data(c.f.begin(), c.f.end());
    auto type = RankedTensorType::get(c.shape, builder.getF32Type());
    return DenseElementsAttr::get(type, ArrayRef<float>(data));
  }
  if (c.dtype == onnx::TensorProto::BOOL) {
    SmallVector<bool> data;
    for (int64_t v : c.i)
      data.push_back(v != 0);
    auto type = RankedTensorType::get(c.shape, builder.getI1Type());
    return DenseElementsAttr::get(type, ArrayRef<bool>(data));
  }
  auto type = RankedTensorType::get(c.shape, builder.getI64Type());
  return DenseElementsAttr::get(type, ArrayRef<int64_t>(c.i));
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

Slot *Importer::slot(const Node &n, int i) {
  if (!hasInput(n, i))
    return nullptr;
  auto it = values.find(n.input(i));
  return it == values.end() ? nullptr : &it->second;
}

FailureOr<ConstPtr> Importer::constantOf(const std::string &name, Slot &s) {
  if (s.cst)
    return s.cst;
  if (!s.tensor)
    return ConstPtr();
  auto c = decodeTensor(*s.tensor, "tensor '" + name + "'");
  if (failed(c))
    return failure();
  s.cst = *c;
  return s.cst;
}

FailureOr<ConstPtr> Importer::constant(const Node &n, int i) {
  Slot *s = slot(n, i);
  if (!s)
    return ConstPtr();
  return constantOf(n.input(i), *s);
}

Value Importer::materialize(DenseElementsAttr value, const std::string &name) {
  auto l = NameLoc::get(StringAttr::get(&ctx, name),
                        FileLineColLoc::get(&ctx, sourceName, 0, 0));
  return arith::ConstantOp::create(builder, l, value).getResult();
}

Value Importer::materialize(const ConstTensor &c, const std::string &name) {
  return materialize(toAttr(c), name);
}

/// An f32 initializer straight from its stored bytes to the attribute, not
/// through ConstTensor's doubles: weights are most of a model's bytes, and
/// three extra copies of them were most of the import time. A null
/// attribute when the tensor is not plain f32 data of the right size (the
/// general decoder then reports what is wrong).
FailureOr<DenseElementsAttr> Importer::rawFloatAttr(const onnx::TensorProto &t,
                                                    const std::string &what) {
  if (t.data_type() != onnx::TensorProto::FLOAT || t.has_segment())
    return DenseElementsAttr();
  SmallVector<int64_t> shape;
  if (failed(tensorDims(t, what, shape)))
    return failure();
  const int64_t n = *numElements(shape);
  auto type = RankedTensorType::get(shape, builder.getF32Type());
  std::string storage;
  StringRef raw;
  if (failed(tensorBytes(t, what, storage, raw)))
    return failure();
  if (raw.empty() && t.data_location() != onnx::TensorProto::EXTERNAL) {
    if (t.float_data_size() != n)
      return DenseElementsAttr();
    return DenseElementsAttr::get(
        type, ArrayRef<float>(t.float_data().data(), size_t(n)));
  }
  if (raw.size() != size_t(n) * 4)
    return DenseElementsAttr();
  // raw_data is little-endian, as the host (decodeTensor assumes the same).
  return DenseElementsAttr::getFromRawBuffer(
      type, ArrayRef<char>(raw.data(), raw.size()));
}

FailureOr<Value> Importer::materializeSlot(const std::string &name, Slot &s,
                                           const Node *user) {
  std::string where = user ? " (" + nodeDesc(*user) + ")" : " (graph output)";
  if (s.badType)
    return fail("unsupported element type " + dataTypeName(s.badType) +
                " for graph input '" + name + "'" + where +
                (isIntegerType(s.badType)
                     ? ": the accelerator computes in f32; bind integer "
                       "inputs to constants (--bind " +
                           name + "=FILE.pb)"
                     : ": the accelerator computes in f32"));
  if (s.value)
    return s.value;
  if (s.undecodedF32()) {
    auto attr = rawFloatAttr(*s.tensor, "tensor '" + name + "'");
    if (failed(attr))
      return failure();
    if (*attr) {
      OpBuilder::InsertionGuard guard(builder);
      s.value = materialize(*attr, name);
      return s.value;
    }
  }
  auto c = constantOf(name, s);
  if (failed(c))
    return failure();
  if (!*c)
    return fail("value '" + name + "'" + where + " has no definition");
  const ConstTensor &t = **c;
  if (!t.isFloat() && t.dtype != onnx::TensorProto::BOOL &&
      t.dtype != onnx::TensorProto::INT64 &&
      t.dtype != onnx::TensorProto::INT32)
    return fail("unsupported element type " + dataTypeName(t.dtype) +
                " for tensor '" + name + "'" + where);
  if (t.isFloat() && t.dtype != onnx::TensorProto::FLOAT)
    return fail("unsupported element type " + dataTypeName(t.dtype) +
                " for tensor '" + name + "'" + where);
  OpBuilder::InsertionGuard guard(builder);
  s.value = materialize(t, name);
  return s.value;
}

FailureOr<Value> Importer::operandAny(const Node &n, int i) {
  Slot *s = slot(n, i);
  if (!s) // cannot happen after sortNodes, kept for safety
    return fail("undefined value '" + (i < n.input_size() ? n.input(i) : "") +
                "' used by " + nodeDesc(n));
  return materializeSlot(n.input(i), *s, &n);
}

FailureOr<Value> Importer::operandF32(const Node &n, int i, bool convertInts) {
  Slot *s = slot(n, i);
  if (!s)
    return operandAny(n, i);
  if (!s->value && !s->badType && !s->undecodedF32()) {
    auto c = constantOf(n.input(i), *s);
    if (failed(c))
      return failure();
    if (!*c)
      return fail("value '" + n.input(i) + "' used by " + nodeDesc(n) +
                  " has no definition");
    const ConstTensor &t = **c;
    if (t.dtype != onnx::TensorProto::FLOAT &&
        (convertInts || t.dtype == onnx::TensorProto::DOUBLE ||
         t.dtype == onnx::TensorProto::FLOAT16 ||
         t.dtype == onnx::TensorProto::BFLOAT16) &&
        (convertInts || t.isFloat())) {
      // Constant data of another numeric type: the value is exactly what a
      // Cast would give (used for mixed-type operands, e.g. Pow exponents).
      if (!convertInts)
        return fail("unsupported element type " + dataTypeName(t.dtype) +
                    " for tensor '" + n.input(i) + "' (" + nodeDesc(n) + ")");
      ConstTensor f;
      f.dtype = onnx::TensorProto::FLOAT;
      f.shape = t.shape;
      for (int64_t k = 0; k < t.size(); ++k)
        f.f.push_back((float)t.getF(k));
      return materialize(f, n.input(i));
    }
  }
  auto v = materializeSlot(n.input(i), *s, &n);
  if (failed(v))
    return failure();
  if (!elemOf(*v).isF32())
    return fail("unsupported element type " + dataTypeName(onnxTypeOf(*v)) +
                " for '" + n.input(i) + "' (" + nodeDesc(n) +
                "): " + n.op_type() + " computes on f32 tensors only");
  return v;
}

FailureOr<SmallVector<int64_t>> Importer::inputShape(const Node &n, int i) {
  Slot *s = slot(n, i);
  if (!s)
    return fail(what(n) + ": input " + std::to_string(i) + " is missing");
  if (s->badType)
    return s->badShape;
  if (s->value)
    return SmallVector<int64_t>(shapeOf(s->value));
  if (s->tensor && !s->cst) { // the dims, without decoding the data
    SmallVector<int64_t> dims;
    if (failed(tensorDims(*s->tensor, "tensor '" + n.input(i) + "'", dims)))
      return failure();
    return dims;
  }
  auto c = constantOf(n.input(i), *s);
  if (failed(c))
    return failure();
  if (!*c)
    return fail("value '" + n.input(i) + "' used by " + nodeDesc(n) +
                " has no definition");
  return (*c)->shape;
}

FailureOr<int> Importer::inputType(const Node &n, int i) {
  Slot *s = slot(n, i);
  if (!s)
    return fail(what(n) + ": input " + std::to_string(i) + " is missing");
  if (s->badType)
    return s->badType;
  if (s->value)
    return onnxTypeOf(s->value);
  if (s->tensor)
    return (int)s->tensor->data_type();
  if (!s->cst)
    return fail("value '" + n.input(i) + "' used by " + nodeDesc(n) +
                " has no definition");
  return s->cst->dtype;
}

FailureOr<SmallVector<int64_t>> Importer::constInts(const Node &n, int i) {
  auto c = constant(n, i);
  if (failed(c))
    return failure();
  if (!*c) {
    if (Slot *s = slot(n, i);
        s && (s->badType || (s->value && isa<BlockArgument>(s->value))))
      return fail("input " + std::to_string(i) + " ('" + n.input(i) + "') of " +
                  nodeDesc(n) + " (" + n.op_type() +
                  ") must be a compile-time constant; it is a graph input: "
                  "bind it to a constant (--bind " +
                  n.input(i) + "=FILE.pb)");
    return fail("input " + std::to_string(i) + " ('" +
                (i < n.input_size() ? n.input(i) : "") + "') of " +
                nodeDesc(n) + " (" + n.op_type() +
                ") must be a compile-time constant (initializer, Constant "
                "node or a shape computation)");
  }
  if ((*c)->isFloat())
    return fail("tensor '" + n.input(i) + "' used by " + nodeDesc(n) +
                " must be an integer tensor, got " + dataTypeName((*c)->dtype));
  return SmallVector<int64_t>((*c)->i.begin(), (*c)->i.end());
}

FailureOr<SmallVector<double>> Importer::constFloats(const Node &n, int i) {
  auto c = constant(n, i);
  if (failed(c))
    return failure();
  if (!*c) {
    Slot *s = slot(n, i);
    if (s && (s->badType || (s->value && isa<BlockArgument>(s->value))))
      return fail("input " + std::to_string(i) + " ('" + n.input(i) + "') of " +
                  nodeDesc(n) + " (" + n.op_type() +
                  ") must be a compile-time constant; it is a graph input: "
                  "bind it to a constant (--bind " +
                  n.input(i) + "=FILE.pb)");
    return fail("input " + std::to_string(i) + " ('" + n.input(i) + "') of " +
                nodeDesc(n) + " (" + n.op_type() +
                ") must be a compile-time constant (initializer or Constant "
                "node)");
  }
  SmallVector<double> out;
  for (int64_t k = 0; k < (*c)->size(); ++k)
    out.push_back((*c)->getF(k));
  return out;
}

LogicalResult Importer::define(const Node &n, int out, Value v) {
  if (!numElements(shapeOf(v)))
    return failNode(n,
                    "result shape " + shapeStr(shapeOf(v)) + " is too large");
  if (out < n.output_size() && !n.output(out).empty())
    values[n.output(out)] = Slot{v, nullptr, nullptr, 0, {}};
  return success();
}

LogicalResult Importer::defineConst(const Node &n, int out, ConstTensor c) {
  if (out < n.output_size() && !n.output(out).empty()) {
    Slot s;
    s.cst = std::make_shared<ConstTensor>(std::move(c));
    values[n.output(out)] = s;
  }
  return success();
}

LogicalResult Importer::defineReshaped(const Node &n, ArrayRef<int64_t> shape) {
  auto c = constant(n, 0);
  if (failed(c))
    return failure();
  if (*c)
    return defineConst(n, 0, reshapeConst(**c, shape));
  auto x = operandF32(n, 0);
  if (failed(x))
    return failure();
  return define(n, 0, reshape(*x, shape));
}

LogicalResult Importer::checkArity(const Node &n, int minIn, int maxIn,
                                   int maxOut) {
  int count = n.input_size();
  // Trailing empty names are omitted optional inputs.
  while (count > 0 && n.input(count - 1).empty())
    --count;
  if (count < minIn || count > maxIn) {
    std::string expect =
        minIn == maxIn ? std::to_string(minIn)
                       : std::to_string(minIn) + " to " + std::to_string(maxIn);
    if (maxIn == INT32_MAX)
      expect = "at least " + std::to_string(minIn);
    return fail(what(n) + " has " + std::to_string(count) +
                " input(s), expected " + expect);
  }
  for (int i = 0; i < minIn; ++i)
    if (n.input(i).empty())
      return fail(what(n) + ": required input " + std::to_string(i) +
                  " is empty");
  if (n.output_size() < 1 || n.output(0).empty())
    if (maxOut <= 1)
      return fail(what(n) + " has no output");
  for (int i = maxOut; i < n.output_size(); ++i)
    if (!n.output(i).empty())
      return fail(what(n) + ": output " + std::to_string(i) + " ('" +
                  n.output(i) + "') is not supported");
  return success();
}

//===----------------------------------------------------------------------===//
// Building helpers
//===----------------------------------------------------------------------===//

Value Importer::reshape(Value v, ArrayRef<int64_t> shape) {
  if (shapeOf(v) == shape)
    return v;
  return graph::ReshapeOp::create(builder, loc(), tensorLike(shape, v), v);
}

Value Importer::transpose(Value v, ArrayRef<int64_t> perm) {
  if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    return v;
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(shapeOf(v)[p]);
  return graph::TransposeOp::create(builder, loc(), tensorLike(shape, v), v,
                                    perm);
}

Value Importer::unary(graph::UnaryFn fn, Value v, float alpha, float beta) {
  // One spelling per operation: a ReLU is graph.relu, never graph.unary relu.
  if (fn == graph::UnaryFn::relu)
    return graph::ReluOp::create(builder, loc(), v.getType(), v);
  return graph::UnaryOp::create(builder, loc(), v.getType(), fn, v,
                                llvm::APFloat(alpha), llvm::APFloat(beta));
}

FailureOr<Value> Importer::binary(const Node &n, graph::BinaryFn fn, Value a,
                                  Value b) {
  // One spelling per operation: an f32 sum is graph.add.
  if (fn == graph::BinaryFn::add && elemOf(a).isF32() && elemOf(b).isF32())
    return add(n, a, b);
  std::string why;
  auto shape = graph::broadcastShapes(shapeOf(a), shapeOf(b), why);
  if (!shape)
    return failNode(n, why);
  bool cmp = fn == graph::BinaryFn::equal || fn == graph::BinaryFn::less ||
             fn == graph::BinaryFn::greater ||
             fn == graph::BinaryFn::less_equal ||
             fn == graph::BinaryFn::greater_equal;
  if (elemOf(a) != elemOf(b))
    return failNode(n, "operand element types differ");
  auto type = RankedTensorType::get(*shape, cmp ? Type(builder.getI1Type())
                                                : elemOf(a));
  return graph::BinaryOp::create(builder, loc(), type, fn, a, b).getResult();
}

FailureOr<Value> Importer::add(const Node &n, Value a, Value b) {
  std::string why;
  auto shape = graph::broadcastShapes(shapeOf(a), shapeOf(b), why);
  if (!shape)
    return failNode(n, why);
  return graph::AddOp::create(builder, loc(), f32Tensor(*shape), a, b)
      .getResult();
}

Value Importer::reduce(graph::ReduceFn fn, Value v, ArrayRef<int64_t> axes,
                       bool keepdims) {
  std::string why;
  auto shape = *graph::reduceShape(shapeOf(v), axes, keepdims, why);
  bool arg = fn == graph::ReduceFn::argmax || fn == graph::ReduceFn::argmin;
  auto type = RankedTensorType::get(shape, arg ? Type(builder.getI64Type())
                                               : builder.getF32Type());
  return graph::ReduceOp::create(builder, loc(), type, fn, v, axes, keepdims,
                                 false)
      .getResult();
}

Value Importer::slice(Value v, ArrayRef<int64_t> offsets,
                      ArrayRef<int64_t> strides, ArrayRef<int64_t> sizes) {
  if (sizes == shapeOf(v) &&
      llvm::all_of(offsets, [](int64_t o) { return o == 0; }) &&
      llvm::all_of(strides, [](int64_t s) { return s == 1; }))
    return v;
  return graph::SliceOp::create(builder, loc(), tensorLike(sizes, v), v,
                                offsets, strides);
}

Value Importer::splatF32(ArrayRef<int64_t> shape, float value) {
  auto type = f32Tensor(shape);
  return arith::ConstantOp::create(builder, loc(),
                                   DenseElementsAttr::get(type, value));
}

Value Importer::constF32(ArrayRef<int64_t> shape, ArrayRef<float> data) {
  auto type = f32Tensor(shape);
  return arith::ConstantOp::create(builder, loc(),
                                   DenseElementsAttr::get(type, data));
}

FailureOr<int64_t> Importer::normAxis(const Node &n, int64_t axis, int64_t rank,
                                      bool allowRank) {
  int64_t hi = allowRank ? rank + 1 : rank;
  int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= hi)
    return failNode(n, "axis " + std::to_string(axis) +
                           " is out of range for rank " + std::to_string(rank));
  return a;
}

LogicalResult Importer::resolveAutoPad(const Node &n, StringRef mode,
                                       bool hasPads, ArrayRef<int64_t> in,
                                       ArrayRef<int64_t> kernel,
                                       ArrayRef<int64_t> strides,
                                       ArrayRef<int64_t> dilations,
                                       SmallVector<int64_t> &pads) {
  size_t r = in.size();
  if (mode == "NOTSET")
    return success();
  if (hasPads && llvm::any_of(pads, [](int64_t p) { return p != 0; }))
    return failNode(n, "explicit pads cannot be combined with auto_pad " +
                           mode.str());
  if (mode == "VALID") {
    pads.assign(2 * r, 0);
    return success();
  }
  if (mode != "SAME_UPPER" && mode != "SAME_LOWER")
    return failNode(n, "unsupported auto_pad '" + mode.str() +
                           "' (expected NOTSET, VALID, SAME_UPPER or "
                           "SAME_LOWER)");
  // Output = ceil(in / stride); the total padding is split evenly, the odd
  // element going to the end (UPPER) or the beginning (LOWER).
  pads.assign(2 * r, 0);
  for (size_t i = 0; i < r; ++i) {
    int64_t s = strides[i];
    int64_t span = dilations[i] * (kernel[i] - 1) + 1;
    int64_t out = (in[i] + s - 1) / s;
    int64_t total = std::max<int64_t>(0, (out - 1) * s + span - in[i]);
    int64_t small = total / 2, large = total - small;
    pads[i] = mode == "SAME_UPPER" ? small : large;
    pads[i + r] = mode == "SAME_UPPER" ? large : small;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Graph structure
//===----------------------------------------------------------------------===//

LogicalResult Importer::collectInitializers(const onnx::GraphProto &g) {
  if (g.sparse_initializer_size())
    return fail("sparse initializer '" +
                g.sparse_initializer(0).values().name() + "' is not supported");
  for (const auto &t : g.initializer()) {
    if (t.name().empty())
      return fail("an initializer has no name");
    if (!initializerNames.insert(t.name()).second)
      return fail("initializer '" + t.name() + "' is defined more than once");
    values[t.name()] = Slot{Value(), &t, nullptr, 0, {}};
  }
  return success();
}

LogicalResult Importer::collectInputs(const onnx::GraphProto &g,
                                      SmallVector<Type> &argTypes,
                                      SmallVector<std::string> &argNames) {
  std::set<std::string> inputNames;
  const std::set<std::string> lensInputs = sequenceLensInputs(g);
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

    // Inputs bound to a constant (a TensorProto file).
    auto bound = opts.boundInputs.find(name);
    if (bound != opts.boundInputs.end()) {
      std::string bytes, why;
      if (!readRegularFile(bound->second, "tensor file", kMaxProtobufFileBytes,
                           bytes, why))
        return fail("input '" + name + "' (--bind): " + why);
      ownedTensors.emplace_back();
      onnx::TensorProto &t = ownedTensors.back();
      if (!t.ParseFromArray(bytes.data(), (int)bytes.size()) ||
          t.data_type() == onnx::TensorProto::UNDEFINED)
        return fail("'" + bound->second + "' (bound to input '" + name +
                    "') is not a serialized ONNX TensorProto");
      if (tt.elem_type() != onnx::TensorProto::UNDEFINED &&
          tt.elem_type() != t.data_type())
        return fail("the tensor bound to input '" + name + "' has type " +
                    dataTypeName(t.data_type()) + ", the model declares " +
                    dataTypeName(tt.elem_type()));
      if (tt.has_shape()) {
        const auto &dims = tt.shape().dim();
        bool ok = dims.size() == t.dims_size();
        for (int i = 0; ok && i < dims.size(); ++i)
          if (dims.Get(i).has_dim_value() &&
              dims.Get(i).dim_value() != t.dims(i))
            ok = false;
        if (!ok)
          return fail(
              "the tensor bound to input '" + name + "' has shape " +
              shapeStr(SmallVector<int64_t>(t.dims().begin(), t.dims().end())) +
              ", which does not match the model's declaration");
      }
      values[name] = Slot{Value(), &t, nullptr, 0, {}};
      continue;
    }

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
        return fail(
            "input shape " + shapeStr(given->second) + " given for '" + name +
            "' has rank " + std::to_string(given->second.size()) +
            " but the model declares rank " + std::to_string(dims.size()));
      for (int i = 0; i < dims.size(); ++i) {
        const auto &d = dims.Get(i);
        bool known = d.has_dim_value() && d.dim_value() > 0;
        if (given != opts.inputShapes.end()) {
          int64_t gd = given->second[i];
          if (known && d.dim_value() != gd)
            return fail("input shape " + shapeStr(given->second) +
                        " given for '" + name + "' disagrees with the model " +
                        "in dimension " + std::to_string(i) + " (" +
                        std::to_string(d.dim_value()) + ")");
          shape.push_back(gd);
          continue;
        }
        if (!known) {
          if (d.has_dim_value() && d.dim_value() == 0)
            return fail("graph input '" + name +
                        "' has a zero-sized "
                        "dimension " +
                        std::to_string(i) +
                        " (empty tensors are not supported)");
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
    int et = tt.elem_type();
    if (et == onnx::TensorProto::UNDEFINED)
      return fail("graph input '" + name + "' has no element type");
    const bool runtimeLens =
        (et == onnx::TensorProto::INT32 || et == onnx::TensorProto::INT64) &&
        lensInputs.count(name);
    if (runtimeLens) {
      // Run-time sequence lengths keep their ONNX integer type: the symbol
      // tells accel-run to expect (and check) an integer tensor.
      argTypes.push_back(RankedTensorType::get(
          shape,
          builder.getIntegerType(et == onnx::TensorProto::INT32 ? 32 : 64)));
      argNames.push_back(name);
      continue;
    }
    if (et != onnx::TensorProto::FLOAT && et != onnx::TensorProto::BOOL) {
      // Not a runtime argument: only its shape can be used (Shape, Size);
      // any other use reports the type, naming the node.
      Slot s;
      s.badType = et;
      s.badShape = shape;
      values[name] = s;
      continue;
    }
    Type elem = et == onnx::TensorProto::BOOL ? Type(builder.getI1Type())
                                              : Type(builder.getF32Type());
    argTypes.push_back(RankedTensorType::get(shape, elem));
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
  for (const auto &kv : opts.boundInputs)
    if (!inputNames.count(kv.first))
      return fail(
          "--bind given for '" + kv.first + "', which is not a graph input" +
          (initializerNames.count(kv.first) ? " (it is an initializer)" : ""));
  return success();
}

/// Kahn's algorithm, stable (a sorted graph keeps its order). An input that
/// no node, graph input or initializer defines is an error naming it; a
/// cycle is an error naming the nodes on it. A node with subgraphs (If)
/// also depends on the producers of the outer-scope values they use.
LogicalResult
Importer::sortNodes(const google::protobuf::RepeatedPtrField<Node> &nodes,
                    const std::set<std::string> &ownConstants,
                    const std::function<bool(const std::string &)> &isOuter,
                    SmallVector<size_t> &order) {
  size_t numNodes = nodes.size();
  std::unordered_map<std::string, size_t> producer;
  for (size_t i = 0; i < numNodes; ++i) {
    for (const std::string &o : nodes.Get(i).output()) {
      if (o.empty())
        continue;
      if (ownConstants.count(o))
        return fail(nodeDesc(nodes.Get(i)) + " redefines '" + o +
                    "', which is a graph input or initializer");
      if (!producer.emplace(o, i).second)
        return fail("value '" + o + "' is produced by both " +
                    nodeDesc(nodes.Get(producer[o])) + " and " +
                    nodeDesc(nodes.Get(i)));
    }
  }
  std::vector<std::vector<size_t>> users(numNodes), deps(numNodes);
  std::vector<size_t> indegree(numNodes, 0);
  for (size_t i = 0; i < numNodes; ++i) {
    const auto &n = nodes.Get(i);
    std::set<size_t> seen;
    auto dependOn = [&](size_t p) {
      if (seen.insert(p).second) {
        users[p].push_back(i);
        deps[i].push_back(p);
        ++indegree[i];
      }
    };
    for (int k = 0; k < n.input_size(); ++k) {
      const std::string &in = n.input(k);
      if (in.empty())
        continue;
      auto p = producer.find(in);
      if (p == producer.end()) {
        if (ownConstants.count(in) || isOuter(in))
          continue;
        return fail("undefined value '" + in + "' used by " + nodeDesc(n) +
                    " (" + n.op_type() + " input " + std::to_string(k) +
                    "): it is not a graph input, an initializer or a node "
                    "output (missing initializer?)");
      }
      dependOn(p->second);
    }
    // A capture nothing here defines is left to the branch's own import
    // (only the branch taken is imported, and only its names must exist).
    std::set<std::string> captures;
    subgraphCaptures(n, captures);
    for (const std::string &c : captures)
      if (auto p = producer.find(c); p != producer.end() && p->second != i)
        dependOn(p->second);
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
    msg += nodeDesc(nodes.Get(c)) + " -> ";
  msg += nodeDesc(nodes.Get(cycle.front()));
  return fail(msg);
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

LogicalResult Importer::importNode(const Node &n) {
  const std::string &domain = n.domain();
  if (!domain.empty() && domain != "ai.onnx")
    return fail("unsupported operator '" + domain + "." + n.op_type() + "' (" +
                nodeDesc(n) + ")");
  curLoc = nodeLoc(n);
  auto folded = tryFold(n);
  if (failed(folded))
    return failure();
  if (*folded)
    return success();
  static const std::pair<const char *, OpFn> table[] = {
      // elementwise
      {"Add", &Importer::importBinary},
      {"Sub", &Importer::importBinary},
      {"Mul", &Importer::importBinary},
      {"Div", &Importer::importBinary},
      {"Pow", &Importer::importBinary},
      {"Equal", &Importer::importBinary},
      {"Less", &Importer::importBinary},
      {"Greater", &Importer::importBinary},
      {"LessOrEqual", &Importer::importBinary},
      {"GreaterOrEqual", &Importer::importBinary},
      {"Max", &Importer::importVariadic},
      {"Min", &Importer::importVariadic},
      {"Sum", &Importer::importVariadic},
      {"Mean", &Importer::importVariadic},
      {"Neg", &Importer::importUnary},
      {"Abs", &Importer::importUnary},
      {"Reciprocal", &Importer::importUnary},
      {"Sqrt", &Importer::importUnary},
      {"Exp", &Importer::importUnary},
      {"Log", &Importer::importUnary},
      {"Erf", &Importer::importUnary},
      {"Floor", &Importer::importUnary},
      {"Ceil", &Importer::importUnary},
      {"Round", &Importer::importUnary},
      {"Sign", &Importer::importUnary},
      {"Sin", &Importer::importUnary},
      {"Cos", &Importer::importUnary},
      {"Tan", &Importer::importUnary},
      {"Sigmoid", &Importer::importUnary},
      {"Tanh", &Importer::importUnary},
      {"Softplus", &Importer::importUnary},
      {"Softsign", &Importer::importUnary},
      {"LeakyRelu", &Importer::importUnary},
      {"Elu", &Importer::importUnary},
      {"Selu", &Importer::importUnary},
      {"Celu", &Importer::importUnary},
      {"HardSigmoid", &Importer::importUnary},
      {"HardSwish", &Importer::importUnary},
      {"ThresholdedRelu", &Importer::importUnary},
      {"Relu", &Importer::importRelu},
      {"PRelu", &Importer::importPRelu},
      {"Clip", &Importer::importClip},
      {"Where", &Importer::importWhere},
      {"Softmax", &Importer::importSoftmax},
      {"LogSoftmax", &Importer::importSoftmax},
      {"Hardmax", &Importer::importHardmax},
      {"Cast", &Importer::importCast},
      {"CastLike", &Importer::importCast},
      // layout and shape
      {"Identity", &Importer::importIdentity},
      {"Dropout", &Importer::importDropout},
      {"Constant", &Importer::importConstant},
      {"ConstantOfShape", &Importer::importConstantOfShape},
      {"Reshape", &Importer::importReshape},
      {"Flatten", &Importer::importFlatten},
      {"Squeeze", &Importer::importSqueeze},
      {"Unsqueeze", &Importer::importUnsqueeze},
      {"Transpose", &Importer::importTranspose},
      {"Concat", &Importer::importConcat},
      {"Split", &Importer::importSplit},
      {"Slice", &Importer::importSlice},
      {"Gather", &Importer::importGather},
      {"Pad", &Importer::importPad},
      {"Expand", &Importer::importExpand},
      {"Tile", &Importer::importTile},
      {"Shape", &Importer::importShape},
      {"Size", &Importer::importSize},
      // compute
      {"MatMul", &Importer::importMatMul},
      {"Gemm", &Importer::importGemm},
      {"Conv", &Importer::importConv},
      {"ConvTranspose", &Importer::importConvTranspose},
      {"MaxPool", &Importer::importPool},
      {"AveragePool", &Importer::importPool},
      {"GlobalAveragePool", &Importer::importGlobalPool},
      {"GlobalMaxPool", &Importer::importGlobalPool},
      {"ReduceMean", &Importer::importReduce},
      {"ReduceSum", &Importer::importReduce},
      {"ReduceMax", &Importer::importReduce},
      {"ReduceMin", &Importer::importReduce},
      {"ReduceProd", &Importer::importReduce},
      {"ReduceL1", &Importer::importReduce},
      {"ReduceL2", &Importer::importReduce},
      {"ReduceLogSum", &Importer::importReduce},
      {"ReduceLogSumExp", &Importer::importReduce},
      {"ReduceSumSquare", &Importer::importReduce},
      {"ArgMax", &Importer::importArgMinMax},
      {"ArgMin", &Importer::importArgMinMax},
      {"BatchNormalization", &Importer::importBatchNorm},
      {"InstanceNormalization", &Importer::importInstanceNorm},
      {"LayerNormalization", &Importer::importLayerNorm},
      {"LpNormalization", &Importer::importLpNorm},
      {"Einsum", &Importer::importEinsum},
      {"RNN", &Importer::importRecurrent},
      {"GRU", &Importer::importRecurrent},
      {"LSTM", &Importer::importRecurrent},
      // decomposed into existing graph ops
      {"And", &Importer::importLogic},
      {"Or", &Importer::importLogic},
      {"Xor", &Importer::importLogic},
      {"Not", &Importer::importLogic},
      {"Sinh", &Importer::importHyperbolic},
      {"Cosh", &Importer::importHyperbolic},
      {"Asinh", &Importer::importHyperbolic},
      {"Acosh", &Importer::importHyperbolic},
      {"Atanh", &Importer::importHyperbolic},
      {"IsNaN", &Importer::importIsNaNInf},
      {"IsInf", &Importer::importIsNaNInf},
      {"Shrink", &Importer::importShrink},
      {"DepthToSpace", &Importer::importDepthSpace},
      {"SpaceToDepth", &Importer::importDepthSpace},
      {"LRN", &Importer::importLRN},
      {"MeanVarianceNormalization", &Importer::importMVN},
      {"GatherElements", &Importer::importGatherElements},
      {"NegativeLogLikelihoodLoss", &Importer::importLoss},
      {"SoftmaxCrossEntropyLoss", &Importer::importLoss},
      {"Resize", &Importer::importResize},
      {"Upsample", &Importer::importResize},
      {"Mod", &Importer::importMod},
      {"Trilu", &Importer::importTrilu},
      {"CumSum", &Importer::importCumSum},
      {"EyeLike", &Importer::importEyeLike},
      {"OneHot", &Importer::importOneHot},
      {"GatherND", &Importer::importGatherND},
      {"ScatterElements", &Importer::importScatter},
      {"Scatter", &Importer::importScatter},
      {"ScatterND", &Importer::importScatterND},
      {"Atan", &Importer::importInverseTrig},
      {"Asin", &Importer::importInverseTrig},
      {"Acos", &Importer::importInverseTrig},
      // control flow, resolved at compile time
      {"If", &Importer::importIf},
  };
  for (const auto &entry : table)
    if (n.op_type() == entry.first)
      return (this->*entry.second)(n);
  return fail("unsupported operator '" + n.op_type() + "' (" + nodeDesc(n) +
              ")");
}

//===----------------------------------------------------------------------===//
// Outputs and the whole run
//===----------------------------------------------------------------------===//

FailureOr<Value> Importer::outputValue(const onnx::ValueInfoProto &vi) {
  auto it = values.find(vi.name());
  if (it == values.end())
    return fail("graph output '" + vi.name() +
                "' is not produced by any node, input or initializer");
  Slot &s = it->second;
  auto v = materializeSlot(vi.name(), s, nullptr);
  if (failed(v))
    return failure();
  int got = onnxTypeOf(*v);
  if (got == onnx::TensorProto::UNDEFINED)
    return fail("graph output '" + vi.name() + "' has element type " +
                dataTypeName(s.cst ? s.cst->dtype : 0) +
                ", which the accelerator cannot return");
  if (!vi.has_type() || !vi.type().has_tensor_type())
    return v;
  const auto &tt = vi.type().tensor_type();
  int declared = tt.elem_type();
  bool int64Const = got == onnx::TensorProto::INT64 && s.cst &&
                    s.cst->dtype == onnx::TensorProto::INT32;
  if (declared != onnx::TensorProto::UNDEFINED && declared != got &&
      !(int64Const && declared == onnx::TensorProto::INT32))
    return fail("unsupported element type " + dataTypeName(declared) +
                " for graph output '" + vi.name() + "'" +
                (declared == onnx::TensorProto::FLOAT
                     ? " (computed " + dataTypeName(got) + ")"
                     : std::string(": the accelerator computes in f32")));
  if (!tt.has_shape())
    return v;
  ArrayRef<int64_t> gotShape = shapeOf(*v);
  const auto &dims = tt.shape().dim();
  bool ok = dims.size() == (int)gotShape.size();
  SmallVector<int64_t> declaredShape;
  for (int i = 0; i < dims.size(); ++i) {
    const auto &d = dims.Get(i);
    bool known = d.has_dim_value() && d.dim_value() >= 0;
    declaredShape.push_back(known ? d.dim_value() : -1);
    if (ok && known && d.dim_value() != gotShape[i])
      ok = false;
  }
  if (!ok)
    return fail("graph output '" + vi.name() + "': computed shape " +
                shapeStr(gotShape) + " does not match the declared shape " +
                shapeStr(declaredShape) + " (-1 = symbolic)");
  return v;
}

/// A node's output by tensor name (not a graph input or initializer: those
/// are not computed by the network).
FailureOr<Value> Importer::tensorValue(const std::string &name, StringRef why) {
  auto it = values.find(name);
  bool byNode = it != values.end() && !it->second.tensor &&
                !(it->second.value && isa<BlockArgument>(it->second.value));
  if (!byNode)
    return fail("tensor '" + name + "' (" + why.str() +
                ") is not the output of a node of the graph");
  onnx::ValueInfoProto vi;
  vi.set_name(name);
  return outputValue(vi);
}

LogicalResult Importer::exposeTensors(SmallVector<Value> &results,
                                      SmallVector<std::string> &names) {
  for (const std::string &t : opts.exposedTensors) {
    if (llvm::is_contained(names, t))
      continue;
    auto v = tensorValue(t, "exposed");
    if (failed(v))
      return failure();
    results.push_back(*v);
    names.push_back(t);
  }
  return success();
}

LogicalResult Importer::replaceTensors(Block &entry,
                                       SmallVector<Type> &argTypes,
                                       SmallVector<std::string> &argNames) {
  for (const auto &[t, arg] : opts.replacedTensors) {
    auto v = tensorValue(t, "replaced by '" + arg + "'");
    if (failed(v))
      return failure();
    if (!v->getDefiningOp() ||
        v->getDefiningOp()->hasTrait<OpTrait::ConstantLike>())
      return fail("tensor '" + t + "' (replaced by '" + arg +
                  "') is a constant at compile time");
    // Uses only: the results about to be returned keep the computed value.
    v->replaceAllUsesWith(entry.addArgument(v->getType(), v->getLoc()));
    argTypes.push_back(v->getType());
    argNames.push_back(arg);
  }
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
  graph = &g;
  if (g.output_size() == 0) {
    (void)fail("the graph has no outputs");
    return nullptr;
  }
  for (int i = 0; i < g.node_size(); ++i)
    nodeIndex[&g.node(i)] = i;
  if (failed(checkModel(model)))
    return nullptr;

  SmallVector<Type> argTypes;
  SmallVector<std::string> argNames;
  SmallVector<size_t> order;
  std::set<std::string> ownConstants;
  for (const auto &t : g.initializer())
    ownConstants.insert(t.name());
  for (const auto &in : g.input())
    ownConstants.insert(in.name());
  auto noOuterScope = [](const std::string &) { return false; };
  if (failed(collectInitializers(g)) ||
      failed(collectInputs(g, argTypes, argNames)) ||
      failed(sortNodes(g.node(), ownConstants, noOuterScope, order)) ||
      failed(runOnnxChecker(model, order)))
    return nullptr;

  Location fileLoc = FileLineColLoc::get(&ctx, sourceName, 0, 0);
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  builder.setInsertionPointToEnd(module->getBody());
  auto func = func::FuncOp::create(builder, fileLoc, "main",
                                   builder.getFunctionType(argTypes, {}));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  for (size_t i = 0; i < argNames.size(); ++i) {
    values[argNames[i]] = Slot{entry->getArgument(i), nullptr, nullptr, 0, {}};
    func.setArgAttr(i, accel::kAccelNameAttr,
                    builder.getStringAttr(argNames[i]));
  }

  if (failed(importNodes(g.node(), ownConstants)))
    return nullptr;

  SmallVector<Value> results;
  SmallVector<std::string> resultNames;
  for (const auto &out : g.output()) {
    auto v = outputValue(out);
    if (failed(v))
      return nullptr;
    results.push_back(*v);
    resultNames.push_back(out.name());
  }
  size_t graphArgs = argNames.size();
  if (failed(exposeTensors(results, resultNames)) ||
      failed(replaceTensors(*entry, argTypes, argNames)))
    return nullptr;
  func::ReturnOp::create(builder, fileLoc, results);
  func.setType(
      builder.getFunctionType(argTypes, ValueRange(results).getTypes()));
  for (size_t i = graphArgs; i < argNames.size(); ++i)
    func.setArgAttr(i, accel::kAccelNameAttr,
                    builder.getStringAttr(argNames[i]));
  for (auto [i, name] : llvm::enumerate(resultNames))
    func.setResultAttr(i, accel::kAccelNameAttr, builder.getStringAttr(name));

  // Graph ops whose results nothing uses (e.g. the unused outputs of a
  // node) are dropped; constants too.
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<Operation *> dead;
    for (Operation &op : *entry)
      if (op.use_empty() && op.getNumResults() && isPure(&op))
        dead.push_back(&op);
    for (Operation *op : llvm::reverse(dead)) {
      op->erase();
      changed = true;
    }
  }

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
    err = "'" + sourceName +
          "' is larger than 2 GiB, which protobuf cannot "
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
  accel::onnximport::Importer importer(ctx, opts, sourceName, baseDir);
  auto module = importer.run(model);
  if (!module)
    err = importer.err.empty() ? "import failed" : importer.err;
  return module;
}

/// The bytes of the model file `path` (memory-mapped), after checking that
/// it is a regular file protobuf can parse (at most 2 GiB - 1).
static std::unique_ptr<llvm::MemoryBuffer>
openModelFile(const std::string &path, std::string &err) {
  uint64_t size;
  if (!accel::checkRegularFile(path, "ONNX model", accel::kMaxProtobufFileBytes,
                               size, err))
    return nullptr;
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!buf) {
    err = "cannot open ONNX model '" + path + "': " + buf.getError().message();
    return nullptr;
  }
  return std::move(*buf);
}

OwningOpRef<ModuleOp> accel::importOnnxFile(const std::string &path,
                                            MLIRContext &ctx,
                                            const OnnxImportOptions &opts,
                                            std::string &err) {
  err.clear();
  auto buf = openModelFile(path, err);
  if (!buf)
    return nullptr;
  llvm::SmallString<256> dir(path);
  llvm::sys::path::remove_filename(dir);
  if (dir.empty())
    dir = ".";
  return importOnnxBytes(buf->getBufferStart(), buf->getBufferSize(), ctx, opts,
                         err, path, std::string(dir));
}

//===----------------------------------------------------------------------===//
// Graph inputs that must be bound to constants
//===----------------------------------------------------------------------===//

namespace {
/// Inputs of `op` that the importer needs as compile-time constants (shape,
/// axes, indices, targets, ...), for the given opset.
std::vector<int> constantPositions(const std::string &op, int64_t opset) {
  if (op == "Reshape" || op == "Expand" || op == "Tile" || op == "Squeeze" ||
      op == "Unsqueeze" || op == "Split" || op == "Gather" ||
      op == "GatherElements" || op == "NegativeLogLikelihoodLoss" ||
      op == "SoftmaxCrossEntropyLoss" || op == "Upsample" || op == "CumSum" ||
      op == "Trilu" || op == "TopK" || op == "OneHot" || op == "GatherND" ||
      op == "ScatterElements" || op == "Scatter" || op == "ScatterND")
    return {1};
  if (op.rfind("Reduce", 0) == 0)
    return {1};
  if (op == "Slice")
    return {1, 2, 3, 4};
  if (op == "Pad")
    return {1, 3};
  if (op == "ConstantOfShape")
    return {0};
  if (op == "Resize")
    return opset < 11 ? std::vector<int>{1} : std::vector<int>{1, 2, 3};
  if (op == "Dropout")
    return {2};
  if (op == "Range")
    return {0, 1, 2};
  if (op == "If") // the branch is chosen at compile time
    return {0};
  return {};
}
} // namespace

bool accel::onnxConstantInputs(const std::string &path,
                               std::vector<std::string> &names,
                               std::string &err) {
  names.clear();
  auto buf = openModelFile(path, err);
  if (!buf)
    return false;
  onnx::ModelProto model;
  if (!model.ParseFromArray(buf->getBufferStart(), (int)buf->getBufferSize())) {
    err = "failed to parse '" + path +
          "' as an ONNX model (malformed or truncated protobuf)";
    return false;
  }
  int64_t opset = 0;
  for (const auto &os : model.opset_import())
    if (os.domain().empty() || os.domain() == "ai.onnx")
      opset = os.version();
  const auto &g = model.graph();
  std::set<std::string> inits, inputs, wanted;
  for (const auto &t : g.initializer())
    inits.insert(t.name());
  for (const auto &in : g.input())
    if (!inits.count(in.name()))
      inputs.insert(in.name());
  // Values that only carry shapes / integers forward: a graph input reaching
  // a constant position through them must be constant too.
  std::map<std::string, std::vector<std::string>> producers;
  static const std::set<std::string> passThrough = {"Identity",
                                                    "Cast",
                                                    "Concat",
                                                    "Squeeze",
                                                    "Unsqueeze",
                                                    "Gather",
                                                    "Slice",
                                                    "Reshape",
                                                    "Add",
                                                    "Sub",
                                                    "Mul",
                                                    "Div",
                                                    "Neg",
                                                    "Abs",
                                                    "Equal",
                                                    "Less",
                                                    "Greater",
                                                    "LessOrEqual",
                                                    "GreaterOrEqual",
                                                    "Not",
                                                    "And",
                                                    "Or",
                                                    "Xor"};
  // The nodes of If branches (and other subgraphs) too: their positions
  // may reach outer values by name.
  std::vector<const onnx::NodeProto *> all;
  std::function<void(const onnx::GraphProto &)> collect =
      [&](const onnx::GraphProto &sub) {
        for (const auto &n : sub.node()) {
          all.push_back(&n);
          for (const auto &a : n.attribute()) {
            if (a.has_g())
              collect(a.g());
            for (const auto &gg : a.graphs())
              collect(gg);
          }
        }
      };
  collect(g);
  for (const onnx::NodeProto *n : all)
    if (passThrough.count(n->op_type()))
      for (const auto &o : n->output())
        producers[o].assign(n->input().begin(), n->input().end());
  std::function<void(const std::string &, int)> need = [&](const std::string &v,
                                                           int depth) {
    if (v.empty() || depth > 64)
      return;
    if (inputs.count(v)) {
      wanted.insert(v);
      return;
    }
    auto it = producers.find(v);
    if (it != producers.end())
      for (const auto &in : it->second)
        need(in, depth + 1);
  };
  for (const onnx::NodeProto *n : all) {
    if (!n->domain().empty() && n->domain() != "ai.onnx")
      continue;
    for (int i : constantPositions(n->op_type(), opset))
      if (i < n->input_size())
        need(n->input(i), 0);
  }
  for (const auto &in : g.input()) // keep the model's order
    if (wanted.count(in.name()))
      names.push_back(in.name());
  return true;
}
