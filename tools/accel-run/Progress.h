//===- Progress.h - accel-run's progress line on a terminal ---------------===//
//
// Cycles simulated, commands and layers done, on the terminal progress line
// (accel/Support/TerminalProgress.h: terminals only, never with CI set).
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TOOLS_ACCEL_RUN_PROGRESS_H
#define ACCEL_TOOLS_ACCEL_RUN_PROGRESS_H

#include "accel/Sim/Simulator.h"
#include "accel/Support/TerminalProgress.h"

namespace accel {

class ProgressLine {
public:
  /// Installs the line as `opts.progress` when it is wanted.
  void attach(SimOptions &opts);
  /// Erases the line, if one was shown (before printing anything else).
  void clear() { line.clear(); }

private:
  TerminalProgress line{"simulating", 0};
};

} // namespace accel

#endif
