//===- AttachHardware.cpp - The hardware description enters the IR -------===//
//
// accel-attach-hardware{file=...}: the one place where a pass reads a
// hardware description file. It becomes the module's `accel.hw`, which every
// other pass reads through accel::moduleHardware (docs/passes.md).
//
//===----------------------------------------------------------------------===//
#include "accel/Transforms/Passes.h"

namespace accel {
#define GEN_PASS_DEF_ATTACHHARDWARE
#include "accel/Transforms/Passes.h.inc"
} // namespace accel

namespace {
struct AttachHardwarePass
    : public accel::impl::AttachHardwareBase<AttachHardwarePass> {
  using AttachHardwareBase::AttachHardwareBase;

  void runOnOperation() override {
    if (file.empty()) {
      getOperation().emitError(
          "accel-attach-hardware: file=<hardware description JSON> is "
          "required");
      return signalPassFailure();
    }
    if (mlir::failed(accel::attachHardware(getOperation(), file)))
      signalPassFailure();
  }
};
} // namespace
