//===- Progress.h - accel-run's progress line on a terminal ---------------===//
//
// One line on stderr, rewritten in place (carriage return) at most ten
// times a second: cycles simulated, commands and layers done. Shown only
// when stdout and stderr are terminals and the environment has no CI
// variable, so logs, pipes and tests never see it.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TOOLS_ACCEL_RUN_PROGRESS_H
#define ACCEL_TOOLS_ACCEL_RUN_PROGRESS_H

#include "accel/Sim/Simulator.h"

#include <chrono>

namespace accel {

class ProgressLine {
public:
  /// Installs the line as `opts.progress` when it is wanted (see above).
  void attach(SimOptions &opts);
  /// Erases the line, if one was shown (before printing anything else).
  void clear();

private:
  void update(const SimProgress &p);

  std::chrono::steady_clock::time_point last;
  bool shown = false;
};

} // namespace accel

#endif
