//===- TensorIOTest.cpp - .npy and TensorProto readers/writers ------------===//
#include "accel/Sim/TensorIO.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>

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
    std::vector<uint8_t> b;
    std::string err;
    ASSERT_TRUE(encodeNpy(t, b, err)) << err;
    size_t hlen = b[8] | b[9] << 8;
    EXPECT_EQ((10 + hlen) % 64, 0u);
    EXPECT_EQ(b[10 + hlen - 1], '\n');
    Tensor back;
    ASSERT_TRUE(parseNpy(b.data(), b.size(), back, err)) << err;
    EXPECT_EQ(back.shape, t.shape);
    EXPECT_EQ(back.data, t.data);
  }
  Tensor t;
  t.shape = {5};
  t.data = {1, 2, 3, 4, 5};
  std::vector<uint8_t> b;
  std::string encErr;
  ASSERT_TRUE(encodeNpy(t, b, encErr)) << encErr;
  std::string h(reinterpret_cast<const char *>(b.data()) + 10, 60);
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

// An output is written in its declared type (Tensor::dtype, the symbol's):
// bool, int8, int32 and int64 tensors come back with the same values and
// type; the f32 storage of F16 / BF16 is written as '<f4'.
TEST(TensorIO, NpyWritesDeclaredTypes) {
  struct Case {
    DType dtype;
    const char *descr;
    std::vector<float> values;
  };
  const float nan = std::nanf("");
  const std::vector<Case> cases = {
      {DType::I1, "'|b1'", {0, 1, 1, 0, 1}},
      {DType::I8, "'|i1'", {-128, 127, 0, -1, 5}},
      // The f32 values next to the int32 range's ends: -2^31 and the
      // largest f32 below 2^31.
      {DType::I32, "'<i4'", {-2147483648.0f, 2147483520.0f, 0, -7, 65536}},
      {DType::I64,
       "'<i8'",
       {-9223372036854775808.0f, 4611686018427387904.0f, 0, -3, 16777216}},
      {DType::F16, "'<f4'", {0.5f, -1, 0, 1e30f, nan}},
      {DType::BF16, "'<f4'", {0.5f, -1, 0, 1e30f, 3}},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(dtypeName(c.dtype));
    Tensor t;
    t.shape = {5};
    t.dtype = c.dtype;
    t.data = c.values;
    std::vector<uint8_t> b;
    std::string err;
    ASSERT_TRUE(encodeNpy(t, b, err)) << err;
    size_t hlen = b[8] | b[9] << 8;
    EXPECT_EQ((10 + hlen) % 64, 0u);
    std::string h(reinterpret_cast<const char *>(b.data()) + 10, hlen);
    EXPECT_NE(h.find(std::string("'descr': ") + c.descr), std::string::npos)
        << h;
    EXPECT_EQ(b.size() - 10 - hlen,
              5u * dtypeBytes(c.dtype == DType::F16 || c.dtype == DType::BF16
                                  ? DType::F32
                                  : c.dtype));
    Tensor back;
    ASSERT_TRUE(parseNpy(b.data(), b.size(), back, err)) << err;
    EXPECT_EQ(back.shape, t.shape);
    bool isFloat = c.dtype == DType::F16 || c.dtype == DType::BF16;
    EXPECT_EQ(back.dtype, isFloat ? DType::F32 : c.dtype);
    ASSERT_EQ(back.data.size(), c.values.size());
    for (size_t i = 0; i < c.values.size(); ++i)
      if (std::isnan(c.values[i]))
        EXPECT_TRUE(std::isnan(back.data[i])) << i;
      else
        EXPECT_EQ(back.data[i], c.values[i]) << i;
  }
  // The bytes of a little-endian int64 and of a bool.
  Tensor t;
  t.shape = {1};
  t.dtype = DType::I64;
  t.data = {-2};
  std::vector<uint8_t> b;
  std::string err;
  ASSERT_TRUE(encodeNpy(t, b, err)) << err;
  EXPECT_EQ(
      std::vector<uint8_t>(b.end() - 8, b.end()),
      std::vector<uint8_t>({0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}));
  // I1 is value != 0: 2.5, -1 and NaN are true.
  t.shape = {4};
  t.dtype = DType::I1;
  t.data = {0, 2.5f, -1, nan};
  ASSERT_TRUE(encodeNpy(t, b, err)) << err;
  EXPECT_EQ(std::vector<uint8_t>(b.end() - 4, b.end()),
            std::vector<uint8_t>({0, 1, 1, 1}));
  // writeNpy / readNpy keep the type.
  std::string path = ::testing::TempDir() + "/accel-tensorio-i64.npy";
  t.shape = {2, 2};
  t.dtype = DType::I64;
  t.data = {1, -1, 123456, 0};
  ASSERT_TRUE(writeNpy(path, t, err)) << err;
  Tensor back;
  ASSERT_TRUE(readNpy(path, back, err)) << err;
  EXPECT_EQ(back.dtype, DType::I64);
  EXPECT_EQ(back.shape, t.shape);
  EXPECT_EQ(back.data, t.data);
}

// An integer value that is not finite, not whole or out of the type's
// range is a defect and is reported with its element, never truncated.
TEST(TensorIO, NpyRejectsInexactIntegers) {
  const float inf = std::numeric_limits<float>::infinity();
  struct Case {
    DType dtype;
    float value;
    const char *message;
  };
  const std::vector<Case> cases = {
      {DType::I64, 2.5f,
       "element 1 is 2.5, not an i64 value (not a whole "
       "number)"},
      {DType::I32, std::nanf(""),
       "element 1 is nan, not an i32 value (not "
       "finite)"},
      {DType::I64, -inf, "element 1 is -inf, not an i64 value (not finite)"},
      {DType::I8, 128, "element 1 is 128, not an i8 value (out of range)"},
      {DType::I8, -129, "element 1 is -129, not an i8 value (out of range)"},
      {DType::I32, 2147483648.0f,
       "element 1 is 2147483648, not an i32 value (out of range)"},
      {DType::I64, 9223372036854775808.0f,
       "element 1 is 9223372036854775808, not an i64 value (out of "
       "range)"},
      {DType::I32, -0.25f,
       "element 1 is -0.25, not an i32 value (not a "
       "whole number)"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.message);
    Tensor t;
    t.shape = {3};
    t.dtype = c.dtype;
    t.data = {1, c.value, 0.5f}; // the first bad element is named
    std::string err;
    EXPECT_FALSE(checkDTypeValues(t, err));
    EXPECT_NE(err.find(c.message), std::string::npos) << err;
    EXPECT_NE(err.find("compiler or simulator defect"), std::string::npos)
        << err;
    std::vector<uint8_t> b;
    err.clear();
    EXPECT_FALSE(encodeNpy(t, b, err));
    EXPECT_NE(err.find(c.message), std::string::npos) << err;
    // The same values are fine as f32 (and as a bool).
    for (DType ok : {DType::F32, DType::I1}) {
      t.dtype = ok;
      EXPECT_TRUE(checkDTypeValues(t, err)) << err;
      EXPECT_TRUE(encodeNpy(t, b, err)) << err;
    }
  }
  // writeNpy names the file and writes nothing.
  std::string path = ::testing::TempDir() + "/accel-tensorio-bad.npy";
  std::remove(path.c_str());
  Tensor t;
  t.shape = {2};
  t.dtype = DType::I64;
  t.data = {3, 0.5f};
  std::string err;
  EXPECT_FALSE(writeNpy(path, t, err));
  EXPECT_EQ(err.rfind(path + ": element 1 is 0.5, not an i64 value", 0), 0u)
      << err;
  EXPECT_FALSE(std::ifstream(path).good());
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
