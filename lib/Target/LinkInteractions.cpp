//===- LinkInteractions.cpp - Interactions wired into a linked program ----===//
#include "accel/Target/LinkInteractions.h"
#include "ValidateParts.h"

#include <algorithm>
#include <map>

namespace accel {

namespace {

using validate::ByteRange;

/// Commands to insert before position `at` of a stream.
using Inserts = std::multimap<size_t, CommandList>;

const Symbol *findSymbol(const Program &p, const std::string &name) {
  for (const Symbol &s : p.symbols)
    if (s.name == name)
      return &s;
  return nullptr;
}

uint64_t imageBytes(const Symbol &s) {
  return s.numElements() * uint64_t(validate::symbolElementBytes(s.dtype));
}

std::vector<DramPiece> piecesOf(const Symbol &s) {
  if (!s.pieces.empty())
    return s.pieces;
  return {DramPiece{0, imageBytes(s), s.dramAddr}};
}

/// A DMA that writes (or reads) DRAM bytes of one of `pieces`.
bool touches(const DmaDesc &d, bool write, const std::vector<DramPiece> &ps) {
  bool dram = dramSide(d.dir, !write);
  if (!dram)
    return false;
  ByteRange r =
      write ? validate::boxRange(d.dst, d.shape, d.dstStride, 4, d.elemBytes)
            : validate::boxRange(d.src, d.shape, d.srcStride, 4, d.elemBytes);
  for (const DramPiece &p : ps)
    if (r.lo < __int128(p.dramAddr + p.bytes) && __int128(p.dramAddr) < r.hi)
      return true;
  return false;
}

Command waitAll() {
  Command c;
  c.kind = CommandKind::Wait;
  c.waitTags = 0xFF;
  c.waitPe = true;
  return c;
}

Command signal(std::vector<uint32_t> targets, uint32_t sem) {
  Command c;
  c.kind = CommandKind::Signal;
  std::sort(targets.begin(), targets.end());
  targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
  c.mesh->targets = std::move(targets);
  c.mesh->sem = sem;
  return c;
}

Command recv(uint32_t sem, uint32_t count) {
  Command c;
  c.kind = CommandKind::Recv;
  c.sem = sem;
  c.count = count;
  return c;
}

/// One dram_copy of `bytes` (rows of at most 64 Ki elements).
void appendCopy(uint64_t src, uint64_t dst, uint64_t bytes, CommandList &out) {
  uint32_t eb = (src | dst | bytes) % 4 == 0 ? 4 : 1;
  uint64_t elems = bytes / eb, cols = std::min<uint64_t>(elems, 65536);
  while (elems > 0) {
    uint64_t rows = std::min<uint64_t>(elems / cols, 65536);
    uint64_t w = rows ? cols : elems;
    rows = std::max<uint64_t>(rows, 1);
    Command c;
    c.kind = CommandKind::Dma;
    c.dma.dir = DmaDir::DramCopy;
    c.dma.elemBytes = eb;
    c.dma.src = src;
    c.dma.dst = dst;
    c.dma.shape[2] = uint32_t(rows);
    c.dma.shape[3] = uint32_t(w);
    c.dma.srcStride[2] = c.dma.dstStride[2] = int64_t(w);
    c.dma.srcStride[3] = c.dma.dstStride[3] = 1;
    out.push_back(c);
    uint64_t moved = rows * w * eb;
    src += moved;
    dst += moved;
    elems -= rows * w;
  }
}

/// Output `from` copied into every piece (and replica) of input `to`.
CommandList copySymbol(const Symbol &from, const Symbol &to) {
  std::vector<validate::ReadPart> parts;
  if (from.pieces.empty())
    parts.push_back({0,
                     {0, __int128(imageBytes(from))},
                     {__int128(from.dramAddr),
                      __int128(from.dramAddr + imageBytes(from))}});
  else
    parts = validate::outputReadParts(from);
  CommandList out;
  for (const DramPiece &piece : piecesOf(to))
    for (const validate::ReadPart &part : parts) {
      __int128 lo = std::max<__int128>(part.image.lo, piece.offset);
      __int128 hi =
          std::min<__int128>(part.image.hi, piece.offset + piece.bytes);
      if (lo < hi)
        appendCopy(uint64_t(part.dram.lo + (lo - part.image.lo)),
                   uint64_t(piece.dramAddr + (lo - piece.offset)),
                   uint64_t(hi - lo), out);
    }
  return out;
}

class Wirer {
public:
  Wirer(Program &p, std::string &err) : p(p), err(err) {}

  bool wire(const InteractionWiring &x, size_t k) {
    CommandList prologue, epilogue;
    uint32_t arrivals = 0;
    for (size_t i = 0; i < x.producers.size(); ++i) {
      const Symbol *from = symbol(x, x.producers[i].symbol);
      const Symbol *to = symbol(x, i < x.inputs.size() ? x.inputs[i] : "");
      if (!from || !to || !sameSize(x, *from, *to))
        return false;
      uint32_t n = signalAfterLastWrite(x.producers[i], *from, x.cluster,
                                        interactionInSem(k));
      if (n == 0)
        return fail(x, "no cluster writes " + from->name);
      arrivals += n;
      for (Command &c : copySymbol(*from, *to))
        prologue.push_back(std::move(c));
      dropped.push_back(to->name);
    }
    prologue.insert(prologue.begin(), recv(interactionInSem(k), arrivals));
    prologue.push_back(waitAll());
    const Symbol *result = symbol(x, x.result);
    if (!result)
      return false;
    epilogue.push_back(waitAll());
    CommandList signals;
    for (const InteractionEnd &c : x.consumers) {
      const Symbol *to = symbol(x, c.symbol);
      if (!to || !sameSize(x, *result, *to))
        return false;
      for (Command &cmd : copySymbol(*result, *to))
        epilogue.push_back(std::move(cmd));
      std::vector<uint32_t> readers =
          recvBeforeFirstRead(c, *to, interactionOutSem(k));
      if (!readers.empty())
        signals.push_back(signal(readers, interactionOutSem(k)));
      dropped.push_back(to->name);
    }
    epilogue.push_back(waitAll());
    for (Command &s : signals)
      epilogue.push_back(std::move(s));
    inserts[x.cluster].emplace(0, std::move(prologue));
    inserts[x.cluster].emplace(SIZE_MAX, std::move(epilogue));
    return true;
  }

  /// Applies the insertions (back to front, so positions stay valid) and
  /// drops the inputs the copies fill.
  void finish() {
    for (auto &[cluster, ins] : inserts) {
      auto &cmds = p.clusters[cluster].commands;
      for (auto it = ins.rbegin(); it != ins.rend(); ++it) {
        size_t at = std::min(it->first, cmds.size());
        cmds.insert(cmds.begin() + ptrdiff_t(at), it->second.begin(),
                    it->second.end());
      }
    }
    auto gone = [&](const Symbol &s) {
      return std::find(dropped.begin(), dropped.end(), s.name) != dropped.end();
    };
    p.symbols.erase(std::remove_if(p.symbols.begin(), p.symbols.end(), gone),
                    p.symbols.end());
  }

private:
  bool fail(const InteractionWiring &x, const std::string &why) {
    err = "interaction " + x.name + ": " + why;
    return false;
  }

  const Symbol *symbol(const InteractionWiring &x, const std::string &name) {
    const Symbol *s = findSymbol(p, name);
    if (!s)
      fail(x, "the linked program has no symbol '" + name + "'");
    return s;
  }

  bool sameSize(const InteractionWiring &x, const Symbol &a, const Symbol &b) {
    if (imageBytes(a) == imageBytes(b))
      return true;
    return fail(x, a.name + " has " + std::to_string(imageBytes(a)) +
                       " bytes, " + b.name + " " +
                       std::to_string(imageBytes(b)));
  }

  /// WAIT + SIGNAL after each cluster's last DMA writing `s`; how many.
  uint32_t signalAfterLastWrite(const InteractionEnd &end, const Symbol &s,
                                uint32_t target, uint32_t sem) {
    std::vector<DramPiece> ps = piecesOf(s);
    uint32_t n = 0;
    for (uint32_t c : end.clusters) {
      const auto &cmds = p.clusters[c].commands;
      for (size_t i = cmds.size(); i-- > 0;)
        if (cmds[i].kind == CommandKind::Dma &&
            touches(cmds[i].dma, true, ps)) {
          inserts[c].emplace(i + 1,
                             CommandList{waitAll(), signal({target}, sem)});
          ++n;
          break;
        }
    }
    return n;
  }

  /// RECV before each cluster's first DMA reading `s`; those clusters.
  std::vector<uint32_t> recvBeforeFirstRead(const InteractionEnd &end,
                                            const Symbol &s, uint32_t sem) {
    std::vector<DramPiece> ps = piecesOf(s);
    std::vector<uint32_t> readers;
    for (uint32_t c : end.clusters) {
      const auto &cmds = p.clusters[c].commands;
      for (size_t i = 0; i < cmds.size(); ++i)
        if (cmds[i].kind == CommandKind::Dma &&
            touches(cmds[i].dma, false, ps)) {
          inserts[c].emplace(i, CommandList{recv(sem, 1)});
          readers.push_back(c);
          break;
        }
    }
    return readers;
  }

  Program &p;
  std::string &err;
  std::map<uint32_t, Inserts> inserts;
  std::vector<std::string> dropped;
};

} // namespace

bool wireInteractions(Program &p, const std::vector<InteractionWiring> &xs,
                      std::string &err) {
  Wirer w(p, err);
  for (size_t k = 0; k < xs.size(); ++k)
    if (!w.wire(xs[k], k))
      return false;
  w.finish();
  return true;
}

} // namespace accel

namespace accel {

bool wireSequentialInteractions(
    Program &p, const std::vector<InteractionWiring> &xs,
    const std::vector<std::vector<size_t>> &partStarts, std::string &err) {
  uint32_t barrier = 0;
  for (const ClusterStream &c : p.clusters)
    for (const Command &cmd : c.commands)
      if (cmd.kind == CommandKind::Barrier)
        barrier = std::max(barrier, cmd.barrierId + 1);
  const size_t networks = partStarts.size() - xs.size();
  for (size_t k = xs.size(); k-- > 0;) { // back to front: starts stay valid
    const InteractionWiring &x = xs[k];
    if (!x.consumers.empty()) {
      err = "interaction " + x.name +
            ": in a sequential program no network can read its result";
      return false;
    }
    CommandList copies;
    for (size_t i = 0; i < x.producers.size() && i < x.inputs.size(); ++i) {
      const Symbol *from = findSymbol(p, x.producers[i].symbol);
      const Symbol *to = findSymbol(p, x.inputs[i]);
      if (!from || !to || imageBytes(*from) != imageBytes(*to)) {
        err = "interaction " + x.name + ": cannot copy " +
              x.producers[i].symbol + " into " + x.inputs[i];
        return false;
      }
      for (Command &c : copySymbol(*from, *to))
        copies.push_back(std::move(c));
    }
    copies.push_back(waitAll());
    // Every cluster meets once more after cluster 0's copies.
    Command meet;
    meet.kind = CommandKind::Barrier;
    meet.barrierId = barrier++;
    for (size_t c = 0; c < p.clusters.size(); ++c) {
      auto &cmds = p.clusters[c].commands;
      size_t at = partStarts[networks + k][c];
      CommandList ins = c == 0 ? copies : CommandList{};
      ins.push_back(meet);
      cmds.insert(cmds.begin() + ptrdiff_t(at), ins.begin(), ins.end());
    }
    p.symbols.erase(std::remove_if(p.symbols.begin(), p.symbols.end(),
                                   [&](const Symbol &s) {
                                     return std::find(x.inputs.begin(),
                                                      x.inputs.end(),
                                                      s.name) != x.inputs.end();
                                   }),
                    p.symbols.end());
  }
  return true;
}

} // namespace accel
