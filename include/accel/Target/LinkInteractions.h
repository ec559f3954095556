//===- LinkInteractions.h - Interactions wired into a linked program -*- C++
//-*-===//
//
// An interaction of accel-compile --networks (docs/multi-network.md
// "Interactions") runs its own small program on a cluster of its own. Once
// the networks and the interactions are linked (linkPrograms), this wires
// them together with the machine's semaphores and DRAM copies:
//   - every cluster of a producing network, after its last DMA that writes
//     the tensor, waits for its DMAs and signals the interaction's cluster;
//   - the interaction's cluster receives those signals, copies the tensors
//     into its inputs (dram_copy), runs, copies its result into every
//     consumer network's input and signals the consumers' clusters;
//   - every consumer cluster receives that signal before its first DMA that
//     reads the result.
// The inputs the copies fill are no longer program inputs. Pure C++.
//
//===----------------------------------------------------------------------===//
#ifndef ACCEL_TARGET_LINKINTERACTIONS_H
#define ACCEL_TARGET_LINKINTERACTIONS_H

#include "accel/Target/Program.h"

#include <string>
#include <vector>

namespace accel {

/// One end of an interaction: a symbol and the clusters of its network.
struct InteractionEnd {
  std::string symbol; ///< "cnn.feat" (an output) or "cnn.mix" (an input)
  std::vector<uint32_t> clusters; ///< row-major, where its network runs
};

struct InteractionWiring {
  std::string name;
  uint32_t cluster = 0; ///< row-major; runs the interaction's program
  /// The tensors combined, in the order of `inputs` (outputs of networks).
  std::vector<InteractionEnd> producers;
  std::vector<std::string> inputs; ///< the interaction program's inputs
  std::string result;              ///< its output
  /// The networks' inputs that receive the result.
  std::vector<InteractionEnd> consumers;
};

/// Semaphores of interaction k: the networks use ids below their cluster
/// count, the interactions count down from the top.
inline uint32_t interactionInSem(size_t k) {
  return kNumSemaphores - 1 - 2 * uint32_t(k);
}
inline uint32_t interactionOutSem(size_t k) { return interactionInSem(k) - 1; }

/// Wires `xs` into `p` (already linked). False with `err` naming the
/// interaction and the symbol when a symbol is missing, sizes differ, or no
/// cluster writes a producer tensor.
bool wireInteractions(Program &p, const std::vector<InteractionWiring> &xs,
                      std::string &err);

/// The baseline (LinkMode::Sequential, the interactions linked as the last
/// parts; `partStarts` from linkPrograms): each interaction runs once every
/// network has finished. Cluster 0 copies the tensors into its inputs, all
/// clusters meet at a barrier, then its program runs. No network can read
/// its result there: interactions with consumers are an error.
bool wireSequentialInteractions(
    Program &p, const std::vector<InteractionWiring> &xs,
    const std::vector<std::vector<size_t>> &partStarts, std::string &err);

} // namespace accel

#endif
