//===- InteractionModule.cpp - The program of one interaction -------------===//
//
// An interaction of accel-compile --networks is compiled like a tiny
// network of its own: a graph-dialect function over the tensors it
// combines (docs/multi-network.md "Interactions").
//
//===----------------------------------------------------------------------===//
#include "InteractionModule.h"
#include "Graph/GraphDialect.h"
#include "accel/Import/OnnxImporter.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

namespace accel {

namespace {

std::string shapeStr(llvm::ArrayRef<int64_t> s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i)
    out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

/// An ONNX combine: its arguments must be the inputs' shapes, in order.
OwningOpRef<ModuleOp>
onnxCombine(MLIRContext &ctx, const multinet::InteractionEntry &x,
            const std::vector<std::vector<int64_t>> &shapes, std::string &err) {
  OwningOpRef<ModuleOp> m = importOnnxFile(x.model, ctx, {}, err);
  if (!m)
    return nullptr;
  auto main = m->lookupSymbol<func::FuncOp>("main");
  if (main.getNumArguments() != shapes.size()) {
    err = x.model + " has " + std::to_string(main.getNumArguments()) +
          " inputs; the interaction combines " + std::to_string(shapes.size());
    return nullptr;
  }
  for (size_t i = 0; i < shapes.size(); ++i) {
    auto t = cast<RankedTensorType>(main.getArgumentTypes()[i]);
    if (t.getShape() != llvm::ArrayRef<int64_t>(shapes[i])) {
      err = "input " + std::to_string(i) + " of " + x.model + " has shape " +
            shapeStr(t.getShape()) + "; " + x.inputs[i].str() + " has " +
            shapeStr(shapes[i]);
      return nullptr;
    }
  }
  for (unsigned i = 0; i < main.getNumArguments(); ++i)
    main.setArgAttr(i, kAccelNameAttr,
                    StringAttr::get(&ctx, "in" + std::to_string(i)));
  if (main.getNumResults() != 1) {
    err = x.model + " must have one output";
    return nullptr;
  }
  main.setResultAttr(0, kAccelNameAttr, StringAttr::get(&ctx, "result"));
  return m;
}

/// Why the inputs cannot be concatenated along `axis` ("" if they can).
std::string concatProblem(const std::vector<std::vector<int64_t>> &shapes,
                          int64_t axis) {
  size_t rank = shapes.front().size();
  if (axis < -int64_t(rank) || axis >= int64_t(rank))
    return "axis " + std::to_string(axis) + " is outside rank " +
           std::to_string(rank);
  size_t a = size_t(axis < 0 ? axis + int64_t(rank) : axis);
  for (const auto &s : shapes) {
    if (s.size() != rank)
      return "the ranks differ";
    for (size_t d = 0; d < rank; ++d)
      if (d != a && s[d] != shapes.front()[d])
        return "dimension " + std::to_string(d) + " differs";
  }
  return "";
}

/// Why sum / product / concat cannot combine the shapes ("" if it can):
/// checked first, as the ops' builders infer their result types.
std::string combineProblem(const multinet::InteractionEntry &x,
                           const std::vector<std::vector<int64_t>> &shapes) {
  if (x.combine == "concat")
    return concatProblem(shapes, x.axis);
  std::vector<int64_t> acc = shapes.front();
  for (size_t i = 1; i < shapes.size(); ++i) {
    std::string why;
    auto out = graph::broadcastShapes(acc, shapes[i], why);
    if (!out)
      return why;
    acc.assign(out->begin(), out->end());
  }
  return "";
}

/// sum / product / concat of the arguments, left to right.
Value combine(OpBuilder &b, Location loc, const multinet::InteractionEntry &x,
              ValueRange args) {
  if (x.combine == "concat") {
    // The plan counts a negative axis from the end (concatProblem checked
    // it); graph.concat takes the dimension's index.
    int64_t rank = cast<RankedTensorType>(args.front().getType()).getRank();
    int64_t axis = x.axis < 0 ? x.axis + rank : x.axis;
    return graph::ConcatOp::create(b, loc, args, b.getI64IntegerAttr(axis));
  }
  Value acc = args.front();
  for (Value v : args.drop_front()) {
    if (x.combine == "sum")
      acc = graph::AddOp::create(b, loc, acc, v);
    else
      acc = graph::BinaryOp::create(b, loc, graph::BinaryFn::mul, acc, v);
  }
  return acc;
}

} // namespace

OwningOpRef<ModuleOp>
interactionModule(MLIRContext &ctx, const multinet::InteractionEntry &x,
                  const std::vector<std::vector<int64_t>> &shapes,
                  std::string &err) {
  ctx.loadDialect<func::FuncDialect, graph::GraphDialect>();
  if (x.combine == "onnx")
    return onnxCombine(ctx, x, shapes, err);
  if (std::string why = combineProblem(x, shapes); !why.empty()) {
    err = "cannot " + x.combine + " " + x.inputs.front().str() + " " +
          shapeStr(shapes.front());
    for (size_t i = 1; i < shapes.size(); ++i)
      err += " and " + x.inputs[i].str() + " " + shapeStr(shapes[i]);
    err += ": " + why;
    return nullptr;
  }
  Location loc =
      NameLoc::get(StringAttr::get(&ctx, x.name), UnknownLoc::get(&ctx));
  OpBuilder b(&ctx);
  OwningOpRef<ModuleOp> m = ModuleOp::create(loc);
  b.setInsertionPointToEnd(m->getBody());
  SmallVector<Type> types;
  for (const auto &s : shapes)
    types.push_back(RankedTensorType::get(s, b.getF32Type()));
  auto main =
      func::FuncOp::create(b, loc, "main", b.getFunctionType(types, {}));
  Block *entry = main.addEntryBlock();
  b.setInsertionPointToEnd(entry);
  Value r = combine(b, loc, x, entry->getArguments());
  func::ReturnOp::create(b, loc, r);
  main.setType(b.getFunctionType(types, r.getType()));
  for (unsigned i = 0; i < types.size(); ++i)
    main.setArgAttr(i, kAccelNameAttr,
                    b.getStringAttr("in" + std::to_string(i)));
  main.setResultAttr(0, kAccelNameAttr, b.getStringAttr("result"));
  return m;
}

} // namespace accel
