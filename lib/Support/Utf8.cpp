//===- Utf8.cpp - Names that must be UTF-8 --------------------------------===//

#include "accel/Support/Utf8.h"

#include <cstdint>
#include <cstdio>

namespace accel {

namespace {

/// Length of the well-formed sequence at s[i], 0 when there is none
/// (Unicode's table 3-7 of well-formed byte sequences).
size_t sequenceAt(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return uint8_t(s[k]); };
  const uint8_t b0 = byte(i);
  if (b0 < 0x80)
    return 1;
  size_t len;
  uint8_t lo = 0x80, hi = 0xBF; // range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF)
    len = 2;
  else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    if (b0 == 0xE0)
      lo = 0xA0; // no overlong forms
    if (b0 == 0xED)
      hi = 0x9F; // no surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    if (b0 == 0xF0)
      lo = 0x90;
    if (b0 == 0xF4)
      hi = 0x8F; // nothing above U+10FFFF
  } else
    return 0;
  if (i + len > s.size() || byte(i + 1) < lo || byte(i + 1) > hi)
    return 0;
  for (size_t k = 2; k < len; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF)
      return 0;
  return len;
}

} // namespace

bool isValidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    size_t n = sequenceAt(s, i);
    if (!n)
      return false;
    i += n;
  }
  return true;
}

std::string escapeInvalidUtf8(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    size_t n = sequenceAt(s, i);
    if (n == 1 && s[i] == '\\') {
      out += "\\\\";
    } else if (n) {
      out.append(s.substr(i, n));
    } else {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02X", unsigned(uint8_t(s[i])));
      out += hex;
      n = 1;
    }
    i += n;
  }
  return out;
}

} // namespace accel
