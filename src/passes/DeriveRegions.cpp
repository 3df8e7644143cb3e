// derive-regions: the static proofs of tile regions, and the phase of every slot write.
//  - A tile array is built by one straight chain of slot writes ending in its assembly
//    (loops that carry one were unrolled by mark-resource-loops and unroll-loops): each
//    slot index is a constant (E1006), each slot is written exactly once (E1003) and
//    every slot before the assembly (E1002); an array that is never assembled, or flows
//    through a branch or a loop, escapes (E1004).
//  - The writes get their phases in chain order: init, middle..., last; one write alone
//    is init_last. The assembly itself is no write.
//  - A partition-view slot index must provably stay inside the grid, given the bounds of
//    the loops around it (E0222): it names hardware ranges, so "probably" is not enough.
//  - A slot of a slot becomes a slot of the outer parent, grids and indices composed.
// One walk over each function plus one walk along each array's chain: linear.
#include <map>
#include <string>
#include <vector>

#include "ir/Describe.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"
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

  // Walks the chain of writes from `array` to its assembly.
  void followArray(Op& array) {
    const auto& grid = array.get(attr::grid);
    std::map<std::vector<int64_t>, Op*> written;
    std::vector<Op*> writes;
    Value* current = array.result();
    for (;;) {
      if (current->uses().size() != 1) {
        if (current->uses().empty())
          diags_.report(Diag::RegionEscape, array.loc(),
                        "tile array " + name(array) + " is never assembled; finish it with assembly(" +
                            sourceText(array.result(), diags_.sources()) + ") once every slot is written");
        return;  // more than one use: the verifier's linearity error
      }
      Op* user = current->uses().front().user;
      if (user->kind() == OpKind::RegionAssembly) break;
      if (user->kind() != OpKind::RegionInsert) return escape(array, *user);
      std::optional<std::vector<int64_t>> slot = constantSlot(*user);
      if (!slot) return;
      if (auto [it, fresh] = written.emplace(*slot, user); !fresh) {
        Diagnostic& d = diags_.report(Diag::RegionSlotTwice, user->loc(),
                                      "slot " + shapeText(*slot) + " of tile array " + name(array) +
                                          " is written a second time; write each slot exactly once");
        passes::addNote(d, it->second->loc(), "first written here");
        return;
      }
      writes.push_back(user);
      current = user->result();
    }
    const Op& assembly = *current->uses().front().user;
    if (int64_t(written.size()) != grid[0] * grid[1]) return reportMissing(array, assembly, grid, written);
    for (size_t i = 0; i < writes.size(); ++i)
      writes[i]->set(attr::phase, writes.size() == 1 ? RegionPhase::InitLast
                                  : i == 0            ? RegionPhase::Init
                                  : i + 1 == writes.size() ? RegionPhase::Last
                                                           : RegionPhase::Middle);
  }

  std::optional<std::vector<int64_t>> constantSlot(const Op& write) {
    std::vector<int64_t> slot;
    for (const Expr& e : write.get(attr::index)) {
      if (!e.isConst()) {
        diags_.report(Diag::RegionSlotDynamic, write.loc(),
                      "this slot write's index " + text(e) +
                          " is not a compile-time constant; write slots inside loops with constant bounds "
                          "(they are unrolled) or with constant indices");
        return std::nullopt;
      }
      slot.push_back(e.constValue());
    }
    return slot;
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

  void reportMissing(const Op& array, const Op& assembly, const std::vector<int64_t>& grid,
                     const std::map<std::vector<int64_t>, Op*>& written) {
    std::vector<std::string> missing;
    size_t count = 0;
    for (int64_t i = 0; i < grid[0]; ++i)
      for (int64_t j = 0; j < grid[1]; ++j)
        if (!written.count({i, j}) && count++ < kListedItems) missing.push_back(shapeText({i, j}));
    Diagnostic& d = diags_.report(Diag::RegionSlotMissing, assembly.loc(),
                                  "tile array " + name(array) + " is assembled with " + std::to_string(count) +
                                      " of its " + std::to_string(grid[0] * grid[1]) + " slots never written (" +
                                      listText(missing, "and", count) + "); write every slot before assembly");
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
