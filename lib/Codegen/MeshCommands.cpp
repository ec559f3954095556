//===- MeshCommands.cpp - SEND / SIGNAL / RECV on the cluster streams -----===//
#include "accel/Codegen/Kernels.h"

using namespace accel;
using namespace accel::codegen;

void StreamBuilder::meshSend(uint32_t cluster, const MeshOp &op) {
  Command c;
  c.kind = CommandKind::Send;
  c.mesh = op;
  push(cluster, std::move(c));
}

void StreamBuilder::meshSignal(uint32_t cluster, std::vector<uint32_t> targets,
                               uint32_t sem) {
  Command c;
  c.kind = CommandKind::Signal;
  c.mesh->targets = std::move(targets);
  c.mesh->sem = sem;
  push(cluster, std::move(c));
}

void StreamBuilder::meshRecv(uint32_t cluster, uint32_t sem, uint32_t count) {
  Command c;
  c.kind = CommandKind::Recv;
  c.sem = sem;
  c.count = count;
  push(cluster, std::move(c));
}
