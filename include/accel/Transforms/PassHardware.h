//===- PassHardware.h - The hardware description of a pass's hw option ---===//
//
// Passes with an `hw=<file>` option (select-tiling, select-mapping,
// convert-graph-to-isa) read the machine the same way: the built-in default
// when the option is empty, else the JSON file; a bad file is an error on
// the module naming the file and the field.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TRANSFORMS_PASSHARDWARE_H
#define ACCEL_TRANSFORMS_PASSHARDWARE_H

#include "accel/Hardware/HardwareDesc.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"
#include <string>

namespace accel {

inline mlir::LogicalResult loadPassHardware(mlir::ModuleOp module,
                                            const std::string &hwPath,
                                            HardwareDesc &hw) {
  hw = defaultHardware();
  if (hwPath.empty())
    return mlir::success();
  std::string err;
  if (loadHardwareDesc(hwPath, hw, err))
    return mlir::success();
  module.emitError(err); // err names the file
  return mlir::failure();
}

} // namespace accel

#endif
