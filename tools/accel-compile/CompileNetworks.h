//===- CompileNetworks.h - accel-compile --networks -------------*- C++ -*-===//
#ifndef ACCEL_TOOLS_COMPILENETWORKS_H
#define ACCEL_TOOLS_COMPILENETWORKS_H

#include "PlanEmitter.h"
#include "accel/Conversion/Passes.h"
#include "accel/Hardware/HardwareDesc.h"
#include "accel/Target/Program.h"
#include "mlir/IR/MLIRContext.h"

#include <string>

namespace accel {

/// Compiles every network of the plan file for its sub-machine of `full`
/// (or, `baseline`, for the whole machine one after the other) with the
/// default pipeline and links them into one program (docs/multi-network.md,
/// "accel-compile --networks"). `lowering` are the forwarded lowering
/// options ("name=value ..."). False with `err` naming the plan, the
/// network and the reason.
bool compileNetworks(mlir::MLIRContext &ctx, const std::string &planPath,
                     const HardwareDesc &full, bool baseline,
                     const std::string &lowering,
                     const SplitPipelineOptions &split, Program &out,
                     std::string &err);

/// The plan's networks and interactions compiled as for compileNetworks
/// (parallel), then formed into processes as a multinet.plan (accel-compile
/// --networks --emit=plan; docs/multi-network.md "Process formation").
/// Null with `err` as compileNetworks.
mlir::OwningOpRef<mlir::ModuleOp>
compileNetworksPlan(mlir::MLIRContext &ctx, const std::string &planPath,
                    const HardwareDesc &full, const std::string &lowering,
                    const SplitPipelineOptions &split,
                    ProcessGranularity granularity, std::string &err);

} // namespace accel

#endif
