//===- ParallelReadTest.cpp - streams decoded and checked on several cores
//-===//
//
// readBinary decodes the cluster streams of a large binary next to its
// checksum, and validateProgram checks large programs' streams, on the
// host's cores (accel/Support/Parallel.h). Whatever the thread count, the
// Program and the first error in file / cluster order must be those of a
// front-to-back pass: each case runs with ACCEL_HOST_THREADS=1 and =4.
//
//===----------------------------------------------------------------------===//
#include "BinaryBytes.h"
#include "TestPrograms.h"
#include "accel/Support/Parallel.h"
#include "accel/Target/Binary.h"
#include "accel/Target/Validate.h"
#include <atomic>
#include <cstdlib>
#include <gtest/gtest.h>

using namespace accel;
using accel::target_test::diffPrograms;

namespace {

/// Sets ACCEL_HOST_THREADS for the scope of the object.
struct HostThreads {
  explicit HostThreads(unsigned n) {
    ::setenv("ACCEL_HOST_THREADS", std::to_string(n).c_str(), 1);
  }
  ~HostThreads() { ::unsetenv("ACCEL_HOST_THREADS"); }
};

using target_test::makeLargeProgram;

std::string readError(const std::vector<uint8_t> &b, unsigned threads) {
  HostThreads t(threads);
  return target_test::readErr(b);
}

} // namespace

TEST(ParallelFor, CallsEveryIndexOnce) {
  for (unsigned threads : {1u, 2u, 4u}) {
    HostThreads t(threads);
    for (size_t n : {size_t(0), size_t(1), size_t(3), size_t(1000)}) {
      std::vector<std::atomic<int>> calls(n);
      parallelFor(n, [&](size_t i) { calls[i].fetch_add(1); });
      for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(calls[i].load(), 1) << "index " << i << " of " << n;
    }
  }
}

TEST(ParallelFor, HostThreadsFollowsTheEnvironment) {
  {
    HostThreads t(3);
    EXPECT_EQ(hostThreads(), 3u);
  }
  ::setenv("ACCEL_HOST_THREADS", "zero", 1);
  EXPECT_GE(hostThreads(), 1u); // not a number: the host's threads
  ::unsetenv("ACCEL_HOST_THREADS");
}

TEST(ParallelRead, LargeBinaryReadsTheSameOnAnyThreadCount) {
  HardwareDesc hw = defaultHardware();
  Program p = makeLargeProgram(hw);
  std::vector<uint8_t> b = writeBinary(p);
  ASSERT_GT(b.size(), size_t(1) << 20);
  for (unsigned threads : {1u, 4u}) {
    HostThreads t(threads);
    Program q;
    std::string err;
    ASSERT_TRUE(readBinary(b.data(), b.size(), q, err)) << err;
    EXPECT_EQ(diffPrograms(p, q), "") << threads << " threads";
    EXPECT_TRUE(validateProgram(q, hw, err)) << err;
  }
}

TEST(ParallelRead, FirstCorruptStreamInFileOrderIsReported) {
  HardwareDesc hw = defaultHardware();
  std::vector<uint8_t> full = writeBinary(makeLargeProgram(hw));
  std::vector<size_t> at =
      target_test::firstCommandOffsets(full, hw.numClusters());
  std::vector<uint8_t> b = full;
  b[at[1]] = 0x7A; // an unknown kind byte in clusters 1 and 3
  b[at[3]] = 0x7A;
  target_test::fixHeader(b);
  const std::string expected = "binary: unknown command kind byte 0x7a at "
                               "offset " +
                               std::to_string(at[1]);
  EXPECT_EQ(readError(b, 1), expected);
  EXPECT_EQ(readError(b, 4), expected);
  // A bad checksum is reported first, as when it was checked before the
  // sections, whatever else is wrong.
  b[b.size() - 1] ^= 0xFF;
  EXPECT_EQ(readError(b, 4), "binary: checksum mismatch (corrupt binary) at "
                             "offset " +
                                 std::to_string(kBinaryChecksumOffset));
  // A bad stream header after a bad stream: the stream comes first.
  b = full;
  b[at[0]] = 0x7A;
  b[at[2] - 24] = 0x55; // the section kind of cluster 2's STRM
  target_test::fixHeader(b);
  EXPECT_EQ(readError(b, 4), "binary: unknown command kind byte 0x7a at "
                             "offset " +
                                 std::to_string(at[0]));
  EXPECT_EQ(readError(b, 1), readError(b, 4));
}

TEST(ParallelValidate, FirstFailingClusterIsReported) {
  HardwareDesc hw = defaultHardware();
  Program p = target_test::makeTwoBadStreams(hw);
  std::string one, four;
  {
    HostThreads t(1);
    EXPECT_FALSE(validateProgram(p, hw, one));
  }
  {
    HostThreads t(4);
    EXPECT_FALSE(validateProgram(p, hw, four));
  }
  EXPECT_EQ(one, four);
  EXPECT_EQ(four.rfind("cluster (0,1) command 2000 (DMA): source box", 0), 0u)
      << four;
}

TEST(ParallelValidate, BarrierMismatchBeforeALaterClustersError) {
  HardwareDesc hw = defaultHardware();
  Program p = target_test::makeBarrierMismatch(hw);
  std::string err;
  HostThreads t(4);
  EXPECT_FALSE(validateProgram(p, hw, err));
  EXPECT_EQ(err.rfind("cluster (0,1) barrier sequence differs", 0), 0u) << err;
}
