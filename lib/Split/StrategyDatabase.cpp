//===- StrategyDatabase.cpp - Split strategies from JSON ------------------===//
//
// Reads one architecture's split-strategy database (format in
// docs/labels-and-splits.md, "Strategy database"); every error names the
// offending row and field.
//
//===----------------------------------------------------------------------===//
#include "accel/Split/StrategyDatabase.h"

#include "accel/Hardware/HardwareDesc.h"
#include "accel/Support/FileRead.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>

#ifndef ACCEL_STRATEGY_SOURCE_DIR
#define ACCEL_STRATEGY_SOURCE_DIR "hw/strategies"
#endif

namespace accel::split {

namespace {
using json = nlohmann::json;

/// A database is a few KiB of JSON; refuse anything absurd.
constexpr uint64_t kMaxStrategyDatabaseBytes = 1ull << 20;

std::string quoted(const json &j) {
  return j.is_string() ? "'" + j.get<std::string>() + "'" : j.dump();
}

/// Errors thrown while reading (caught once in parse()).
struct ParseError {
  std::string message;
};

[[noreturn]] void fail(const std::string &path, const std::string &what) {
  throw ParseError{path + ": " + what};
}

void checkKeys(const json &obj, const std::string &path,
               std::initializer_list<const char *> allowed) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool ok = false;
    for (const char *k : allowed)
      ok |= it.key() == k;
    if (!ok)
      fail(path.empty() ? it.key() : path + "." + it.key(), "unknown key");
  }
}

const json &member(const json &obj, const std::string &path, const char *key) {
  auto it = obj.find(key);
  if (it == obj.end())
    fail(path + "." + key, "required");
  return *it;
}

std::string stringOf(const json &j, const std::string &path) {
  if (!j.is_string())
    fail(path, "expected a string, got " + j.dump());
  return j.get<std::string>();
}

StorageTarget storeOf(const json &j, const std::string &path) {
  StorageTarget t;
  if (!parseStorageTarget(stringOf(j, path), t))
    fail(path, "unknown storage space " + quoted(j) +
                   " (mem, cluster, memK, clusterK with K >= 1)");
  return t;
}

Swap swapOf(const json &j, const std::string &path) {
  Swap s;
  if (!parseSwap(stringOf(j, path), s))
    fail(path,
         "unknown exchange level " + quoted(j) + " (none, core, cluster, mem)");
  return s;
}

SplitOption optionOf(const json &j, const std::string &path) {
  if (!j.is_object())
    fail(path, "expected an object {dim, store, swap}, got " + j.dump());
  checkKeys(j, path, {"dim", "store", "swap"});
  std::string letter = stringOf(member(j, path, "dim"), path + ".dim");
  if (letter.size() != 1 || letter[0] < 'a' || letter[0] > 'z')
    fail(path + ".dim",
         "expected one lower-case dim letter, got '" + letter + "'");
  SplitOption o;
  o.dim = letter[0];
  o.store = storeOf(member(j, path, "store"), path + ".store");
  o.swap = swapOf(member(j, path, "swap"), path + ".swap");
  return o;
}

StrategyRow rowOf(const json &j, const std::string &path) {
  if (!j.is_object())
    fail(path, "expected an object, got " + j.dump());
  checkKeys(j, path, {"op", "params", "category", "dims", "store", "swap"});
  StrategyRow row;
  row.op = stringOf(member(j, path, "op"), path + ".op");
  if (row.op.empty())
    fail(path + ".op", "must not be empty");
  if (auto it = j.find("params"); it != j.end()) {
    if (!it->is_object())
      fail(path + ".params",
           "expected an object of strings, got " + it->dump());
    for (auto p = it->begin(); p != it->end(); ++p)
      row.params[p.key()] = stringOf(*p, path + ".params." + p.key());
  }
  const json &cat = member(j, path, "category");
  if (!parseCategory(stringOf(cat, path + ".category"), row.category))
    fail(path + ".category", "unknown category " + quoted(cat) +
                                 " (ins, in, on, hn, cn, iw, ow, cw, aux)");
  if (auto it = j.find("dims"); it != j.end()) {
    if (!it->is_array())
      fail(path + ".dims", "expected an array, got " + it->dump());
    for (size_t i = 0; i < it->size(); ++i) {
      std::string p = path + ".dims[" + std::to_string(i) + "]";
      row.dims.push_back(optionOf((*it)[i], p));
      for (size_t k = 0; k + 1 < row.dims.size(); ++k)
        if (row.dims[k].dim == row.dims.back().dim)
          fail(p + ".dim",
               std::string("'") + row.dims.back().dim + "' is listed twice");
    }
  }
  bool hasStore = j.contains("store"), hasSwap = j.contains("swap");
  if (!row.dims.empty() && (hasStore || hasSwap))
    fail(path + (hasStore ? ".store" : ".swap"),
         "only a row without dims has its own store / swap (each dim "
         "names its own)");
  if (row.dims.empty()) {
    row.store = storeOf(member(j, path, "store"), path + ".store");
    row.swap = swapOf(member(j, path, "swap"), path + ".swap");
  }
  return row;
}

bool sameKey(const StrategyRow &a, const StrategyRow &b) {
  return a.op == b.op && a.params == b.params && a.category == b.category;
}
} // namespace

bool StrategyDatabase::parse(const std::string &jsonText, StrategyDatabase &out,
                             std::string &err) {
  json root;
  try {
    root = json::parse(jsonText);
  } catch (const json::exception &e) {
    err = std::string("invalid JSON: ") + e.what();
    return false;
  }
  try {
    if (!root.is_object())
      fail("strategy database",
           "expected a JSON object, got " + std::string(root.type_name()));
    checkKeys(root, "", {"architecture", "rows"});
    StrategyDatabase db;
    auto arch = root.find("architecture");
    if (arch == root.end())
      fail("architecture", "required");
    db.architecture_ = stringOf(*arch, "architecture");
    auto rows = root.find("rows");
    if (rows == root.end())
      fail("rows", "required");
    if (!rows->is_array())
      fail("rows", "expected an array, got " + rows->dump());
    for (size_t i = 0; i < rows->size(); ++i) {
      std::string p = "rows[" + std::to_string(i) + "]";
      StrategyRow row = rowOf((*rows)[i], p);
      for (size_t k = 0; k < db.rows_.size(); ++k)
        if (sameKey(db.rows_[k], row))
          fail(p, "duplicates rows[" + std::to_string(k) +
                      "] (same op, params and category)");
      db.rows_.push_back(std::move(row));
    }
    out = std::move(db);
    return true;
  } catch (const ParseError &e) {
    err = e.message;
    return false;
  }
}

bool StrategyDatabase::load(const std::string &path, StrategyDatabase &out,
                            std::string &err) {
  std::string text;
  if (!readRegularFile(path, "strategy database", kMaxStrategyDatabaseBytes,
                       text, err))
    return false;
  if (!parse(text, out, err)) {
    err = "strategy database '" + path + "': " + err;
    return false;
  }
  return true;
}

const StrategyRow *
StrategyDatabase::lookup(const std::string &op,
                         const std::map<std::string, std::string> &params,
                         Category category) const {
  const StrategyRow *best = nullptr;
  for (const StrategyRow &row : rows_) {
    if (row.op != op || row.category != category)
      continue;
    bool matches = true;
    for (const auto &[key, value] : row.params) {
      auto it = params.find(key);
      matches &= it != params.end() && it->second == value;
    }
    // Most params wins; among equals the earlier row.
    if (matches && (!best || row.params.size() > best->params.size()))
      best = &row;
  }
  return best;
}

std::string strategyDirectory() {
  if (const char *dir = std::getenv("ACCEL_STRATEGY_DIR"); dir && *dir)
    return dir;
  return ACCEL_STRATEGY_SOURCE_DIR;
}

std::string strategyPath(const std::string &name) {
  return strategyDirectory() + "/" + name + ".json";
}

bool loadStrategyDatabase(const HardwareDesc &hw, StrategyDatabase &out,
                          std::string &err) {
  std::string name = hw.splitDatabaseName();
  std::string path = strategyPath(name);
  std::ifstream probe(path);
  if (!probe) {
    err = "split.database: no strategy database '" + name + "' (looked for " +
          path + "; set ACCEL_STRATEGY_DIR to another directory)";
    return false;
  }
  return StrategyDatabase::load(path, out, err);
}

} // namespace accel::split
