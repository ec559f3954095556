//===- FileReadTest.cpp - readRegularFile / checkRegularFile --------------===//
#include "accel/Support/FileRead.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace accel;

namespace {

/// A fresh temporary directory, removed with its files at the end.
struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/accel-fileread-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~TempDir() {
    std::string cmd = "rm -rf '" + path + "'";
    (void)std::system(cmd.c_str());
  }
  std::string file(const std::string &name, const std::string &content) {
    std::string p = path + "/" + name;
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }
};

TEST(FileRead, ReadsARegularFile) {
  TempDir dir;
  std::string p = dir.file("a.bin", std::string("ab\0cd", 5));
  std::string bytes, err;
  ASSERT_TRUE(readRegularFile(p, "test file", 100, bytes, err)) << err;
  EXPECT_EQ(bytes, std::string("ab\0cd", 5));
  uint64_t size = 0;
  ASSERT_TRUE(checkRegularFile(p, "test file", 5, size, err)) << err;
  EXPECT_EQ(size, 5u);
}

TEST(FileRead, ReadsIntoTheCallersMemoryOnce) {
  TempDir dir;
  std::string p = dir.file("a.bin", "hello");
  std::vector<uint8_t> buffer;
  int calls = 0;
  std::string err;
  ASSERT_TRUE(readRegularFileInto(
      p, "test file", 100,
      [&](size_t size) {
        ++calls;
        buffer.assign(size, 0);
        return buffer.data();
      },
      err))
      << err;
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(std::string(buffer.begin(), buffer.end()), "hello");
  // The checks come before the placement: a file over the limit never asks
  // for memory.
  EXPECT_FALSE(readRegularFileInto(
      p, "test file", 4, [&](size_t) -> uint8_t * { return ++calls, nullptr; },
      err));
  EXPECT_EQ(calls, 1);
  EXPECT_NE(err.find("larger than the limit of 4 bytes"), std::string::npos)
      << err;
}

TEST(FileRead, ReportsMemoryThePlacementCannotGive) {
  TempDir dir;
  std::string p = dir.file("a.bin", std::string(3000, 'x'));
  std::string err;
  EXPECT_FALSE(readRegularFileInto(
      p, "accelerator binary", 1u << 20,
      [](size_t) -> uint8_t * { throw std::bad_alloc(); }, err));
  EXPECT_EQ(err, "accelerator binary '" + p + "' (3000 bytes): out of memory");
}

TEST(FileRead, RefusesAFileThatChangesSizeWhileRead) {
  TempDir dir;
  std::string p = dir.file("a.bin", "0123456789");
  std::string err;
  std::vector<uint8_t> buffer;
  // The placement runs between fstat and the reads: the file grows there.
  auto growing = [&](size_t size) {
    std::ofstream(p, std::ios::binary | std::ios::app) << "more";
    buffer.assign(size, 0);
    return buffer.data();
  };
  EXPECT_FALSE(readRegularFileInto(p, "tensor file", 100, growing, err));
  EXPECT_EQ(err, "tensor file '" + p +
                     "' changed size while being read (10 bytes when opened)");
  // ... or shrinks.
  auto shrinking = [&](size_t size) {
    EXPECT_EQ(::truncate(p.c_str(), 3), 0);
    buffer.assign(size, 0);
    return buffer.data();
  };
  EXPECT_FALSE(readRegularFileInto(p, "tensor file", 100, shrinking, err));
  EXPECT_EQ(err, "tensor file '" + p +
                     "' changed size while being read (14 bytes when opened)");
}

TEST(FileRead, RefusesAFileOverTheLimit) {
  TempDir dir;
  std::string p = dir.file("big.bin", std::string(2048, 'x'));
  std::string bytes, err;
  EXPECT_FALSE(readRegularFile(p, "hardware description", 1024, bytes, err));
  EXPECT_EQ(err, "hardware description '" + p +
                     "' is 2048 bytes (2 KiB), larger than the limit of 1024 "
                     "bytes (1 KiB)");
  EXPECT_TRUE(bytes.empty());
  uint64_t size;
  EXPECT_FALSE(checkRegularFile(p, "x", 2047, size, err));
  EXPECT_NE(err.find("larger than the limit of 2047 bytes"), std::string::npos)
      << err;
}

TEST(FileRead, RefusesADirectory) {
  TempDir dir;
  std::string bytes, err;
  EXPECT_FALSE(
      readRegularFile(dir.path, "accelerator binary", 100, bytes, err));
  EXPECT_EQ(err, "accelerator binary '" + dir.path +
                     "' is a directory, not a regular file");
}

TEST(FileRead, RefusesCharacterDevices) {
  std::string bytes, err;
  EXPECT_FALSE(
      readRegularFile("/dev/zero", "ONNX model", 1u << 30, bytes, err));
  EXPECT_EQ(err,
            "ONNX model '/dev/zero' is a character device, not a regular file");
  uint64_t size;
  EXPECT_FALSE(checkRegularFile("/dev/urandom", "t", 1, size, err));
  EXPECT_NE(err.find("character device"), std::string::npos) << err;
}

TEST(FileRead, RefusesAFifoWithoutBlocking) {
  TempDir dir;
  std::string p = dir.path + "/fifo";
  ASSERT_EQ(::mkfifo(p.c_str(), 0600), 0);
  std::string bytes, err;
  // Opening a FIFO for reading blocks until a writer appears, unless the
  // helper opens it non-blocking: this test would hang otherwise.
  EXPECT_FALSE(readRegularFile(p, "tensor file", 100, bytes, err));
  EXPECT_NE(err.find("is a FIFO (named pipe), not a regular file"),
            std::string::npos)
      << err;
}

TEST(FileRead, NamesAMissingFile) {
  std::string bytes, err;
  EXPECT_FALSE(
      readRegularFile("/nonexistent/m.onnx", "ONNX model", 100, bytes, err));
  EXPECT_EQ(err,
            "cannot open ONNX model '/nonexistent/m.onnx': No such file or "
            "directory");
}

TEST(FileRead, ResolvesPathsInsideADirectory) {
  TempDir dir;
  ASSERT_EQ(::mkdir((dir.path + "/m").c_str(), 0700), 0);
  dir.file("m/w.bin", "data");
  dir.file("secret.bin", "secret");
  ASSERT_EQ(::symlink("../secret.bin", (dir.path + "/m/link").c_str()), 0);
  std::string resolved, err;
  ASSERT_TRUE(
      resolvePathInside(dir.path + "/m", "w.bin", "data", resolved, err))
      << err;
  EXPECT_EQ(resolved.substr(resolved.size() - 8), "/m/w.bin");
  // A sub-path that comes back inside is fine.
  EXPECT_TRUE(
      resolvePathInside(dir.path + "/m", "../m/w.bin", "data", resolved, err))
      << err;
  EXPECT_FALSE(resolvePathInside(dir.path + "/m", "../secret.bin", "data",
                                 resolved, err));
  EXPECT_NE(err.find("outside the directory"), std::string::npos) << err;
  EXPECT_FALSE(
      resolvePathInside(dir.path + "/m", "link", "data", resolved, err));
  EXPECT_NE(err.find("outside the directory"), std::string::npos) << err;
  EXPECT_FALSE(resolvePathInside(dir.path + "/m", dir.path + "/secret.bin",
                                 "data", resolved, err));
  EXPECT_NE(err.find("not an absolute path"), std::string::npos) << err;
  EXPECT_FALSE(
      resolvePathInside(dir.path + "/m", "nope.bin", "data", resolved, err));
  EXPECT_NE(err.find("No such file or directory"), std::string::npos) << err;
}

} // namespace
