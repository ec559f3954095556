//===- BinaryTest.cpp - Binary container round trip and hostile input -----===//
#include "accel/Target/Binary.h"
#include "BinaryBytes.h"
#include "TestPrograms.h"
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <gtest/gtest.h>
#include <random>

using namespace accel;
using accel::target_test::diffPrograms;
using accel::target_test::firstCommandOffset;
using accel::target_test::fixHeader;
using accel::target_test::makeFullProgram;
using accel::target_test::makeLayeredProgram;
using accel::target_test::makePiecedProgram;
using accel::target_test::put32;
using accel::target_test::put64;
using accel::target_test::readErr;

namespace {} // namespace

TEST(Binary, RoundTripEveryCommandKind) {
  Program p = makeFullProgram();
  std::vector<uint8_t> bytes;
  std::string err;
  ASSERT_TRUE(writeBinary(p, bytes, err)) << err;
  EXPECT_EQ(writeBinary(p), bytes);
  Program q;
  ASSERT_TRUE(readBinary(bytes.data(), bytes.size(), q, err)) << err;
  EXPECT_EQ(diffPrograms(p, q), "");
  // Canonical: writing the read program gives the same bytes.
  EXPECT_EQ(writeBinary(q), bytes);
}

TEST(Binary, HeaderLayout) {
  Program p = makeFullProgram();
  std::vector<uint8_t> b = writeBinary(p);
  ASSERT_GE(b.size(), kBinaryHeaderBytes);
  EXPECT_EQ(std::string(b.begin(), b.begin() + 8), "ACCELBIN");
  EXPECT_EQ(b[8], Program::kFormatVersion);
  EXPECT_EQ(b[12], 64);
  EXPECT_EQ(b[16], 0x10); // fingerprint, little-endian
  EXPECT_EQ(b[23], 0xFE);
  EXPECT_EQ(b[24], 2);   // rows
  EXPECT_EQ(b[28], 2);   // cols
  EXPECT_EQ(b[48], 8);   // 4 + 4 sections
  EXPECT_EQ(b[64], 'S'); // first section: "SYMB"
  // The first stream command is the DMA packet kind byte.
  EXPECT_EQ(b[firstCommandOffset(b)], kPacketDma);
}

TEST(Binary, EmptyProgram) {
  Program p;
  p.clusters.resize(1);
  std::vector<uint8_t> b = writeBinary(p);
  ASSERT_FALSE(b.empty());
  Program q;
  std::string err;
  ASSERT_TRUE(readBinary(b.data(), b.size(), q, err)) << err;
  EXPECT_EQ(diffPrograms(p, q), "");
}

TEST(Binary, FileRoundTrip) {
  Program p = makeFullProgram();
  std::string path = ::testing::TempDir() + "/accel_binary_test.bin";
  std::string err;
  ASSERT_TRUE(writeBinaryFile(path, p, err)) << err;
  Program q;
  ASSERT_TRUE(readBinaryFile(path, q, err)) << err;
  EXPECT_EQ(diffPrograms(p, q), "");
  // The file is read into an image of its own: non-empty constant segments
  // borrow its bytes, and copies of the Program keep the image alive.
  ASSERT_FALSE(q.constants.empty());
  for (const ConstSegment &c : q.constants) {
    EXPECT_TRUE(c.bytes.empty());
    EXPECT_EQ(c.borrowed != nullptr, c.size() != 0);
  }
  EXPECT_NE(q.backing, nullptr);
  Program copy = q;
  q = Program();
  EXPECT_EQ(diffPrograms(p, copy), "");
  // Rewriting (here: truncating) the file does not reach the program read
  // from it (a mapping would have raised SIGBUS on the vanished pages).
  {
    std::ofstream truncate(path, std::ios::binary | std::ios::trunc);
  }
  EXPECT_EQ(diffPrograms(p, copy), "");
  // Written back from borrowed segments: the same bytes.
  std::vector<uint8_t> again;
  ASSERT_TRUE(writeBinary(copy, again, err)) << err;
  EXPECT_EQ(again, writeBinary(p));
  std::remove(path.c_str());
  EXPECT_FALSE(readBinaryFile(path, q, err));
  EXPECT_NE(err.find("cannot open"), std::string::npos) << err;
  EXPECT_FALSE(writeBinaryFile("/nonexistent-dir/x.bin", p, err));
}

// Segments that continue one another in DRAM (and so do their replicas)
// are written as one: the read program has the same DRAM image in fewer
// segments, and writing it again gives the same bytes.
TEST(Binary, SegmentsThatContinueOneAnotherAreWrittenAsOne) {
  Program p;
  p.clusters.resize(1);
  p.dramSize = 8192;
  auto seg = [](uint64_t addr, std::vector<uint8_t> bytes,
                std::vector<uint64_t> replicas) {
    ConstSegment c;
    c.dramAddr = addr;
    c.bytes = std::move(bytes);
    c.replicas = std::move(replicas);
    return c;
  };
  p.constants = {seg(0, {1, 2, 3, 4}, {}),
                 seg(4, {5, 6, 7, 8}, {}),       // continues 0
                 seg(64, {9, 9, 9, 9}, {}),      // a gap
                 seg(128, {1, 1, 1, 1}, {4096}), // a replica
                 seg(132, {2, 2, 2, 2}, {4100}), // both continue
                 seg(136, {3, 3, 3, 3}, {5000}), // the replica does not
                 seg(140, {4, 4, 4, 4}, {})};    // no replica
  std::vector<uint8_t> bytes;
  std::string err;
  ASSERT_TRUE(writeBinary(p, bytes, err)) << err;
  Program q;
  ASSERT_TRUE(readBinary(bytes.data(), bytes.size(), q, err)) << err;
  ASSERT_EQ(q.constants.size(), 5u);
  EXPECT_EQ(q.constants[0].dramAddr, 0u);
  EXPECT_EQ(q.constants[0].bytes,
            (std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(q.constants[1].dramAddr, 64u);
  EXPECT_EQ(q.constants[2].dramAddr, 128u);
  EXPECT_EQ(q.constants[2].replicas, (std::vector<uint64_t>{4096}));
  EXPECT_EQ(q.constants[2].bytes,
            (std::vector<uint8_t>{1, 1, 1, 1, 2, 2, 2, 2}));
  EXPECT_EQ(q.constants[3].dramAddr, 136u);
  EXPECT_EQ(q.constants[3].replicas, (std::vector<uint64_t>{5000}));
  EXPECT_EQ(q.constants[4].dramAddr, 140u);
  EXPECT_TRUE(q.constants[4].replicas.empty());
  EXPECT_EQ(writeBinary(q), bytes);
}

TEST(Binary, WriterRejectsUnencodableProgram) {
  Program p = makeFullProgram();
  p.clusters[0].commands[4].instrs[0].fields.slot = 16;
  std::vector<uint8_t> b;
  std::string err;
  EXPECT_FALSE(writeBinary(p, b, err));
  EXPECT_NE(err.find("slot 16"), std::string::npos) << err;
  EXPECT_TRUE(writeBinary(p).empty());

  p = makeFullProgram();
  p.clusters.pop_back();
  EXPECT_FALSE(writeBinary(p, b, err));
  EXPECT_NE(err.find("cluster streams"), std::string::npos) << err;

  p = makeFullProgram();
  p.clusters[0].commands[0].dma.dir = DmaDir(9);
  EXPECT_FALSE(writeBinary(p, b, err));
  EXPECT_NE(err.find("DMA direction"), std::string::npos) << err;
}

TEST(Binary, EveryTruncationFails) {
  std::vector<uint8_t> full = writeBinary(makeFullProgram());
  ASSERT_FALSE(full.empty());
  for (size_t n = 0; n < full.size(); ++n) {
    std::vector<uint8_t> b(full.begin(), full.begin() + n);
    std::string err = readErr(b);
    EXPECT_NE(err.find("offset"), std::string::npos) << n << ": " << err;
    // The same truncation with a consistent header must still be caught by
    // the structural bounds checks.
    fixHeader(b);
    err = readErr(b);
    EXPECT_NE(err.find("offset"), std::string::npos) << n << ": " << err;
  }
  // Null data.
  Program p;
  std::string err;
  EXPECT_FALSE(readBinary(nullptr, 0, p, err));
}

TEST(Binary, TruncationMessages) {
  std::vector<uint8_t> full = writeBinary(makeFullProgram());
  std::vector<uint8_t> b(full.begin(), full.begin() + 4);
  EXPECT_EQ(readErr(b),
            "binary: truncated header (magic) (need 8 bytes, 4 left) at "
            "offset 0");
  b.assign(full.begin(), full.begin() + 100);
  EXPECT_NE(readErr(b).find("header declares"), std::string::npos);
  EXPECT_NE(readErr(b).find("at offset 40"), std::string::npos);
  // Cut inside the last (empty) stream with a consistent header: the
  // section bounds check reports it.
  b.assign(full.begin(), full.end() - 3);
  fixHeader(b);
  EXPECT_EQ(readErr(b), "binary: section STRM size 4 exceeds the remaining 1 "
                        "bytes (truncated) at offset " +
                            std::to_string(full.size() - 12));
}

TEST(Binary, CorruptHeaderMessages) {
  std::vector<uint8_t> full = writeBinary(makeFullProgram());
  std::vector<uint8_t> b = full;
  b[0] = 'X';
  EXPECT_EQ(readErr(b),
            "binary: bad magic (not an accelerator binary) at offset 0");
  b = full;
  b[8] = 7;
  EXPECT_EQ(readErr(b), "binary format version 7 is not supported (this "
                        "build reads version 5; recompile the model)");
  b = full;
  b[200] ^= 0x40;
  EXPECT_EQ(readErr(b), "binary: checksum mismatch (corrupt binary) at "
                        "offset 52");
  b = full;
  b.push_back(0);
  EXPECT_NE(readErr(b).find("trailing data"), std::string::npos);
  b = full;
  put32(b, 24, 0);
  EXPECT_NE(readErr(b).find("empty cluster grid"), std::string::npos);
  b = full;
  put32(b, 24, 0x10000);
  put32(b, 28, 0x10000);
  put32(b, 48, 0); // sections would have to be 2^32 + 4
  EXPECT_NE(readErr(b).find("section count"), std::string::npos);
}

TEST(Binary, OversizedCountsAreRejectedWithoutAllocation) {
  std::vector<uint8_t> full = writeBinary(makeFullProgram());
  // Symbol count (first u32 of the SYMB payload).
  std::vector<uint8_t> b = full;
  put32(b, kBinaryHeaderBytes + 16, 0xFFFFFFFFu);
  fixHeader(b);
  std::string err = readErr(b);
  EXPECT_NE(err.find("symbol count 4294967295 is more than the remaining"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("at offset 80"), std::string::npos) << err;
  // Section size.
  b = full;
  put64(b, kBinaryHeaderBytes + 8, 1ull << 62);
  fixHeader(b);
  EXPECT_NE(readErr(b).find("section SYMB size"), std::string::npos);
  // CONFIG instruction count (u32 after the CONFIG byte of cluster 0's
  // fifth command: 3 DMA packets of 109 bytes and one WAIT of 3 bytes, each
  // after its 4-byte layer id).
  b = full;
  size_t cfgAt = firstCommandOffset(b) + 3 * 113 + 7;
  ASSERT_EQ(b[cfgAt], 2); // CONFIG ibuf 2
  put32(b, cfgAt + 1, 0x7FFFFFFFu);
  fixHeader(b);
  err = readErr(b);
  EXPECT_NE(err.find("CONFIG instruction count 2147483647"), std::string::npos)
      << err;
  EXPECT_NE(err.find("at offset " + std::to_string(cfgAt + 1)),
            std::string::npos)
      << err;
}

TEST(Binary, CorruptStreamMessages) {
  std::vector<uint8_t> full = writeBinary(makeFullProgram());
  size_t at = firstCommandOffset(full);
  std::vector<uint8_t> b = full;
  b[at] = 0x7A; // neither CONFIG/EXECUTE nor a known packet
  fixHeader(b);
  EXPECT_EQ(readErr(b), "binary: unknown command kind byte 0x7a at offset " +
                            std::to_string(at));
  b = full;
  b[at + 1] = 5; // DMA direction (4 = local_copy is the last)
  fixHeader(b);
  EXPECT_NE(readErr(b).find("invalid DMA direction 5"), std::string::npos);
  // An instruction word with a reserved bit set.
  b = full;
  size_t word = at + 3 * 113 + 7 + 5; // first instruction word of the CONFIG
  b[word] |= 0x01;                    // LD reserved bits 9-12
  fixHeader(b);
  std::string err = readErr(b);
  EXPECT_NE(err.find("LD reserved bits 9-12 must be 0"), std::string::npos)
      << err;
  EXPECT_NE(err.find("at offset " + std::to_string(word)), std::string::npos)
      << err;
}

TEST(Binary, RandomCorruptionNeverCrashes) {
  std::vector<uint8_t> full = writeBinary(makeFullProgram());
  std::mt19937 rng(12345);
  int accepted = 0, rejected = 0;
  for (int iter = 0; iter < 6000; ++iter) {
    std::vector<uint8_t> b = full;
    int flips = 1 + int(rng() % 4);
    for (int k = 0; k < flips; ++k) {
      size_t at = rng() % b.size();
      switch (rng() % 3) {
      case 0:
        b[at] = uint8_t(rng());
        break;
      case 1:
        b[at] ^= uint8_t(1u << (rng() % 8));
        break;
      case 2:
        b[at] = (rng() & 1) ? 0xFF : 0x00;
        break;
      }
    }
    if (iter % 5 == 0)
      b.resize(rng() % b.size());
    if (iter % 2 == 0)
      fixHeader(b); // get past the checksum to the structural checks
    Program p;
    std::string err;
    if (readBinary(b.data(), b.size(), p, err)) {
      ++accepted;
      // Whatever the reader accepts is canonical: it writes back identically.
      EXPECT_EQ(writeBinary(p), b) << "iteration " << iter;
    } else {
      ++rejected;
      if (err.rfind("binary format version", 0) == 0)
        continue; // the version message has no offset (OldVersionIsRefused)
      EXPECT_EQ(err.rfind("binary: ", 0), 0u) << err;
      EXPECT_NE(err.find("offset"), std::string::npos) << err;
    }
  }
  EXPECT_GT(rejected, 3000);
  ::testing::Test::RecordProperty("accepted", accepted);
}

TEST(Binary, Crc32KnownValue) {
  const char *s = "123456789";
  EXPECT_EQ(crc32(reinterpret_cast<const uint8_t *>(s), 9), 0xCBF43926u);
}

TEST(Binary, Crc32MatchesTheBytewiseDefinition) {
  // crc32 folds 64 bytes per step (PCLMULQDQ where the CPU has it), then
  // 8 (slicing by 8), then one: every length up to 300 and start offset
  // against the one-bit-per-step definition.
  std::vector<uint8_t> data(4099);
  uint32_t x = 12345;
  for (uint8_t &b : data) {
    x = x * 1664525u + 1013904223u;
    b = uint8_t(x >> 24);
  }
  auto reference = [](const uint8_t *d, size_t n) {
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; ++i) {
      c ^= d[i];
      for (int k = 0; k < 8; ++k)
        c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    }
    return c ^ 0xFFFFFFFFu;
  };
  for (size_t start = 0; start < 8; ++start)
    for (size_t n = 0; n <= 300; ++n)
      EXPECT_EQ(crc32(data.data() + start, n),
                reference(data.data() + start, n))
          << "start " << start << " length " << n;
  EXPECT_EQ(crc32(data.data(), data.size()),
            reference(data.data(), data.size()));
  EXPECT_EQ(crc32(data.data(), 0), 0u);
}

TEST(Binary, ControlUnitFieldsAreCheckedByTheReader) {
  // A pipeline byte other than 1 / 2 and set reserved flag bits are errors
  // (the format stays canonical). Find the MAC record by its base (7) and
  // step (2), the bytes before the pipeline byte.
  std::vector<uint8_t> full = writeBinary(makeFullProgram());
  const uint8_t key[8] = {7, 0, 0, 0, 2, 0, 0, 0};
  auto it = std::search(full.begin(), full.end(), key, key + 8);
  ASSERT_NE(it, full.end());
  size_t pipe = size_t(it - full.begin()) + 8;
  ASSERT_EQ(full[pipe], 2);
  std::vector<uint8_t> b = full;
  b[pipe] = 3;
  fixHeader(b);
  EXPECT_EQ(readErr(b), "binary: invalid pipeline type 3 (1 or 2) at offset " +
                            std::to_string(pipe));
  b = full;
  b[pipe + 1] = 2;
  fixHeader(b);
  EXPECT_NE(readErr(b).find("nonzero reserved operand-record flag bits"),
            std::string::npos);
  // The writer refuses what the reader would refuse.
  Program p = makeFullProgram();
  p.clusters[0].commands[4].instrs[0].operands.pipeline = Pipeline(0);
  std::vector<uint8_t> out;
  std::string err;
  EXPECT_FALSE(writeBinary(p, out, err));
  EXPECT_NE(err.find("invalid pipeline type 0"), std::string::npos) << err;
}

namespace {
/// A 2x2 program whose cluster 0 holds the single command `c`.
std::vector<uint8_t> oneCommand(const Command &c) {
  Program p;
  p.gridRows = p.gridCols = 2;
  p.clusters.resize(4);
  p.clusters[0].commands.push_back(c);
  std::vector<uint8_t> b;
  std::string err;
  EXPECT_TRUE(writeBinary(p, b, err)) << err;
  return b;
}
/// Offset of the payload of section `index` (0 SYMB, 1 CNST, 2 PCKT, 3
/// LAYR).
size_t sectionPayload(const std::vector<uint8_t> &b, int index) {
  size_t pos = kBinaryHeaderBytes;
  for (int s = 0; s < index; ++s) {
    uint64_t size = 0;
    for (int i = 0; i < 8; ++i)
      size |= uint64_t(b[pos + 8 + i]) << (8 * i);
    pos += 16 + size;
  }
  return pos + 16;
}
/// Reads `b` after `edit` with a consistent header; returns the error.
template <typename F> std::string corrupted(std::vector<uint8_t> b, F edit) {
  edit(b);
  fixHeader(b);
  return readErr(b);
}
} // namespace

TEST(Binary, OldVersionIsRefused) {
  // Version 4 had no layer table and no layer ids on commands.
  std::vector<uint8_t> b = writeBinary(makeFullProgram());
  put32(b, 8, 4);
  EXPECT_EQ(readErr(b), "binary format version 4 is not supported (this "
                        "build reads version 5; recompile the model)");
  // The version is checked before anything else of the header.
  b.resize(12);
  EXPECT_EQ(readErr(b), "binary format version 4 is not supported (this "
                        "build reads version 5; recompile the model)");
  put32(b, 8, 2);
  EXPECT_EQ(readErr(b), "binary format version 2 is not supported (this "
                        "build reads version 5; recompile the model)");
}

TEST(Binary, SendSignalRecvAreCheckedByTheReader) {
  Command send;
  send.kind = CommandKind::Send;
  send.mesh->targets = {0, 3};
  send.mesh->bytes = 64;
  send.mesh->sem = 9;
  std::vector<uint8_t> full = oneCommand(send);
  size_t at = firstCommandOffset(full);
  ASSERT_EQ(full[at], kPacketSend);
  size_t sem = at + 14, count = at + 18, target = at + 22;
  EXPECT_EQ(corrupted(full, [&](auto &b) { put32(b, target + 4, 4); }),
            "binary: target cluster 4 is outside the grid of 4 clusters at "
            "offset " +
                std::to_string(target + 4));
  EXPECT_EQ(corrupted(full, [&](auto &b) { put32(b, target + 4, 0); }),
            "binary: targets are not in ascending order without repeats at "
            "offset " +
                std::to_string(target + 4));
  EXPECT_EQ(corrupted(full, [&](auto &b) { put32(b, sem, 4096); }),
            "binary: semaphore 4096 out of range [0, 4096) at offset " +
                std::to_string(sem));
  std::string err =
      corrupted(full, [&](auto &b) { put32(b, count, 0xFFFFFFFFu); });
  EXPECT_NE(err.find("target count 4294967295 is more than the remaining"),
            std::string::npos)
      << err;
  // Count 0 is an empty list; the 8 target bytes then trail the stream.
  EXPECT_EQ(corrupted(full, [&](auto &b) { put32(b, count, 0); }),
            "binary: empty target list at offset " + std::to_string(count));

  Command recv;
  recv.kind = CommandKind::Recv;
  recv.sem = 1;
  recv.count = 2;
  full = oneCommand(recv);
  at = firstCommandOffset(full);
  ASSERT_EQ(full[at], kPacketRecv);
  EXPECT_EQ(corrupted(full, [&](auto &b) { put32(b, at + 5, 0); }),
            "binary: RECV count 0 (must be >= 1) at offset " +
                std::to_string(at + 5));

  Command signal;
  signal.kind = CommandKind::Signal;
  signal.mesh->targets = {2};
  full = oneCommand(signal);
  at = firstCommandOffset(full);
  ASSERT_EQ(full[at], kPacketSignal);
  EXPECT_NE(corrupted(full, [&](auto &b) { put32(b, at + 9, 77); })
                .find("target cluster 77 is outside the grid"),
            std::string::npos);
}

TEST(Binary, RemoteLoadSourceIsCheckedByTheReader) {
  Command dma;
  dma.kind = CommandKind::Dma;
  dma.dma.dir = DmaDir::RemoteLoad;
  dma.dma.srcCluster = 2;
  std::vector<uint8_t> full = oneCommand(dma);
  size_t at = firstCommandOffset(full), src = at + 1 + 104;
  ASSERT_EQ(full[src], 2);
  EXPECT_EQ(corrupted(full, [&](auto &b) { put32(b, src, 4); }),
            "binary: remote_load source cluster 4 is outside the grid of 4 "
            "clusters at offset " +
                std::to_string(src));
  EXPECT_EQ(corrupted(full, [&](auto &b) { b[at + 1] = 0; }),
            "binary: a load DMA has no source cluster (2) at offset " +
                std::to_string(src));
  // The writer refuses what the reader would refuse.
  Program p;
  p.clusters.resize(1);
  dma.dma.dir = DmaDir::Store;
  p.clusters[0].commands.push_back(dma);
  std::vector<uint8_t> out;
  std::string err;
  EXPECT_FALSE(writeBinary(p, out, err));
  EXPECT_NE(err.find("a store DMA has no source cluster (srcCluster 2)"),
            std::string::npos)
      << err;
}

TEST(Binary, PacketsAreCheckedByTheReader) {
  std::vector<uint8_t> full = writeBinary(makeFullProgram());
  size_t pk = sectionPayload(full, 2);
  ASSERT_EQ(full[pk], 2); // two packets
  size_t first = pk + 4;
  ASSERT_EQ(full[first], 2); // cluster 2
  EXPECT_EQ(corrupted(full, [&](auto &b) { put32(b, first, 4); }),
            "binary: packet cluster 4 is outside the grid of 4 clusters at "
            "offset " +
                std::to_string(first));
  std::string err =
      corrupted(full, [&](auto &b) { put64(b, first + 16, 1ull << 40); });
  EXPECT_NE(err.find("marker size 1099511627776 exceeds the remaining"),
            std::string::npos)
      << err;
  err = corrupted(full, [&](auto &b) { put32(b, first + 24, 0xFFFFFFFFu); });
  EXPECT_NE(err.find("packet block count 4294967295 is more than"),
            std::string::npos)
      << err;
  err = corrupted(full, [&](auto &b) { put32(b, pk, 0x10000000u); });
  EXPECT_NE(err.find("packet count 268435456 is more than"), std::string::npos)
      << err;
}

TEST(Binary, PiecesAndReplicasRoundTrip) {
  Program p = makePiecedProgram();
  std::vector<uint8_t> bytes;
  std::string err;
  ASSERT_TRUE(writeBinary(p, bytes, err)) << err;
  Program q;
  ASSERT_TRUE(readBinary(bytes.data(), bytes.size(), q, err)) << err;
  EXPECT_EQ(diffPrograms(p, q), "");
  ASSERT_EQ(q.symbols[0].pieces.size(), 3u);
  EXPECT_EQ(q.symbols[0].pieces[1], (DramPiece{0, 8, 768}));
  EXPECT_EQ(q.symbols[1].pieces[1], (DramPiece{4, 4, 1536}));
  EXPECT_TRUE(q.symbols[2].pieces.empty());
  EXPECT_EQ(q.constants[0].replicas, (std::vector<uint64_t>{12288, 16384}));
  EXPECT_TRUE(q.constants[1].replicas.empty());
  EXPECT_EQ(writeBinary(q), bytes);
  // 24 bytes per piece, 8 per replica address on top of the dense layout
  // (whose records already hold the zero counts).
  EXPECT_EQ(bytes.size(),
            writeBinary(makeFullProgram()).size() + 5 * 24 + 2 * 8);
}

TEST(Binary, PieceAndReplicaCountsAreCheckedByTheReader) {
  std::vector<uint8_t> full = writeBinary(makePiecedProgram());
  // Symbol 0 ("input0", rank 2): count, name length, name, kind, dtype,
  // rank, address, dims, then the piece count.
  size_t pieces = sectionPayload(full, 0) + 4 + 2 + 6 + 1 + 1 + 2 + 8 + 2 * 8;
  ASSERT_EQ(full[pieces], 3);
  std::string err =
      corrupted(full, [&](auto &b) { put32(b, pieces, 0xFFFFFFFFu); });
  EXPECT_NE(err.find("symbol piece count 4294967295 is more than the "
                     "remaining"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("at offset " + std::to_string(pieces)), std::string::npos)
      << err;
  // The last symbol (no pieces) ends the section: a count of 1 finds no
  // bytes left.
  size_t lastPieces = sectionPayload(full, 1) - 16 - 4;
  EXPECT_EQ(corrupted(full, [&](auto &b) { put32(b, lastPieces, 1); }),
            "binary: symbol piece count 1 is more than the remaining 0 bytes "
            "can hold at offset " +
                std::to_string(lastPieces));
  // Constant segment 0: count, address, then the replica count.
  size_t replicas = sectionPayload(full, 1) + 4 + 8;
  ASSERT_EQ(full[replicas], 2);
  err = corrupted(full, [&](auto &b) { put32(b, replicas, 0x20000000u); });
  EXPECT_NE(err.find("constant replica count 536870912 is more than the "
                     "remaining"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("at offset " + std::to_string(replicas)),
            std::string::npos)
      << err;
  // The last segment (no replicas, no bytes): a replica count of 1 takes
  // the byte count as its address and the byte count is then missing.
  size_t lastReplicas = sectionPayload(full, 2) - 16 - 12;
  EXPECT_EQ(corrupted(full, [&](auto &b) { put32(b, lastReplicas, 1); }),
            "binary: truncated constant segment (need 8 bytes, 0 left) at "
            "offset " +
                std::to_string(lastReplicas + 12));
}

TEST(Binary, EveryTruncationOfPiecesFails) {
  std::vector<uint8_t> full = writeBinary(makePiecedProgram());
  for (size_t n = kBinaryHeaderBytes; n < full.size(); ++n) {
    std::vector<uint8_t> b(full.begin(), full.begin() + n);
    fixHeader(b);
    std::string err = readErr(b);
    EXPECT_NE(err.find("offset"), std::string::npos) << n << ": " << err;
  }
}

TEST(Binary, RandomCorruptionOfPiecesIsCanonical) {
  std::vector<uint8_t> full = writeBinary(makePiecedProgram());
  // Mutate only the SYMB and CNST sections, where the pieces and replicas
  // live.
  size_t end = sectionPayload(full, 2) - 16;
  std::mt19937 rng(777);
  int accepted = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    std::vector<uint8_t> b = full;
    size_t at = kBinaryHeaderBytes + rng() % (end - kBinaryHeaderBytes);
    b[at] = uint8_t(rng());
    fixHeader(b);
    Program p;
    std::string err;
    if (readBinary(b.data(), b.size(), p, err)) {
      ++accepted;
      EXPECT_EQ(writeBinary(p), b) << "iteration " << iter;
    } else {
      EXPECT_EQ(err.rfind("binary: ", 0), 0u) << err;
      EXPECT_NE(err.find("offset"), std::string::npos) << err;
    }
  }
  // Addresses, offsets and sizes of pieces are free values: many
  // mutations are accepted (the validator judges them).
  EXPECT_GT(accepted, 100);
}

TEST(Binary, PiecesAreStoredAsGiven) {
  // Semantics of pieces are validateProgram's: the writer stores even an
  // empty or out-of-order list as it is, and the reader gives it back.
  Program p = makeFullProgram();
  p.symbols[0].pieces = {{8, 0, 4}, {0, 99, 1u << 30}};
  p.constants[2].replicas = {9000};
  std::vector<uint8_t> b;
  std::string err;
  ASSERT_TRUE(writeBinary(p, b, err)) << err;
  Program q;
  ASSERT_TRUE(readBinary(b.data(), b.size(), q, err)) << err;
  EXPECT_EQ(diffPrograms(p, q), "");
}

TEST(Binary, LayerTableRoundTrip) {
  Program p = makeLayeredProgram();
  std::vector<uint8_t> bytes;
  std::string err;
  ASSERT_TRUE(writeBinary(p, bytes, err)) << err;
  Program q;
  ASSERT_TRUE(readBinary(bytes.data(), bytes.size(), q, err)) << err;
  EXPECT_EQ(diffPrograms(p, q), "");
  ASSERT_EQ(q.layers.size(), 3u);
  EXPECT_EQ(q.layers[0].name, "/backbone/conv1/Conv");
  EXPECT_EQ(q.layers[0].opKind, "Conv");
  EXPECT_EQ(q.layers[0].macs, 118013952u);
  EXPECT_EQ(q.layers[0].compulsoryBytes, 639232u);
  EXPECT_EQ(q.layers[0].weightBytes, 37632u);
  EXPECT_EQ(q.layers[0].fused, (std::vector<std::string>{"bn1", "relu1"}));
  EXPECT_TRUE(q.layers[1].name.empty() && q.layers[1].fused.empty());
  EXPECT_EQ(q.layers[2].macs, 1ull << 40);
  EXPECT_EQ(q.clusters[0].commands[0].layer, 0u);
  EXPECT_EQ(q.clusters[0].commands[1].layer, Command::kNoLayer);
  EXPECT_EQ(q.clusters[0].commands[2].layer, 2u);
  EXPECT_EQ(writeBinary(q), bytes);
  // Per layer: 2 + name + 2 + kind + 3 * 8 + 4 + (2 + name) per fused.
  size_t table =
      (2 + 20 + 2 + 4 + 28 + 2 + 3 + 2 + 5) + (4 + 28) + (2 + 2 + 2 + 4 + 28);
  EXPECT_EQ(bytes.size(), writeBinary(makeFullProgram()).size() + table);
}

TEST(Binary, LayerTableIsCheckedByTheReader) {
  std::vector<uint8_t> full = writeBinary(makeLayeredProgram());
  size_t layr = sectionPayload(full, 3);
  ASSERT_EQ(full[layr], 3); // three layers
  std::string err =
      corrupted(full, [&](auto &b) { put32(b, layr, 0xFFFFFFFFu); });
  EXPECT_NE(err.find("layer count 4294967295 is more than the remaining"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("at offset " + std::to_string(layr)), std::string::npos)
      << err;
  // The first layer's name length past the section end.
  err = corrupted(full, [&](auto &b) { b[layr + 5] = 0xFF; });
  EXPECT_NE(err.find("truncated layer name"), std::string::npos) << err;
  // Fused count of layer 0 (after count, name, kind, three u64).
  size_t fused = layr + 4 + 2 + 20 + 2 + 4 + 24;
  ASSERT_EQ(full[fused], 2);
  err = corrupted(full, [&](auto &b) { put32(b, fused, 0x40000000u); });
  EXPECT_NE(err.find("fused operator count 1073741824 is more than"),
            std::string::npos)
      << err;
  // Layer ids are free values for the reader (the validator checks them):
  // any id reads and writes back the same bytes.
  size_t id = firstCommandOffset(full) - 4;
  std::vector<uint8_t> b = full;
  put32(b, id, 1234);
  fixHeader(b);
  Program p;
  ASSERT_TRUE(readBinary(b.data(), b.size(), p, err)) << err;
  EXPECT_EQ(p.clusters[0].commands[0].layer, 1234u);
  EXPECT_EQ(writeBinary(p), b);
}

// Names are UTF-8: stats.json, the trace and the report print them (a
// node name with a 0xFF byte made accel-run fail with an internal JSON
// error and an empty stats.json). The writer refuses such a name, and so
// does the reader, at the name's offset.
TEST(Binary, NamesThatAreNotUtf8AreRefused) {
  Program p = makeLayeredProgram();
  p.layers[0].name = "/backbone/conv1/Con\xFF"; // same length, 20 bytes
  std::vector<uint8_t> bytes;
  std::string err;
  EXPECT_FALSE(writeBinary(p, bytes, err));
  EXPECT_NE(err.find("layer 0: name '/backbone/conv1/Con\\xFF' is not valid "
                     "UTF-8"),
            std::string::npos)
      << err;
  std::vector<uint8_t> full = writeBinary(makeLayeredProgram());
  size_t name = sectionPayload(full, 3) + 4 + 2; // count, name length
  ASSERT_EQ(full[name + 19], 'v');
  err = corrupted(full, [&](auto &b) { b[name + 19] = 0xFF; });
  EXPECT_NE(err.find("layer name '/backbone/conv1/Con\\xFF' is not valid "
                     "UTF-8"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("at offset " + std::to_string(name)), std::string::npos)
      << err;
  // A fused operator's name, a two-byte sequence cut short.
  size_t fused = name + 20 + 2 + 4 + 24 + 4 + 2; // "bn1"
  ASSERT_EQ(full[fused], 'b');
  err = corrupted(full, [&](auto &b) { b[fused + 2] = 0xC3; });
  EXPECT_NE(err.find("fused operator name 'bn\\xC3' is not valid UTF-8"),
            std::string::npos)
      << err;
}

TEST(Binary, LayerWeightsAboveItsCompulsoryBytesAreRefused) {
  // The ISA dialect's verifier refuses such a layer; the reader accepted it,
  // so `--binary-to-isa` printed text `--isa-to-binary` refused (until
  // 2026-12-07). Layer 0's compulsory bytes (639 232) set to 0: its weights
  // (37 632) exceed them.
  std::vector<uint8_t> full = writeBinary(makeLayeredProgram());
  size_t name = sectionPayload(full, 3) + 4 + 2; // count, name length
  size_t compulsory = name + 20 + 2 + 4 + 8;     // name, kind, macs
  std::string err = corrupted(full, [&](auto &b) {
    for (size_t i = 0; i < 8; ++i)
      b[compulsory + i] = 0;
  });
  EXPECT_NE(err.find("layer '/backbone/conv1/Conv': weight bytes 37632 "
                     "exceed its compulsory bytes 0 (the weights are part "
                     "of them) at offset " +
                     std::to_string(compulsory)),
            std::string::npos)
      << err;
}

TEST(Binary, EveryTruncationOfTheLayerTableFails) {
  std::vector<uint8_t> full = writeBinary(makeLayeredProgram());
  for (size_t n = kBinaryHeaderBytes; n < full.size(); ++n) {
    std::vector<uint8_t> b(full.begin(), full.begin() + n);
    fixHeader(b);
    std::string err = readErr(b);
    EXPECT_NE(err.find("offset"), std::string::npos) << n << ": " << err;
  }
}

// The streamed writer hands out the same bytes as the buffered one, with a
// large constant passed by reference (not copied into one buffer first);
// the checksum over the pieces is the checksum of the whole.
TEST(Binary, StreamedWriterGivesTheSameBytes) {
  Program p = makeFullProgram();
  std::vector<uint8_t> weights;
  target_test::addBorrowedConstant(p, weights, 256 * 1024);

  std::vector<uint8_t> whole;
  std::string err;
  ASSERT_TRUE(writeBinary(p, whole, err)) << err;
  std::vector<uint8_t> streamed;
  size_t pieces = 0;
  bool lent = false;
  ASSERT_TRUE(writeBinaryTo(
      p,
      [&](const uint8_t *d, size_t n) {
        ++pieces;
        lent |= d == weights.data() && n == weights.size();
        streamed.insert(streamed.end(), d, d + n);
        return true;
      },
      err))
      << err;
  EXPECT_EQ(streamed, whole);
  EXPECT_TRUE(lent) << "the weights were copied, not lent";
  EXPECT_GE(pieces, 3u);
  Program back;
  ASSERT_TRUE(readBinary(whole.data(), whole.size(), back, err)) << err;
  ASSERT_EQ(back.constants.size(), p.constants.size());
  const ConstSegment &got = back.constants.back();
  ASSERT_EQ(got.size(), weights.size());
  EXPECT_EQ(0, std::memcmp(got.data(), weights.data(), weights.size()));

  // A sink that fails stops the writer.
  size_t calls = 0;
  EXPECT_FALSE(writeBinaryTo(
      p, [&](const uint8_t *, size_t) { return ++calls < 2; }, err));
  EXPECT_EQ(calls, 2u);
}

TEST(Binary, Crc32UpdateContinuesAChecksum) {
  std::vector<uint8_t> b(1000);
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = uint8_t(i * 31 + 5);
  const uint32_t whole = crc32(b.data(), b.size());
  for (size_t cut : {size_t(0), size_t(1), size_t(15), size_t(64), size_t(333),
                     size_t(999), size_t(1000)}) {
    uint32_t c = crc32Update(0, b.data(), cut);
    EXPECT_EQ(crc32Update(c, b.data() + cut, b.size() - cut), whole) << cut;
  }
  // The IEEE check value.
  const char *nine = "123456789";
  EXPECT_EQ(crc32(reinterpret_cast<const uint8_t *>(nine), 9), 0xCBF43926u);
}
