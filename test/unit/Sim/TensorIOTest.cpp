//===- TensorIOTest.cpp - .npy and TensorProto readers/writers ------------===//
#include "accel/Sim/TensorIO.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>

using namespace accel;

namespace {

/// A version 1.0 .npy with the given header dict text and raw data.
std::vector<uint8_t> npy(const std::string &dict,
                         const std::vector<uint8_t> &data, uint8_t major = 1) {
  std::string h = dict;
  while ((10 + h.size() + 1) % 64)
    h += ' ';
  h += '\n';
  std::vector<uint8_t> b = {0x93, 'N', 'U', 'M', 'P', 'Y', major, 0};
  b.push_back(uint8_t(h.size() & 0xff));
  b.push_back(uint8_t(h.size() >> 8));
  if (major >= 2) {
    b.push_back(0);
    b.push_back(0);
  }
  b.insert(b.end(), h.begin(), h.end());
  b.insert(b.end(), data.begin(), data.end());
  return b;
}

template <class T>
std::vector<uint8_t> raw(std::vector<T> v, bool swap = false) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  if (swap)
    for (size_t i = 0; i < v.size(); ++i)
      std::reverse(b.begin() + i * sizeof(T), b.begin() + (i + 1) * sizeof(T));
  return b;
}

std::string parseErr(const std::vector<uint8_t> &b) {
  Tensor t;
  std::string err;
  return parseNpy(b.data(), b.size(), t, err) ? "<ok>" : err;
}

const char *kReluDir =
    "/usr/share/libonnx-testdata/data/node/test_relu/test_data_set_0";

} // namespace

TEST(TensorIO, NpyRoundTrip) {
  for (std::vector<int64_t> shape :
       {std::vector<int64_t>{2, 3, 4}, {5}, {}, {0, 3}, {1, 1, 1, 7}}) {
    Tensor t;
    t.shape = shape;
    t.data.resize(t.numElements());
    for (size_t i = 0; i < t.data.size(); ++i)
      t.data[i] = float(i) * 0.25f - 3.0f;
    std::vector<uint8_t> b = encodeNpy(t);
    size_t hlen = b[8] | b[9] << 8;
    EXPECT_EQ((10 + hlen) % 64, 0u);
    EXPECT_EQ(b[10 + hlen - 1], '\n');
    Tensor back;
    std::string err;
    ASSERT_TRUE(parseNpy(b.data(), b.size(), back, err)) << err;
    EXPECT_EQ(back.shape, t.shape);
    EXPECT_EQ(back.data, t.data);
  }
  Tensor t;
  t.shape = {5};
  t.data = {1, 2, 3, 4, 5};
  std::string h(reinterpret_cast<const char *>(encodeNpy(t).data()) + 10, 60);
  EXPECT_NE(h.find("'descr': '<f4'"), std::string::npos) << h;
  EXPECT_NE(h.find("'shape': (5,)"), std::string::npos) << h;

  std::string path = ::testing::TempDir() + "/accel-tensorio.npy";
  std::string err;
  t.shape = {1, 5};
  ASSERT_TRUE(writeNpy(path, t, err)) << err;
  Tensor back;
  ASSERT_TRUE(readNpy(path, back, err)) << err;
  EXPECT_EQ(back.shape, t.shape);
  EXPECT_EQ(back.data, t.data);
  ASSERT_TRUE(readTensorFile(path, back, err)) << err;
  EXPECT_EQ(back.data, t.data);
  t.data.pop_back();
  EXPECT_FALSE(writeNpy(path, t, err));
  EXPECT_NE(err.find("holds 4 values but its shape [1, 5] needs 5"),
            std::string::npos)
      << err;
}

TEST(TensorIO, NpyConvertsOtherTypes) {
  Tensor t;
  std::string err;
  auto parse = [&](const std::vector<uint8_t> &b) {
    bool ok = parseNpy(b.data(), b.size(), t, err);
    EXPECT_TRUE(ok) << err;
    return t.data;
  };
  EXPECT_EQ(
      parse(npy("{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }",
                raw<double>({1.5, -2, 1e3}))),
      (std::vector<float>{1.5f, -2, 1000}));
  EXPECT_EQ(
      parse(npy("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }",
                raw<float>({3.25f, -1}, true))),
      (std::vector<float>{3.25f, -1}));
  EXPECT_EQ(
      parse(npy("{'descr': '<i8', 'fortran_order': False, 'shape': (2, 1), }",
                raw<int64_t>({-7, 9}))),
      (std::vector<float>{-7, 9}));
  EXPECT_EQ(t.shape, (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(t.dtype, DType::I64); // the source type, for integer inputs
  EXPECT_EQ(
      parse(npy("{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }",
                {0, 200, 255})),
      (std::vector<float>{0, 200, 255}));
  EXPECT_EQ(
      parse(npy("{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }",
                {1, 0})),
      (std::vector<float>{1, 0}));
  EXPECT_EQ(t.dtype, DType::I1);
  EXPECT_EQ(
      parse(npy("{'descr': '<f2', 'fortran_order': False, 'shape': (3,), }",
                raw<uint16_t>({0x3c00, 0xc000, 0x3555}))),
      (std::vector<float>{1.0f, -2.0f, 0.333251953125f}));
  EXPECT_EQ(t.dtype, DType::F32);
  // Version 2.0 header and keys in another order, double quotes.
  EXPECT_EQ(
      parse(
          npy("{\"shape\": (1,), \"fortran_order\": False, \"descr\": \"<i4\"}",
              raw<int32_t>({42}), 2)),
      (std::vector<float>{42}));
  EXPECT_EQ(t.dtype, DType::I32);
}

TEST(TensorIO, NpyErrors) {
  EXPECT_NE(
      parseErr(npy("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }",
                   raw<float>({1, 2, 3, 4})))
          .find("Fortran order"),
      std::string::npos);
  EXPECT_NE(
      parseErr(
          npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }",
              raw<float>({1, 2, 3})))
          .find("data size mismatch: shape [2, 2] of '<f4' needs 16 bytes, "
                "the file holds 12"),
      std::string::npos);
  EXPECT_NE(
      parseErr(npy("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }",
                   raw<float>({1, 2})))
          .find("dtype '<c8' is not supported"),
      std::string::npos);
  EXPECT_NE(parseErr(npy("{'descr': [('a', '<f4')], 'fortran_order': False, "
                         "'shape': (1,), }",
                         raw<float>({1})))
                .find("structured dtypes are not supported"),
            std::string::npos);
  EXPECT_NE(parseErr(npy("{'descr': '<f4', 'shape': (1,), 'extra': 1}",
                         raw<float>({1})))
                .find("unknown key 'extra'"),
            std::string::npos);
  EXPECT_NE(
      parseErr({'N', 'O', 'T', 'N', 'P', 'Y', 1, 0, 0, 0}).find("bad magic"),
      std::string::npos);
  std::vector<uint8_t> b =
      npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }",
          raw<float>({1}));
  b[8] = 0xff; // header length beyond the file
  b[9] = 0xff;
  EXPECT_NE(parseErr(b).find("exceeds the file size"), std::string::npos);
  b = npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }",
          raw<float>({1}));
  b[6] = 9;
  EXPECT_NE(parseErr(b).find("version 9.0 is not supported"),
            std::string::npos);
  Tensor t;
  std::string err;
  EXPECT_FALSE(readNpy("/nonexistent/x.npy", t, err));
  EXPECT_EQ(err, "cannot open tensor file '/nonexistent/x.npy': No such file "
                 "or directory");
}

TEST(TensorIO, OnnxTensorProto) {
  Tensor in, out;
  std::string err, name;
  ASSERT_TRUE(
      readTensorProto(std::string(kReluDir) + "/input_0.pb", in, err, &name))
      << err;
  EXPECT_EQ(in.shape, (std::vector<int64_t>{3, 4, 5}));
  ASSERT_EQ(in.data.size(), 60u);
  EXPECT_EQ(name, "x");
  EXPECT_EQ(in.dtype, DType::F32);
  Tensor lens; // INT32 sequence_lens of an LSTM test
  ASSERT_TRUE(readTensorFile("/usr/share/libonnx-testdata/data/node/"
                             "test_lstm_with_peepholes/test_data_set_0/"
                             "input_4.pb",
                             lens, err))
      << err;
  EXPECT_EQ(lens.dtype, DType::I32);
  ASSERT_TRUE(readTensorFile(std::string(kReluDir) + "/output_0.pb", out, err))
      << err;
  ASSERT_EQ(out.data.size(), 60u);
  bool sawNegative = false;
  for (size_t i = 0; i < 60; ++i) {
    sawNegative |= in.data[i] < 0;
    EXPECT_EQ(out.data[i], std::max(in.data[i], 0.0f));
  }
  EXPECT_TRUE(sawNegative);
  std::vector<uint8_t> junk = {0xff, 0xff, 0xff, 0x01};
  EXPECT_FALSE(parseTensorProto(junk.data(), junk.size(), in, err));
  EXPECT_NE(err.find("not a valid ONNX TensorProto"), std::string::npos) << err;
}
