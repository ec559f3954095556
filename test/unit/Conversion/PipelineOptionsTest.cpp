//===- PipelineOptionsTest.cpp - The default pipeline's own options -------===//
//
// accel::pipelineOptions() is the one table of the default pipeline's own
// options: parseSplitOptions, accel-compile's help and the Python package
// read it. Its defaults must be what SplitPipelineOptions starts as, every
// value it lists must parse, and the forwarded split-strategy options must
// reach that pass.
//
//===----------------------------------------------------------------------===//
#include "accel/Conversion/Passes.h"

#include <gtest/gtest.h>
#include <string>
#include <tuple>

using namespace accel;

namespace {
/// The fields a pipeline option sets, comparable.
auto fields(const SplitPipelineOptions &o) {
  return std::make_tuple(o.mode, o.fuse, o.depthFirst, o.depthFirstHalos,
                         o.rnnEngine, o.rnnContexts, o.rnnClusters);
}

/// parseSplitOptions of `pairs`; the error text in `err` on failure.
bool parse(std::vector<std::string> pairs, SplitPipelineOptions &out,
           std::string &err) {
  return succeeded(parseSplitOptions(pairs, out, [&](const llvm::Twine &m) {
    err = m.str();
    return mlir::failure();
  }));
}
} // namespace

TEST(PipelineOptions, EachDefaultIsWhatTheOptionsStartAs) {
  const SplitPipelineOptions initial;
  for (const PipelineOption &o : pipelineOptions()) {
    SplitPipelineOptions out;
    std::string err;
    ASSERT_TRUE(parse({(o.name + "=" + o.defaultValue).str()}, out, err))
        << o.name.str() << ": " << err;
    EXPECT_EQ(fields(out), fields(initial)) << o.name.str();
  }
}

TEST(PipelineOptions, EveryValueParsesAndAnUnknownOneIsNamed) {
  for (const PipelineOption &o : pipelineOptions()) {
    SplitPipelineOptions out;
    std::string err;
    for (const PipelineOptionValue &v : o.values)
      EXPECT_TRUE(parse({(o.name + "=" + v.value).str()}, out, err))
          << o.name.str() << "=" << v.value.str() << ": " << err;
    EXPECT_FALSE(parse({(o.name + "=bogus").str()}, out, err));
    EXPECT_EQ(err.rfind((o.name + ": 'bogus' is not ").str(), 0), 0u) << err;
  }
  SplitPipelineOptions out;
  std::string err;
  ASSERT_TRUE(parse({"split=labels", "fuse=off", "depth-first-halos=on",
                     "rnn=plain", "rnn-contexts=3", "rnn-clusters=2"},
                    out, err))
      << err;
  EXPECT_EQ(out.mode, SplitMode::Labels);
  EXPECT_FALSE(out.fuse);
  EXPECT_TRUE(out.depthFirst);
  EXPECT_TRUE(out.depthFirstHalos);
  EXPECT_FALSE(out.rnnEngine);
  EXPECT_EQ(out.rnnContexts, 3);
  EXPECT_EQ(out.rnnClusters, 2);
  EXPECT_FALSE(parse({"rnn-contexts=-1"}, out, err));
  EXPECT_EQ(err, "rnn-contexts: '-1' is not a count >= 0");
}

TEST(PipelineOptions, ForwardedOptionsGoToSplitStrategy) {
  SplitPipelineOptions out;
  std::string err;
  ASSERT_TRUE(parse({"parallel=data", "fuse=on", "rounding=floor"}, out, err))
      << err;
  EXPECT_EQ(out.strategy, "parallel=data rounding=floor");
  // split-strategy's parser checks their values.
  EXPECT_FALSE(parse({"parallel=sideways"}, out, err));
  for (const ForwardedStrategyOption &o : forwardedStrategyOptions()) {
    EXPECT_TRUE(isSplitOptionName(o.name)) << o.name.str();
    if (!o.pipelineDefault.empty()) {
      EXPECT_TRUE(parse({(o.name + "=" + o.pipelineDefault).str()}, out, err))
          << o.name.str() << ": " << err;
    }
  }
  for (const PipelineOption &o : pipelineOptions())
    EXPECT_TRUE(isSplitOptionName(o.name)) << o.name.str();
  EXPECT_EQ(splitOptionNames().size(),
            pipelineOptions().size() + forwardedStrategyOptions().size());
  EXPECT_FALSE(isSplitOptionName("conv"));
}

TEST(PipelineOptions, HelpListsEveryOptionAndItsDefault) {
  const std::string help = pipelineOptionsHelp();
  for (const PipelineOption &o : pipelineOptions()) {
    EXPECT_NE(help.find(("--" + o.name + "=").str()), std::string::npos)
        << o.name.str();
    for (const PipelineOptionValue &v : o.values)
      EXPECT_NE(help.find(v.value.str()), std::string::npos) << v.value.str();
  }
  EXPECT_NE(help.find("on or off (default)"), std::string::npos) << help;
  EXPECT_NE(help.find("the defaults here are --parallel=best "
                      "--rounding=clusters --balance-clusters=true"),
            std::string::npos)
      << help;
}
