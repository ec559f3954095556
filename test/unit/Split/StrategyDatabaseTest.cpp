//===- StrategyDatabaseTest.cpp - Split-strategy database -----------------===//
#include "accel/Split/StrategyDatabase.h"

#include "accel/Hardware/HardwareDesc.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

using namespace accel;
using namespace accel::split;

namespace {
StrategyDatabase shipped(const std::string &name) {
  StrategyDatabase db;
  std::string err;
  EXPECT_TRUE(StrategyDatabase::load(strategyPath(name), db, err)) << err;
  return db;
}

std::string parseErr(const std::string &text) {
  StrategyDatabase db;
  std::string err;
  if (StrategyDatabase::parse(text, db, err))
    return "<parsed>";
  return err;
}

std::string rowsJson(const std::string &rows) {
  return R"({"architecture": "t", "rows": [)" + rows + "]}";
}

std::string dims(const StrategyRow &r) {
  std::string s;
  for (const SplitOption &o : r.dims)
    s += std::string(s.empty() ? "" : " ") + o.dim + ":" + o.store.str() + "/" +
         swapName(o.swap);
  return s.empty() ? "-:" + r.store.str() + "/" + swapName(r.swap) : s;
}

const Category kCategories[] = {
    Category::InputNeuron,  Category::ConstantNeuron, Category::HiddenNeuron,
    Category::InputWeight,  Category::ConstantWeight, Category::Auxiliary,
    Category::OutputNeuron,
};
} // namespace

TEST(StrategyDatabase, DirectoryAndOverride) {
  EXPECT_EQ(strategyDirectory(),
            std::string(ACCEL_SOURCE_DIR) + "/hw/strategies");
  EXPECT_EQ(strategyPath("shared-cache"),
            std::string(ACCEL_SOURCE_DIR) + "/hw/strategies/shared-cache.json");
  setenv("ACCEL_STRATEGY_DIR", "/tmp/elsewhere", 1);
  EXPECT_EQ(strategyDirectory(), "/tmp/elsewhere");
  EXPECT_EQ(strategyPath("x"), "/tmp/elsewhere/x.json");
  unsetenv("ACCEL_STRATEGY_DIR");
  EXPECT_EQ(strategyDirectory(),
            std::string(ACCEL_SOURCE_DIR) + "/hw/strategies");
}

// The spec's known rows ([0191]-[0208], shared-cache architecture).
TEST(StrategyDatabase, SpecRowsSharedCache) {
  StrategyDatabase db = shipped("shared-cache");
  EXPECT_EQ(db.architecture(), "shared-cache");
  const std::map<std::string, std::string> none, model{{"parallel", "model"}};
  const StrategyRow *r = db.lookup("conv2d", none, Category::InputWeight);
  ASSERT_TRUE(r);
  EXPECT_EQ(dims(*r), "n:cluster/none");
  r = db.lookup("conv2d", none, Category::InputNeuron);
  ASSERT_TRUE(r);
  EXPECT_EQ(dims(*r), "n:mem/none h:cluster/cluster w:cluster/cluster");
  r = db.lookup("matmul", model, Category::InputNeuron);
  ASSERT_TRUE(r);
  EXPECT_EQ(dims(*r), "n:mem/none c:mem/none");
  r = db.lookup("matmul", model, Category::InputWeight);
  ASSERT_TRUE(r);
  EXPECT_EQ(dims(*r), "c:mem/none"); // the reduction dim of B [K,N] "cn"
  r = db.lookup("matmul", model, Category::OutputNeuron);
  ASSERT_TRUE(r);
  EXPECT_EQ(dims(*r), "-:cluster/core"); // not split
}

// Without caches: output neurons live in memory and are exchanged between
// clusters (application example 2: `mem,cluster`); nothing is stored in or
// exchanged through a cluster cache.
TEST(StrategyDatabase, SpecRowsBusContention) {
  StrategyDatabase db = shipped("bus-contention");
  EXPECT_EQ(db.architecture(), "bus-contention");
  const std::map<std::string, std::string> model{{"parallel", "model"}};
  const StrategyRow *r = db.lookup("matmul", model, Category::OutputNeuron);
  ASSERT_TRUE(r);
  EXPECT_EQ(dims(*r), "-:mem/cluster");
  r = db.lookup("matmul", model, Category::InputWeight);
  ASSERT_TRUE(r);
  EXPECT_EQ(dims(*r), "c:mem/none");
  r = db.lookup("matmul", {{"parallel", "data"}}, Category::InputWeight);
  ASSERT_TRUE(r);
  EXPECT_EQ(dims(*r), "-:mem/mem"); // weights exchanged inter-memory [0075]
  for (const StrategyRow &row : db.rows()) {
    EXPECT_NE(row.store.kind, StorageTarget::Cluster) << dims(row);
    for (const SplitOption &o : row.dims)
      EXPECT_NE(o.store.kind, StorageTarget::Cluster) << dims(row);
  }
  // The shared-cache database counterpart uses its caches.
  StrategyDatabase sc = shipped("shared-cache");
  r = sc.lookup("matmul", {{"parallel", "data"}}, Category::InputWeight);
  ASSERT_TRUE(r);
  EXPECT_EQ(dims(*r), "-:cluster/cluster");
  // Both databases have the same keys, row for row.
  ASSERT_EQ(db.rows().size(), sc.rows().size());
  for (size_t i = 0; i < db.rows().size(); ++i) {
    EXPECT_EQ(db.rows()[i].op, sc.rows()[i].op);
    EXPECT_EQ(db.rows()[i].params, sc.rows()[i].params);
    EXPECT_EQ(db.rows()[i].category, sc.rows()[i].category);
    EXPECT_EQ(db.rows()[i].dims.size(), sc.rows()[i].dims.size());
  }
}

// Every query the compiler makes (op x parallel x category x operand
// position) finds exactly one most specific row: no gaps, no ties (conv2d
// has no hybrid rows: it falls back to the rows without params).
TEST(StrategyDatabase, ShippedDatabasesAreComplete) {
  for (const char *name : {"shared-cache", "bus-contention"}) {
    StrategyDatabase db = shipped(name);
    for (const char *op : {"matmul", "conv2d"})
      for (const char *par : {"model", "data", "hybrid"}) {
        for (const char *operand : {"input", "weight", "bias", "result"})
          for (Category c : kCategories) {
            std::map<std::string, std::string> q{{"parallel", par},
                                                 {"operand", operand}};
            const StrategyRow *best = db.lookup(op, q, c);
            ASSERT_TRUE(best)
                << name << " " << op << " " << par << " " << categoryCode(c);
            unsigned ties = 0;
            for (const StrategyRow &r : db.rows()) {
              bool match = r.op == op && r.category == c;
              for (auto &[k, v] : r.params)
                match &= q.count(k) && q.at(k) == v;
              ties += match && r.params.size() == best->params.size();
            }
            EXPECT_EQ(ties, 1u) << name << " " << op << " " << par << " "
                                << operand << " " << categoryCode(c);
          }
      }
  }
  // A hidden neuron as a result behaves like an output neuron, as an
  // operand like an input neuron.
  StrategyDatabase db = shipped("shared-cache");
  const StrategyRow *res =
      db.lookup("matmul", {{"parallel", "model"}, {"operand", "result"}},
                Category::HiddenNeuron);
  ASSERT_TRUE(res);
  EXPECT_EQ(dims(*res), "-:cluster/core");
  const StrategyRow *in =
      db.lookup("matmul", {{"parallel", "model"}, {"operand", "input"}},
                Category::HiddenNeuron);
  ASSERT_TRUE(in);
  EXPECT_EQ(dims(*in), "n:mem/none c:mem/none");
  res = db.lookup("conv2d", {{"parallel", "data"}, {"operand", "result"}},
                  Category::HiddenNeuron);
  ASSERT_TRUE(res);
  EXPECT_EQ(dims(*res),
            "n:cluster/cluster h:cluster/cluster w:cluster/cluster");
}

TEST(StrategyDatabase, MostSpecificRowWins) {
  StrategyDatabase db;
  std::string err;
  ASSERT_TRUE(StrategyDatabase::parse(rowsJson(R"(
        {"op": "matmul", "category": "in", "store": "mem", "swap": "none"},
        {"op": "matmul", "params": {"parallel": "data"}, "category": "in",
         "dims": [{"dim": "n", "store": "mem", "swap": "none"}]},
        {"op": "matmul", "params": {"parallel": "data", "layout": "x"},
         "category": "in",
         "dims": [{"dim": "c", "store": "cluster2", "swap": "core"}]})"),
                                      db, err))
      << err;
  const StrategyRow *r = db.lookup("matmul", {}, Category::InputNeuron);
  ASSERT_TRUE(r);
  EXPECT_EQ(dims(*r), "-:mem/none");
  r = db.lookup("matmul", {{"parallel", "data"}}, Category::InputNeuron);
  ASSERT_TRUE(r);
  EXPECT_EQ(dims(*r), "n:mem/none");
  r = db.lookup("matmul", {{"parallel", "data"}, {"layout", "x"}},
                Category::InputNeuron);
  ASSERT_TRUE(r);
  EXPECT_EQ(dims(*r), "c:cluster2/core");
  // Extra query params do not prevent a match; a different value does.
  r = db.lookup("matmul", {{"parallel", "model"}, {"extra", "1"}},
                Category::InputNeuron);
  ASSERT_TRUE(r);
  EXPECT_EQ(dims(*r), "-:mem/none");
  // Missing rows: nullptr.
  EXPECT_EQ(db.lookup("conv2d", {}, Category::InputNeuron), nullptr);
  EXPECT_EQ(db.lookup("matmul", {}, Category::InputWeight), nullptr);
}

struct DbErr {
  const char *rows;
  const char *expect;
};

TEST(StrategyDatabase, ErrorsNameRowAndField) {
  const DbErr cases[] = {
      {R"({"op": "matmul", "category": "in", "dims": [{"dim": "n", "store": "mem", "swap": "bus"}]})",
       "rows[0].dims[0].swap: unknown exchange level 'bus'"},
      {R"({"op": "matmul", "category": "in", "dims": [{"dim": "n", "store": "disk", "swap": "none"}]})",
       "rows[0].dims[0].store: unknown storage space 'disk'"},
      {R"({"op": "matmul", "category": "in", "dims": [{"dim": "N1", "store": "mem", "swap": "none"}]})",
       "rows[0].dims[0].dim: expected one lower-case dim letter, got 'N1'"},
      {R"({"op": "matmul", "category": "in", "dims": [{"dim": "1", "store": "mem", "swap": "none"}]})",
       "rows[0].dims[0].dim: expected one lower-case dim letter, got '1'"},
      {R"({"op": "matmul", "category": "in", "dims": [{"dim": 3, "store": "mem", "swap": "none"}]})",
       "rows[0].dims[0].dim: expected a string, got 3"},
      {R"({"op": "matmul", "category": "in", "dims": [{"dim": "n", "swap": "none"}]})",
       "rows[0].dims[0].store: required"},
      {R"({"op": "matmul", "category": "in", "dims": [{"dim": "n", "store": "mem", "swap": "none", "why": "x"}]})",
       "rows[0].dims[0].why: unknown key"},
      {R"({"op": "matmul", "category": "in", "dims": [{"dim": "n", "store": "mem", "swap": "none"}, {"dim": "n", "store": "mem", "swap": "none"}]})",
       "rows[0].dims[1].dim: 'n' is listed twice"},
      {R"({"op": "matmul", "category": "weight", "store": "mem", "swap": "none"})",
       "rows[0].category: unknown category 'weight'"},
      {R"({"op": "matmul", "store": "mem", "swap": "none"})",
       "rows[0].category: required"},
      {R"({"category": "in", "store": "mem", "swap": "none"})",
       "rows[0].op: required"},
      {R"({"op": "", "category": "in", "store": "mem", "swap": "none"})",
       "rows[0].op: must not be empty"},
      {R"({"op": "matmul", "category": "in"})", "rows[0].store: required"},
      {R"({"op": "matmul", "category": "in", "store": "mem"})",
       "rows[0].swap: required"},
      {R"({"op": "matmul", "category": "in", "store": "mem0", "swap": "none"})",
       "rows[0].store: unknown storage space 'mem0'"},
      {R"({"op": "matmul", "category": "in", "store": "mem", "swap": "none", "dims": [{"dim": "n", "store": "mem", "swap": "none"}]})",
       "rows[0].store: only a row without dims has its own store / swap"},
      {R"({"op": "matmul", "category": "in", "store": "mem", "swap": "none", "params": {"parallel": 1}})",
       "rows[0].params.parallel: expected a string, got 1"},
      {R"({"op": "matmul", "category": "in", "store": "mem", "swap": "none", "params": []})",
       "rows[0].params: expected an object of strings"},
      {R"({"op": "matmul", "category": "in", "store": "mem", "swap": "none", "dims": {}})",
       "rows[0].dims: expected an array"},
      {R"({"op": "matmul", "category": "in", "store": "mem", "swap": "none", "note": "x"})",
       "rows[0].note: unknown key"},
      {R"({"op": "matmul", "category": "in", "store": "mem", "swap": "none"}, 3)",
       "rows[1]: expected an object, got 3"},
      {R"({"op": "m", "category": "in", "store": "mem", "swap": "none"},
          {"op": "m", "category": "on", "store": "mem", "swap": "none"},
          {"op": "m", "category": "in", "store": "cluster", "swap": "core"})",
       "rows[2]: duplicates rows[0] (same op, params and category)"},
  };
  for (const DbErr &c : cases) {
    std::string err = parseErr(rowsJson(c.rows));
    EXPECT_NE(err.find(c.expect), std::string::npos)
        << "rows: " << c.rows << "\n  got: " << err << "\n  want: " << c.expect;
  }
  EXPECT_NE(parseErr("{\"rows\": [").find("invalid JSON"), std::string::npos);
  EXPECT_NE(parseErr("[]").find("expected a JSON object"), std::string::npos);
  EXPECT_EQ(parseErr(R"({"rows": []})"), "architecture: required");
  EXPECT_EQ(parseErr(R"({"architecture": "a"})"), "rows: required");
  EXPECT_EQ(parseErr(R"({"architecture": "a", "rows": {}})"),
            "rows: expected an array, got {}");
  EXPECT_EQ(parseErr(R"({"architecture": "a", "rows": [], "x": 1})"),
            "x: unknown key");
  EXPECT_EQ(parseErr(R"({"architecture": 2, "rows": []})"),
            "architecture: expected a string, got 2");
  EXPECT_EQ(parseErr(R"({"architecture": "a", "rows": []})"), "<parsed>");
}

TEST(StrategyDatabase, LoadErrorsNameTheFile) {
  StrategyDatabase db;
  std::string err;
  EXPECT_FALSE(StrategyDatabase::load("/nonexistent/db.json", db, err));
  EXPECT_NE(err.find("/nonexistent/db.json"), std::string::npos) << err;
  std::string path = ::testing::TempDir() + "/bad-db.json";
  {
    std::ofstream out(path);
    out << rowsJson(R"({"op": "m", "category": "xx", "store": "mem",
                        "swap": "none"})");
  }
  EXPECT_FALSE(StrategyDatabase::load(path, db, err));
  EXPECT_EQ(err, "strategy database '" + path +
                     "': rows[0].category: unknown category 'xx' (ins, in, "
                     "on, hn, cn, iw, ow, cw, aux)");
}

// The machine picks its database: split.database or the name derived from
// cluster.shared_cache; a name without a file is an error naming the field.
TEST(StrategyDatabase, LoadForMachine) {
  HardwareDesc hw;
  StrategyDatabase db;
  std::string err;
  ASSERT_TRUE(loadStrategyDatabase(hw, db, err)) << err;
  EXPECT_EQ(db.architecture(), "shared-cache");
  hw.sharedClusterCache = false;
  ASSERT_TRUE(loadStrategyDatabase(hw, db, err)) << err;
  EXPECT_EQ(db.architecture(), "bus-contention");
  hw.splitDatabase = "no-such-db";
  EXPECT_FALSE(loadStrategyDatabase(hw, db, err));
  EXPECT_EQ(err.rfind("split.database: no strategy database 'no-such-db'", 0),
            0u)
      << err;
}
