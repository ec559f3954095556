//===- TerminalProgress.cpp - One progress line on a terminal -------------===//
#include "accel/Support/TerminalProgress.h"

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace accel {

bool progressWanted() {
  return isatty(STDOUT_FILENO) && isatty(STDERR_FILENO) && !std::getenv("CI");
}

TerminalProgress::TerminalProgress(std::string what, size_t total)
    : what(std::move(what)), total(total), enabled(progressWanted()),
      // The first line after 0.2 s (show waits 0.1 s after `last`): a quick
      // run shows none.
      last(std::chrono::steady_clock::now() + std::chrono::milliseconds(100)) {}

void TerminalProgress::step(size_t i, const std::string &label) {
  if (enabled)
    show(what + ": " + std::to_string(i + 1) + " / " + std::to_string(total) +
         " " + label);
}

void TerminalProgress::show(const std::string &text) {
  if (!enabled)
    return;
  const auto now = std::chrono::steady_clock::now();
  if (now < last + std::chrono::milliseconds(100))
    return;
  last = now;
  shown = true;
  // "\033[K" clears the rest of a longer previous line.
  std::fprintf(stderr, "\r%s\033[K", text.c_str());
  std::fflush(stderr);
}

void TerminalProgress::clear() {
  if (shown)
    std::fputs("\r\033[K", stderr);
  shown = false;
}

} // namespace accel
