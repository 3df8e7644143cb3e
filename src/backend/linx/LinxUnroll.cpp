// linx-unroll: every loop with constant bounds becomes an unroll loop. A linx block names
// its source tiles by position in the relative tile queue (T#1 is the tile bound last), and
// in a rolled loop that position changes from one iteration to the next; unrolled, every
// block has fixed sources. A loop whose bounds are runtime values stays, and linx-legality
// rejects it with the reason, unless it carries no tile; so does the rolled MIDDLE of a
// peeled slot-writing loop (linx-peel), whose array keeps one place in the queue. Linear.
#include "backend/linx/LinxTargets.h"
#include "ir/Regions.h"
#include "passes/Pass.h"

namespace tilec::linx {
namespace {
using namespace ir;

class LinxUnroll final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"linx-unroll", "make every loop with constant bounds an unroll loop", PropSSA, 0, 0};
    return kInfo;
  }

  bool run(Module& m, PassContext&) override {
    for (auto& f : m.functions())
      f->walk([](Op& op) {
        if (op.kind() == OpKind::For && !isRolled(op) && op.find(attr::lb)->isConst() && op.find(attr::ub)->isConst() &&
            op.find(attr::step)->isConst())
          op.set(attr::mode, LoopMode::Unroll);
      });
    return true;
  }
};

}  // namespace

std::unique_ptr<Pass> createLinxUnrollPass() { return std::make_unique<LinxUnroll>(); }

}  // namespace tilec::linx
