//===- StreamedValidationTest.cpp - validateProgram on its own thread -----===//
//
// StreamedValidation checks the streams a chunk at a time while accel-run
// simulates what is checked; its verdict and message must be
// validateProgram's, and what it reports as checked must be a valid prefix.
//
//===----------------------------------------------------------------------===//
#include "TestPrograms.h"
#include "accel/Target/Validate.h"
#include <gtest/gtest.h>

using namespace accel;
using accel::target_test::makeLargeProgram;

namespace {

/// StreamedValidation's verdict; `err` its message.
bool validateStreamed(const Program &p, const HardwareDesc &hw,
                      std::string &err) {
  StreamedValidation v(p, hw);
  return v.start(err) && v.finish(err);
}

void expectSameVerdict(const Program &p, const HardwareDesc &hw) {
  std::string once, streamed;
  const bool ok = validateProgram(p, hw, once);
  EXPECT_EQ(validateStreamed(p, hw, streamed), ok);
  EXPECT_EQ(streamed, once);
}

TEST(StreamedValidation, LargeValidProgramIsCheckedWhole) {
  HardwareDesc hw = defaultHardware();
  Program p = makeLargeProgram(hw, 5000); // 5 chunks a stream
  ASSERT_GT(p.clusters[0].commands.size(),
            4 * StreamedValidation::kChunkCommands);
  StreamedValidation v(p, hw);
  std::string err;
  ASSERT_TRUE(v.start(err)) << err;
  ASSERT_TRUE(v.finish(err)) << err;
  EXPECT_FALSE(v.failed());
  for (size_t ci = 0; ci < p.clusters.size(); ++ci)
    EXPECT_EQ(v.checked(ci), p.clusters[ci].commands.size());
}

TEST(StreamedValidation, FirstFailingClusterIsReported) {
  HardwareDesc hw = defaultHardware();
  Program p = target_test::makeTwoBadStreams(hw);
  StreamedValidation v(p, hw);
  std::string err, once;
  ASSERT_TRUE(v.start(err)) << err;
  EXPECT_FALSE(v.finish(err));
  EXPECT_TRUE(v.failed());
  EXPECT_FALSE(validateProgram(p, hw, once));
  EXPECT_EQ(err, once);
  EXPECT_EQ(err.rfind("cluster (0,1) command 2000 (DMA): source box", 0), 0u)
      << err;
  // Checked prefixes stop short of each violation; cluster 0 has none and
  // is checked to its end (cluster 1's failure could still be preceded by
  // one of cluster 0's).
  EXPECT_EQ(v.checked(0), p.clusters[0].commands.size());
  EXPECT_LE(v.checked(1), 2000u);
  EXPECT_GE(v.checked(1), StreamedValidation::kChunkCommands);
  EXPECT_LE(v.checked(3), 10u);
}

TEST(StreamedValidation, BarrierMismatchBeforeALaterClustersError) {
  HardwareDesc hw = defaultHardware();
  Program p = target_test::makeBarrierMismatch(hw);
  std::string err;
  EXPECT_FALSE(validateStreamed(p, hw, err));
  EXPECT_EQ(err.rfind("cluster (0,1) barrier sequence differs", 0), 0u) << err;
  expectSameVerdict(p, hw);
}

TEST(StreamedValidation, TablesAreCheckedOnTheCallingThread) {
  HardwareDesc hw = defaultHardware();
  Program p = makeLargeProgram(hw);
  p.hwFingerprint ^= 1;
  StreamedValidation v(p, hw);
  std::string err, again, once;
  EXPECT_FALSE(v.start(err));
  EXPECT_TRUE(v.failed());
  for (size_t ci = 0; ci < p.clusters.size(); ++ci)
    EXPECT_EQ(v.checked(ci), 0u);
  EXPECT_FALSE(v.finish(again));
  EXPECT_FALSE(validateProgram(p, hw, once));
  EXPECT_EQ(err, once);
  EXPECT_EQ(again, once);
}

TEST(StreamedValidation, AgreesOnTheFullTestProgramAndItsCorruptions) {
  HardwareDesc hw = defaultHardware();
  Program p = target_test::makeFullProgram();
  expectSameVerdict(p, hw);
  // One violation per kind of rule the streams and the checks after them
  // have: a DMA tag, an unconfigured buffer, an output nobody writes.
  Program q = p;
  for (Command &c : q.clusters[0].commands)
    if (c.kind == CommandKind::Dma) {
      c.dma.tag = 8;
      break;
    }
  expectSameVerdict(q, hw);
  q = p;
  for (Command &c : q.clusters[0].commands)
    if (c.kind == CommandKind::Execute) {
      c.ibuf = 3;
      break;
    }
  expectSameVerdict(q, hw);
  q = p;
  for (ClusterStream &s : q.clusters)
    for (Command &c : s.commands)
      if (c.kind == CommandKind::Dma && c.dma.dir == DmaDir::Store)
        c.dma.dir = DmaDir::Load;
  expectSameVerdict(q, hw);
}

} // namespace
