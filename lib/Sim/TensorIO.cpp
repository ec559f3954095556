//===- TensorIO.cpp - .npy and ONNX TensorProto files
//----------------------===//
#include "accel/Sim/TensorIO.h"
#include "accel/Sim/Numerics.h"
#include "accel/Support/FileRead.h"

#include "TensorProtoFields.h"

#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace accel {
namespace {

constexpr char kNpyMagic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

/// The file's bytes, read once (the parsers take them in place: no second
/// copy of a large input).
struct FileBytes {
  std::string s;
  const uint8_t *data() const {
    return reinterpret_cast<const uint8_t *>(s.data());
  }
  size_t size() const { return s.size(); }
};

bool readFile(const std::string &path, FileBytes &bytes, std::string &err) {
  return readRegularFile(path, "tensor file", kMaxDataFileBytes, bytes.s, err);
}

float halfToFloat(uint16_t h) { return halfBitsToFloat(h); }

/// Element kinds shared by both formats.
enum class Elem { F16, F32, F64, I8, I16, I32, I64, U8, U16, U32, U64, Bool };

unsigned elemSize(Elem e) {
  switch (e) {
  case Elem::I8:
  case Elem::U8:
  case Elem::Bool:
    return 1;
  case Elem::F16:
  case Elem::I16:
  case Elem::U16:
    return 2;
  case Elem::F32:
  case Elem::I32:
  case Elem::U32:
    return 4;
  default:
    return 8;
  }
}

/// The DType recorded in Tensor::dtype for a file's element kind: the
/// narrowest of F32 / I8 / I32 / I64 / I1 that holds every value of it.
DType sourceDType(Elem e) {
  switch (e) {
  case Elem::F16:
  case Elem::F32:
  case Elem::F64:
    return DType::F32;
  case Elem::I8:
  case Elem::U8:
    return DType::I8;
  case Elem::I16:
  case Elem::U16:
  case Elem::I32:
    return DType::I32;
  case Elem::U32:
  case Elem::I64:
  case Elem::U64:
    return DType::I64;
  case Elem::Bool:
    return DType::I1;
  }
  return DType::F32;
}

/// Converts `n` packed elements (byte order `little`) to f32.
void convert(const uint8_t *src, uint64_t n, Elem e, bool little, float *dst) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  // Little-endian f32 on a little-endian host (every .npy numpy writes
  // here, the raw data of a FLOAT TensorProto): the bytes as they are.
  if (e == Elem::F32 && little) {
    if (n) // an empty tensor has no buffers (memcpy's pointers must be valid)
      std::memcpy(dst, src, n * 4);
    return;
  }
#endif
  unsigned sz = elemSize(e);
  uint8_t b[8];
  for (uint64_t i = 0; i < n; ++i) {
    const uint8_t *p = src + i * sz;
    for (unsigned k = 0; k < sz; ++k)
      b[k] = little ? p[k] : p[sz - 1 - k];
    uint64_t u = 0;
    for (unsigned k = 0; k < sz; ++k)
      u |= uint64_t(b[k]) << (8 * k);
    float v = 0;
    switch (e) {
    case Elem::F16:
      v = halfToFloat(uint16_t(u));
      break;
    case Elem::F32: {
      uint32_t w = uint32_t(u);
      std::memcpy(&v, &w, 4);
      break;
    }
    case Elem::F64: {
      double d;
      std::memcpy(&d, &u, 8);
      v = float(d);
      break;
    }
    case Elem::I8:
      v = float(int8_t(u));
      break;
    case Elem::I16:
      v = float(int16_t(u));
      break;
    case Elem::I32:
      v = float(int32_t(u));
      break;
    case Elem::I64:
      v = float(int64_t(u));
      break;
    case Elem::U8:
    case Elem::U16:
    case Elem::U32:
    case Elem::U64:
      v = float(u);
      break;
    case Elem::Bool:
      v = u ? 1.0f : 0.0f;
      break;
    }
    dst[i] = v;
  }
}

/// Element count of a shape, or false if a dimension is negative or the
/// count exceeds `limit`.
bool countElements(const std::vector<int64_t> &shape, uint64_t limit,
                   uint64_t &n) {
  n = 1;
  for (int64_t d : shape)
    if (d < 0)
      return false;
  for (int64_t d : shape)
    if (d == 0) {
      n = 0;
      return true;
    }
  for (int64_t d : shape) {
    if (n > limit / uint64_t(d)) {
      n = limit + 1;
      return false;
    }
    n *= uint64_t(d);
  }
  return n <= limit;
}

// --- .npy header (a Python dict literal) ----------------------------------

struct HeaderParser {
  const std::string &h;
  size_t pos = 0;
  void ws() {
    while (pos < h.size() && (h[pos] == ' ' || h[pos] == '\t' ||
                              h[pos] == '\n' || h[pos] == '\r'))
      ++pos;
  }
  bool eat(char c) {
    ws();
    if (pos < h.size() && h[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  bool str(std::string &out) {
    ws();
    if (pos >= h.size() || (h[pos] != '\'' && h[pos] != '"'))
      return false;
    char q = h[pos++];
    size_t end = h.find(q, pos);
    if (end == std::string::npos)
      return false;
    out = h.substr(pos, end - pos);
    pos = end + 1;
    return true;
  }
  bool integer(int64_t &v) {
    ws();
    size_t start = pos;
    while (pos < h.size() && isdigit((unsigned char)h[pos]))
      ++pos;
    if (pos == start || pos - start > 18)
      return false;
    v = std::stoll(h.substr(start, pos - start));
    if (pos < h.size() && h[pos] == 'L') // Python 2 long
      ++pos;
    return true;
  }
  bool word(std::string &out) {
    ws();
    size_t start = pos;
    while (pos < h.size() && isalpha((unsigned char)h[pos]))
      ++pos;
    out = h.substr(start, pos - start);
    return !out.empty();
  }
};

bool parseDescr(const std::string &d, Elem &e, bool &little) {
  if (d.size() < 3)
    return false;
  char order = d[0];
  if (order == '<' || order == '|' || order == '=')
    little = true;
  else if (order == '>')
    little = false;
  else
    return false;
  std::string t = d.substr(1);
  static const std::pair<const char *, Elem> kinds[] = {
      {"f2", Elem::F16}, {"f4", Elem::F32}, {"f8", Elem::F64},
      {"i1", Elem::I8},  {"i2", Elem::I16}, {"i4", Elem::I32},
      {"i8", Elem::I64}, {"u1", Elem::U8},  {"u2", Elem::U16},
      {"u4", Elem::U32}, {"u8", Elem::U64}, {"b1", Elem::Bool}};
  for (auto &k : kinds)
    if (t == k.first) {
      e = k.second;
      return true;
    }
  return false;
}

} // namespace

bool parseNpy(const uint8_t *data, size_t size, Tensor &out, std::string &err) {
  if (size < 10 || std::memcmp(data, kNpyMagic, 6) != 0) {
    err = "not a .npy file (bad magic)";
    return false;
  }
  unsigned major = data[6];
  size_t hlen, hstart;
  if (major == 1) {
    hlen = size_t(data[8]) | size_t(data[9]) << 8;
    hstart = 10;
  } else if (major == 2 || major == 3) {
    if (size < 12) {
      err = ".npy header truncated";
      return false;
    }
    hlen = size_t(data[8]) | size_t(data[9]) << 8 | size_t(data[10]) << 16 |
           size_t(data[11]) << 24;
    hstart = 12;
  } else {
    err = ".npy format version " + std::to_string(major) + "." +
          std::to_string(data[7]) + " is not supported";
    return false;
  }
  if (hlen > size - hstart) {
    err =
        ".npy header length " + std::to_string(hlen) + " exceeds the file size";
    return false;
  }
  std::string header(reinterpret_cast<const char *>(data + hstart), hlen);
  HeaderParser hp{header};
  std::string descr;
  bool fortran = false, haveDescr = false, haveShape = false;
  std::vector<int64_t> shape;
  auto bad = [&](const std::string &what) {
    err = ".npy header: " + what + " in " + header;
    while (!err.empty() && (err.back() == '\n' || err.back() == ' '))
      err.pop_back();
    return false;
  };
  if (!hp.eat('{'))
    return bad("expected '{'");
  while (!hp.eat('}')) {
    std::string key;
    if (!hp.str(key) || !hp.eat(':'))
      return bad("expected 'key':");
    if (key == "descr") {
      if (!hp.str(descr))
        return bad("descr must be a simple type string (structured dtypes "
                   "are not supported)");
      haveDescr = true;
    } else if (key == "fortran_order") {
      std::string w;
      if (!hp.word(w) || (w != "True" && w != "False"))
        return bad("fortran_order must be True or False");
      fortran = w == "True";
    } else if (key == "shape") {
      if (!hp.eat('('))
        return bad("shape must be a tuple");
      while (!hp.eat(')')) {
        int64_t v;
        if (!hp.integer(v))
          return bad("bad shape dimension");
        shape.push_back(v);
        if (!hp.eat(',') &&
            !(hp.ws(), hp.pos < header.size() && header[hp.pos] == ')'))
          return bad("expected ',' or ')' in shape");
      }
      haveShape = true;
    } else {
      return bad("unknown key '" + key + "'");
    }
    if (!hp.eat(',') &&
        !(hp.ws(), hp.pos < header.size() && header[hp.pos] == '}'))
      return bad("expected ',' or '}'");
  }
  if (!haveDescr || !haveShape)
    return bad("missing descr or shape");
  if (fortran) {
    err = ".npy array is in Fortran order (fortran_order: True); save it in "
          "C order (numpy.ascontiguousarray) instead";
    return false;
  }
  Elem e;
  bool little;
  if (!parseDescr(descr, e, little)) {
    err = ".npy dtype '" + descr +
          "' is not supported (f2/f4/f8, i1-i8, u1-u8, b1)";
    return false;
  }
  size_t dataStart = hstart + hlen;
  uint64_t avail = size - dataStart;
  uint64_t n;
  if (!countElements(shape, avail, n) || n * elemSize(e) != avail) {
    uint64_t need;
    countElements(shape, UINT64_MAX / 16, need);
    err = ".npy data size mismatch: shape " + shapeToString(shape) + " of '" +
          descr + "' needs " + std::to_string(need * elemSize(e)) +
          " bytes, the file holds " + std::to_string(avail);
    return false;
  }
  out.shape = shape;
  out.dtype = sourceDType(e);
  out.data.assign(n, 0.0f);
  convert(data + dataStart, n, e, little, out.data.data());
  return true;
}

const char *npyDescr(DType t) {
  switch (t) {
  case DType::I1:
    return "|b1";
  case DType::I8:
    return "|i1";
  case DType::I32:
    return "<i4";
  case DType::I64:
    return "<i8";
  case DType::F32:
  case DType::F16:
  case DType::BF16:
    break;
  }
  return "<f4";
}

namespace {
/// Bytes of one element as npyDescr(t) writes it.
unsigned npyElementBytes(DType t) {
  switch (t) {
  case DType::I1:
  case DType::I8:
    return 1;
  case DType::I64:
    return 8;
  default:
    return 4;
  }
}

/// The range [lo, hi) of an integer DType as doubles (every bound is a power
/// of two, exact in double and f32); false for the other types.
bool integerRange(DType t, double &lo, double &hi) {
  switch (t) {
  case DType::I8:
    lo = -128.0;
    hi = 128.0;
    return true;
  case DType::I32:
    lo = -2147483648.0; // -2^31
    hi = 2147483648.0;
    return true;
  case DType::I64:
    lo = -9223372036854775808.0; // -2^63
    hi = 9223372036854775808.0;
    return true;
  default:
    return false;
  }
}
} // namespace

bool checkDTypeValues(const Tensor &t, std::string &err) {
  double lo, hi;
  if (!integerRange(t.dtype, lo, hi))
    return true;
  for (size_t i = 0; i < t.data.size(); ++i) {
    double v = t.data[i];
    const char *why = nullptr;
    if (!std::isfinite(v))
      why = "not finite";
    else if (std::trunc(v) != v)
      why = "not a whole number";
    else if (v < lo || v >= hi)
      why = "out of range";
    if (!why)
      continue;
    // A whole number in full ("2147483648"), anything else to f32 precision.
    char value[64];
    std::snprintf(value, sizeof value,
                  std::isfinite(v) && std::trunc(v) == v ? "%.0f" : "%.9g", v);
    char buf[160];
    std::snprintf(buf, sizeof buf, "element %zu is %s, not an %s value (%s)", i,
                  value, dtypeName(t.dtype), why);
    err = std::string(buf) +
          "; an integer output holds whole numbers, so this is a compiler or "
          "simulator defect (the value is not rounded or truncated)";
    return false;
  }
  return true;
}

bool encodeNpy(const Tensor &t, std::vector<uint8_t> &out, std::string &err) {
  if (!checkDTypeValues(t, err))
    return false;
  std::string shape = "(";
  for (size_t i = 0; i < t.shape.size(); ++i)
    shape += std::to_string(t.shape[i]) + (t.shape.size() == 1 ? "," : "") +
             (i + 1 < t.shape.size() ? ", " : "");
  shape += ")";
  std::string header = std::string("{'descr': '") + npyDescr(t.dtype) +
                       "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  out.assign(kNpyMagic, kNpyMagic + 6);
  out.push_back(1);
  out.push_back(0);
  out.push_back(uint8_t(header.size() & 0xff));
  out.push_back(uint8_t(header.size() >> 8));
  out.insert(out.end(), header.begin(), header.end());
  size_t off = out.size();
  const unsigned sz = npyElementBytes(t.dtype);
  out.resize(off + t.data.size() * sz);
  for (size_t i = 0; i < t.data.size(); ++i) {
    float v = t.data[i];
    uint64_t w; // the element's bits, written little-endian
    switch (t.dtype) {
    case DType::I1:
      w = v != 0.0f; // NaN is true, as numpy's astype(bool)
      break;
    case DType::I8:
    case DType::I32:
    case DType::I64:
      w = uint64_t(int64_t(v)); // exact: checkDTypeValues
      break;
    default: {
      uint32_t bits;
      std::memcpy(&bits, &v, 4);
      w = bits;
      break;
    }
    }
    for (unsigned k = 0; k < sz; ++k)
      out[off + sz * i + k] = uint8_t(w >> (8 * k));
  }
  return true;
}

bool readNpy(const std::string &path, Tensor &out, std::string &err) {
  FileBytes bytes;
  if (!readFile(path, bytes, err))
    return false;
  if (!parseNpy(bytes.data(), bytes.size(), out, err)) {
    err = path + ": " + err;
    return false;
  }
  return true;
}

bool writeNpy(const std::string &path, const Tensor &t, std::string &err) {
  if (t.data.size() != t.numElements()) {
    err = path + ": tensor holds " + std::to_string(t.data.size()) +
          " values but its shape " + shapeToString(t.shape) + " needs " +
          std::to_string(t.numElements());
    return false;
  }
  std::vector<uint8_t> bytes;
  if (!encodeNpy(t, bytes, err)) {
    err = path + ": " + err;
    return false;
  }
  std::ofstream out(path, std::ios::binary);
  if (!out) {
    err = path + ": cannot open for writing";
    return false;
  }
  out.write(reinterpret_cast<const char *>(bytes.data()),
            std::streamsize(bytes.size()));
  out.close(); // a full disk shows only when the buffer goes out
  if (!out) {
    err = path + ": write error";
    return false;
  }
  return true;
}

bool parseTensorProto(const uint8_t *data, size_t size, Tensor &out,
                      std::string &err, std::string *name) {
  sim::TensorProtoFields tp;
  if (!sim::decodeTensorProto(data, size, tp, err))
    return false;
  if (tp.external) {
    err = "TensorProto with external data is not supported";
    return false;
  }
  if (tp.segmented) {
    err = "segmented TensorProto is not supported";
    return false;
  }
  std::vector<int64_t> shape = tp.dims;
  uint64_t n;
  if (!countElements(shape, uint64_t(1) << 40, n)) {
    err = "TensorProto has invalid dims " + shapeToString(shape);
    return false;
  }
  Elem e;
  switch (tp.dataType) {
  case sim::kProtoFloat:
    e = Elem::F32;
    break;
  case sim::kProtoDouble:
    e = Elem::F64;
    break;
  case sim::kProtoFloat16:
    e = Elem::F16;
    break;
  case sim::kProtoInt8:
    e = Elem::I8;
    break;
  case sim::kProtoInt16:
    e = Elem::I16;
    break;
  case sim::kProtoInt32:
    e = Elem::I32;
    break;
  case sim::kProtoInt64:
    e = Elem::I64;
    break;
  case sim::kProtoUint8:
    e = Elem::U8;
    break;
  case sim::kProtoUint16:
    e = Elem::U16;
    break;
  case sim::kProtoUint32:
    e = Elem::U32;
    break;
  case sim::kProtoUint64:
    e = Elem::U64;
    break;
  case sim::kProtoBool:
    e = Elem::Bool;
    break;
  default:
    err = "TensorProto data type " + std::to_string(tp.dataType) +
          " is not supported";
    return false;
  }
  std::vector<float> values;
  auto mismatch = [&](uint64_t have) {
    err = "TensorProto dims " + shapeToString(shape) + " need " +
          std::to_string(n) + " values, it holds " + std::to_string(have);
    return false;
  };
  if (tp.hasRaw) {
    const std::string &raw = tp.raw;
    if (raw.size() != n * elemSize(e))
      return mismatch(raw.size() / elemSize(e));
    values.resize(n);
    convert(reinterpret_cast<const uint8_t *>(raw.data()), n, e, true,
            values.data());
  } else {
    switch (e) {
    case Elem::F32:
      values = std::move(tp.floats);
      break;
    case Elem::F64:
      for (double d : tp.doubles)
        values.push_back(float(d));
      break;
    case Elem::I64:
      for (int64_t v : tp.int64s)
        values.push_back(float(v));
      break;
    case Elem::U32:
    case Elem::U64:
      for (uint64_t v : tp.uint64s)
        values.push_back(float(v));
      break;
    case Elem::F16:
      for (int32_t v : tp.int32s)
        values.push_back(halfToFloat(uint16_t(v)));
      break;
    case Elem::U8:
    case Elem::U16:
      for (int32_t v : tp.int32s)
        values.push_back(float(uint32_t(v)));
      break;
    default: // I8, I16, I32, Bool
      for (int32_t v : tp.int32s)
        values.push_back(float(v));
      break;
    }
    if (values.size() != n)
      return mismatch(values.size());
  }
  out.shape = std::move(shape);
  out.data = std::move(values);
  out.dtype = sourceDType(e);
  if (name)
    *name = tp.name;
  return true;
}

bool readTensorProto(const std::string &path, Tensor &out, std::string &err,
                     std::string *name) {
  FileBytes bytes;
  if (!readFile(path, bytes, err))
    return false;
  if (!parseTensorProto(bytes.data(), bytes.size(), out, err, name)) {
    err = path + ": " + err;
    return false;
  }
  return true;
}

bool readTensorFile(const std::string &path, Tensor &out, std::string &err) {
  FileBytes bytes;
  if (!readFile(path, bytes, err))
    return false;
  if (bytes.size() == 0) {
    err = path + ": the file is empty (expected a .npy array or a TensorProto)";
    return false;
  }
  bool ok = bytes.size() >= 6 && std::memcmp(bytes.data(), kNpyMagic, 6) == 0
                ? parseNpy(bytes.data(), bytes.size(), out, err)
                : parseTensorProto(bytes.data(), bytes.size(), out, err);
  if (!ok)
    err = path + ": " + err;
  return ok;
}

} // namespace accel
