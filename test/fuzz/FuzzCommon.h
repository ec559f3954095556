//===- FuzzCommon.h - Shared pieces of the libFuzzer harnesses ---*- C++
//-*-===//
//
// The harnesses feed hostile bytes through the tools' normal error paths. A
// rejected input is fine; a crash, sanitizer report, hang or an invariant the
// tools promise (e.g. "the compiler only emits valid programs") broken is a
// finding. `fuzzCheck` turns a broken invariant into a crash libFuzzer
// records.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TEST_FUZZ_FUZZCOMMON_H
#define ACCEL_TEST_FUZZ_FUZZCOMMON_H

#include <cstdio>
#include <cstdlib>
#include <string>

namespace accel::fuzz {

/// Aborts (a libFuzzer crash) with `what` when `ok` is false.
inline void fuzzCheck(bool ok, const std::string &what) {
  if (ok)
    return;
  std::fprintf(stderr, "fuzz invariant broken: %s\n", what.c_str());
  std::abort();
}

} // namespace accel::fuzz

#endif
