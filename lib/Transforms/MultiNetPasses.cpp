//===- MultiNetPasses.cpp - Scheduling, power gating, timing of plans -----===//
//
// multinet-schedule, multinet-power-gating and multinet-time: each reads a
// multinet.plan into lib/MultiNet's Plan (PlanIR), runs the library and
// writes the decision back as typed attributes and ops, so lit tests see
// exactly what the library decided (docs/multi-network.md).
//
//===----------------------------------------------------------------------===//
#include "MultiNet/PlanIR.h"
#include "accel/Transforms/Passes.h"
#include "mlir/IR/Builders.h"

namespace accel {
#define GEN_PASS_DEF_MULTINETSCHEDULE
#define GEN_PASS_DEF_MULTINETPOWERGATING
#define GEN_PASS_DEF_MULTINETTIME
#include "accel/Transforms/Passes.h.inc"
} // namespace accel

using namespace mlir;
using namespace accel;
using namespace accel::multinet;

namespace {

/// The plan's placed schedule; an error on the plan when it is not placed.
FailureOr<Schedule> placedSchedule(PlanOp plan, const PlanIR &ir,
                                   StringRef pass) {
  FailureOr<std::optional<Schedule>> s = readSchedule(ir);
  if (failed(s))
    return failure();
  if (!*s)
    return plan.emitOpError("is not placed: run multinet-schedule before ")
           << pass;
  return std::move(**s);
}

void eraseOps(PlanOp plan, function_ref<bool(Operation &)> which) {
  for (Operation &o : llvm::make_early_inc_range(plan.getBody().front()))
    if (which(o))
      o.erase();
}

/// Placements and transfers of `s` written into the plan.
void writeSchedule(PlanOp plan, const PlanIR &ir, const Schedule &s) {
  MLIRContext *ctx = plan.getContext();
  const Grid &grid = ir.plan.grid;
  for (auto [p, op] : llvm::enumerate(ir.ops)) {
    SmallVector<Coord> coords;
    for (int64_t u : s.units[p])
      coords.push_back(grid.coord(u));
    op->setAttr("placement", PlacementAttr::get(ctx, s.time[p] + 1, coords));
  }
  for (size_t p : s.repaired)
    cast<InteractionOp>(ir.ops[p]).setRepaired(true);
  eraseOps(plan, [](Operation &o) { return isa<TransferOp>(o); });
  OpBuilder b = OpBuilder::atBlockEnd(&plan.getBody().front());
  for (const Transfer &t : s.transfers) {
    Operation *producer = ir.ops[t.producer];
    TransferOp::create(b, producer->getLoc(), producer->getResult(0),
                       unitsAttr(ctx, grid, {t.from}),
                       unitsAttr(ctx, grid, t.to), t.time + 1, t.bytes, t.hops);
  }
}

struct MultiNetSchedulePass
    : accel::impl::MultiNetScheduleBase<MultiNetSchedulePass> {
  using Base::Base;
  void runOnOperation() override {
    ScheduleOptions opts;
    opts.repairEmptyInteraction = repairEmptyInteraction;
    auto result = getOperation().walk([&](PlanOp plan) {
      PlanIR ir = readPlan(plan);
      Schedule s;
      std::string err;
      if (!schedule(ir.plan, opts, s, err)) {
        opNamedIn(plan, ir, err)->emitError(err);
        return WalkResult::interrupt();
      }
      writeSchedule(plan, ir, s);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

struct MultiNetPowerGatingPass
    : accel::impl::MultiNetPowerGatingBase<MultiNetPowerGatingPass> {
  using Base::Base;
  void runOnOperation() override {
    auto result = getOperation().walk([&](PlanOp plan) {
      return succeeded(gate(plan)) ? WalkResult::advance()
                                   : WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

  LogicalResult gate(PlanOp plan) {
    PlanIR ir = readPlan(plan);
    FailureOr<Schedule> s = placedSchedule(plan, ir, getArgument());
    if (failed(s))
      return failure();
    if (sets == PowerOffSets::Given) {
      OffSets checked;
      std::string err;
      if (!checkOffSets(ir.plan, *s, readPowerOff(plan, s->timeUnits()),
                        checked, err))
        return plan.emitOpError(err);
      return success();
    }
    eraseOps(plan, [](Operation &o) { return isa<PowerOffOp>(o); });
    OpBuilder b = OpBuilder::atBlockEnd(&plan.getBody().front());
    for (auto [t, units] : llvm::enumerate(offSets(ir.plan, *s)))
      if (!units.empty())
        PowerOffOp::create(b, plan.getLoc(), int64_t(t) + 1,
                           unitsAttr(plan.getContext(), ir.plan.grid, units));
    return success();
  }
};

/// Costs of the module's machine (accel.hw), else of the default one.
FailureOr<CostModel> costModelFor(ModuleOp module) {
  HardwareDesc hw;
  if (failed(moduleHardware(module, hw)))
    return failure();
  CostModel c;
  c.hopLatency = hw.hopLatency;
  c.linkBytesPerCycle = hw.linkBytesPerCycle;
  c.wakeLatency = hw.wakeLatencyCycles;
  c.staticPjPerCycle = hw.staticPjPerClusterCycle;
  c.pjPerMac = hw.pjPerMac;
  c.pjPerByteHop = hw.pjPerByteHop;
  return c;
}

struct MultiNetTimePass : accel::impl::MultiNetTimeBase<MultiNetTimePass> {
  using Base::Base;
  void runOnOperation() override {
    FailureOr<CostModel> cost = costModelFor(getOperation());
    if (failed(cost))
      return signalPassFailure();
    auto result = getOperation().walk([&](PlanOp plan) {
      return succeeded(time(plan, *cost)) ? WalkResult::advance()
                                          : WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

  LogicalResult time(PlanOp plan, const CostModel &cost) {
    PlanIR ir = readPlan(plan);
    FailureOr<Schedule> s = placedSchedule(plan, ir, getArgument());
    if (failed(s))
      return failure();
    bool gated = !plan.getBody().front().getOps<PowerOffOp>().empty();
    OffSets off;
    if (gated) {
      std::string err;
      if (!checkOffSets(ir.plan, *s, readPowerOff(plan, s->timeUnits()), off,
                        err))
        return plan.emitOpError(err);
    }
    const OffSets *offPtr = gated ? &off : nullptr;
    Timing t = timeSchedule(ir.plan, *s, cost, offPtr);
    Energy e = energyOf(ir.plan, *s, t, cost, offPtr);
    MLIRContext *ctx = plan.getContext();
    for (auto [p, op] : llvm::enumerate(ir.ops))
      op->setAttr("span", SpanAttr::get(ctx, t.start[p], t.finish[p]));
    plan.setTimingAttr(TimingAttr::get(ctx, t.barrierMakespan,
                                       t.dataflowMakespan, gated,
                                       int64_t(std::llround(e.total()))));
    return success();
  }
};

} // namespace
