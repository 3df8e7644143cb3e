// tile-ops-2d: the one check that the ND passes left only 2-D tile forms: every tile
// an op uses or defines is 2-D, no batched matmul or scan is left, every gather from a
// source of several rows has its flat index (lower-gather), every assemble offset is a (row, col) pair, every
// transpose carries its scratch. Produces PropNdLegalized, which pto-legality requires
// instead of checking again. Linear in the number of ops.
#include "backend/pto/PtoTargets.h"
#include "ir/Describe.h"
#include "ir/OpDefs.h"
#include "passes/Pass.h"

namespace tilec::pto {
namespace {
using namespace ir;

class TileOps2D final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"tile-ops-2d",
                                "verify that only 2-D tile forms remain (after the ND passes)",
                                PropSSA, PropTileOps2D | PropNdLegalized, 0};
    return kInfo;
  }

  bool run(Module& m, PassContext& ctx) override {
    bool ok = true;
    auto fail = [&](const Op& op, std::string msg) {
      ctx.diags.report(Diag::TileOps2DViolation, op.loc(), std::move(msg));
      ok = false;
    };
    for (auto& f : m.functions())
      f->walk([&](Op& op) {
        if (op.kind() == OpKind::BatchMatmul || op.kind() == OpKind::BatchMatmulAcc)
          return fail(op, describe(op, ctx.diags.sources()) + " has no 2-D form; run expand-batch-matmul before this point");
        if (op.kind() == OpKind::Scan)
          return fail(op, describe(op, ctx.diags.sources()) + " has no PTO instruction; run lower-scans before this point");
        for (Value* v : op.operands())
          if (v->type().isTile() && v->type().rank() != 2)
            return fail(op, describe(op, ctx.diags.sources()) + " has a " + std::to_string(v->type().rank()) +
                                "-D tile operand; run flatten-nd-to-2d before this point");
        for (Value* r : op.results())
          if (r->type().isTile() && r->type().rank() != 2)
            return fail(op, describe(op, ctx.diags.sources()) + " produces a " + std::to_string(r->type().rank()) +
                                "-D tile; run flatten-nd-to-2d before this point");
        if (op.kind() == OpKind::Gather && !op.find(attr::row_stride) && op.operand(0)->type().rank() == 2 &&
            op.operand(0)->type().shape()[0] != 1)
          fail(op, describe(op, ctx.diags.sources()) + " gathers from a source of several rows, which tgather reads "
                   "through a flat index; run lower-gather before this point");
        if (op.kind() == OpKind::Assemble) {
          const auto* offs = op.find(attr::offsets);
          if (!offs || offs->size() != 2)
            fail(op, describe(op, ctx.diags.sources()) + " needs a (row, col) offset after flattening");
        }
        if (op.kind() == OpKind::Transpose && op.numOperands() != 2)
          fail(op, describe(op, ctx.diags.sources()) + " has no scratch operand, which its lowering needs; run "
                   "insert-transpose-scratch before this point");
      });
    return ok;
  }
};

}  // namespace

std::unique_ptr<Pass> createTileOps2DPass() { return std::make_unique<TileOps2D>(); }

}  // namespace tilec::pto
