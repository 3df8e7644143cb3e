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
//    the error, naming the slot), or it runs more than kUnrolledWrites times.
// A slot smaller than a CELL is no B.ASSEMBLE writer: when n of them fill a CELL and the
// loop meets linx-pack-cells' conditions, each iteration first becomes n source iterations
// filling one carrier (LinxCarriers.h), written into slot k of the grid n times coarser,
// and that loop is peeled; otherwise such a loop with constant bounds is unrolled for
// linx-pack-cells.
// Shorter loops with constant bounds are left to linx-unroll: their blocks get constant
// offsets and need no register, and the listing barely grows. Loops are taken innermost
// first; a loop around a peeled one no longer has one write in its body and is unrolled,
// so the decision binds the variables of the loops around that will be unrolled to their
// first values, and derive-regions proves every copy once they are constants.
// Linear: each loop is looked at once, and a peel copies its body twice (n times more
// for carriers).
#include <string>
#include <vector>

#include "backend/linx/LinxCarriers.h"
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

// Slot-writing loops up to this many iterations (carriers) stay unrolled.
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
    const std::vector<Expr> index = firstOuterIteration(loop, write->get(attr::index));
    const std::optional<passes::SlotRun> run = passes::slotRunAt(*write, index, loop, constant ? nullptr : &diags_);
    if (!run || run->count == 0) return;  // constant bounds: unrolled, each copy's write proven on its own
    const int64_t perCell = fragmentsPerCell(*write);
    // The carriers' slots are counted from the run proven here, so no variable of a loop
    // around may move them.
    if (perCell > 1 && index == write->get(attr::index) && packable(loop, *run, perCell)) {
      if (constant && run->count / perCell <= kUnrolledWrites) return;  // unrolled; linx-pack-cells packs it
      packIterations(loop, perCell, run->count / perCell);
      return peel(loop, run->count / perCell);
    }
    if (perCell > 1 && constant) return;  // unrolled, for linx-pack-cells to pack or refuse (E1103)
    if (!constant || run->count > kUnrolledWrites) peel(loop, run->count);
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

  // A slot smaller than a CELL is no B.ASSEMBLE writer: how many such slots fill one CELL
  // (1 for a slot of whole CELLs, 0 when none fill one exactly). Rows already whole units
  // of the row alignment keep the slot's size through linx-align-rows.
  static int64_t fragmentsPerCell(const Op& write) {
    const Type& slot = write.operand(1)->type();
    std::string why;
    const int64_t bytes = storageBytes(slot, why).value_or(0);
    if (bytes >= kCellBytes) return 1;
    const bool aligned = !storedInRows(slot) || slot.shape()[1] * int64_t(dtypeBytes(slot.dtype())) % rowAlignBytes() == 0;
    return bytes > 0 && kCellBytes % bytes == 0 && aligned ? kCellBytes / bytes : 0;
  }

  // The loop is the whole of its array's chain, writes every slot of a one-axis grid in
  // order, and both the grid and the grid n times coarser are proven slot ranges: the
  // conditions of linx-pack-cells, for the iterations instead of unrolled writes.
  static bool packable(const Op& loop, const passes::SlotRun& run, int64_t n) {
    const Op* array = loop.operand(0)->definingOp();
    const auto& uses = loop.result(0)->uses();
    if (!array || array->kind() != OpKind::RegionArray || uses.size() != 1 ||
        uses.front().user->kind() != OpKind::RegionAssembly)
      return false;
    const std::vector<int64_t>& grid = array->get(attr::grid);
    if ((grid[0] != 1 && grid[1] != 1) || run.first != 0 || run.stride != 1 || run.count != grid[0] * grid[1] ||
        run.count % n != 0)
      return false;
    std::string why;
    const Type& parent = array->result()->type();
    return proveSlots(parent, grid, why) && proveSlots(parent, coarseGrid(grid, n), why);
  }

  // One-column grids pack down the rows, others along the row.
  static std::vector<int64_t> coarseGrid(const std::vector<int64_t>& grid, int64_t n) {
    return grid[1] == 1 ? std::vector<int64_t>{grid[0] / n, 1} : std::vector<int64_t>{1, grid[1] / n};
  }

  // The loop runs over carriers: iteration k makes the writes of the iterations n * k ..
  // n * k + n - 1, whose fragments fill carrier k, slot k of the coarse grid.
  void packIterations(Op& loop, int64_t n, int64_t carriers) {
    Block& body = loop.body();
    Value* k = body.arg(0);
    const Expr lb = loop.get(attr::lb), step = loop.get(attr::step);
    std::vector<Op*> originals;
    for (const auto& op : body.ops())
      if (op->kind() != OpKind::Yield) originals.push_back(op.get());
    // The copies are made before the loop (cloning from the body while adding to it would
    // copy the copies), then moved in.
    OpBuilder b = OpBuilder::before(loop);
    std::vector<Value*> carried = {body.arg(1)};
    std::vector<Op*> made, writes;
    for (int64_t r = 0; r < n; ++r) {
      const Expr iv = lb + step * (Expr::var(k) * n + r);
      std::vector<Op*> copies = passes::cloneIteration(b, loop, iv, carried);
      passes::checkIteration(copies, loop, iv, "peeled", diags_);
      made.insert(made.end(), copies.begin(), copies.end());
      writes.push_back(carried[0]->definingOp());
    }
    for (Op* op : made) body.moveHere(op, originals.front());
    body.terminator()->setOperand(0, carried[0]);
    for (auto it = originals.rbegin(); it != originals.rend(); ++it) body.erase(*it);
    Op& array = *loop.operand(0)->definingOp();
    const std::vector<int64_t> coarse = coarseGrid(array.get(attr::grid), n);
    const bool rows = coarse[1] == 1;
    packRun(writes, coarse, rows ? std::vector<Expr>{Expr::var(k), Expr::constant(0)}
                                 : std::vector<Expr>{Expr::constant(0), Expr::var(k)}, rows);
    array.set(attr::grid, coarse);
    loop.result(0)->uses().front().user->set(attr::grid, coarse);
    loop.set(attr::lb, Expr::constant(0));
    loop.set(attr::ub, Expr::constant(carriers));
    loop.set(attr::step, Expr::constant(1));
    k->setName(k->name() + "_carrier");
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
