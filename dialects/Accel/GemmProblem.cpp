//===- GemmProblem.cpp - The GEMM problem of a GEMM-shaped graph op -------===//
//
// Shared by select-tiling and select-mapping: the m, k, n, count and
// initialisation of the GEMM the lowering emits for an op.
//
//===----------------------------------------------------------------------===//
#include "Accel/GemmProblem.h"
#include "Graph/GraphDialect.h"

using namespace mlir;
using namespace accel;

namespace {
std::vector<int64_t> shapeOf(Value v) {
  auto t = cast<RankedTensorType>(v.getType());
  return {t.getShape().begin(), t.getShape().end()};
}
} // namespace

bool accel::transforms::problemOf(Operation *op, unsigned elemBytes,
                                  tiling::GemmProblem &p, bool &withInit) {
  p = {};
  p.elemBytes = elemBytes;
  withInit = false;
  if (auto mm = dyn_cast<graph::MatMulOp>(op)) {
    std::vector<int64_t> l = shapeOf(mm.getLhs()), r = shapeOf(mm.getRhs());
    if (l.size() == 1)
      l.insert(l.begin(), 1);
    if (r.size() == 1)
      r.push_back(1);
    p.m = l[l.size() - 2], p.k = l.back(), p.n = r.back();
    std::string why;
    auto batch =
        graph::broadcastShapes(llvm::ArrayRef<int64_t>(l).drop_back(2),
                               llvm::ArrayRef<int64_t>(r).drop_back(2), why);
    if (!batch)
      return false;
    for (int64_t d : *batch)
      p.count *= d;
    return true;
  }
  if (auto g = dyn_cast<graph::GemmOp>(op)) {
    std::vector<int64_t> a = shapeOf(g.getA()), b = shapeOf(g.getB());
    bool ta = g.getTransA(), tb = g.getTransB();
    p.m = ta ? a[1] : a[0], p.k = ta ? a[0] : a[1], p.n = tb ? b[0] : b[1];
    withInit = g.getC() && g.getBeta().convertToFloat() == 1.0f;
    return true;
  }
  if (auto c = dyn_cast<graph::Conv2DOp>(op)) {
    std::vector<int64_t> xs = shapeOf(c.getInput()),
                         ws = shapeOf(c.getWeight());
    auto st = c.getStrides(), pd = c.getPads(), dl = c.getDilations();
    tiling::ConvShape s;
    s.batch = 1, s.inChannels = xs[1], s.inH = xs[2], s.inW = xs[3];
    s.outChannels = ws[0], s.kernelH = ws[2], s.kernelW = ws[3];
    s.strideH = st[0], s.strideW = st[1];
    s.padTop = pd[0], s.padLeft = pd[1], s.padBottom = pd[2],
    s.padRight = pd[3];
    s.dilationH = dl[0], s.dilationW = dl[1];
    s.groups = c.getGroups();
    std::string err;
    if (!tiling::convToGemm(s, elemBytes, p, err))
      return false;
    p.count *= xs[0]; // the lowering emits one problem per (image, group)
    withInit = bool(c.getBias());
    return true;
  }
  return false;
}
