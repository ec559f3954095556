//===- HardwareDescTest.cpp - JSON hardware description tests -------------===//
#include "accel/Hardware/HardwareDesc.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <functional>

using namespace accel;

namespace {

std::string preset(const std::string &name) {
  return std::string(ACCEL_SOURCE_DIR) + "/hw/" + name + ".json";
}

std::string parseErr(const std::string &text) {
  HardwareDesc hw;
  std::string err;
  if (parseHardwareDesc(text, hw, err))
    return "<parsed>";
  return err;
}

} // namespace

TEST(HardwareDesc, DTypeHelpers) {
  DType t;
  for (DType d : {DType::F32, DType::F16, DType::BF16, DType::I8, DType::I32}) {
    ASSERT_TRUE(parseDType(dtypeName(d), t));
    EXPECT_EQ(t, d);
  }
  EXPECT_FALSE(parseDType("f64", t));
  EXPECT_EQ(dtypeBytes(DType::F32), 4u);
  EXPECT_EQ(dtypeBytes(DType::BF16), 2u);
  EXPECT_EQ(dtypeBytes(DType::I8), 1u);
}

TEST(HardwareDesc, DefaultPresetEqualsBuiltInDefaults) {
  HardwareDesc hw;
  std::string err;
  ASSERT_TRUE(loadHardwareDesc(preset("default"), hw, err)) << err;
  EXPECT_TRUE(hw == HardwareDesc{});
  EXPECT_TRUE(hw == defaultHardware());
  EXPECT_EQ(hw.name, "default");
  EXPECT_EQ(hw.fingerprint(), HardwareDesc{}.fingerprint());
  // The shipped file is exactly what hardwareToJson prints for the defaults.
  std::ifstream in(preset("default"));
  std::string text((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  EXPECT_EQ(text, hardwareToJson(defaultHardware()));
  EXPECT_TRUE(validateHardwareDesc(defaultHardware(), err)) << err;
}

TEST(HardwareDesc, PresetsLoad) {
  for (const char *name :
       {"default", "bandwidth-starved", "asymmetric", "large", "labels-example",
        "labels-example-nocache", "serial-dram", "rnn-npe16k", "rnn-npe64k"}) {
    HardwareDesc hw;
    std::string err;
    ASSERT_TRUE(loadHardwareDesc(preset(name), hw, err)) << name << ": " << err;
    EXPECT_EQ(hw.name, name);
    // Round trip through hardwareToJson.
    HardwareDesc back;
    ASSERT_TRUE(parseHardwareDesc(hardwareToJson(hw), back, err)) << err;
    EXPECT_TRUE(back == hw) << name;
  }
  HardwareDesc hw;
  std::string err;
  ASSERT_TRUE(loadHardwareDesc(preset("large"), hw, err)) << err;
  EXPECT_EQ(hw.numClusters(), 16u);
  EXPECT_EQ(hw.channels.size(), 4u);
  EXPECT_EQ(hw.channelOf(5), 1u); // one channel per grid row
  ASSERT_TRUE(loadHardwareDesc(preset("asymmetric"), hw, err)) << err;
  ASSERT_EQ(hw.channels.size(), 2u);
  EXPECT_NE(hw.channels[0].bytesPerCycle, hw.channels[1].bytesPerCycle);
  // The spec's Fig. 5 machine: 1 x 2 clusters of 2 cores, channel k local
  // to cluster k, f16, label tiles 256 / 512; with and without caches.
  ASSERT_TRUE(loadHardwareDesc(preset("labels-example"), hw, err)) << err;
  EXPECT_EQ(hw.numClusters(), 2u);
  EXPECT_EQ(hw.pesPerCluster, 2u);
  ASSERT_EQ(hw.channels.size(), 2u);
  EXPECT_EQ(hw.channelOf(0), 0u);
  EXPECT_EQ(hw.channelOf(1), 1u);
  EXPECT_EQ(hw.channelRouter(1), 1u);
  EXPECT_TRUE(hw.sharedClusterCache);
  EXPECT_EQ(hw.splitDatabaseName(), "shared-cache");
  EXPECT_EQ(hw.computeType, DType::F16);
  EXPECT_EQ(hw.activationTile(), 256u);
  EXPECT_EQ(hw.weightTile(), 512u);
  HardwareDesc nocache;
  ASSERT_TRUE(loadHardwareDesc(preset("labels-example-nocache"), nocache, err))
      << err;
  EXPECT_FALSE(nocache.sharedClusterCache);
  EXPECT_EQ(nocache.splitDatabaseName(), "bus-contention");
  HardwareDesc same = nocache;
  same.sharedClusterCache = true;
  same.splitDatabase = "shared-cache";
  same.name = hw.name;
  same.description = hw.description;
  EXPECT_TRUE(same == hw); // they differ in the cache only
  ASSERT_TRUE(loadHardwareDesc(preset("bandwidth-starved"), hw, err)) << err;
  EXPECT_LT(hw.channels[0].bytesPerCycle,
            HardwareDesc{}.channels[0].bytesPerCycle);
}

TEST(HardwareDesc, AbsentFieldsKeepDefaults) {
  HardwareDesc hw;
  std::string err;
  ASSERT_TRUE(parseHardwareDesc("{}", hw, err)) << err;
  EXPECT_TRUE(hw == HardwareDesc{});
  ASSERT_TRUE(parseHardwareDesc(
      R"({"grid": {"rows": 3}, "pe": {"mac_lanes": 32}, "rnn": {"ep_max": 32},
          "numerics": {"compute": "bf16"}, "clock_ghz": 1.5})",
      hw, err))
      << err;
  HardwareDesc expect;
  expect.rows = 3;
  expect.macLanes = 32;
  expect.rnnEpMax = 32;
  expect.computeType = DType::BF16;
  expect.clockGHz = 1.5;
  EXPECT_TRUE(hw == expect);
  EXPECT_EQ(hw.cols, 2u);
  // Real-valued fields accept integers, and channel lists replace the default.
  ASSERT_TRUE(parseHardwareDesc(
      R"({"memory": {"channels": [{"bytes_per_cycle": 12.5}]}})", hw, err))
      << err;
  ASSERT_EQ(hw.channels.size(), 1u);
  EXPECT_EQ(hw.channels[0].bytesPerCycle, 12.5);
  EXPECT_EQ(hw.channels[0].latencyCycles, 100u);
  EXPECT_EQ(hw.channels[0].maxOutstanding, 16u);
  ASSERT_TRUE(parseHardwareDesc(
      R"({"memory": {"channels": [{"max_outstanding": 1}]}})", hw, err))
      << err;
  EXPECT_EQ(hw.channels[0].maxOutstanding, 1u);
}

TEST(HardwareDesc, ChannelOccupancy) {
  // 64 B/cycle, latency 100, 16 in flight: a DMA holds the channel for its
  // beats + ceil(100 / 16) = 7 cycles and completes 100 + beats after its
  // start; with one in flight it holds it for the whole latency.
  MemoryChannel ch;
  EXPECT_EQ(ch.beatCycles(4096), 64u);
  EXPECT_EQ(ch.beatCycles(1), 1u);
  EXPECT_EQ(ch.beatCycles(0), 0u);
  EXPECT_EQ(ch.occupancyCycles(4096), 71u);
  EXPECT_EQ(ch.occupancyCycles(0), 7u);
  EXPECT_EQ(ch.completionCycles(4096), 164u);
  ch.maxOutstanding = 1;
  EXPECT_EQ(ch.occupancyCycles(4096), 164u);
  EXPECT_EQ(ch.completionCycles(4096), 164u);
  ch.maxOutstanding = 200; // more than the latency: one cycle per request
  EXPECT_EQ(ch.occupancyCycles(4096), 65u);
}

TEST(HardwareDesc, ChannelOf) {
  HardwareDesc hw; // 2x2, two channels
  EXPECT_EQ(hw.channelOf(0), 0u);
  EXPECT_EQ(hw.channelOf(1), 0u);
  EXPECT_EQ(hw.channelOf(2), 1u);
  EXPECT_EQ(hw.channelOf(3), 1u);
  hw.channels.resize(1);
  for (uint32_t c = 0; c < 4; ++c)
    EXPECT_EQ(hw.channelOf(c), 0u);
  hw.rows = 3;
  hw.cols = 1;
  hw.channels.resize(2); // 3 clusters over 2 channels: 0,0,1
  EXPECT_EQ(hw.channelOf(0), 0u);
  EXPECT_EQ(hw.channelOf(1), 0u);
  EXPECT_EQ(hw.channelOf(2), 1u);
}

struct ErrCase {
  const char *json;
  const char *expect;
};

TEST(HardwareDesc, FieldErrorsNameThePath) {
  const ErrCase cases[] = {
      {R"({"grid": {"rowz": 2}})", "grid.rowz: unknown key"},
      {R"({"gird": {"rows": 2}})", "gird: unknown key"},
      {R"({"mac_lanes": 2})", "mac_lanes: unknown key"},
      {R"({"grid": 3})", "grid: expected an object, got an integer"},
      {R"({"grid": {"cols": 0}})", "grid.cols: must be >= 1 (got 0)"},
      {R"({"grid": {"cols": -1}})", "grid.cols: must be >= 1 (got -1)"},
      {R"({"grid": {"cols": 2.5}})",
       "grid.cols: expected an integer, got a real number"},
      {R"({"grid": {"cols": "2"}})",
       "grid.cols: expected an integer, got a string"},
      {R"({"grid": {"rows": 4294967296}})", "grid.rows: must be <= 64"},
      {R"({"grid": {"rows": 65}})", "grid.rows: must be <= 64 (got 65)"},
      {R"({"cluster": {"pes": 0}})", "cluster.pes: must be >= 1"},
      {R"({"cluster": {"instruction_buffers": 33}})",
       "cluster.instruction_buffers: must be <= 32 (got 33)"},
      {R"({"cluster": {"instruction_buffers": 0}})",
       "cluster.instruction_buffers: must be >= 1"},
      {R"({"cluster": {"instruction_buffer_depth": 0}})",
       "cluster.instruction_buffer_depth: must be >= 1"},
      {R"({"cluster": {"register_file_entries": 0}})",
       "cluster.register_file_entries: must be >= 1"},
      {R"({"cluster": {"storage_bytes": 1000}})",
       "cluster.storage_bytes: must be a power of two (got 1000)"},
      {R"({"cluster": {"storage_bytes_per_cycle": 0}})",
       "cluster.storage_bytes_per_cycle: must be > 0"},
      {R"({"cluster": {"act_load_bytes_per_cycle": -3}})",
       "cluster.act_load_bytes_per_cycle: must be > 0 (got -3)"},
      {R"({"cluster": {"weight_load_bytes_per_cycle": true}})",
       "cluster.weight_load_bytes_per_cycle: expected a number, got a boolean"},
      {R"({"pe": {"mac_lanes": 0}})", "pe.mac_lanes: must be >= 1"},
      {R"({"pe": {"input_buffer_bytes": 1000}})",
       "pe.input_buffer_bytes: must be a multiple of 64"},
      {R"({"pe": {"input_buffer_bytes": 1008}})", // divisible by 16 only
       "pe.input_buffer_bytes: must be a multiple of 64"},
      {R"({"pe": {"weight_queue_bytes": 6}})",
       "pe.weight_queue_bytes: must be a multiple of 4"},
      {R"({"pe": {"acc_buffer_bytes": 0}})",
       "pe.acc_buffer_bytes: must be >= 16"},
      // Four accumulation buffers of at least one f32 (8 crashed the
      // GEMM kernels' tiling with a division by zero).
      {R"({"pe": {"acc_buffer_bytes": 8}})",
       "pe.acc_buffer_bytes: must be >= 16 (got 8)"},
      {R"({"pe": {"acc_buffer_bytes": 18}})",
       "pe.acc_buffer_bytes: must be a multiple of 4"},
      // Rates of 1e-20 bytes per cycle wrapped the simulator's cycle counts.
      {R"({"memory": {"channels": [{"bytes_per_cycle": 1e-20}]}})",
       "memory.channels[0].bytes_per_cycle: must be >= 0.0009765625"},
      {R"({"cluster": {"storage_bytes_per_cycle": 0.0001}})",
       "cluster.storage_bytes_per_cycle: must be >= 0.0009765625"},
      {R"({"mesh": {"link_bytes_per_cycle": 0.0005}})",
       "mesh.link_bytes_per_cycle: must be >= 0.0009765625"},
      // A clock of 5e-324 GHz or 1e308 pJ per MAC made a run's time or
      // energy inf (a null in stats.json).
      {R"({"clock_ghz": 5e-324})",
       "clock_ghz: must be >= 1e-06 (got 4.94065645841247e-324): "
       "a slower clock would overflow the run times"},
      {R"({"clock_ghz": 2e6})", "clock_ghz: must be <= 1000000 (got 2000000): "
                                "a faster clock is not a machine"},
      {R"({"power": {"pj_per_mac": 1e308}})",
       "power.pj_per_mac: must be <= 1000000000 (got 1e+308): a larger "
       "energy per event would overflow the energy totals"},
      {R"({"power": {"pj_per_byte_hop": -1}})",
       "power.pj_per_byte_hop: must be >= 0 (got -1)"},
      {R"({"pe": {"sfu_lanes": 0}})", "pe.sfu_lanes: must be >= 1"},
      {R"({"latency": {"command_issue": 0}})",
       "latency.command_issue: must be >= 1"},
      {R"({"latency": {"sfu": -2}})", "latency.sfu: must be >= 0 (got -2)"},
      {R"({"memory": {"channels": []}})",
       "memory.channels: must list at least one channel"},
      {R"({"memory": {"channels": {}}})",
       "memory.channels: expected an array, got an object"},
      {R"({"memory": {"channels": [3]}})",
       "memory.channels[0]: expected an object"},
      {R"({"memory": {"channels": [{"bytes_per_cycle": 8}, {"bytes_per_cycle": 0}]}})",
       "memory.channels[1].bytes_per_cycle: must be > 0"},
      {R"({"memory": {"channels": [{"latency": 3}]}})",
       "memory.channels[0].latency: unknown key"},
      {R"({"memory": {"channels": [{"latency_cycles": -3}]}})",
       "memory.channels[0].latency_cycles: must be >= 0"},
      {R"({"memory": {"channels": [{"max_outstanding": 0}]}})",
       "memory.channels[0].max_outstanding: must be in 1..65536 (got 0)"},
      {R"({"memory": {"channels": [{"max_outstanding": 70000}]}})",
       "memory.channels[0].max_outstanding: must be in 1..65536 (got 70000)"},
      {R"({"memory": {"channels": [{"max_outstanding": 1.5}]}})",
       "memory.channels[0].max_outstanding: expected an integer"},
      {R"({"memory": {"channels": [{}, {}, {}, {}, {}]}})",
       "memory.channels: 5 channels for 4 clusters"},
      {R"({"memory": {"dram_bytes": 0}})", "memory.dram_bytes: must be >= 4"},
      {R"({"memory": {"bandwidth": 0}})", "memory.bandwidth: unknown key"},
      {R"({"mesh": {"link_bytes_per_cycle": 0}})",
       "mesh.link_bytes_per_cycle: must be > 0"},
      {R"({"tiling": {"block_size": 48}})",
       "tiling.block_size: must be a power of two"},
      {R"({"rnn": {"ep_max": 48}})", "rnn.ep_max: must be a power of two"},
      {R"({"rnn": {"ep_max": 128}})",
       "rnn.ep_max: 128 exceeds pe.mac_lanes 64 (an adder tree sums the MAC "
       "lanes of one PE; use a power of two <= 64)"},
      {R"({"pe": {"mac_lanes": 32}})", "rnn.ep_max: 64 exceeds pe.mac_lanes"},
      {R"({"rnn": {"npe": 16384}})",
       "rnn.npe 16384 does not match the PE array (4 PEs x 64 MAC lanes = "
       "256)"},
      {R"({"rnn": {"npe": -1}})", "rnn.npe: must be >= 0"},
      {R"({"rnn": {"npe": "many"}})", "rnn.npe: expected an integer"},
      {R"({"rnn": {"cat_width": 128}})",
       "rnn.cat_width: must be <= rnn.ep_max"},
      {R"({"power": {"pj_per_mac": -1}})", "power.pj_per_mac: must be >= 0"},
      {R"({"numerics": {"compute": "f64"}})",
       "numerics.compute: unknown element type \"f64\""},
      {R"({"numerics": {"compute": 32}})",
       "numerics.compute: expected a string"},
      {R"({"numerics": {"accumulate": "f16"}})",
       "numerics.accumulate: f16 cannot accumulate f32 products"},
      {R"({"numerics": {"compute": "i8", "accumulate": "f32"}})",
       "numerics.accumulate: f32 cannot accumulate i8 products (use i32)"},
      {R"({"clock_ghz": 0})", "clock_ghz: must be > 0"},
      {R"({"clock_ghz": "fast"})",
       "clock_ghz: expected a number, got a string"},
      {R"({"name": 3})", "name: expected a string"},
      {R"([1, 2])", "expected a JSON object, got an array"},
  };
  for (const ErrCase &c : cases) {
    std::string err = parseErr(c.json);
    EXPECT_NE(err.find(c.expect), std::string::npos)
        << "input: " << c.json << "\n  got: " << err
        << "\n  want: " << c.expect;
  }
  // Valid combinations next to the invalid ones.
  EXPECT_EQ(parseErr(R"({"numerics": {"compute": "i8", "accumulate": "i32"}})"),
            "<parsed>");
  EXPECT_EQ(parseErr(R"({"numerics": {"compute": "f16"}})"), "<parsed>");
  EXPECT_EQ(parseErr(R"({"memory": {"channels": [{}, {}, {}, {}]}})"),
            "<parsed>");
}

TEST(HardwareDesc, MalformedJsonReportsPosition) {
  std::string err = parseErr("{\n  \"grid\": {\"rows\": 2,}\n}");
  EXPECT_NE(err.find("invalid JSON"), std::string::npos) << err;
  EXPECT_NE(err.find("line 2"), std::string::npos) << err;
  EXPECT_NE(err.find("column"), std::string::npos) << err;
  err = parseErr("");
  EXPECT_NE(err.find("invalid JSON"), std::string::npos) << err;
  err = parseErr(R"({"clock_ghz": 1e400})"); // number overflow, not a crash
  EXPECT_NE(err.find("invalid JSON"), std::string::npos) << err;
}

TEST(HardwareDesc, FailedParseLeavesOutputUntouched) {
  HardwareDesc hw;
  hw.rows = 7;
  std::string err;
  EXPECT_FALSE(
      parseHardwareDesc(R"({"grid": {"rows": 3, "cols": 0}})", hw, err));
  EXPECT_EQ(hw.rows, 7u);
}

TEST(HardwareDesc, LoadErrorsNameTheFile) {
  HardwareDesc hw;
  std::string err;
  EXPECT_FALSE(loadHardwareDesc("/nonexistent/hw.json", hw, err));
  EXPECT_NE(err.find("/nonexistent/hw.json"), std::string::npos) << err;
  std::string path = ::testing::TempDir() + "/bad-hw.json";
  {
    std::ofstream out(path);
    out << R"({"pe": {"mac_lanes": 0}})";
  }
  EXPECT_FALSE(loadHardwareDesc(path, hw, err));
  EXPECT_EQ(err, "hardware description '" + path +
                     "': pe.mac_lanes: must be >= 1 (got 0)");
}

TEST(HardwareDesc, ValidateInMemory) {
  HardwareDesc hw;
  std::string err;
  hw.channels.clear();
  EXPECT_FALSE(validateHardwareDesc(hw, err));
  EXPECT_EQ(err, "memory.channels: must list at least one channel");
  hw = HardwareDesc{};
  hw.macLanes = 0;
  EXPECT_FALSE(validateHardwareDesc(hw, err));
  EXPECT_EQ(err, "pe.mac_lanes: must be >= 1 (got 0)");
}

// Every leaf of the JSON form changes the fingerprint when changed to another
// valid value; name and description do not.
TEST(HardwareDesc, FingerprintChangesWithEveryField) {
  const HardwareDesc base;
  const uint64_t fp = base.fingerprint();
  nlohmann::json root = nlohmann::json::parse(hardwareToJson(base));
  unsigned leaves = 0;
  std::function<void(nlohmann::json &, const std::string &)> walk =
      [&](nlohmann::json &j, const std::string &p) {
        if (j.is_object()) {
          for (auto it = j.begin(); it != j.end(); ++it)
            walk(*it, p.empty() ? it.key() : p + "." + it.key());
          return;
        }
        if (j.is_array()) {
          for (size_t i = 0; i < j.size(); ++i)
            walk(j[i], p + "[" + std::to_string(i) + "]");
          return;
        }
        if (p == "name")
          return;
        ++leaves;
        nlohmann::json saved = j;
        std::vector<nlohmann::json> candidates;
        if (j.is_boolean()) {
          candidates = {!j.get<bool>()};
        } else if (j.is_number_unsigned()) {
          uint64_t v = j.get<uint64_t>();
          candidates = {v * 2, v + 1, v / 2};
        } else if (j.is_number()) {
          double v = j.get<double>();
          candidates = {v * 2, v + 0.5};
        } else if (j.is_string()) {
          candidates = {"f16", "bf16"};
        }
        bool changed = false;
        for (auto &c : candidates) {
          if (c == saved)
            continue;
          j = c;
          HardwareDesc hw;
          std::string err;
          if (!parseHardwareDesc(root.dump(), hw, err))
            continue;
          changed = true;
          EXPECT_NE(hw.fingerprint(), fp) << p;
          break;
        }
        j = saved;
        // numerics.accumulate has no valid alternative for f32 compute.
        if (!changed) {
          EXPECT_EQ(p, "numerics.accumulate");
        }
      };
  walk(root, "");
  EXPECT_GT(leaves, 50u);
  HardwareDesc hw;
  hw.accumulateType = DType::I32;
  EXPECT_NE(hw.fingerprint(), fp);
  // Channel count matters even with equal channels.
  hw = base;
  hw.channels.push_back(MemoryChannel{});
  EXPECT_NE(hw.fingerprint(), fp);
  // Name and description do not.
  hw = base;
  hw.name = "other";
  hw.description = "same machine";
  EXPECT_EQ(hw.fingerprint(), fp);
  EXPECT_FALSE(hw == base);
  // Stable across runs and platforms (update when fields are added).
  EXPECT_EQ(fp, 0xaee2175d2d437581ull);
}

// The RNN engine is one cluster's PE array: npe is derived, an explicit
// rnn.npe must match it, and it leaves the fingerprint alone.
TEST(HardwareDesc, RnnEngineIsOneClustersPeArray) {
  HardwareDesc hw;
  std::string err;
  EXPECT_EQ(hw.rnnNpe(), 256u); // 4 PEs x 64 lanes
  ASSERT_TRUE(parseHardwareDesc(R"({"rnn": {"npe": 256}})", hw, err)) << err;
  EXPECT_TRUE(hw == HardwareDesc{});
  EXPECT_EQ(hw.fingerprint(), HardwareDesc{}.fingerprint());
  ASSERT_TRUE(loadHardwareDesc(preset("rnn-npe16k"), hw, err)) << err;
  EXPECT_EQ(hw.rnnNpe(), 16384u);
  ASSERT_TRUE(loadHardwareDesc(preset("rnn-npe64k"), hw, err)) << err;
  EXPECT_EQ(hw.rnnNpe(), 65536u);
  EXPECT_EQ(parseErr(R"({"cluster": {"pes": 256}, "pe": {"mac_lanes": 256},
                         "rnn": {"npe": 65536}})"),
            "<parsed>");
  EXPECT_EQ(parseErr(R"({"cluster": {"pes": 8}, "rnn": {"npe": 16384}})"),
            "rnn.npe 16384 does not match the PE array (8 PEs x 64 MAC lanes "
            "= 512); the RNN engine is one cluster's PE array, leave rnn.npe "
            "out");
  // ep_max <= mac_lanes (power of two), cat_width <= ep_max (power of two).
  EXPECT_EQ(parseErr(R"({"pe": {"mac_lanes": 48}, "rnn": {"ep_max": 32}})"),
            "<parsed>");
  EXPECT_NE(parseErr(R"({"pe": {"mac_lanes": 48}, "rnn": {"ep_max": 48}})")
                .find("rnn.ep_max: must be a power of two"),
            std::string::npos);
  EXPECT_NE(parseErr(R"({"rnn": {"cat_width": 3}})")
                .find("rnn.cat_width: must be a power of two"),
            std::string::npos);
  EXPECT_EQ(parseErr(R"({"rnn": {"ep_max": 8, "cat_width": 16}})"),
            "rnn.cat_width: must be <= rnn.ep_max (16 > 8)");
  hw = HardwareDesc{};
  hw.macLanes = 8;
  EXPECT_FALSE(validateHardwareDesc(hw, err));
  EXPECT_NE(err.find("rnn.ep_max: 64 exceeds pe.mac_lanes 8"),
            std::string::npos)
      << err;
  // The printed form leaves the derived npe out.
  EXPECT_EQ(hardwareToJson(hw).find("\"npe\""), std::string::npos);
}

// Issue 11 fields: the shared cluster cache, the split group and the
// channel routers.
TEST(HardwareDesc, SplitAndSharedCacheFields) {
  HardwareDesc hw;
  std::string err;
  EXPECT_TRUE(hw.sharedClusterCache);
  EXPECT_EQ(hw.splitDatabaseName(), "shared-cache");
  EXPECT_EQ(hw.activationTile(), 64u); // 0 = the block size
  EXPECT_EQ(hw.weightTile(), 64u);
  ASSERT_TRUE(parseHardwareDesc(
      R"({"cluster": {"shared_cache": false},
          "split": {"activation_tile": 256, "weight_tile": 512}})",
      hw, err))
      << err;
  EXPECT_FALSE(hw.sharedClusterCache);
  EXPECT_EQ(hw.splitDatabaseName(), "bus-contention");
  EXPECT_EQ(hw.splitActivationTile, 256u);
  EXPECT_EQ(hw.activationTile(), 256u);
  EXPECT_EQ(hw.weightTile(), 512u);
  ASSERT_TRUE(
      parseHardwareDesc(R"({"split": {"database": "my-db_2.v1"}})", hw, err))
      << err;
  EXPECT_EQ(hw.splitDatabase, "my-db_2.v1");
  EXPECT_EQ(hw.splitDatabaseName(), "my-db_2.v1");
  // Round trip through the printer.
  HardwareDesc back;
  ASSERT_TRUE(parseHardwareDesc(hardwareToJson(hw), back, err)) << err;
  EXPECT_TRUE(back == hw);
  EXPECT_EQ(back.splitDatabase, "my-db_2.v1");
  // Spelling out the derived database name is the same machine.
  HardwareDesc a, b;
  b.splitDatabase = "shared-cache";
  EXPECT_EQ(a.fingerprint(), b.fingerprint());
  b.splitDatabase = "bus-contention";
  EXPECT_NE(a.fingerprint(), b.fingerprint());
  b = HardwareDesc{};
  b.sharedClusterCache = false;
  EXPECT_NE(a.fingerprint(), b.fingerprint());
}

TEST(HardwareDesc, ChannelRouters) {
  HardwareDesc hw; // 2 x 2, channel 0 -> clusters 0,1; channel 1 -> 2,3
  EXPECT_EQ(hw.channelRouter(0), 0u);
  EXPECT_EQ(hw.channelRouter(1), 2u);
  std::string err;
  ASSERT_TRUE(parseHardwareDesc(
      R"({"memory": {"channels": [{"router": [0, 1]}, {"router": [1, 1]}]}})",
      hw, err))
      << err;
  EXPECT_EQ(hw.channels[0].routerCluster, 1);
  EXPECT_EQ(hw.channels[1].routerCluster, 3);
  EXPECT_EQ(hw.channelRouter(0), 1u);
  EXPECT_EQ(hw.channelRouter(1), 3u);
  HardwareDesc back;
  ASSERT_TRUE(parseHardwareDesc(hardwareToJson(hw), back, err)) << err;
  EXPECT_TRUE(back == hw);
  EXPECT_NE(hw.fingerprint(), HardwareDesc{}.fingerprint());
  // The default router spelled out is the same machine.
  ASSERT_TRUE(parseHardwareDesc(
      R"({"memory": {"channels": [{"router": [0, 0]}, {"router": [1, 0]}]}})",
      hw, err))
      << err;
  EXPECT_EQ(hw.fingerprint(), HardwareDesc{}.fingerprint());
  EXPECT_TRUE(hw == HardwareDesc{});
  // The printer names an explicit router and leaves a derived one implicit.
  nlohmann::json j = nlohmann::json::parse(hardwareToJson(hw));
  EXPECT_EQ(j["memory"]["channels"][1]["router"], nlohmann::json({1, 0}));
  j = nlohmann::json::parse(hardwareToJson(HardwareDesc{}));
  EXPECT_FALSE(j["memory"]["channels"][1].contains("router"));
  // In-memory validation of a router index.
  hw = HardwareDesc{};
  hw.channels[1].routerCluster = 4;
  EXPECT_FALSE(validateHardwareDesc(hw, err));
  EXPECT_EQ(err,
            "memory.channels[1].router: cluster 4 is outside the 2 x 2 grid");
}

TEST(HardwareDesc, NewFieldErrorsNameThePath) {
  const ErrCase cases[] = {
      {R"({"cluster": {"shared_cache": 1}})",
       "cluster.shared_cache: expected a boolean, got an integer"},
      {R"({"cluster": {"shared_cache": "yes"}})",
       "cluster.shared_cache: expected a boolean, got a string"},
      {R"({"split": {"database": 3}})",
       "split.database: expected a string, got an integer"},
      {R"({"split": {"database": "../etc/passwd"}})",
       "split.database: \"../etc/passwd\" is not a file name"},
      {R"({"split": {"database": "a/b"}})", "split.database: \"a/b\" is not"},
      {R"({"split": {"activation_tile": -1}})",
       "split.activation_tile: must be >= 0 (got -1)"},
      {R"({"split": {"weight_tile": 2.5}})",
       "split.weight_tile: expected an integer, got a real number"},
      {R"({"split": {"weight_tile": 2000000}})",
       "split.weight_tile: must be <= 1048576"},
      {R"({"split": {"tile": 4}})", "split.tile: unknown key"},
      {R"({"split": 4})", "split: expected an object, got an integer"},
      {R"({"memory": {"channels": [{"router": [2, 0]}]}})",
       "memory.channels[0].router: [2, 0] is outside the 2 x 2 grid"},
      {R"({"memory": {"channels": [{"router": [0, 5]}]}})",
       "memory.channels[0].router: [0, 5] is outside the 2 x 2 grid"},
      {R"({"memory": {"channels": [{"router": [0]}]}})",
       "memory.channels[0].router: expected [row, col], got [0]"},
      {R"({"memory": {"channels": [{"router": 3}]}})",
       "memory.channels[0].router: expected [row, col], got 3"},
      {R"({"memory": {"channels": [{"router": [-1, 0]}]}})",
       "memory.channels[0].router[0]: must be >= 0 (got -1)"},
      {R"({"memory": {"channels": [{"router": [0, "1"]}]}})",
       "memory.channels[0].router[1]: expected an integer, got a string"},
  };
  for (const ErrCase &c : cases) {
    std::string err = parseErr(c.json);
    EXPECT_NE(err.find(c.expect), std::string::npos)
        << "input: " << c.json << "\n  got: " << err
        << "\n  want: " << c.expect;
  }
  EXPECT_EQ(parseErr(R"({"split": {"database": ""}})"), "<parsed>");
  EXPECT_EQ(parseErr(R"({"split": {"activation_tile": 0}})"), "<parsed>");
  // A grid larger than the default accepts routers on its far side.
  EXPECT_EQ(parseErr(R"({"grid": {"rows": 3, "cols": 3},
                         "memory": {"channels": [{"router": [2, 2]}]}})"),
            "<parsed>");
}

// DRAM address map and NUMA distances (DESIGN-11).
TEST(HardwareDesc, ChannelRegionsAndHops) {
  HardwareDesc hw; // 1 GiB over 2 channels
  EXPECT_EQ(hw.channelRegionBytes(), 512ull << 20);
  EXPECT_EQ(hw.channelOfAddress(0), 0u);
  EXPECT_EQ(hw.channelOfAddress((512ull << 20) - 1), 0u);
  EXPECT_EQ(hw.channelOfAddress(512ull << 20), 1u);
  EXPECT_EQ(hw.channelOfAddress((1ull << 30) - 1), 1u);
  EXPECT_EQ(hw.channelOfAddress(1ull << 40), 1u); // beyond DRAM: the last
  // Region sizes round down to 64 bytes; the last channel takes the rest.
  hw.dramBytes = 1000;
  hw.channels.resize(3);
  hw.rows = 2;
  hw.cols = 2;
  EXPECT_EQ(hw.channelRegionBytes(), 320u); // 333 -> 320
  EXPECT_EQ(hw.channelOfAddress(319), 0u);
  EXPECT_EQ(hw.channelOfAddress(320), 1u);
  EXPECT_EQ(hw.channelOfAddress(640), 2u);
  EXPECT_EQ(hw.channelOfAddress(999), 2u);

  // Mesh hops are Manhattan distances on the row-major grid.
  HardwareDesc big;
  big.rows = 3;
  big.cols = 4;
  EXPECT_EQ(big.meshHops(0, 0), 0u);
  EXPECT_EQ(big.meshHops(0, 11), 5u); // (0,0) -> (2,3)
  EXPECT_EQ(big.meshHops(11, 0), 5u);
  EXPECT_EQ(big.meshHops(5, 2), 2u); // (1,1) -> (0,2)
  EXPECT_EQ(big.meshHops(3, 4), 4u); // (0,3) -> (1,0)

  // channelHops: 1 for the local router, 1 + mesh hops otherwise.
  HardwareDesc d; // channel 0 on cluster 0, channel 1 on cluster 2
  EXPECT_EQ(d.channelHops(0, 0), 1u);
  EXPECT_EQ(d.channelHops(1, 0), 2u);
  EXPECT_EQ(d.channelHops(3, 0), 3u);
  EXPECT_EQ(d.channelHops(2, 1), 1u);
  EXPECT_EQ(d.channelHops(0, 1), 2u);
  EXPECT_EQ(d.channelHops(1, 1), 3u);
  d.channels[1].routerCluster = 3;
  EXPECT_EQ(d.channelHops(3, 1), 1u);
  EXPECT_EQ(d.channelHops(0, 1), 3u);
}
