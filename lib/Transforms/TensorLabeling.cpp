//===- TensorLabeling.cpp - Static labels and step S0 of dynamic labels ---===//
//
// Label generation of spec/labels-and-splits.md in one traversal per
// function: every ranked tensor (function arguments, op results, constants)
// gets its static label (category from in / out degree and operand role,
// type, dim letters of DESIGN-11, extents) and the processor part of its
// dynamic label (accel::split::processorLabel on the module's accel.hw).
// docs/labels-and-splits.md, "Passes".
//
//===----------------------------------------------------------------------===//
#include "Graph/GraphDialect.h"
#include "LabelUtils.h"
#include "accel/Split/Labels.h"
#include "accel/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"

namespace accel {
#define GEN_PASS_DEF_TENSORLABELING
#include "accel/Transforms/Passes.h.inc"
} // namespace accel

using namespace mlir;
using namespace accel;

namespace {
/// How one GEMM-shaped op uses one of its operands.
struct OperandUse {
  split::OperandRole role = split::OperandRole::Data;
  std::string order; ///< the dim letters this use gives the tensor
};

bool isMatrixMatmul(graph::MatMulOp op) {
  return cast<RankedTensorType>(op.getLhs().getType()).getRank() == 2 &&
         cast<RankedTensorType>(op.getRhs().getType()).getRank() == 2;
}

/// The role and dim letters of operand `idx` of a GEMM-shaped op (DESIGN:
/// matmul A "nc" [M,K], B "cn" [K,N]; gemm the same, transposed operands
/// stored the other way; conv input / weight "nchw", bias "c"); nullopt for
/// other ops.
std::optional<OperandUse> gemmOperandUse(Operation *op, unsigned idx) {
  using split::OperandRole;
  if (auto mm = dyn_cast<graph::MatMulOp>(op)) {
    if (!isMatrixMatmul(mm))
      return std::nullopt;
    return idx == 0 ? OperandUse{OperandRole::Data, "nc"}
                    : OperandUse{OperandRole::Weight, "cn"};
  }
  if (auto g = dyn_cast<graph::GemmOp>(op)) {
    if (idx == 0)
      return OperandUse{OperandRole::Data, g.getTransA() ? "cn" : "nc"};
    if (idx == 1)
      return OperandUse{OperandRole::Weight, g.getTransB() ? "nc" : "cn"};
    return OperandUse{OperandRole::Auxiliary, ""};
  }
  if (isa<graph::Conv2DOp>(op)) {
    if (idx == 0)
      return OperandUse{OperandRole::Data, "nchw"};
    if (idx == 1)
      return OperandUse{OperandRole::Weight, "nchw"};
    return OperandUse{OperandRole::Auxiliary, "c"};
  }
  return std::nullopt;
}

/// The dim letters a GEMM-shaped op gives its result ("" = by rank).
std::string gemmResultOrder(Operation *op) {
  if (auto mm = dyn_cast<graph::MatMulOp>(op))
    return isMatrixMatmul(mm) ? "nc" : "";
  if (isa<graph::GemmOp>(op))
    return "nc";
  return "";
}

/// Everything the static label needs to know about a value's graph context.
struct Context {
  unsigned inDegree = 0, outDegree = 0;
  bool isConstant = false;
  OperandUse use;         ///< of the first GEMM-shaped consumer
  bool weightUse = false; ///< that consumer reads it as its weight
  std::string order;      ///< "" = by rank
};

Context contextOf(Value v) {
  Context c;
  Operation *def = v.getDefiningOp();
  c.isConstant = def && def->hasTrait<OpTrait::ConstantLike>();
  // A constant is not a producer: its tensor enters the graph ready-made.
  c.inDegree = def && !c.isConstant ? 1 : 0;
  if (def)
    c.order = gemmResultOrder(def);
  llvm::SmallPtrSet<Operation *, 4> consumers;
  bool haveUse = false;
  for (OpOperand &u : v.getUses()) {
    Operation *user = u.getOwner();
    if (user->hasTrait<OpTrait::IsTerminator>())
      continue; // a graph output, not a consumer
    consumers.insert(user);
    if (haveUse)
      continue;
    if (std::optional<OperandUse> use =
            gemmOperandUse(user, u.getOperandNumber())) {
      c.use = *use;
      haveUse = true;
    }
  }
  c.outDegree = consumers.size();
  c.weightUse = haveUse && c.use.role == split::OperandRole::Weight;
  if (c.order.empty() && haveUse)
    c.order = c.use.order;
  return c;
}

std::optional<std::string> elementTypeName(Type t) {
  if (t.isF32())
    return std::string("float32");
  if (t.isF16())
    return std::string("float16");
  if (t.isBF16())
    return std::string("bfloat16");
  if (t.isInteger(1))
    return std::string("bool");
  if (t.isInteger(8) || t.isInteger(32) || t.isInteger(64))
    return "int" + std::to_string(t.getIntOrFloatBitWidth());
  return std::nullopt;
}

struct TensorLabelingPass
    : public accel::impl::TensorLabelingBase<TensorLabelingPass> {
  using TensorLabelingBase::TensorLabelingBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(moduleHardware(module, hw_)))
      return signalPassFailure();
    computeType_ = split::labelTypeName(hw_.computeType);
    for (auto fn : module.getOps<func::FuncOp>()) {
      if (fn.isExternal())
        continue;
      for (BlockArgument arg : fn.getArguments())
        label(arg);
      fn.walk([&](Operation *op) {
        for (Value r : op->getResults())
          label(r);
      });
    }
  }

private:
  /// Configured tile of the innermost processor dim: hw split.weight_tile
  /// for a weight, split.activation_tile otherwise (block size by default).
  int64_t configuredTile(bool weight) const {
    return int64_t(weight ? hw_.weightTile() : hw_.activationTile());
  }

  void label(Value v) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t || !t.hasStaticShape())
      return;
    std::optional<std::string> type = elementTypeName(t.getElementType());
    if (!type)
      return;
    Context c = contextOf(v);
    split::StaticLabel s;
    s.type = *type;
    if (c.order.size() == size_t(t.getRank())) {
      s.dimOrder = c.order;
    } else if (std::optional<std::string> o =
                   split::defaultDimOrder(unsigned(t.getRank()))) {
      s.dimOrder = *o;
    } else {
      return; // rank above 5: no dim letters (docs)
    }
    s.dims.assign(t.getShape().begin(), t.getShape().end());
    s.category = split::categoryFromDegree(c.inDegree, c.outDegree, c.use.role,
                                           c.isConstant);
    // FC / matmul weights are read as [out features, reduction] ("nc").
    std::string procOrder =
        c.weightUse && s.dimOrder.size() == 2 && c.use.order.size() == 2
            ? std::string("nc")
            : s.dimOrder;
    split::DynamicLabel d = split::processorLabel(s, computeType_, procOrder,
                                                  configuredTile(c.weightUse));
    MLIRContext *ctx = v.getContext();
    LabelAttr l =
        LabelAttr::get(ctx, staticLabelAttr(ctx, s), dynamicLabelAttr(ctx, d));
    if (!labels::setLabel(v, l))
      return;
    if (print)
      labels::remarkLabel(v, l);
  }

  HardwareDesc hw_;
  std::string computeType_;
};
} // namespace
