//===- OptionChecks.h - Ranges of the passes' numeric options ---*- C++ -*-===//
//
// A pass option outside its range used to be taken silently: a negative
// `slices` read as "the cost rule", `slice-fraction=nan` compared false
// everywhere, a negative `partition-m` was ignored. Each pass with such
// options lists their ranges once (a method returning OptionChecks) and
// checks them twice, with one message shape (as select-rnn-parallelism's
// `ep` check had it):
//
//   <pass>: <option> = <value> must be <requirement>
//
// - when a textual pipeline sets the options (`initializeOptions`, in
//   CheckedOptionsPass below): the
//   pipeline parser reports the error, so accel-opt stops before reading
//   its input and Python raises accel.OptionError;
// - when the pass runs (`emitOn`): options set in C++ (the default
//   pipeline's) are checked too; the error is on the operation's location.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_LIB_TRANSFORMS_OPTIONCHECKS_H
#define ACCEL_LIB_TRANSFORMS_OPTIONCHECKS_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "mlir/Pass/Pass.h"

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace accel {

class OptionChecks {
public:
  explicit OptionChecks(llvm::StringRef pass) : pass(pass.str()) {}

  /// An integer option of at least `min`.
  OptionChecks &atLeast(llvm::StringRef option, int64_t value, int64_t min) {
    if (value < min)
      fail(option, std::to_string(value), "at least " + std::to_string(min));
    return *this;
  }

  /// A finite real option of at least `min` (`strict`: above it).
  OptionChecks &finiteAtLeast(llvm::StringRef option, double value, double min,
                              bool strict = false) {
    if (!std::isfinite(value) || value < min || (strict && value == min))
      fail(option, real(value),
           std::string("a finite number ") + (strict ? "> " : ">= ") +
               real(min));
    return *this;
  }

  /// Each failed check as an error at `op`'s location (not on `op`: the
  /// operation printed after an error on it would be the whole module).
  mlir::LogicalResult emitOn(mlir::Operation *op) const {
    for (const std::string &e : errors)
      mlir::emitError(op->getLoc()) << e;
    return mlir::failure(!errors.empty());
  }

  /// The first failed check to a pipeline parser's error handler.
  mlir::LogicalResult
  report(llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)> handler)
      const {
    return errors.empty() ? mlir::success() : handler(errors.front());
  }

private:
  /// `value` as a user writes it (0.3, -1, nan, inf), not 3.000000e-01.
  static std::string real(double value) {
    std::ostringstream os;
    os << value;
    return os.str();
  }

  void fail(llvm::StringRef option, const std::string &value,
            const std::string &requirement) {
    errors.push_back(pass + ": " + option.str() + " = " + value + " must be " +
                     requirement);
  }

  std::string pass;
  std::vector<std::string> errors;
};

/// A pass whose options `optionChecks()` lists: options from a textual
/// pipeline are checked as they are parsed. `PassBase` is the pass's
/// generated base (impl::XBase<XPass>); the pass also calls
/// `optionChecks().emitOn(op)` when it runs.
template <typename PassBase> class CheckedOptionsPass : public PassBase {
public:
  using PassBase::PassBase;

  virtual OptionChecks optionChecks() const = 0;

  mlir::LogicalResult
  initializeOptions(llvm::StringRef options,
                    llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)>
                        handler) override {
    if (mlir::failed(mlir::Pass::initializeOptions(options, handler)))
      return mlir::failure();
    return optionChecks().report(handler);
  }
};

} // namespace accel

#endif // ACCEL_LIB_TRANSFORMS_OPTIONCHECKS_H
