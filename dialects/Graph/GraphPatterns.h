//===- GraphPatterns.h - Canonical spellings of graph ops -------*- C++ -*-===//
//
// Some operators have two spellings in the graph dialect (`graph.binary add`
// and `graph.add`, `graph.unary relu` and `graph.relu`, ...). The canonical
// form is the dedicated op; these patterns rewrite the other spellings into
// it. They are part of every op's canonicalisation patterns, and passes that
// pattern-match the graph (select-mapping, convert-graph-to-isa) apply them
// first so they do not depend on `canonicalize` having run.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_GRAPH_GRAPHPATTERNS_H
#define ACCEL_GRAPH_GRAPHPATTERNS_H

#include "mlir/IR/PatternMatch.h"

namespace accel::graph {

/// graph.binary add (f32) -> graph.add; graph.unary relu, graph.unary clip
/// [0, >= FLT_MAX] and graph.binary max with a zero splat -> graph.relu.
void populateCanonicalSpellingPatterns(mlir::RewritePatternSet &patterns);

/// Rewrites every op under `root` into its canonical spelling (the patterns
/// above only: no folding, no dead-code removal). Fails if the rewrite did
/// not converge.
mlir::LogicalResult applyCanonicalSpellings(mlir::Operation *root);

} // namespace accel::graph

#endif
