//===- Parallel.cpp - A loop over indices on the host's cores -------------===//
#include "accel/Support/Parallel.h"
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <thread>
#include <vector>

namespace accel {

unsigned hostThreads() {
  if (const char *env = std::getenv("ACCEL_HOST_THREADS")) {
    char *end = nullptr;
    long v = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && v > 0)
      return unsigned(std::min<long>(v, 256));
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

void parallelFor(size_t n, const std::function<void(size_t)> &fn) {
  const size_t threads = std::min<size_t>(n, hostThreads());
  if (threads <= 1) {
    for (size_t i = 0; i < n; ++i)
      fn(i);
    return;
  }
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < n;)
      fn(i);
  };
  std::vector<std::thread> helpers;
  helpers.reserve(threads - 1);
  for (size_t t = 1; t < threads; ++t)
    helpers.emplace_back(work);
  work();
  for (std::thread &h : helpers)
    h.join();
}

} // namespace accel
