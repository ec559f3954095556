//===- ImporterImpl.h - ONNX importer internals -----------------*- C++ -*-===//
//
// Private to lib/Import. The importer is one class whose operator methods
// are spread over several files:
//
//   OnnxImporter.cpp   tensors, graph structure, inputs/outputs, dispatch
//   ImportFold.cpp     compile-time constants and constant folding
//   ImportElementwise.cpp  elementwise ops, activations, softmax family
//   ImportTensor.cpp   layout and shape ops (reshape, slice, gather, ...)
//   ImportNN.cpp       matmul/gemm/conv/pooling/normalisation/reductions,
//                      einsum, recurrent layers
//   ImportControl.cpp  If: the branch its compile-time condition takes,
//                      inlined
//
// A graph value (Slot) is either an SSA value of the graph dialect (f32, i1
// or i64 tensor), or a compile-time constant (initializer, Constant node,
// bound input, or the result of folding), materialised as arith.constant
// only when a runtime op uses it.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_IMPORT_IMPORTERIMPL_H
#define ACCEL_LIB_IMPORT_IMPORTERIMPL_H

#include "accel/Import/OnnxImporter.h"

#include "Graph/GraphDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <onnx/onnx_pb.h>

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace accel::onnximport {

using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::StringRef;
using mlir::FailureOr;
using mlir::LogicalResult;
using mlir::Value;
using Node = onnx::NodeProto;

/// A failure convertible to any FailureOr<T> (for `failed(a) ? Fail() : f()`
/// chains that stop at the first error).
struct Fail {
  template <typename T> operator FailureOr<T>() const {
    return mlir::failure();
  }
  operator LogicalResult() const { return mlir::failure(); }
};

std::string shapeStr(ArrayRef<int64_t> s);
std::string dataTypeName(int t);
/// Element count of a static shape; nullopt on a negative dim or overflow.
std::optional<int64_t> numElements(ArrayRef<int64_t> dims);
bool isFloatType(int onnxType);   // FLOAT, DOUBLE, FLOAT16, BFLOAT16
bool isIntegerType(int onnxType); // signed / unsigned integers
/// Row-major strides of `shape`.
SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape);
/// Adds to `out` the outer-scope names the subgraphs of `n` (If branches,
/// Loop / Scan bodies, recursively) use: names none of them defines.
void subgraphCaptures(const onnx::NodeProto &n, std::set<std::string> &out);

/// A tensor known at compile time. Floating-point data is kept in `f`
/// (double), integer and boolean data in `i`; `dtype` is the ONNX type.
struct ConstTensor {
  int dtype = onnx::TensorProto::FLOAT;
  SmallVector<int64_t> shape;
  std::vector<double> f;
  std::vector<int64_t> i;
  bool isFloat() const { return isFloatType(dtype); }
  int64_t size() const {
    return isFloat() ? (int64_t)f.size() : (int64_t)i.size();
  }
  double getF(int64_t k) const { return isFloat() ? f[k] : (double)i[k]; }
  int64_t getI(int64_t k) const { return isFloat() ? (int64_t)f[k] : i[k]; }
};
using ConstPtr = std::shared_ptr<const ConstTensor>;

struct Slot {
  Value value;                               // runtime value, or materialised
  const onnx::TensorProto *tensor = nullptr; // initializer (decoded lazily)
  ConstPtr cst;                              // decoded / folded constant
  /// A graph input whose type the accelerator cannot hold: usable only
  /// through its shape (Shape / Size), any other use is an error.
  int badType = 0;
  SmallVector<int64_t> badShape;
  /// An f32 initializer nobody decoded yet: the importer materialises it
  /// straight from its stored bytes (Importer::rawFloatAttr).
  bool undecodedF32() const {
    return tensor && !cst && tensor->data_type() == onnx::TensorProto::FLOAT;
  }
};

class Importer {
public:
  Importer(mlir::MLIRContext &ctx, const OnnxImportOptions &opts,
           std::string sourceName, std::string baseDir)
      : ctx(ctx), opts(opts), sourceName(std::move(sourceName)),
        baseDir(std::move(baseDir)), builder(&ctx) {}

  mlir::OwningOpRef<mlir::ModuleOp> run(const onnx::ModelProto &model);

  std::string err;

  // --- errors / naming
  // --------------------------------------------------------
  LogicalResult fail(const std::string &msg) {
    if (err.empty())
      err = msg;
    return mlir::failure();
  }
  std::string nodeDesc(const Node &n) const;
  /// The node's name as locations and messages show it: the ONNX name, or
  /// "<OpType>_<index>" for an unnamed node, after `scopePrefix` (the
  /// enclosing If nodes of an inlined branch, "outer_if/inner_if/").
  std::string nodeName(const Node &n) const;
  /// "<OpType> node 'name'" prefix for messages about a node.
  std::string what(const Node &n) const {
    return n.op_type() + " " + nodeDesc(n);
  }
  LogicalResult failNode(const Node &n, const std::string &msg) {
    return fail(what(n) + ": " + msg);
  }
  mlir::Location nodeLoc(const Node &n);
  mlir::Location loc() { return curLoc; }

  // --- values
  // -----------------------------------------------------------------
  static bool hasInput(const Node &n, int i) {
    return i < n.input_size() && !n.input(i).empty();
  }
  Slot *slot(const Node &n, int i);
  /// Compile-time value of input i, or null (no error) when it is not
  /// constant. Fails on undecodable data.
  FailureOr<ConstPtr> constant(const Node &n, int i);
  FailureOr<ConstPtr> constantOf(const std::string &name, Slot &s);
  /// Input i as a runtime f32 tensor (materialising an f32 constant; an
  /// integer constant is converted when `convertInts`).
  FailureOr<Value> operandF32(const Node &n, int i, bool convertInts = false);
  /// Input i as a runtime tensor of any element type the graph holds
  /// (f32, i1, i64).
  FailureOr<Value> operandAny(const Node &n, int i);
  /// Shape and ONNX element type of input i (runtime or constant).
  FailureOr<SmallVector<int64_t>> inputShape(const Node &n, int i);
  FailureOr<int> inputType(const Node &n, int i);
  /// Integer contents of constant input i (error naming it otherwise).
  FailureOr<SmallVector<int64_t>> constInts(const Node &n, int i);
  FailureOr<SmallVector<double>> constFloats(const Node &n, int i);
  Value materialize(const ConstTensor &c, const std::string &name);
  Value materialize(mlir::DenseElementsAttr value, const std::string &name);
  FailureOr<mlir::DenseElementsAttr> rawFloatAttr(const onnx::TensorProto &t,
                                                  const std::string &what);
  FailureOr<Value> materializeSlot(const std::string &name, Slot &s,
                                   const Node *user);
  mlir::DenseElementsAttr toAttr(const ConstTensor &c);

  LogicalResult define(const Node &n, int out, Value v);
  LogicalResult defineConst(const Node &n, int out, ConstTensor c);
  /// Defines output 0 of `n` as its input 0 with shape `shape` (a constant
  /// stays a constant; same element count, checked by the caller).
  LogicalResult defineReshaped(const Node &n, ArrayRef<int64_t> shape);
  LogicalResult checkArity(const Node &n, int minIn, int maxIn, int maxOut = 1);

  // --- tensor decoding
  // --------------------------------------------------------
  FailureOr<mlir::DenseElementsAttr> tensorToAttr(const onnx::TensorProto &t,
                                                  const std::string &what);
  FailureOr<ConstPtr> decodeTensor(const onnx::TensorProto &t,
                                   const std::string &what);
  LogicalResult tensorDims(const onnx::TensorProto &t, const std::string &what,
                           SmallVector<int64_t> &dims);
  LogicalResult tensorBytes(const onnx::TensorProto &t, const std::string &what,
                            std::string &storage, StringRef &bytes);

  // --- attributes
  // -------------------------------------------------------------
  const onnx::AttributeProto *attr(const Node &n, StringRef name) {
    for (const auto &a : n.attribute())
      if (a.name() == name)
        return &a;
    return nullptr;
  }
  LogicalResult attrType(const Node &n, const onnx::AttributeProto *a,
                         onnx::AttributeProto::AttributeType t);
  FailureOr<int64_t> intAttr(const Node &n, StringRef name, int64_t dflt);
  FailureOr<float> floatAttr(const Node &n, StringRef name, float dflt);
  FailureOr<std::string> stringAttr(const Node &n, StringRef name,
                                    StringRef dflt);
  FailureOr<SmallVector<int64_t>> intsAttr(const Node &n, StringRef name,
                                           ArrayRef<int64_t> dflt,
                                           bool *present = nullptr);
  FailureOr<SmallVector<float>> floatsAttr(const Node &n, StringRef name,
                                           ArrayRef<float> dflt,
                                           bool *present = nullptr);
  FailureOr<SmallVector<std::string>> stringsAttr(const Node &n, StringRef name,
                                                  bool *present = nullptr);

  // --- building helpers (insert at the current node's location)
  // ---------------
  mlir::RankedTensorType f32Tensor(ArrayRef<int64_t> shape) {
    return mlir::RankedTensorType::get(shape, builder.getF32Type());
  }
  mlir::RankedTensorType tensorLike(ArrayRef<int64_t> shape, Value v) {
    return mlir::RankedTensorType::get(
        shape,
        mlir::cast<mlir::RankedTensorType>(v.getType()).getElementType());
  }
  static ArrayRef<int64_t> shapeOf(Value v) {
    return mlir::cast<mlir::RankedTensorType>(v.getType()).getShape();
  }
  static mlir::Type elemOf(Value v) {
    return mlir::cast<mlir::RankedTensorType>(v.getType()).getElementType();
  }
  Value reshape(Value v, ArrayRef<int64_t> shape);
  std::optional<Value> resizeAsRepeat(Value x, ArrayRef<int64_t> in,
                                      ArrayRef<int64_t> out,
                                      ArrayRef<SmallVector<double>> matrices);
  Value transpose(Value v, ArrayRef<int64_t> perm);
  Value unary(graph::UnaryFn fn, Value v, float alpha = 0, float beta = 0);
  FailureOr<Value> binary(const Node &n, graph::BinaryFn fn, Value a, Value b);
  FailureOr<Value> add(const Node &n, Value a, Value b);
  Value reduce(graph::ReduceFn fn, Value v, ArrayRef<int64_t> axes,
               bool keepdims);
  Value slice(Value v, ArrayRef<int64_t> offsets, ArrayRef<int64_t> strides,
              ArrayRef<int64_t> sizes);
  Value shiftAlong(Value v, ArrayRef<int64_t> shape, int64_t axis, int64_t by,
                   bool back);
  /// The slices of `x` at `indices` (in range, at least one) along `axis`,
  /// concatenated: runs of an arithmetic progression are one strided slice.
  Value gatherAlong(Value x, int64_t axis, ArrayRef<int64_t> indices);
  Value splatF32(ArrayRef<int64_t> shape, float value);
  Value constF32(ArrayRef<int64_t> shape, ArrayRef<float> data);

  // --- operators (each file registers its own) -------------------------------
  using OpFn = LogicalResult (Importer::*)(const Node &);
  LogicalResult importNode(const Node &n);
  /// Constant folding: returns true when the node was folded (or failed).
  FailureOr<bool> tryFold(const Node &n);

  // ImportElementwise.cpp
  LogicalResult importBinary(const Node &n);
  LogicalResult importVariadic(const Node &n);
  LogicalResult importUnary(const Node &n);
  LogicalResult importRelu(const Node &n);
  LogicalResult importPRelu(const Node &n);
  LogicalResult importClip(const Node &n);
  LogicalResult importWhere(const Node &n);
  LogicalResult importSoftmax(const Node &n);
  LogicalResult importHardmax(const Node &n);
  LogicalResult importCast(const Node &n);
  // ImportTensor.cpp
  LogicalResult importIdentity(const Node &n);
  LogicalResult importDropout(const Node &n);
  LogicalResult importConstant(const Node &n);
  LogicalResult importConstantOfShape(const Node &n);
  LogicalResult importReshape(const Node &n);
  LogicalResult importFlatten(const Node &n);
  LogicalResult importSqueeze(const Node &n);
  LogicalResult importUnsqueeze(const Node &n);
  LogicalResult importTranspose(const Node &n);
  LogicalResult importConcat(const Node &n);
  LogicalResult importSplit(const Node &n);
  LogicalResult importSlice(const Node &n);
  LogicalResult importGather(const Node &n);
  LogicalResult importPad(const Node &n);
  LogicalResult importExpand(const Node &n);
  LogicalResult importTile(const Node &n);
  LogicalResult importShape(const Node &n);
  LogicalResult importSize(const Node &n);
  // ImportNN.cpp
  LogicalResult importMatMul(const Node &n);
  LogicalResult importGemm(const Node &n);
  LogicalResult importConv(const Node &n);
  LogicalResult importConvTranspose(const Node &n);
  LogicalResult importPool(const Node &n);
  LogicalResult importGlobalPool(const Node &n);
  LogicalResult importReduce(const Node &n);
  LogicalResult importArgMinMax(const Node &n);
  LogicalResult importBatchNorm(const Node &n);
  LogicalResult importInstanceNorm(const Node &n);
  LogicalResult importLayerNorm(const Node &n);
  LogicalResult importLpNorm(const Node &n);
  LogicalResult importEinsum(const Node &n);
  LogicalResult importRecurrent(const Node &n);
  // ImportExtra.cpp
  LogicalResult importLogic(const Node &n);
  LogicalResult importHyperbolic(const Node &n);
  LogicalResult importIsNaNInf(const Node &n);
  LogicalResult importShrink(const Node &n);
  LogicalResult importDepthSpace(const Node &n);
  LogicalResult importLRN(const Node &n);
  LogicalResult importMVN(const Node &n);
  LogicalResult importGatherElements(const Node &n);
  LogicalResult importLoss(const Node &n);
  LogicalResult importResize(const Node &n);
  LogicalResult importMod(const Node &n);
  LogicalResult importTrilu(const Node &n);
  LogicalResult importCumSum(const Node &n);
  LogicalResult importEyeLike(const Node &n);
  LogicalResult importOneHot(const Node &n);
  LogicalResult importGatherND(const Node &n);
  LogicalResult importScatter(const Node &n);
  LogicalResult importScatterND(const Node &n);
  LogicalResult importInverseTrig(const Node &n);
  // ImportControl.cpp
  LogicalResult importIf(const Node &n);
  /// Imports branch `g` (`label`: then_branch / else_branch) of If node
  /// `ifNode` inline and returns the slots of its outputs.
  FailureOr<SmallVector<Slot>> importBranch(const Node &ifNode,
                                            const onnx::GraphProto &g,
                                            const std::string &label);

  // --- shared shape logic
  // -----------------------------------------------------
  /// Normalises a possibly negative axis against `rank` (error names node).
  FailureOr<int64_t> normAxis(const Node &n, int64_t axis, int64_t rank,
                              bool allowRank = false);
  /// Resolves auto_pad for conv/pool: `pads` [begins..., ends...].
  LogicalResult resolveAutoPad(const Node &n, StringRef mode, bool hasPads,
                               ArrayRef<int64_t> in, ArrayRef<int64_t> kernel,
                               ArrayRef<int64_t> strides,
                               ArrayRef<int64_t> dilations,
                               SmallVector<int64_t> &pads);

  // --- state
  // ------------------------------------------------------------------
  mlir::MLIRContext &ctx;
  const OnnxImportOptions &opts;
  std::string sourceName, baseDir;
  mlir::OpBuilder builder;
  mlir::Location curLoc = mlir::UnknownLoc::get(&ctx);
  int64_t opsetVersion = 0;
  std::unordered_map<std::string, Slot> values;
  std::set<std::string> initializerNames;
  std::deque<onnx::TensorProto> ownedTensors; // bound inputs
  const onnx::GraphProto *graph = nullptr;
  size_t curIndex = 0;
  std::unordered_map<const Node *, size_t> nodeIndex;
  /// "a/b/" inside the branch of If node b nested in the branch of If
  /// node a; empty in the main graph.
  std::string scopePrefix;

  /// Imports `nodes` (the main graph's or an inlined branch's) in a
  /// topological order; values they use that no node of the list produces
  /// must already be in `values`.
  LogicalResult
  importNodes(const google::protobuf::RepeatedPtrField<Node> &nodes,
              const std::set<std::string> &ownConstants);
  /// Graph inputs (runtime or of an unsupported type) the condition of If
  /// node `n` depends on, found by walking `nodes` back from it; Shape and
  /// Size stop the walk (they fold for any input).
  std::vector<std::string>
  conditionInputs(const Node &n,
                  const google::protobuf::RepeatedPtrField<Node> &nodes);

private:
  // ImportCheck.cpp: invalid ONNX is refused before any node is imported.
  /// Versions, attribute names and external-data locations (run first).
  LogicalResult checkModel(const onnx::ModelProto &model);
  LogicalResult checkVersions(const onnx::ModelProto &model);
  LogicalResult checkAttributeNames(const onnx::GraphProto &g);
  LogicalResult checkExternalData(const onnx::GraphProto &g);
  /// The ONNX library's checker, on the graph in the topological `order`
  /// sortNodes found (the importer accepts unsorted graphs).
  LogicalResult runOnnxChecker(const onnx::ModelProto &model,
                               ArrayRef<size_t> order);

  LogicalResult collectInitializers(const onnx::GraphProto &g);
  LogicalResult collectInputs(const onnx::GraphProto &g,
                              SmallVector<mlir::Type> &argTypes,
                              SmallVector<std::string> &argNames);
  /// Kahn's algorithm over `nodes`: `ownConstants` are the names the
  /// graph itself defines outside its nodes (inputs, initializers), which no
  /// node may redefine; any other name a node uses must be produced by a
  /// node of the list or be visible from outside (`isOuter`).
  LogicalResult
  sortNodes(const google::protobuf::RepeatedPtrField<Node> &nodes,
            const std::set<std::string> &ownConstants,
            const std::function<bool(const std::string &)> &isOuter,
            SmallVector<size_t> &order);
  FailureOr<Value> outputValue(const onnx::ValueInfoProto &vi);
  /// OnnxImportOptions::exposedTensors and replacedTensors (accel-compile
  /// --networks interactions), applied once every node is imported.
  FailureOr<Value> tensorValue(const std::string &name, StringRef why);
  LogicalResult exposeTensors(SmallVector<Value> &results,
                              SmallVector<std::string> &names);
  LogicalResult replaceTensors(mlir::Block &entry,
                               SmallVector<mlir::Type> &argTypes,
                               SmallVector<std::string> &argNames);
};

/// graph.where(c, x, y) with the result shape the three operands broadcast
/// to; an error naming `n` when they do not.
FailureOr<Value> where(Importer &im, const Node &n, Value c, Value x, Value y);

} // namespace accel::onnximport

#endif
