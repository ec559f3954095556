//===- Parallel.h - A loop over indices on the host's cores -----*- C++ -*-===//
//
// accel-run's start (decoding the cluster streams, validating them) is work
// per cluster with no shared writes; `parallelFor` spreads such a loop over
// the host's cores. The caller's thread takes part, so one core or one
// index costs no thread. Indices are handed out one at a time in ascending
// order (an atomic counter), so the loop balances itself when the pieces
// differ in size. Results must be kept per index: which thread runs an
// index is not fixed.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_SUPPORT_PARALLEL_H
#define ACCEL_SUPPORT_PARALLEL_H

#include <cstddef>
#include <functional>

namespace accel {

/// Host threads parallelFor uses: the host's hardware threads, or
/// ACCEL_HOST_THREADS when set to a positive number (1 runs every loop on
/// the calling thread, e.g. to compare timings or under a debugger).
unsigned hostThreads();

/// Calls fn(i) for every i in [0, n), on up to hostThreads() threads
/// including the caller's; returns when every call has returned. `fn` must
/// not throw.
void parallelFor(size_t n, const std::function<void(size_t)> &fn);

} // namespace accel

#endif // ACCEL_SUPPORT_PARALLEL_H
