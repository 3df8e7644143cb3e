// derive-regions: the static proofs of tile regions, and the phase of every slot write.
//  - A tile array is built by one straight chain of slot writes ending in its assembly
//    (loops that carry one were unrolled by mark-resource-loops and unroll-loops, or
//    peeled by linx-peel around a rolled MIDDLE loop): each slot index is a constant
//    (E1006), or in a rolled loop an affine function of its variable whose slots are one
//    proven run of ordinals (passes/SlotRuns.h); each slot is written exactly once (E1003)
//    and every slot before the assembly (E1002); an array that is never assembled, or
//    flows through a branch or a loop that is not rolled, escapes (E1004).
//  - The writes get their phases in chain order: init, middle..., last; one write alone
//    is init_last; the write of a rolled loop is middle in every iteration, so a rolled
//    loop never starts or ends a chain (E1004). The assembly itself is no write.
//  - A partition-view slot index must provably stay inside the grid, given the bounds of
//    the loops around it (E0222): it names hardware ranges, so "probably" is not enough.
//  - A slot of a slot becomes a slot of the outer parent, grids and indices composed.
// One walk over each function, one walk along each array's chain, and a sort of its writes
// by first slot (a rolled loop's run is proven in constant time): O(n log n).
#include <algorithm>
#include <tuple>
#include <string>
#include <vector>

#include "ir/Describe.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"
#include "passes/SlotRuns.h"
#include "ir/Regions.h"
#include "support/Wording.h"

namespace tilec {
namespace {
using namespace ir;

class RegionDeriver {
 public:
  RegionDeriver(Function& f, const TargetModel&, DiagnosticEngine& diags) : f_(f), diags_(diags) {}

  void run() {
    // Only arrays and partition views have anything to prove.
    if (f_.count(OpKind::RegionArray) == 0 && f_.count(OpKind::RegionPart) == 0) return;
    visit(f_.body());
  }

 private:
  void visit(Block& b) {
    for (auto& op : b.ops()) {
      if (op->kind() == OpKind::RegionArray) followArray(*op);
      if (op->kind() == OpKind::RegionPart) {
        checkPartIndex(*op);
        partOfRoot(*op);
      }
      for (unsigned i = 0; i < op->numRegions(); ++i) visit(op->body(i));
    }
  }

  void checkPartIndex(const Op& part) {
    const auto& grid = part.get(attr::grid);
    const auto& index = part.get(attr::index);
    const VarRanges ranges = loopBounds;
    for (size_t axis = 0; axis < 2; ++axis) {
      const bool inside = prove(CmpKind::GE, index[axis], Expr::constant(0), ranges) == std::optional<bool>(true) &&
                          prove(CmpKind::LT, index[axis], Expr::constant(grid[axis]), ranges) == std::optional<bool>(true);
      if (!inside)
        diags_.report(Diag::RegionIndex, part.loc(),
                      std::string("cannot prove that ") + (axis ? "column" : "row") + " index " + text(index[axis]) +
                          " of this slot stays in 0.." + std::to_string(grid[axis] - 1) + " of the " +
                          ir::shapeText(grid) + " grid; index with a loop variable whose bounds keep it inside");
    }
  }

  // A slot of a slot is a slot of the outer parent: grids [G0, G1] then [H0, H1] are one
  // grid [G0 * H0, G1 * H1], and indices a then b are a * H + b. Backends then see one
  // parent per slot, whose place in it they can lay out (the outer part is visited first,
  // so chains of any depth end at the root). An outer slot nothing else reads goes: it
  // would hold a register for an offset no block uses.
  void partOfRoot(Op& part) {
    Op* outer = part.operand(0)->definingOp();
    if (!outer || outer->kind() != OpKind::RegionPart) return;
    const auto& outerGrid = outer->get(attr::grid);
    const auto& outerIndex = outer->get(attr::index);
    std::vector<int64_t> grid = part.get(attr::grid);
    std::vector<Expr> index = part.get(attr::index);
    for (size_t axis = 0; axis < 2; ++axis) {
      index[axis] = outerIndex[axis] * grid[axis] + index[axis];
      grid[axis] *= outerGrid[axis];
    }
    part.setOperand(0, outer->operand(0));
    part.set(attr::grid, grid);
    part.set(attr::index, index);
    if (!outer->result()->hasUses()) outer->parentBlock()->erase(outer);
  }

  // A write's slots as the ordinals [lo, lo + count), with its place in the chain.
  struct Covered {
    int64_t lo, count;
    size_t place;
  };

  // Follows the chain of writes from `array` to its assembly, proves each slot written
  // once, and gives each write its phase.
  void followArray(Op& array) {
    const ArrayChain chain = arrayChain(array);
    if (!chain.assembly) return broken(array, chain);
    const std::vector<Op*>& writes = chain.writes;
    std::vector<Covered> covered;
    for (size_t k = 0; k < writes.size(); ++k) {
      const Op* loop = rolledLoopOf(*writes[k]);
      if (loop && (k == 0 || k + 1 == writes.size())) return rolledAtEnd(array, *loop, k == 0);
      std::optional<passes::SlotRun> run = passes::slotRun(*writes[k], loop, &diags_);
      if (!run) return;
      covered.push_back({run->lowest(), run->count, k});
    }
    std::sort(covered.begin(), covered.end(),
              [](const Covered& a, const Covered& b) { return std::tie(a.lo, a.place) < std::tie(b.lo, b.place); });
    if (!onceEach(array, writes, covered)) return;
    const std::vector<int64_t>& grid = array.get(attr::grid);
    int64_t count = 0;
    for (const Covered& c : covered) count += c.count;
    if (count != grid[0] * grid[1]) return reportMissing(array, *chain.assembly, grid, covered);
    for (size_t i = 0; i < writes.size(); ++i)
      writes[i]->set(attr::phase, writes.size() == 1 ? RegionPhase::InitLast
                                  : i == 0            ? RegionPhase::Init
                                  : i + 1 == writes.size() ? RegionPhase::Last
                                                           : RegionPhase::Middle);
  }

  // One sweep over the runs sorted by their first ordinal: a run that starts before the
  // furthest end so far overlaps an earlier one. Of the overlaps, the one whose later write
  // comes first in the chain is reported, with the other write.
  bool onceEach(const Op& array, const std::vector<Op*>& writes, const std::vector<Covered>& covered) {
    std::optional<std::pair<size_t, size_t>> twice;  // (second writer, first writer) by chain place
    int64_t slot = 0;
    const Covered* furthest = nullptr;
    for (const Covered& c : covered) {
      if (furthest && c.lo < furthest->lo + furthest->count) {
        const auto pair = std::minmax(c.place, furthest->place);
        if (!twice || pair.second < twice->first) {
          twice = std::make_pair(pair.second, pair.first);
          slot = c.lo;
        }
      }
      if (!furthest || c.lo + c.count > furthest->lo + furthest->count) furthest = &c;
    }
    if (!twice) return true;
    Diagnostic& d = diags_.report(Diag::RegionSlotTwice, writes[twice->first]->loc(),
                                  "slot " + passes::slotText(slot, array.get(attr::grid)) + " of tile array " +
                                      name(array) + " is written a second time; write each slot exactly once");
    passes::addNote(d, writes[twice->second]->loc(), "first written here");
    return false;
  }

  // Why the chain does not reach an assembly.
  void broken(const Op& array, const ArrayChain& chain) {
    if (chain.stop) return escape(array, *chain.stop);
    if (chain.end->uses().empty())
      diags_.report(Diag::RegionEscape, array.loc(),
                    "tile array " + name(array) + " is never assembled; finish it with assembly(" +
                        sourceText(array.result(), diags_.sources()) + ") once every slot is written");
    // more than one use: the verifier's linearity error
  }

  // A rolled loop's writes are all MIDDLE: the array's first and last writes are peeled.
  void rolledAtEnd(const Op& array, const Op& loop, bool first) {
    const std::string which = first ? "first" : "last";
    diags_.report(Diag::RegionEscape, loop.loc(),
                  "tile array " + name(array) + " gets its " + which +
                      " write from this rolled loop, whose iterations all write in the middle of the array; peel "
                      "the loop's " + which + " iteration (linx-peel), or unroll it");
  }

  void escape(const Op& array, const Op& user) {
    const bool branch = user.kind() == OpKind::Yield && user.parentBlock()->parentOp() &&
                        user.parentBlock()->parentOp()->kind() == OpKind::If;
    diags_.report(Diag::RegionEscape, user.loc(),
                  "tile array " + name(array) + " " +
                      (branch ? "is written under a condition; write every slot on every path, outside the branch"
                              : "is carried by " + describe(user, diags_.sources()) +
                                    ", which is not a slot write; slot-writing loops must be unrolled "
                                    "(run mark-resource-loops and unroll-loops first)"));
  }

  // The gaps between the sorted runs (which do not overlap), the first ones named.
  void reportMissing(const Op& array, const Op& assembly, const std::vector<int64_t>& grid,
                     const std::vector<Covered>& covered) {
    std::vector<std::string> missing;
    int64_t count = 0, next = 0;
    auto gap = [&](int64_t end) {
      for (int64_t o = next; o < end && missing.size() < kListedItems; ++o) missing.push_back(passes::slotText(o, grid));
      count += end - next;
    };
    for (const Covered& c : covered) {
      gap(c.lo);
      next = c.lo + c.count;
    }
    gap(grid[0] * grid[1]);
    Diagnostic& d = diags_.report(Diag::RegionSlotMissing, assembly.loc(),
                                  "tile array " + name(array) + " is assembled with " + std::to_string(count) +
                                      " of its " + std::to_string(grid[0] * grid[1]) + " slots never written (" +
                                      listText(missing, "and", size_t(count)) + "); write every slot before assembly");
    passes::addNote(d, array.loc(), "the array is created here");
  }

  std::string name(const Op& array) const { return describe(array.result(), diags_.sources()); }
  static std::string text(const Expr& e) { return exprText(e); }

  Function& f_;
  DiagnosticEngine& diags_;
};

class DeriveRegions final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"derive-regions",
                                "prove tile-array coverage and slot indices; give each slot write its phase",
                                PropUnrolled | PropResourceLoops, PropRegionsDerived, 0};
    return kInfo;
  }

  bool run(Module& m, PassContext& ctx) override {
    return passes::runOnFunctions<RegionDeriver>(m, ctx.diags);
  }
};

}  // namespace

std::unique_ptr<Pass> createDeriveRegionsPass() { return std::make_unique<DeriveRegions>(); }

}  // namespace tilec
