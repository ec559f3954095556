//===- LabelText.cpp - Textual forms of the labels ------------------------===//
//
// The spec's printed forms, `static:in,float32,dim_nc,{1 1024}` and
// `dynamic:float16,dim_nc,c=256,c=0,2048 bytes,c[(0,255),...],mem,none`,
// and their parsers (the MLIR attributes print and parse through these).
//
//===----------------------------------------------------------------------===//
#include "accel/Split/Labels.h"

#include <cctype>
#include <limits>

namespace accel::split {

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

std::string StaticLabel::str() const {
  std::string s = std::string("static:") + categoryCode(category) + "," + type +
                  ",dim_" + dimOrder + ",{";
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? " " : "") + std::to_string(dims[i]);
  return s + "}";
}

bool StaticLabel::operator==(const StaticLabel &o) const {
  return category == o.category && type == o.type && dimOrder == o.dimOrder &&
         dims == o.dims;
}

std::string StorageTarget::str() const {
  std::string s = kind == Mem ? "mem" : "cluster";
  return instance ? s + std::to_string(instance) : s;
}

namespace {
std::string dimValue(char dim, int64_t v) {
  if (!dim)
    return "none";
  return std::string(1, dim) + "=" + std::to_string(v);
}
} // namespace

std::string DynamicLabel::str() const {
  std::string s = "dynamic:" + type + ",dim_" + dimOrder + "," +
                  dimValue(tileDim, tile) + "," + dimValue(padDim, pad) + "," +
                  std::to_string(sizeBytes) + " bytes,";
  if (!splitDim) {
    s += "none";
  } else {
    s += std::string(1, splitDim) + "[";
    for (size_t i = 0; i < ranges.size(); ++i)
      s += (i ? ",(" : "(") + std::to_string(ranges[i].first) + "," +
           std::to_string(ranges[i].second) + ")";
    s += "]";
  }
  return s + "," + store.str() + "," + swapName(swap);
}

bool DynamicLabel::operator==(const DynamicLabel &o) const {
  return type == o.type && dimOrder == o.dimOrder && tileDim == o.tileDim &&
         tile == o.tile && padDim == o.padDim && pad == o.pad &&
         sizeBytes == o.sizeBytes && splitDim == o.splitDim &&
         ranges == o.ranges && store == o.store && swap == o.swap;
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

namespace {
/// Splits at commas outside brackets / braces / parentheses.
std::vector<std::string> topLevelFields(const std::string &s) {
  std::vector<std::string> out(1);
  int depth = 0;
  for (char c : s) {
    if (c == '(' || c == '[' || c == '{')
      ++depth;
    else if (c == ')' || c == ']' || c == '}')
      --depth;
    if (c == ',' && depth == 0)
      out.emplace_back();
    else
      out.back().push_back(c);
  }
  return out;
}

/// A decimal integer (optional '-') filling all of `s`, without overflow.
bool parseInt(const std::string &s, int64_t &out) {
  size_t i = s.size() && s[0] == '-' ? 1 : 0;
  if (i == s.size())
    return false;
  uint64_t v = 0;
  for (; i < s.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i])))
      return false;
    unsigned d = unsigned(s[i] - '0');
    if (v > (uint64_t(std::numeric_limits<int64_t>::max()) - d) / 10)
      return false;
    v = v * 10 + d;
  }
  out = s[0] == '-' ? -int64_t(v) : int64_t(v);
  return true;
}

bool isDimLetter(char c) { return c >= 'a' && c <= 'z'; }

/// `dim_<letters>`.
bool parseDimOrder(const std::string &f, std::string &out, std::string &err) {
  if (f.compare(0, 4, "dim_") != 0) {
    err = "dim order: expected 'dim_<letters>', got '" + f + "'";
    return false;
  }
  out = f.substr(4);
  for (char c : out)
    if (!isDimLetter(c)) {
      err = "dim order: '" + out + "' is not lower-case dim letters";
      return false;
    }
  return true;
}

/// `c=256` or `none`.
bool parseDimValue(const std::string &what, const std::string &f, char &dim,
                   int64_t &v, std::string &err) {
  if (f == "none") {
    dim = 0;
    v = 0;
    return true;
  }
  if (f.size() < 3 || !isDimLetter(f[0]) || f[1] != '=' ||
      !parseInt(f.substr(2), v) || v < 0) {
    err = what + ": expected '<dim>=<count>' or 'none', got '" + f + "'";
    return false;
  }
  dim = f[0];
  return true;
}

/// `c[(0,255),(256,511)]` or `none`.
bool parseSplit(const std::string &f, char &dim, std::vector<PieceRange> &out,
                std::string &err) {
  out.clear();
  if (f == "none") {
    dim = 0;
    return true;
  }
  auto bad = [&] {
    err =
        "split: expected '<dim>[(first,last),...]' or 'none', got '" + f + "'";
    return false;
  };
  if (f.size() < 3 || !isDimLetter(f[0]) || f[1] != '[' || f.back() != ']')
    return bad();
  dim = f[0];
  std::string body = f.substr(2, f.size() - 3);
  if (body.empty())
    return true;
  for (const std::string &r : topLevelFields(body)) {
    if (r.size() < 5 || r.front() != '(' || r.back() != ')')
      return bad();
    std::vector<std::string> ends = topLevelFields(r.substr(1, r.size() - 2));
    PieceRange pr;
    if (ends.size() != 2 || !parseInt(ends[0], pr.first) ||
        !parseInt(ends[1], pr.second))
      return bad();
    if (pr.first < 0 || pr.second < pr.first) {
      err = "split: range (" + ends[0] + "," + ends[1] +
            ") is not 0 <= first <= last";
      return false;
    }
    out.push_back(pr);
  }
  return true;
}

bool checkType(const std::string &t, std::string &err) {
  if (typeBytes(t))
    return true;
  err = "type: unknown element type '" + t +
        "' (float32, float16, bfloat16, int8, int32, int64, bool)";
  return false;
}
} // namespace

bool parseStorageTarget(const std::string &s, StorageTarget &out) {
  StorageTarget t;
  size_t n;
  if (s.compare(0, 7, "cluster") == 0) {
    t.kind = StorageTarget::Cluster;
    n = 7;
  } else if (s.compare(0, 3, "mem") == 0) {
    t.kind = StorageTarget::Mem;
    n = 3;
  } else {
    return false;
  }
  if (n < s.size()) {
    int64_t k;
    if (s[n] == '0' || s[n] == '-' || !parseInt(s.substr(n), k) ||
        k > int64_t(std::numeric_limits<uint32_t>::max()))
      return false;
    t.instance = uint32_t(k);
  }
  out = t;
  return true;
}

bool parseStaticLabel(const std::string &text, StaticLabel &out,
                      std::string &err) {
  auto fail = [&](const std::string &m) {
    err = "static label: " + m;
    return false;
  };
  if (text.compare(0, 7, "static:") != 0)
    return fail("expected 'static:' at the start of '" + text + "'");
  std::vector<std::string> f = topLevelFields(text.substr(7));
  if (f.size() != 4)
    return fail("expected 4 comma-separated parts "
                "(category,type,dim_<order>,{dims}), got " +
                std::to_string(f.size()));
  StaticLabel s;
  std::string e;
  if (!parseCategory(f[0], s.category))
    return fail("category: unknown code '" + f[0] +
                "' (ins, in, on, hn, cn, iw, ow, cw, aux)");
  s.type = f[1];
  if (!checkType(s.type, e) || !parseDimOrder(f[2], s.dimOrder, e))
    return fail(e);
  const std::string &d = f[3];
  if (d.size() < 2 || d.front() != '{' || d.back() != '}')
    return fail("dims: expected '{extent ...}', got '" + d + "'");
  std::string body = d.substr(1, d.size() - 2), tok;
  for (size_t i = 0; i <= body.size(); ++i) {
    if (i < body.size() && body[i] != ' ') {
      tok.push_back(body[i]);
      continue;
    }
    if (tok.empty())
      continue;
    int64_t v;
    if (!parseInt(tok, v))
      return fail("dims: '" + tok + "' is not an integer");
    s.dims.push_back(v);
    tok.clear();
  }
  std::string bad = checkStaticLabel(s);
  if (!bad.empty())
    return fail(bad);
  out = s;
  return true;
}

bool parseDynamicLabel(const std::string &text, DynamicLabel &out,
                       std::string &err) {
  auto fail = [&](const std::string &m) {
    err = "dynamic label: " + m;
    return false;
  };
  if (text.compare(0, 8, "dynamic:") != 0)
    return fail("expected 'dynamic:' at the start of '" + text + "'");
  std::vector<std::string> f = topLevelFields(text.substr(8));
  if (f.size() != 8)
    return fail("expected 8 comma-separated parts (type,dim_<order>,tiling,"
                "padding,size,split,store,swap), got " +
                std::to_string(f.size()));
  DynamicLabel d;
  std::string e;
  d.type = f[0];
  if (!checkType(d.type, e) || !parseDimOrder(f[1], d.dimOrder, e) ||
      !parseDimValue("tiling", f[2], d.tileDim, d.tile, e) ||
      !parseDimValue("padding", f[3], d.padDim, d.pad, e))
    return fail(e);
  const std::string suffix = " bytes";
  int64_t size;
  if (f[4].size() <= suffix.size() ||
      f[4].compare(f[4].size() - suffix.size(), suffix.size(), suffix) != 0 ||
      !parseInt(f[4].substr(0, f[4].size() - suffix.size()), size) || size < 0)
    return fail("size: expected '<n> bytes', got '" + f[4] + "'");
  d.sizeBytes = uint64_t(size);
  if (!parseSplit(f[5], d.splitDim, d.ranges, e))
    return fail(e);
  if (!parseStorageTarget(f[6], d.store))
    return fail("store: unknown storage space '" + f[6] +
                "' (mem, cluster, memK, clusterK with K >= 1)");
  if (!parseSwap(f[7], d.swap))
    return fail("swap: unknown exchange level '" + f[7] +
                "' (none, core, cluster, mem)");
  out = d;
  return true;
}

} // namespace accel::split
