// flatten-nd-to-2d: every tile of rank >= 3 in a kernel becomes the 2-D tile
// [product of leading dims, last] (PTO tiles are 2-D), and by the same rule a 1-D tile
// becomes one row, [n] -> [1, n]; a 1-D tensor is then moved through its [1, N] row view,
// one tensor.view per tensor made here, so no later pass has to guess which 2-D tiles
// were 1-D. A row longer than the target's longest tile axis is an error. The flattened tile holds the
// valid elements packed row after row, as an N-D load leaves them and an N-D store
// reads them (the store windows were decided before, by store-partition); ops that
// address a tile by physical position must see the same layout (nd::packedIsPhysical).
// Two phases: all preconditions are checked first (each violation is reported,
// nothing is rewritten), then one program-order walk rewrites ops in place. Linear
// in the number of ops, plus the per-batch pages an N-D transpose unrolls into
// (at most --max-unroll per transpose).
#include <algorithm>
#include <unordered_map>

#include "backend/pto/NzLoads.h"
#include "backend/pto/PtoTargets.h"
#include "ir/Builder.h"
#include "ir/Describe.h"
#include "ir/NdShape.h"
#include "ir/OpDefs.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"

namespace tilec::pto {
namespace {
using namespace ir;

bool isNdTile(const Type& t) { return t.isTile() && t.rank() > 2; }
// The tiles this pass makes 2-D: N-D ones and 1-D rows (a rank-0 tile in .tir is left to
// tile-ops-2d to reject).
bool collapses(const Type& t) { return t.isTile() && (t.rank() == 1 || t.rank() > 2); }
bool isVectorTensor(const Type& t) { return t.isTensor() && t.rank() == 1; }

bool touchesNdTile(const Op& op) {
  for (Value* v : op.operands())
    if (isNdTile(v->type())) return true;
  for (unsigned i = 0; i < op.numResults(); ++i)
    if (isNdTile(op.result(i)->type())) return true;
  return false;
}

// ---- phase 1: preconditions ----

// The 2-D offsets of the N-D slices flatten-nd-to-2d rewrites, decided by the precondition
// phase while the sources still have their N-D shapes.
using FoldedSlices = std::unordered_map<const Op*, std::vector<Expr>>;

class Preconditions {
 public:
  Preconditions(DiagnosticEngine& diags, const Limits& limits, FoldedSlices& folded)
      : diags_(diags), limits_(limits), folded_(folded) {}

  bool check(Function& f) {
    const TargetModel& target = f.module().target();
    f.walk([&](Op& op) {
      if (touchesNdTile(op)) checkOp(op);
      if (target.maxTileExtent) checkRowLength(op, target);
    });
    return ok_;
  }

 private:
  static bool longRow(const Value* v, const TargetModel& target) {
    return v->type().isTile() && v->type().rank() == 1 && v->type().shape()[0] > target.maxTileExtent;
  }

  // A 1-D tile becomes one row, which holds at most `maxRow` elements on the target. Reported
  // where such a row first appears (ops computing on it inherit its length), once per op.
  void checkRowLength(const Op& op, const TargetModel& target) {
    if (op.kind() == OpKind::For || op.kind() == OpKind::If) return;  // their yields were checked
    for (const Value* v : op.operands())
      if (longRow(v, target)) return;
    const std::string maxRow = std::to_string(target.maxTileExtent);
    int64_t chunk = 1;  // the suggested chunk: the largest power of two a row holds
    while (chunk <= target.maxTileExtent / 2) chunk *= 2;
    const std::string chunkText = std::to_string(chunk);
    for (const Value* r : op.results())
      if (longRow(r, target))
        return fail(Diag::RowTooLong, op,
                    describe(r) + " is a 1-D tile of " + std::to_string(r->type().shape()[0]) +
                        " elements, but a 1-D tile is one row and a row holds at most " + maxRow + " on " +
                        target.name + "; give it at most " + maxRow + " elements and loop over the rest (chunks of " +
                        chunkText + " with valid = [min(" + chunkText + ", N - i)])");
  }

  void fail(Diag id, const Op& op, std::string message) {
    diags_.report(id, op.loc(), std::move(message));
    ok_ = false;
  }

  std::string describe(const Value* v) const { return ir::describe(v, diags_.sources()); }
  std::string describe(const Op& op) const { return ir::describe(op, diags_.sources()); }

  void checkOp(const Op& op) {
    switch (op.kind()) {
      case OpKind::Slice:
        return checkSlice(op);
      case OpKind::Assemble:
        return checkAssemble(op);
      case OpKind::Transpose:
        return checkTranspose(op);
      case OpKind::TransposeView:
        return checkTransposeView(op);
      case OpKind::SetValidShape:
      case OpKind::Reshape:
      case OpKind::ReinterpretView:
        return checkPhysicalLayout(op);
      case OpKind::BatchMatmul:
      case OpKind::BatchMatmulAcc:
        return fail(Diag::NdBatchMatmul, op,
                    describe(op) +
                        " is unrolled into one 2-D matmul per batch page (by expand-batch-matmul) only "
                        "when every batch axis is fully valid and there are at most " +
                        std::to_string(limits_.maxUnroll) +
                        " pages (--max-unroll); write the batch loop in the kernel with a 2-D matmul on "
                        "each page");
      default:
        return;  // no N-D precondition of its own (regions are 2-D by their typing rules)
    }
  }

  // The bytes of an N-D tile read transposed are no row-major collapse of anything.
  void checkTransposeView(const Op& op) {
    const int rank = op.result()->type().rank();
    if (rank <= 2) return;
    const auto& axes = op.get(attr::axes);
    const bool pageAxes =
        axes.size() == 2 && std::min(axes[0], axes[1]) == rank - 2 && std::max(axes[0], axes[1]) == rank - 1;
    if (!pageAxes)
      return fail(Diag::NdTransposeView, op,
                  describe(op) + " swaps axes " + std::to_string(axes[0]) + " and " +
                      std::to_string(axes.size() > 1 ? axes[1] : axes[0]) + " of a " + std::to_string(rank) +
                      "-D tile, a batch axis among them: a batched matmul reads an operand transposed only "
                      "within its pages (the last two axes); load the operand with its axes in the order "
                      "the matmul needs");
    fail(Diag::NdTransposeView, op,
         describe(op) + " of a " + std::to_string(rank) +
             "-D tile is lowered only as an operand of a batched matmul (its pages become column "
             "bands of one 2-D transposed view); copy with transpose(...), or feed it to batch_matmul");
  }

  // `op` reads or writes its N-D tiles by physical position, which the packed 2-D
  // layout matches only when the valid elements are a leading run of rows.
  void checkPhysicalLayout(const Op& op) {
    std::vector<const Value*> tiles(op.operands().begin(), op.operands().end());
    for (unsigned i = 0; i < op.numResults(); ++i) tiles.push_back(op.result(i));
    for (const Value* v : tiles) {
      const Type& t = v->type();
      if (!isNdTile(t) || nd::packedIsPhysical(t)) continue;
      const std::string tile = v->definingOp() == &op ? "it makes" : describe(v);
      return fail(Diag::NdPartialInnerAxis, op,
                  describe(op) + " addresses the " + ir::shapeText(t.shape()) + " tile " + tile +
                      " by position, but its valid extents " +
                      ir::shapeText(t.valid()) +
                      " leave holes between valid rows once the tile is 2-D (an axis inside the "
                      "outermost partial one is partial too), so no 2-D valid shape can say which "
                      "elements are valid; narrow only the outermost axis that holds more than one "
                      "entry, or work on one 2-D page at a time in a loop");
    }
  }

  // An N-D slice whose region is one contiguous row band of its source (a batch page) is a
  // 2-D row slice at the folded offset, decided here while the source is still N-D.
  void checkSlice(const Op& op) {
    const Type& src = op.operand(0)->type();
    const Type& part = op.result()->type();
    const auto* offsets = op.find(attr::offsets);
    if (src.rank() <= 2 || !offsets) return;
    if (nd::packedIsPhysical(src) && offsets->back().asConst() == std::optional<int64_t>(0) &&
        part.shape().back() == src.shape().back() &&
        nd::collapsesContiguously(constExprs(part.shape()), constExprs(src.shape()))) {
      folded_[&op] = nd::foldOffsets(*offsets, constExprs(src.shape()));
      return;
    }
    fail(Diag::NdSlice, op,
         "slice of a " + ir::shapeText(part.shape()) + " region of a " + ir::shapeText(src.shape()) +
             " tile is not one contiguous band of whole rows once the tile is 2-D; slice whole pages "
             "(leading extents of 1, full inner axes), slice a 2-D tile, or load the window directly");
  }

  void checkAssemble(const Op& op) {
    const Type& target = op.operand(0)->type();
    const Type& src = op.operand(1)->type();
    if (target.rank() <= 2) return;
    checkPhysicalLayout(op);
    // Equal ranks are a typing rule of assemble, checked before this pass.
    if (!nd::collapsesContiguously(constExprs(src.shape()), constExprs(target.shape())))
      fail(Diag::NdAssembleBand, op,
           "assemble writes a " + ir::shapeText(src.shape()) + " region into a " +
               ir::shapeText(target.shape()) +
               " tile, which is not one contiguous row band once the tile is 2-D (every dimension "
               "after the outermost partial one must be written in full); assemble one "
               "contiguous page per iteration of a loop over the outer dimension");
  }

  void checkTranspose(const Op& op) {
    const Type& in = op.operand(0)->type();
    const auto* axes = op.find(attr::axes);
    if (!axes || axes->size() != 2) return;  // the verifier reports malformed axes
    int64_t n = int64_t(in.rank());
    int64_t lo = std::min((*axes)[0], (*axes)[1]), hi = std::max((*axes)[0], (*axes)[1]);
    if (lo != n - 2 || hi != n - 1)
      return fail(Diag::NdTransposeAxes, op,
                  "transpose of a " + std::to_string(n) + "-D tile swaps axes " +
                      std::to_string(lo) + " and " + std::to_string(hi) +
                      ", which involves a batch axis; only the last two axes of a >2D tile can be "
                      "swapped, so reshape the tile so that the swapped axes are the last two");
    int64_t pages = 1;
    for (int64_t i = 0; i + 2 < n; ++i) {
      if (in.valid()[i] != Expr::constant(in.shape()[i]))
        return fail(Diag::NdTransposeValid, op,
                    "transpose of a >2D tile needs every batch axis fully valid, but axis " +
                        std::to_string(i) + " has valid extent " + ir::shapeText({in.valid()[i]}) +
                        "; narrow only the last two axes, or transpose each page in a loop");
      pages *= in.shape()[i];  // no overflow: a tile's element count fits in int64
    }
    if (pages > limits_.maxUnroll)
      fail(Diag::NdTransposePages, op,
           "transpose of a " + ir::shapeText(in.shape()) + " tile unrolls into " + std::to_string(pages) +
               " 2-D transposes, more than the limit of " + std::to_string(limits_.maxUnroll) +
               " (--max-unroll); loop over the batch axes in the kernel and transpose one 2-D page per "
               "iteration");
  }

  DiagnosticEngine& diags_;
  const Limits& limits_;
  FoldedSlices& folded_;
  bool ok_ = true;
};

// ---- phase 2: the rewrite ----

class Rewriter {
 public:
  Rewriter(DiagnosticEngine& diags, const FoldedSlices& folded) : diags_(diags), folded_(folded) {}

  bool run(Function& f) {
    paramViewsBefore_ = f.body().empty() ? nullptr : f.body().ops().front().get();
    rewriteBlock(f.body());
    return ok_;
  }

 private:
  void rewriteBlock(Block& b) {
    for (auto it = b.ops().begin(); it != b.ops().end();) {
      Op* op = it->get();
      ++it;  // rewrites may insert before `op` or erase it
      rewriteOp(*op);
    }
  }

  void rewriteOp(Op& op) {
    switch (op.kind()) {
      case OpKind::For:
        return rewriteFor(op);
      case OpKind::If:
        return rewriteIf(op);
      case OpKind::Load:
        return rewriteLoad(op);
      case OpKind::Store:
        return rewriteStore(op);
      case OpKind::Assemble:
        return rewriteAssemble(op);
      case OpKind::Transpose:
        if (isNdTile(op.result()->type())) return unrollTranspose(op);
        return;
      case OpKind::Slice:
        if (auto it = folded_.find(&op); it != folded_.end()) op.set(attr::offsets, it->second);
        if (op.result()->type().rank() == 1) op.set(attr::offsets, nd::foldOffsets(op.get(attr::offsets), {}));
        return collapseResults(op);
      default:
        return collapseResults(op);  // its tiles are what they were, collapsed
    }
  }

  void collapseResults(Op& op) {
    for (unsigned i = 0; i < op.numResults(); ++i) {
      Value* r = op.result(i);
      if (collapses(r->type())) r->setType(nd::collapseTile(r->type()));
    }
  }

  void rewriteFor(Op& op) {
    Block& body = op.body();
    for (unsigned i = 0; i < op.numOperands(); ++i) body.arg(i + 1)->setType(op.operand(i)->type());
    rewriteBlock(body);
    collapseResults(op);
  }

  void rewriteIf(Op& op) {
    rewriteBlock(op.body(0));
    rewriteBlock(op.body(1));
    collapseResults(op);
  }

  // The result becomes 2-D. A vec load keeps its tensor-rank window; a natural NZ load
  // into mat reads a 2-D view of the tensor instead, since the NZ conversion is 2-D. A 1-D
  // tile of a 2-D or N-D tensor is a row of it as it stands ([v] reads the window [.., 1, v]).
  void rewriteLoad(Op& op) {
    Value* r = op.result();
    if (r->type().rank() == 1) {
      r->setType(nd::collapseTile(r->type()));
      return readThroughRow(op, 0);
    }
    if (!isNdTile(r->type())) return;
    const Type& tile = r->type();
    const Type& tensor = op.operand(0)->type();
    std::vector<Expr> window(tensor.rank() - tile.rank(), Expr::constant(1));
    window.insert(window.end(), tile.valid().begin(), tile.valid().end());
    const bool nz = convertsToNz(tile);
    r->setType(nd::collapseTile(tile));
    if (!nz) {
      op.set(attr::window, window);
      return;
    }
    if (!loadThroughRowView(op, window, diags_)) ok_ = false;
  }

  void rewriteStore(Op& op) { readThroughRow(op, 1); }

  // A load or store of a 1-D tensor moves the tensor's one row: the op reads the tensor's
  // [1, N] view at (0, offset).
  void readThroughRow(Op& op, unsigned tensorOperand) {
    Value* tensor = op.operand(tensorOperand);
    if (!isVectorTensor(tensor->type())) return;
    op.setOperand(tensorOperand, rowView(tensor));
    op.set(attr::offsets, nd::foldOffsets(op.get(attr::offsets), {}));
    if (const auto* window = op.find(attr::window))
      op.set(attr::window, std::vector<Expr>{Expr::constant(1), window->front()});
  }

  // The [1, N] view of a 1-D tensor, made once, where the tensor is defined: the views of
  // parameters in the order first used, ahead of the function's own ops.
  Value* rowView(Value* tensor) {
    Value*& view = rowViews_[tensor];
    if (view) return view;
    Block& block = *tensor->block();
    Op* before = paramViewsBefore_;
    if (Op* def = tensor->definingOp()) {
      auto next = std::next(std::find_if(block.ops().begin(), block.ops().end(),
                                         [&](const std::unique_ptr<Op>& o) { return o.get() == def; }));
      before = next == block.ops().end() ? nullptr : next->get();
    }
    OpBuilder build(block, before);
    build.setLoc(passes::definitionLoc(tensor));
    const Type& t = tensor->type();
    view = build.createValue(OpKind::TensorView, {tensor}, {},
                             Type::tensor(t.dtype(), {Expr::constant(1), t.dims()[0]}), tensor->name() + "_row");
    return view;
  }

  void rewriteAssemble(Op& op) {
    const Type& target = op.operand(0)->type();  // already collapsed by its producer
    Value* r = op.result();
    if (!collapses(r->type())) return;
    std::vector<Expr> dims = constExprs(r->type().shape());
    op.set(attr::offsets, nd::foldOffsets(op.get(attr::offsets), dims));
    r->setType(target);
  }

  // [..batch.., A, B] swapped on the last two axes: one 2-D transpose per batch page,
  // each with a scratch page sliced from one pool, assembled into the [Bc*B, A] result.
  // Pages sit where the packed layout puts them: input page p at row p * (valid A),
  // output page p at row p * (valid B), which are p * A and p * B when the pages are full.
  void unrollTranspose(Op& op) {
    Value* in = op.operand(0);  // already collapsed to [Bc*A, B]
    const Type& ndOut = op.result()->type();
    const std::vector<int64_t>& s = ndOut.shape();
    const size_t n = s.size();
    const int64_t a = s[n - 1], b = s[n - 2];  // an input page is [a, b]
    int64_t pages = 1;
    for (size_t i = 0; i + 2 < n; ++i) pages *= s[i];
    const Type flatIn = in->type();
    // The result's valid extents are the input page's, swapped (batch axes are full).
    const std::vector<Expr> pageValid{ndOut.valid()[n - 1], ndOut.valid()[n - 2]};
    OpBuilder build = OpBuilder::before(op);
    // Messages call the pages and scratch what they call the input, the rest the result.
    auto slice = [&](Value* from, Expr row, std::vector<Expr> valid, const std::string& name) {
      return passes::madeFrom(
          build.createValue(OpKind::Slice, {from}, {attr::offsets(std::vector<Expr>{std::move(row), Expr::constant(0)})},
                            flatIn.withShape({a, b}, std::move(valid)), name),
          in);
    };
    Value* result = op.result();
    const std::string base = result->name().empty() ? "transpose" : result->name();
    Value* acc = passes::madeFrom(build.createValue(OpKind::Create, {}, {}, nd::collapseTile(ndOut), base), result);
    Value* pool = passes::madeFrom(build.createValue(OpKind::Create, {}, {}, flatIn.withFullValid(), base + "_scratch"), in);
    for (int64_t p = 0; p < pages; ++p) {
      std::string idx = std::to_string(p);
      const Expr pageIndex = Expr::constant(p);
      Value* page = slice(in, pageIndex * pageValid[0], pageValid, base + "_page" + idx);
      Value* scratch = slice(pool, Expr::constant(p * a), {}, base + "_scratch" + idx);
      Value* tr = passes::madeFrom(build.createValue(OpKind::Transpose, {page, scratch},
                                                     {attr::axes(std::vector<int64_t>{0, 1})}, {}, base + "_t" + idx),
                                   result);
      acc = passes::madeFrom(build.createValue(OpKind::Assemble, {acc, tr},
                                               {attr::offsets(std::vector<Expr>{pageIndex * pageValid[1], Expr::constant(0)})},
                                               {}, base),
                             result);
    }
    op.result()->replaceAllUsesWith(acc);
    op.parentBlock()->erase(&op);
  }

  DiagnosticEngine& diags_;
  const FoldedSlices& folded_;
  std::unordered_map<const Value*, Value*> rowViews_;
  Op* paramViewsBefore_ = nullptr;
  bool ok_ = true;
};

class FlattenNdTo2D final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"flatten-nd-to-2d",
                                "make every tile 2-D: [product of leading dims, last], a 1-D tile one row",
                                PropSSA | PropStoreWindows, PropTileOps2D, 0};
    return kInfo;
  }

  bool run(Module& m, PassContext& ctx) override {
    bool ok = true;
    FoldedSlices folded;
    for (auto& f : m.functions()) ok = Preconditions(ctx.diags, ctx.limits, folded).check(*f) && ok;
    if (!ok) return false;
    for (auto& f : m.functions()) ok = Rewriter(ctx.diags, folded).run(*f) && ok;
    return ok;
  }
};

}  // namespace

std::unique_ptr<Pass> createFlattenNdTo2DPass() { return std::make_unique<FlattenNdTo2D>(); }

}  // namespace tilec::pto
