//===- MultiNetOps.cpp - Verifiers of the multinet ops
//---------------------===//
//
// Each op checks what it can see alone; the plan re-checks a complete
// placement and the power-off sets with the scheduling library's own rules
// (lib/MultiNet Verify.cpp, Power.cpp), so IR written by hand or by a pass
// obeys the spec the same way.
//
//===----------------------------------------------------------------------===//
#include "MultiNet/MultiNetDialect.h"
#include "MultiNet/PlanIR.h"

using namespace mlir;
using namespace accel::multinet;

/// `pinned` names exactly `units` EUs when both are given.
template <typename OpT> static LogicalResult verifyPinned(OpT op) {
  UnitsAttr pinned = op.getPinnedAttr();
  if (pinned && op.getUnits() &&
      int64_t(pinned.getCoords().size()) != int64_t(*op.getUnits()))
    return op.emitOpError("pins ") << pinned.getCoords().size()
                                   << " EUs but runs on " << *op.getUnits();
  return success();
}

LogicalResult ProcessOp::verify() {
  if (failed(verifyPinned(*this)))
    return failure();
  UnitsAttr targets = getTargetsAttr(), pinned = getPinnedAttr();
  if (targets && pinned)
    for (const Coord &c : pinned.getCoords())
      if (!llvm::is_contained(targets.getCoords(), c))
        return emitOpError("is pinned to ")
               << str(c) << ", outside its target set";
  return success();
}

LogicalResult ProcessOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto plan = (*this)->getParentOfType<PlanOp>();
  if (!symbolTable.lookupSymbolIn<NetworkOp>(plan, getNetworkAttr()))
    return emitOpError("names network ")
           << getNetworkAttr() << ", which the plan does not declare";
  return success();
}

LogicalResult InteractionOp::verify() {
  if (getInputs().size() < 2)
    return emitOpError("combines results of two or more processes, got ")
           << getInputs().size();
  return verifyPinned(*this);
}

/// Each power-off set alone against the full set of its time unit, so the
/// error lands on the op that switches off an EU still needed.
static LogicalResult verifyPowerOff(PlanOp plan, const PlanIR &ir,
                                    const Schedule &s) {
  for (auto off : plan.getBody().front().getOps<PowerOffOp>()) {
    if (int64_t(off.getTime()) > s.timeUnits())
      return off.emitOpError("switches EUs off in time unit ")
             << off.getTime() << "; the schedule has " << s.timeUnits();
    std::vector<std::vector<Coord>> sets(size_t(s.timeUnits()));
    sets[size_t(off.getTime()) - 1] = coordsOf(off.getUnits());
    OffSets ignored;
    std::string err;
    if (!checkOffSets(ir.plan, s, sets, ignored, err))
      return off.emitOpError(err);
  }
  return success();
}

LogicalResult PlanOp::verifyRegions() {
  PlanIR ir = readPlan(*this);
  FailureOr<std::optional<Schedule>> s = readSchedule(ir);
  if (failed(s))
    return failure();
  if (!*s) // not (completely) placed yet: nothing more to check
    return success();
  std::string err;
  if (!accel::multinet::verify(ir.plan, **s, err))
    return opNamedIn(*this, ir, err)->emitOpError(err);
  return verifyPowerOff(*this, ir, **s);
}
