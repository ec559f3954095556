//===- Progress.cpp - accel-run's progress line on a terminal -------------===//
#include "Progress.h"

namespace accel {

void ProgressLine::attach(SimOptions &opts) {
  if (!progressWanted())
    return;
  opts.progress = [this](const SimProgress &p) {
    line.show("simulating: cycle " + std::to_string(p.cycle) + ", commands " +
              std::to_string(p.commandsDone) + " / " +
              std::to_string(p.commandsTotal) + ", layers " +
              std::to_string(p.layersDone) + " / " +
              std::to_string(p.layersTotal));
  };
}

} // namespace accel
