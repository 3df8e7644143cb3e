// expand-batch-matmul: each tile.batch_matmul, and each tile.batch_matmul_acc that
// pack-accumulators left in place, becomes one 2-D op per element of the NumPy-style
// broadcast of the batch axes ([2, 1, M, K] x [1, 3, K, N] gives 6); each operand page is
// a slice of the operand at its batch index (a size-1 batch axis reuses its single page)
// reshaped to 2-D.
//  - A batch_matmul whose result is only stored: one matmul and one store per page.
//  - A batch_matmul used otherwise: its pages are gathered into one tile of the result's
//    shape (create, then one assemble per page at the page's batch index).
//  - A batch_matmul_acc (pages at most 16 columns wide, or one page): per page, the
//    accumulator's page is sliced, updated by matmul_acc and assembled back in place.
// It runs on N-D tiles, before store-partition and flatten-nd-to-2d, which turn the page
// slices and assembles into 2-D row bands. Ops with a partial batch, or with more pages
// than --max-unroll, are left for flatten-nd-to-2d to reject (E0606); an expansion that
// would grow a function past --max-ops is E0621. Linear in the ops plus the pages they
// unroll into.
#include "backend/pto/BatchPages.h"
#include "backend/pto/PtoTargets.h"
#include "ir/Builder.h"
#include "ir/Describe.h"
#include "ir/NdShape.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"

namespace tilec::pto {
namespace {
using namespace ir;

class ExpandBatchMatmul final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"expand-batch-matmul",
                                "turn each batched matmul into one 2-D matmul per batch page",
                                PropSSA | PropAccumulatorsPacked, 0, 0};
    return kInfo;
  }

  bool run(Module& m, PassContext& ctx) override {
    for (auto& f : m.functions()) {
      int64_t ops = f->numOps();
      for (Op* op : passes::opsOfKind(*f, {OpKind::BatchMatmul, OpKind::BatchMatmulAcc})) {
        if (!expandable(*op, ctx.limits.maxUnroll)) continue;
        // At most this many ops per page: two operand slices and reshapes or loads, an
        // accumulator slice and reshape, the matmul, its reshape and assemble or its stores.
        constexpr int64_t kOpsPerPage = 10;
        const int64_t pages = pageCount(batchDims(op->result()->type()));
        ops += pages * kOpsPerPage;
        if (ops > ctx.limits.maxOps) {
          ctx.diags.report(Diag::TooManyOps, op->loc(),
                           describe(*op, ctx.diags.sources()) + " unrolls into " + std::to_string(pages) +
                               " pages, which would grow kernel '" + f->name() + "' to about " +
                               std::to_string(ops) + " ops, more than the limit of " +
                               std::to_string(ctx.limits.maxOps) +
                               " (--max-ops); write the batch loop in the kernel, one 2-D matmul per iteration");
          return false;
        }
        expand(*op);
      }
    }
    return true;
  }

 private:
  static bool expandable(const Op& op, int64_t maxPages) {
    for (const Value* v : op.operands())
      if (!fullBatch(v->type())) return false;
    return pageCount(batchDims(op.result()->type())) <= maxPages;
  }

  static bool onlyStored(const Value* v) {
    if (!v->hasUses()) return false;
    for (const Use& u : v->uses())
      if (u.user->kind() != OpKind::Store || u.index != 0) return false;
    return true;
  }

  // Every store of the result comes right after the op: each page can then be stored as
  // soon as it is made, and only one page is live at a time.
  static bool storedRightAfter(const Op& op) {
    size_t stores = 0;
    for (const Op* next = op.nextOp(); next && next->kind() == OpKind::Store && next->operand(0) == op.result();
         next = next->nextOp())
      ++stores;
    return stores == size_t(std::distance(op.result()->uses().begin(), op.result()->uses().end()));
  }

  static void expand(Op& op) {
    Value* result = op.result();
    const bool accumulate = op.kind() == OpKind::BatchMatmulAcc;
    const bool fused = !accumulate && onlyStored(result);
    const bool adjacent = fused && storedRightAfter(op);
    const size_t rank = result->type().rank();
    const std::string base = result->name().empty() ? "mm" : result->name();
    OpBuilder build = OpBuilder::before(op);
    Value* lhs = op.operand(op.numOperands() - 2);
    Value* rhs = op.operand(op.numOperands() - 1);
    // The tile the pages go into: the accumulator, or a gather tile placed by its users.
    Value* whole = accumulate ? op.operand(0) : nullptr;
    if (!accumulate && !fused) {
      Type gather = result->type();
      if (gather.space() != kNoSpace) gather = gather.withSpace(kNoSpace, *gather.model());
      whole = passes::madeFrom(build.createValue(OpKind::Create, {}, {}, gather, base), result);
    }
    OperandPages lhsPages(build, lhs, base + "_lhs", loadsPerPage(lhs, rhs));
    OperandPages rhsPages(build, rhs, base + "_rhs", loadsPerPage(rhs, lhs));
    AttrMap init;
    if (const Expr* e = op.find(attr::init)) init = {attr::init(*e)};
    forEachPage(batchDims(result->type()), [&](int64_t p, const std::vector<int64_t>& at) {
      const std::string idx = std::to_string(p);
      Value* l = lhsPages.at(at, p);
      Value* r = rhsPages.at(at, p);
      if (fused)
        return storePage(op, passes::madeFrom(build.createValue(OpKind::Matmul, {l, r}, {}, {}, base + "_" + idx), result),
                         at, adjacent ? &build : nullptr);
      const std::vector<Expr> offsets = pageOffsets(at);
      Value* page;
      if (accumulate) {
        Value* window = operandPage(build, whole, at, base + "_acc" + idx);
        page = build.createValue(OpKind::MatmulAcc, {window, l, r}, init, {}, base + "_mm" + idx);
      } else {
        page = build.createValue(OpKind::Matmul, {l, r}, {}, {}, base + "_mm" + idx);
      }
      Value* nd = asBatchPage(build, passes::madeFrom(page, result), rank, base + "_nd" + idx);
      whole = passes::madeFrom(build.createValue(OpKind::Assemble, {whole, nd}, {attr::offsets(offsets)}, {}, base), result);
    });
    if (fused) {
      for (const Use& u : std::vector<Use>(result->uses().begin(), result->uses().end()))
        u.user->parentBlock()->erase(u.user);
    } else {
      result->replaceAllUsesWith(whole);
    }
    op.parentBlock()->erase(&op);
    dropUnused({lhs, rhs});
  }

  // One store of the page per store of the whole result, at the page's offsets: right
  // after the page (`here`) when the stores followed the op, else where each store was.
  static void storePage(Op& op, Value* page, const std::vector<int64_t>& at, OpBuilder* here) {
    const size_t rank = op.result()->type().rank();
    for (const Use& u : op.result()->uses()) {
      Op* store = u.user;
      OpBuilder there = OpBuilder::before(*store);
      (here ? *here : there)
          .create(OpKind::Store, {page, store->operand(1)},
                  {attr::offsets(pageStoreOffsets(store->get(attr::offsets), rank, at))});
    }
  }
};

}  // namespace

std::unique_ptr<Pass> createExpandBatchMatmulPass() { return std::make_unique<ExpandBatchMatmul>(); }

}  // namespace tilec::pto
