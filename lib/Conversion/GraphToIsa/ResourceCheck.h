//===- ResourceCheck.h - What cannot fit, refused before lowering -*- C++
//-*-===//
//
// Private to lib/Conversion/GraphToIsa. convert-graph-to-isa runs this before
// generating any code, so a program that cannot fit the described machine,
// or whose code would be too large to generate, fails fast with a clear
// error instead of running the compiler out of memory or time.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_CONVERSION_GRAPHTOISA_RESOURCECHECK_H
#define ACCEL_LIB_CONVERSION_GRAPHTOISA_RESOURCECHECK_H

#include "accel/Hardware/HardwareDesc.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace accel::lowering {

/// The most commands one compilation may emit (over all clusters): 2^24,
/// a binary of several hundred MiB. Lowering time and memory grow with it.
constexpr uint64_t kMaxProgramCommands = uint64_t(1) << 24;

/// Refuses, naming the op and the limit:
///  * a tensor (input, constant, result, padded pooling input) larger than
///    the hardware description's dram_bytes;
///  * inputs, constants and outputs that together exceed dram_bytes (every
///    one of them has its own DRAM buffer, so this is a lower bound of the
///    DRAM plan);
///  * a program whose estimated command count (a lower bound: at least one
///    DMA in, one EXECUTE and one DMA out per storage-sized tile of every
///    SFU layer; a pooling window is one layer per window position) exceeds
///    kMaxProgramCommands.
mlir::LogicalResult checkResourcesUpFront(mlir::func::FuncOp func,
                                          const HardwareDesc &hw);

} // namespace accel::lowering

#endif
