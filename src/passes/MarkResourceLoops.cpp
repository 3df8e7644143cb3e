// mark-resource-loops: a loop whose variable picks a hardware resource (the column or
// channel of a dma transfer or wait) is made an unroll loop, because each iteration
// programs a different piece of hardware and a rolled loop cannot name it. Such a loop
// needs constant bounds: a runtime bound is E0623, as is a resource picked by a runtime
// size. A loop that carries a tile array is unrolled too: every slot write has its own
// phase (the first initializes the array, the last completes it), which a rolled body
// cannot encode; a runtime trip count there is E1005. The rolled MIDDLE of a peeled loop
// (linx-peel, `rolled`), whose writes are all middle ones, stays. Loops that only compute
// offsets, or read partition-view slots, stay loops, whatever their bounds. The decision
// follows from what the loop variable reaches or the loop carries, not from whether the
// bound is a literal. Linear in the ops times the loop nesting depth.
#include <string>
#include <unordered_set>
#include <vector>

#include "ir/Describe.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"
#include "ir/OpDefs.h"
#include "ir/Regions.h"

namespace tilec {
namespace {
using namespace ir;

class MarkResourceLoops final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"mark-resource-loops",
                                "make loops that pick a DMA channel or carry a tile array unroll loops", PropSSA,
                                PropResourceLoops, 0};
    return kInfo;
  }

  bool run(Module& m, PassContext& ctx) override {
    passes::ErrorWatch errors(ctx.diags);
    for (auto& f : m.functions()) {
      if (!mayHaveResourceLoops(*f)) continue;
      std::vector<Op*> loops;  // enclosing loops of the op being visited
      visit(f->body(), loops, tileArrayValues(*f), ctx.diags);
    }
    return errors.clean();
  }

 private:
  // Only an op that names a channel, or a tile array, makes a loop a resource loop.
  static bool mayHaveResourceLoops(const Function& f) {
    for (const OpInfo& info : allOps())
      if (f.count(info.kind) > 0 && (info.kind == OpKind::RegionArray || findAttrSpec(info.kind, "channel")))
        return true;
    return false;
  }

  static void visit(Block& b, std::vector<Op*>& loops, const std::unordered_set<const Value*>& arrays,
                    DiagnosticEngine& diags) {
    for (auto& op : b.ops()) {
      if (const auto* channel = op->find(attr::channel))  // [column, channel number]
        for (size_t i = 0; i < channel->size(); ++i) mark(*op, (*channel)[i], i == 0 ? "column" : "channel", loops, diags);
      if (op->kind() == OpKind::For) {
        markArrayLoop(*op, arrays, diags);
        loops.push_back(op.get());
      }
      for (unsigned i = 0; i < op->numRegions(); ++i) visit(op->body(i), loops, arrays, diags);
      if (op->kind() == OpKind::For) loops.pop_back();
    }
  }

  static void markArrayLoop(Op& loop, const std::unordered_set<const Value*>& arrays, DiagnosticEngine& diags) {
    bool carries = false;
    for (unsigned i = 0; i < loop.numOperands(); ++i) carries = carries || arrays.count(loop.operand(i));
    if (!carries || isRolled(loop)) return;
    if (!hasConstantBounds(loop)) {
      diags.report(Diag::RegionLoop, loop.loc(),
                   "this loop writes slots of a tile array, so it is unrolled (each write has its own phase), "
                   "but its trip count is not a compile-time constant; loop over the slots with constant bounds");
      return;
    }
    loop.set(attr::mode, LoopMode::Unroll);
  }

  static bool hasConstantBounds(const Op& loop) {
    return loop.find(attr::lb)->isConst() && loop.find(attr::ub)->isConst() && loop.find(attr::step)->isConst();
  }

  static void mark(const Op& user, const Expr& e, const char* what, const std::vector<Op*>& loops,
                   DiagnosticEngine& diags) {
    for (const Value* v : e.vars()) {
      Op* loop = nullptr;
      for (Op* l : loops)
        if (l->body().numArgs() && l->body().arg(0) == v) loop = l;
      if (!loop) {
        diags.report(Diag::ResourceLoop, user.loc(),
                     describe(user, diags.sources()) + " picks its " + what + " with " + describe(v, diags.sources()) +
                         ", a value known only at run time; a " + what + " is hardware the sequence must name, so "
                         "use constants or the variable of a loop with constant bounds");
        continue;
      }
      if (!hasConstantBounds(*loop)) {
        diags.report(Diag::ResourceLoop, loop->loc(),
                     "this loop picks the " + std::string(what) + " of " + describe(user, diags.sources()) +
                         " with its variable, so it is unrolled, but its bounds are runtime values; loop over "
                         "the " + what + "s with constant bounds and keep the runtime loop inside");
        continue;
      }
      loop->set(attr::mode, LoopMode::Unroll);
    }
  }
};

}  // namespace

std::unique_ptr<Pass> createMarkResourceLoopsPass() { return std::make_unique<MarkResourceLoops>(); }

}  // namespace tilec
