//===- Progress.cpp - accel-run's progress line on a terminal -------------===//
#include "Progress.h"

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace accel {

void ProgressLine::attach(SimOptions &opts) {
  if (!isatty(STDOUT_FILENO) || !isatty(STDERR_FILENO) || std::getenv("CI"))
    return;
  // The first line after 0.2 s (update waits 0.1 s after `last`): a quick
  // run shows none.
  last = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
  opts.progress = [this](const SimProgress &p) { update(p); };
}

void ProgressLine::update(const SimProgress &p) {
  const auto now = std::chrono::steady_clock::now();
  if (now < last + std::chrono::milliseconds(100))
    return;
  last = now;
  shown = true;
  // "\033[K" clears the rest of a longer previous line.
  std::fprintf(stderr,
               "\rsimulating: cycle %llu, commands %llu / %llu, layers %u / "
               "%u\033[K",
               (unsigned long long)p.cycle, (unsigned long long)p.commandsDone,
               (unsigned long long)p.commandsTotal, p.layersDone,
               p.layersTotal);
  std::fflush(stderr);
}

void ProgressLine::clear() {
  if (shown)
    std::fputs("\r\033[K", stderr);
  shown = false;
}

} // namespace accel
