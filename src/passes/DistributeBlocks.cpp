// distribute-blocks: spreads a kernel over the blocks of its launch. It chooses the launch
// when the command line did not (--blocks): one block for a kernel that neither asks for its
// block nor has a parallel loop; otherwise as many blocks as the target runs kernels of its
// kind at once, but no more than the largest static trip count of its parallel loops (a
// block with no iteration would only be started to do nothing). Then each parallel loop
// becomes the serial loop over the share of one block (ir/Launch.h), its bounds computed
// from core.block_idx and core.block_num (and the sub-block ones when a block has several),
// so the kernel is right for whatever launch the host starts. Linear in program size.
#include <algorithm>
#include <optional>

#include "ir/Builder.h"
#include "ir/Launch.h"
#include "ir/OpDefs.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"

namespace tilec {
namespace {
using namespace ir;

bool isParallelLoop(const Op& op) {
  const LoopMode* mode = op.find(attr::mode);
  return op.kind() == OpKind::For && mode && isParallel(*mode);
}

// The trip count of a loop with constant bounds.
std::optional<int64_t> staticTrips(const Op& loop) {
  const auto lb = loop.get(attr::lb).asConst(), ub = loop.get(attr::ub).asConst(), step = loop.get(attr::step).asConst();
  if (!lb || !ub || !step || *step <= 0) return std::nullopt;
  return std::max<int64_t>(0, (*ub - *lb + *step - 1) / *step);
}

class DistributeBlocks final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"distribute-blocks",
                                "choose the launch's blocks and give each block its share of every parallel loop",
                                PropSSA, 0, 0};
    return kInfo;
  }

  bool run(Module& m, PassContext& ctx) override {
    if (!m.target().hasBlocks()) return true;
    passes::ErrorWatch errors(ctx.diags);
    for (auto& f : m.functions()) {
      if (f->subblocks() > 1 && f->kind() != m.target().subblockKind)
        ctx.diags.report(Diag::SubblocksKind, f->loc(),
                         "kernel '" + f->name() + "' is " + m.target().kernelKindName(f->kind()) + ", but only " +
                             m.target().kernelKindName(m.target().subblockKind.value_or(0)) +
                             " kernels run as sub-blocks (the vector cores of one AI core); drop --subblocks, "
                             "or make the kernel vector work only");
      std::vector<Op*> loops;
      for (Op* op : passes::preorder(*f))
        if (isParallelLoop(*op)) loops.push_back(op);
      if (f->blocks() == 0) f->setBlocks(chooseBlocks(*f, loops));
      if (!loops.empty()) distribute(*f, loops);
    }
    return errors.clean();
  }

 private:
  static int64_t chooseBlocks(const Function& f, const std::vector<Op*>& loops) {
    const bool asks = readsLaunch(f);
    if (!asks && loops.empty()) return 1;
    const int64_t cores = f.module().target().coresFor(f.kind());
    if (asks) return cores;
    int64_t most = 1;
    for (const Op* loop : loops) {
      std::optional<int64_t> trips = staticTrips(*loop);
      if (!trips) return cores;
      most = std::max(most, *trips);
    }
    return std::min(cores, most);
  }

  // One unit per block, or per sub-block when blocks have several.
  static void distribute(Function& f, const std::vector<Op*>& loops) {
    Block& entry = f.body();
    Op* first = entry.ops().empty() ? nullptr : entry.ops().front().get();
    OpBuilder at(entry, first);
    at.setLoc(f.loc());
    Expr unit = Expr::var(at.createValue(OpKind::BlockIdx, {}, {}, {}, "block"));
    Expr units = Expr::var(at.createValue(OpKind::BlockNum, {}, {}, {}, "blocks"));
    if (f.subblocks() > 1) {
      Expr sub = Expr::var(at.createValue(OpKind::SubblockIdx, {}, {}, {}, "subblock"));
      Expr subs = Expr::var(at.createValue(OpKind::SubblockNum, {}, {}, {}, "subblocks"));
      unit = unit * subs + sub;
      units = units * subs;
    }
    for (Op* loop : loops) {
      const LoopShare<Expr> share = shareOf(loop->get(attr::mode), loop->get(attr::lb), loop->get(attr::ub),
                                            loop->get(attr::step), unit, units);
      loop->set(attr::lb, share.lb);
      loop->set(attr::ub, share.ub);
      loop->set(attr::step, share.step);
      loop->remove(attr::mode);
    }
  }
};

}  // namespace

std::unique_ptr<Pass> createDistributeBlocksPass() { return std::make_unique<DistributeBlocks>(); }

}  // namespace tilec
