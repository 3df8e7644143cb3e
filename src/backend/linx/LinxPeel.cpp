// linx-peel: a loop whose iterations each write one slot of a tile array keeps its body
// once. B.ASSEMBLE encodes each write's phase, and every iteration of a rolled body has the
// same words, so the first iteration (INIT) is copied before the loop and the last (LAST)
// after it; the loop between them, marked `rolled`, runs the others, every write MIDDLE,
// its slot offset in a register (linx-offsets). Two iterations are two copies and one is
// one (INIT_LAST). derive-regions gives the copies and the loop their phases. A loop is
// peeled when
//  - it is serial and carries one value, a tile array, through one slot write in its body
//    (the array's only use there);
//  - its slots are proven one run of consecutive ordinals, each written once
//    (passes/SlotRuns.h: an index affine in the loop variable, a constant trip count), not
//    by enumerating the iterations;
//  - its bounds are runtime values (no copy of it can be unrolled; then a failed proof is
//    the error, naming the slot), or it runs more than kUnrolledWrites times and its slots
//    are whole CELLs (linx-pack-cells packs smaller ones only when they are unrolled).
// Shorter loops with constant bounds are left to linx-unroll: their blocks get constant
// offsets and need no register, and the listing barely grows. Loops are taken innermost
// first; a loop around a peeled one no longer has one write in its body and is unrolled,
// so the decision binds the variables of the loops around that will be unrolled to their
// first values, and derive-regions proves every copy once they are constants.
// Linear: each loop is looked at once, and a peel copies its body twice.
#include <string>
#include <vector>

#include "backend/linx/LinxLayout.h"
#include "backend/linx/LinxModel.h"
#include "backend/linx/LinxTargets.h"
#include "ir/Regions.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"
#include "passes/SlotRuns.h"

namespace tilec::linx {
namespace {
using namespace ir;

// Slot-writing loops up to this many iterations stay unrolled.
constexpr int64_t kUnrolledWrites = 16;

class Peeler {
 public:
  Peeler(Function& f, const TargetModel&, DiagnosticEngine& diags) : f_(f), diags_(diags) {}

  void run() {
    if (f_.count(OpKind::RegionArray) == 0 || f_.count(OpKind::For) == 0) return;
    arrays_ = tileArrayValues(f_);
    std::vector<Op*> loops;
    collect(f_.body(), loops);
    for (Op* loop : loops) consider(*loop);
  }

 private:
  // Post-order: an inner loop before the loop around it.
  static void collect(Block& b, std::vector<Op*>& out) {
    for (auto& op : b.ops()) {
      for (unsigned i = 0; i < op->numRegions(); ++i) collect(op->body(i), out);
      if (op->kind() == OpKind::For) out.push_back(op.get());
    }
  }

  void consider(Op& loop) {
    const LoopMode* mode = loop.find(attr::mode);
    if ((mode && *mode != LoopMode::Serial) || isRolled(loop) || loop.numOperands() != 1 ||
        !arrays_.count(loop.operand(0)))
      return;
    const Op* write = loopSlotWrite(loop, 0);
    if (!write) return;
    const bool constant = loop.get(attr::lb).isConst() && loop.get(attr::ub).isConst();
    if (constant && subCell(*write)) return;  // unrolled, so linx-pack-cells can pack its writes
    const std::vector<Expr> index = firstOuterIteration(loop, write->get(attr::index));
    if (constant) {
      const std::optional<passes::SlotRun> run = passes::slotRunAt(*write, index, loop, nullptr);
      if (run && run->count > kUnrolledWrites) peel(loop, run->count);
      return;  // otherwise unrolled, and each copy's write is proven on its own
    }
    const std::optional<passes::SlotRun> run = passes::slotRunAt(*write, index, loop, &diags_);
    if (run && run->count > 0) peel(loop, run->count);
  }

  // The index with the variables of the loops around that will be unrolled (constant
  // bounds: mark-resource-loops unrolls a loop that carries the array) at their first
  // values. Those copies' indices are constants only after unroll-loops, where
  // derive-regions proves each; here the loop's shape is what decides.
  static std::vector<Expr> firstOuterIteration(const Op& loop, std::vector<Expr> index) {
    for (Expr& e : index)
      e = e.substitute([&](const Value* v) {
        const Op* outer = loopOf(v);
        return outer && outer != &loop && outer->get(attr::lb).isConst() && outer->get(attr::ub).isConst() ? outer->get(attr::lb)
                                                                                          : Expr();
      });
    return index;
  }

  // A slot smaller than a CELL is no B.ASSEMBLE writer; linx-pack-cells packs runs of
  // such writes into carriers, which it does for unrolled writes only.
  static bool subCell(const Op& write) {
    std::string why;
    return storageBytes(write.operand(1)->type(), why).value_or(0) < kCellBytes;
  }

  // INIT before the loop, LAST after it; the loop keeps iterations 1 .. count - 2.
  void peel(Op& loop, int64_t count) {
    const Expr lb = loop.get(attr::lb), step = loop.get(attr::step);
    auto iteration = [&](int64_t k) { return lb + step * k; };
    std::vector<Value*> carried = loop.operands();
    OpBuilder b = OpBuilder::before(loop);
    if (!copy(b, loop, iteration(0), carried)) return;
    if (count < 3) {
      if (count == 2 && !copy(b, loop, iteration(1), carried)) return;
      loop.result(0)->replaceAllUsesWith(carried[0]);
      loop.parentBlock()->erase(&loop);
      return;
    }
    loop.setOperands(carried);
    loop.set(attr::lb, iteration(1));
    loop.set(attr::ub, iteration(count - 1));
    loop.set(attr::rolled, true);
    // LAST is made before the loop, reading its result, and the loop then moves before it.
    const std::vector<Use> later = loop.result(0)->uses();
    carried = {loop.result(0)};
    std::vector<Op*> last = passes::cloneIteration(b, loop, iteration(count - 1), carried);
    loop.parentBlock()->moveHere(&loop, last.front());
    for (const Use& u : later) u.user->setOperand(u.index, carried[0]);
    passes::checkIteration(last, loop, iteration(count - 1), "peeled", diags_);
  }

  bool copy(OpBuilder& b, const Op& loop, const Expr& iv, std::vector<Value*>& carried) {
    return passes::checkIteration(passes::cloneIteration(b, loop, iv, carried), loop, iv, "peeled", diags_);
  }

  Function& f_;
  DiagnosticEngine& diags_;
  std::unordered_set<const Value*> arrays_;
};

class LinxPeel final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"linx-peel",
                                "peel the first and last iterations of long or runtime slot-writing loops; keep the "
                                "rest rolled",
                                PropSSA, 0, 0};
    return kInfo;
  }
  bool run(Module& m, PassContext& ctx) override { return passes::runOnFunctions<Peeler>(m, ctx.diags); }
};

}  // namespace

std::unique_ptr<Pass> createLinxPeelPass() { return std::make_unique<LinxPeel>(); }

}  // namespace tilec::linx
