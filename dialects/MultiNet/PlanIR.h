//===- PlanIR.h - multinet.plan <-> the scheduling library ------*- C++ -*-===//
//
// The passes and the plan's verifier work on lib/MultiNet's Plan and
// Schedule; these read them from the ops and write the decisions back.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_DIALECTS_MULTINET_PLANIR_H
#define ACCEL_DIALECTS_MULTINET_PLANIR_H

#include "MultiNet/MultiNetDialect.h"
#include "accel/MultiNet/Power.h"
#include "accel/MultiNet/Schedule.h"

#include <optional>

namespace accel::multinet {

/// The plan's processes and interactions in body order; process i of `plan`
/// is `ops[i]`.
struct PlanIR {
  Plan plan;
  std::vector<mlir::Operation *> ops;
};

/// Every process and interaction of `op` as the library's Plan.
PlanIR readPlan(PlanOp op);

/// The schedule the placement attributes describe (time units, EUs, `at`,
/// transfers), or std::nullopt when some process has no placement.
/// Fails, naming the op, when a placement leaves the grid.
mlir::FailureOr<std::optional<Schedule>> readSchedule(const PlanIR &ir);

/// The user's power-off sets of the body (multinet.power_off), one list
/// per time unit up to `timeUnits`.
std::vector<std::vector<Coord>> readPowerOff(PlanOp op, int64_t timeUnits);

/// The op of the process a library message names first ("process A.L1 ...",
/// "interaction X: ..."); the plan op itself when it names none.
mlir::Operation *opNamedIn(PlanOp op, const PlanIR &ir, llvm::StringRef msg);

/// The coordinates an attribute lists (none for a null attribute).
std::vector<Coord> coordsOf(UnitsAttr attr);

/// The coordinates of EU numbers, as an attribute.
UnitsAttr unitsAttr(mlir::MLIRContext *ctx, const Grid &grid,
                    llvm::ArrayRef<int64_t> units);

} // namespace accel::multinet

#endif
