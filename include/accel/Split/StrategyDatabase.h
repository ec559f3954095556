//===- StrategyDatabase.h - Split strategies per architecture --*- C++ -*-===//
//
// Pure C++ (no MLIR, nlohmann_json in the .cpp): the split-strategy database
// of spec/labels-and-splits.md, one JSON file per processor architecture
// under hw/strategies/ (format in docs/labels-and-splits.md).
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_SPLIT_STRATEGYDATABASE_H
#define ACCEL_SPLIT_STRATEGYDATABASE_H

#include "accel/Split/Labels.h"
#include <map>
#include <string>
#include <vector>

namespace accel {
struct HardwareDesc;
}

namespace accel::split {

/// One splittable dim with its one storage space and one exchange level.
struct SplitOption {
  char dim = 0; ///< dim letter of the tensor's static dim order
  StorageTarget store;
  Swap swap = Swap::None;
};

/// Key (operator kind + parameters, category) -> ordered splittable dims.
/// A row with no dims keeps the tensor whole; `store` / `swap` then say where
/// it lives and how it is exchanged.
struct StrategyRow {
  std::string op;                            ///< "matmul", "conv2d", ...
  std::map<std::string, std::string> params; ///< must all match the query
  Category category = Category::InputNeuron;
  std::vector<SplitOption> dims; ///< priority order (earlier = higher)
  StorageTarget store;           ///< rows without dims
  Swap swap = Swap::None;
};

class StrategyDatabase {
public:
  /// Parses the JSON text; on error returns false and sets `err` naming the
  /// row and field ("rows[3].dims[0].swap: unknown exchange level 'bus'").
  static bool parse(const std::string &jsonText, StrategyDatabase &out,
                    std::string &err);
  static bool load(const std::string &path, StrategyDatabase &out,
                   std::string &err);
  /// The row for an operator with its parameters and a tensor category: the
  /// matching row (all its params equal the query's) with the most params;
  /// nullptr when none matches.
  const StrategyRow *lookup(const std::string &op,
                            const std::map<std::string, std::string> &params,
                            Category category) const;
  const std::string &architecture() const { return architecture_; }
  const std::vector<StrategyRow> &rows() const { return rows_; }

private:
  std::string architecture_;
  std::vector<StrategyRow> rows_;
};

/// Directory of the shipped databases (hw/strategies in the source tree,
/// overridable with ACCEL_STRATEGY_DIR) and the path of one by name.
std::string strategyDirectory();
std::string strategyPath(const std::string &name);

/// Loads the database of a machine: strategyPath(hw.splitDatabaseName()).
/// The hardware library validates only the name's syntax (it cannot depend
/// on this one); a name without a file is reported here as
/// "split.database: no strategy database 'x' (looked for <path>; ...)".
bool loadStrategyDatabase(const HardwareDesc &hw, StrategyDatabase &out,
                          std::string &err);

} // namespace accel::split

#endif
