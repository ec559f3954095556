//===- PlanEmitter.h - A --networks plan as a multinet.plan -----*- C++ -*-===//
#ifndef ACCEL_TOOLS_PLANEMITTER_H
#define ACCEL_TOOLS_PLANEMITTER_H

#include "accel/Hardware/HardwareDesc.h"
#include "accel/MultiNet/NetworkPlan.h"
#include "accel/Target/Link.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace accel {

/// How networks become processes (accel-compile --processes).
enum class ProcessGranularity { Layer, Network, Cluster };

/// The multinet.plan of compiled networks (`parts`: the networks in plan
/// order, then the interactions; each with its program and rectangle):
/// a process per layer (or per network, or per layer and cluster) with its
/// data flow, MACs, weight
/// bytes, result bytes and a cycle estimate, pinned to its rectangle, and
/// the interactions pinned to their clusters (docs/multi-network.md
/// "Process formation").
mlir::OwningOpRef<mlir::ModuleOp>
emitPlan(mlir::MLIRContext &ctx, const multinet::NetworkPlanFile &plan,
         const std::vector<LinkPart> &parts, const HardwareDesc &full,
         ProcessGranularity granularity);

} // namespace accel

#endif
