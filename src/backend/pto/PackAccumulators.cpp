// pack-accumulators: decides, once per function, the layout of every batched
// accumulator, and packs the ones that can be packed along columns.
//
// An accumulator is a chain of values that share one buffer: a tile.batch_matmul_acc's
// result and its accumulator operand, loop inits, carries and results, branch results
// (the alias graph, as a union-find: near-linear). A chain with B > 1 pages of [M, N]
// cannot keep the row-major [B*M, N] layout flatten-nd-to-2d would give it when a page is
// wider than one 16-column block: the matrix unit writes its destination compactly with
// no row stride, and in acc's 16x16-box layout a row window of a wider tile is strided.
// A column window spans every row, so its geometry and the parent's coincide. Such a
// chain becomes one [M, B*N] tile; page b is the window at [0, b*N]:
//   w = slice(acc, [0, b*N]); m = matmul_acc(w, lhs_b, rhs_b); acc = assemble(acc, m, [0, b*N])
// (the assemble writes m back where it already is, so it costs nothing), a producing
// batch_matmul writes its pages the same way with init = true into a fresh tile, and a
// store of the accumulator becomes one store per page straight from the window.
//
// Chains with pages at most 16 columns wide that cannot be column-packed stay
// batch_matmul_acc: expand-batch-matmul gives them row windows, which are addressable
// inside one block column. Everything else is an error naming the reason and the
// workaround. Then the same packing for the logical row windows of 2-D accumulators
// (PackRowWindows.h). Linear in the function plus the pages it unrolls.
#include <map>
#include <set>

#include "backend/pto/BatchPages.h"
#include "backend/pto/PackRowWindows.h"
#include "backend/pto/PtoTargets.h"
#include "ir/Builder.h"
#include "ir/Describe.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"

namespace tilec::pto {
namespace {

using namespace ir;

// The acc box, in the words of messages: "16", "16x16".
const std::string kBox = std::to_string(kBoxSide);
const std::string kBoxes = kBox + "x" + kBox;

// Why a chain cannot be column-packed. A hard reason rules out the row-window layout
// too, and is reported with its own remedy instead of the packing rationale.
struct Reason {
  enum Kind { Geometry, Use, TwoAllocations, CannotWriteAcc, VectorDrain } kind;
  std::string text;
  const Op* at = nullptr;  // where to point a note
  bool hard() const { return kind == TwoAllocations || kind == CannotWriteAcc || kind == VectorDrain; }
};

struct Chain {
  std::vector<Op*> accumulates;  // batch_matmul_acc, in program order
  std::vector<Op*> producers;    // batch_matmul results in the chain
  std::vector<Op*> allocations;  // create and batch_matmul
  std::vector<Op*> drains;       // stores of a member
  std::vector<Value*> members;
  std::vector<Reason> reasons;
};

class FunctionPacking {
 public:
  FunctionPacking(Function& f, DiagnosticEngine& diags, const Limits& limits)
      : f_(f), diags_(diags), limits_(limits), model_(f.module().target()) {}

  // False after reporting a chain that cannot be laid out.
  bool run() {
    std::vector<Op*> ops = passes::preorder(f_);
    // More pages than --max-unroll are left whole, for flatten-nd-to-2d to reject (E0606).
    std::vector<Op*> accumulates;
    for (Op* op : ops) {
      if (op->kind() != OpKind::BatchMatmulAcc) continue;
      const int64_t pages = pageCount(batchDims(op->result()->type()));
      if (pages > 1 && pages <= limits_.maxUnroll) accumulates.push_back(op);
    }
    if (accumulates.empty()) return true;  // the common case: no need to join every tile
    passes::forEachTileJoin(ops, /*views=*/false, [&](Value* a, Value* b) { uf_.unite(a, b); });
    std::map<Value*, Chain*> byRoot;
    std::vector<std::unique_ptr<Chain>> chains;  // in program order of their first accumulate
    for (Op* op : accumulates) {
      Chain*& c = byRoot[uf_.find(op->result())];
      if (!c) c = chains.emplace_back(std::make_unique<Chain>()).get();
      c->accumulates.push_back(op);
    }
    collectMembers(ops, byRoot);
    for (auto& c : chains) decide(*c);
    return ok_;
  }

 private:
  void collectMembers(const std::vector<Op*>& ops, const std::map<Value*, Chain*>& byRoot) {
    auto visit = [&](Value* v) {
      if (!passes::isTile(v)) return;
      auto it = byRoot.find(uf_.find(v));
      if (it != byRoot.end()) it->second->members.push_back(v);
    };
    for (Op* op : ops) {
      for (unsigned r = 0; r < op->numRegions(); ++r)
        for (unsigned i = 0; i < op->body(r).numArgs(); ++i) visit(op->body(r).arg(i));
      for (Value* v : op->results()) visit(v);
    }
  }

  void decide(Chain& c) {
    const Type page = c.accumulates.front()->result()->type();  // a copy: packing retypes and erases the op
    judge(c, page);
    std::vector<int64_t> dims = batchDims(page);
    const int64_t n = page.shape().back();
    for (const Reason& r : c.reasons)
      if (r.hard()) return reject(c, r, page);
    if (c.reasons.empty()) return pack(c, page);
    if (n <= kBoxSide && c.producers.empty()) return;  // expand-batch-matmul gives it row windows
    reject(c, c.reasons.front(), page);
  }

  // ---- the decision ----

  void judge(Chain& c, const Type& page) {
    const size_t rank = page.rank();
    const int64_t m = page.shape()[rank - 2], n = page.shape()[rank - 1];
    for (Op* op : c.accumulates)
      if (op->result()->type().shape() != page.shape() || op->result()->type().dtype() != page.dtype())
        c.reasons.push_back({Reason::Geometry,
                             "it is accumulated by two batch_matmul_acc with different page geometries (" +
                                 ir::shapeText(page.shape()) + " and " +
                                 ir::shapeText(op->result()->type().shape()) + "), so no one packed shape fits both",
                             op});
    const SpaceId accSpace = model_.spaceWithRole(kMatmulResult);
    for (Value* v : c.members) {
      judgeDefinition(c, v);
      judgeUses(c, v);
      const Type& t = v->type();
      if (t.shape() != page.shape() || t.dtype() != page.dtype())
        c.reasons.push_back({Reason::Geometry, describe(v) + " has type " + typeText(t) +
                                                   ", not the accumulator's pages", v->definingOp()});
      else if (!t.hasFullValid())
        c.reasons.push_back({Reason::Geometry, describe(v) +
                                                   " has a partial valid shape, which pages placed side by side "
                                                   "in one tile cannot describe", v->definingOp()});
      if (t.space() != kNoSpace && t.space() != accSpace)
        c.reasons.push_back({Reason::Use, describe(v) + " is declared in " + t.spaceName() +
                                              ", but only the matrix unit writes an accumulator, in " +
                                              model_.spaceName(accSpace), v->definingOp()});
    }
    if (c.allocations.size() > 1)
      c.reasons.push_back({Reason::TwoAllocations,
                           "it is allocated by " + std::to_string(c.allocations.size()) +
                               " definitions that control flow merges into one value, and joining them would "
                               "need a copy from acc to acc, which the hardware does not have",
                           c.allocations[1]});
    if (dtypeBytes(page.dtype()) != kAccElementBytes)
      c.reasons.push_back({Reason::Geometry, std::string("its element type ") + dtypeName(page.dtype()) + " is not " +
                                                 std::to_string(kAccElementBytes) +
                                                 " bytes wide, so its acc tile has no grid of " + kBoxes + " boxes"});
    if (m % kBoxSide)
      c.reasons.push_back(
          {Reason::Geometry, "the page row extent M=" + std::to_string(m) + " is not a multiple of " + kBox});
    if (n % kBoxSide)
      c.reasons.push_back(
          {Reason::Geometry, "the page column extent N=" + std::to_string(n) + " is not a multiple of " + kBox});
    const SpaceDesc* acc = accSpace != kNoSpace ? &model_.spaces[accSpace] : nullptr;
    if (acc && page.byteSize() > acc->capacityBytes)
      c.reasons.push_back({Reason::Geometry, "the packed accumulator needs " + std::to_string(page.byteSize()) +
                                                 " bytes of " + acc->name + " (" + acc->memory + "), but " +
                                                 model_.name + " has " + std::to_string(acc->capacityBytes)});
  }

  void judgeDefinition(Chain& c, Value* v) {
    Op* def = v->definingOp();
    if (!def) return;  // a loop body's carried value
    switch (def->kind()) {
      case OpKind::Create:
        c.allocations.push_back(def);
        return;
      case OpKind::BatchMatmul:
        c.allocations.push_back(def);
        c.producers.push_back(def);
        return;
      case OpKind::BatchMatmulAcc:
      case OpKind::For:
      case OpKind::If:
        return;  // an accumulate, or a carry or merge of the chain
      default:
        c.reasons.push_back({Reason::CannotWriteAcc,
                             "it is produced by " + describe(*def) +
                                 ", which cannot write an accumulator: only the matrix unit writes acc",
                             def});
        return;
    }
  }

  void judgeUses(Chain& c, Value* v) {
    for (const Use& u : v->uses()) {
      Op* user = u.user;
      if (user->kind() == OpKind::BatchMatmulAcc && u.index == 0) continue;
      if (user->kind() == OpKind::For || user->kind() == OpKind::Yield) continue;
      if (user->kind() == OpKind::Store && u.index == 0) {
        c.drains.push_back(user);
        continue;
      }
      if (user->kind() == OpKind::Move)
        c.reasons.push_back({Reason::VectorDrain,
                             "it is moved out by " + describe(*user) + " for vector work, and the moved pages keep acc's "
                             "box layout, which an assemble cannot write into one row-major vector tile",
                             user});
      else
        c.reasons.push_back({Reason::Use, "it is read by " + describe(*user) +
                                              ", which reads it as one tile rather than one page at a time", user});
    }
  }

  // ---- the two outcomes ----

  void reject(const Chain& c, const Reason& why, const Type& page) {
    const size_t rank = page.rank();
    const int64_t b = pageCount(batchDims(page));
    const int64_t m = page.shape()[rank - 2], n = page.shape()[rank - 1];
    const std::string geometry = std::to_string(m) + "x" + std::to_string(n);
    Diag id = why.kind == Reason::TwoAllocations   ? Diag::AccTwoAllocations
              : why.kind == Reason::CannotWriteAcc ? Diag::AccNotWritable
              : why.kind == Reason::VectorDrain    ? Diag::AccVectorDrain
                                                   : Diag::AccNotPackable;
    std::string fix;
    switch (why.kind) {
      case Reason::TwoAllocations:
        fix = "give the accumulator one allocation that every branch and iteration updates in place: create "
              "it before the branch or loop and use batch_matmul_acc with init = <first iteration> instead of "
              "a second batch_matmul";
        break;
      case Reason::CannotWriteAcc:
        fix = "make the accumulator a create<...>(...) or a batch_matmul result (this does not depend on the "
              "batch: one page fails the same way)";
        break;
      case Reason::VectorDrain:
        fix = "store the accumulator to a tensor and do the vector work in a second kernel that loads it "
              "(compile each kernel with --kernel), or accumulate each page in its own 2-D tile";
        break;
      case Reason::Geometry: case Reason::Use:
        fix = "write the batch loop in the kernel and accumulate each page in its own 2-D tile with "
              "matmul / matmul_acc, or keep the pages at most " + kBox + " columns wide (one acc block column, "
              "which needs no packing)";
        break;
    }
    Diagnostic& d = diags_.report(id, c.accumulates.front()->loc(),
                                  describe(*c.accumulates.front()) + " cannot lay out a batch-" + std::to_string(b) +
                                      " accumulator of " + geometry + " " + dtypeName(page.dtype()) +
                                      " pages: " + why.text + "; " + fix);
    if (why.kind == Reason::Geometry || why.kind == Reason::Use)
      passes::addNote(d, {},
                      "the pages must sit side by side along columns, one " + std::to_string(m) + "x" +
                          std::to_string(b * n) + " acc tile with page b at [0, b*" + std::to_string(n) +
                          "]: the matrix unit writes its destination compactly with no row stride, so a row "
                          "window of an accumulator wider than one " + kBox + "-column block cannot be addressed; "
                          "column packing needs M and N multiples of " + kBox + ", a " +
                          std::to_string(kAccElementBytes) + "-byte accumulator, one allocation, and the whole " +
                          std::to_string(page.byteSize()) +
                          "-byte tile in acc");
    if (why.at && why.at != c.accumulates.front()) passes::addNote(d, why.at->loc(), "here");
    if (why.kind == Reason::TwoAllocations)
      for (const Op* a : c.allocations) passes::addNote(d, a->loc(), "one allocation");
    ok_ = false;
  }

  void pack(Chain& c, const Type& page) {
    const size_t rank = page.rank();
    const int64_t b = pageCount(batchDims(page));
    const int64_t m = page.shape()[rank - 2], n = page.shape()[rank - 1];
    for (Value* v : c.members) v->setType(v->type().withShape({m, b * n}, {}));
    for (Op* op : c.producers) rewriteAccumulate(*op, nullptr, {attr::init(Expr::boolean(true))}, page);
    for (Op* op : c.accumulates) {
      AttrMap attrs;
      if (const Expr* init = op->find(attr::init)) attrs = {attr::init(*init)};
      rewriteAccumulate(*op, op->operand(0), attrs, page);
    }
    for (Op* store : c.drains) rewriteDrain(*store, page);
  }

  // Page p of the packed accumulator: its [m, n] column window at [0, p*n].
  static std::vector<Expr> windowAt(int64_t p, int64_t n) { return {Expr::constant(0), Expr::constant(p * n)}; }
  static Value* window(OpBuilder& build, Value* acc, int64_t p, const Type& page, const std::string& name) {
    const int64_t m = page.shape()[page.rank() - 2], n = page.shape().back();
    return passes::madeFrom(
        build.createValue(OpKind::Slice, {acc}, {attr::offsets(windowAt(p, n))}, acc->type().withShape({m, n}, {}), name),
        acc);
  }

  // One matmul_acc per page into the page's column window of `acc` (a fresh tile of the
  // result's packed type when null); `page` is the chain's unpacked type.
  void rewriteAccumulate(Op& op, Value* acc, const AttrMap& init, const Type& page) {
    Value* result = op.result();
    const std::string base = result->name().empty() ? "acc" : result->name();
    OpBuilder build = OpBuilder::before(op);
    if (!acc) acc = passes::madeFrom(build.createValue(OpKind::Create, {}, {}, result->type(), base), result);
    Value* lhs = op.operand(op.numOperands() - 2);
    Value* rhs = op.operand(op.numOperands() - 1);
    OperandPages lhsPages(build, lhs, base + "_lhs", loadsPerPage(lhs, rhs));
    OperandPages rhsPages(build, rhs, base + "_rhs", loadsPerPage(rhs, lhs));
    forEachPage(batchDims(page), [&](int64_t p, const std::vector<int64_t>& at) {
      const std::string idx = std::to_string(p);
      Value* w = window(build, acc, p, page, base + "_page" + idx);
      Value* l = lhsPages.at(at, p);
      Value* r = rhsPages.at(at, p);
      Value* updated = passes::madeFrom(build.createValue(OpKind::MatmulAcc, {w, l, r}, init, {}, base + "_mm" + idx), result);
      acc = passes::madeFrom(build.createValue(OpKind::Assemble, {acc, updated},
                                               {attr::offsets(windowAt(p, page.shape().back()))}, {}, base),
                             result);
    });
    result->replaceAllUsesWith(acc);
    op.parentBlock()->erase(&op);
    dropUnused({lhs, rhs});
  }

  void rewriteDrain(Op& store, const Type& page) {
    Value* acc = store.operand(0);
    const auto& offsets = store.get(attr::offsets);
    OpBuilder build = OpBuilder::before(store);
    const std::string base = (acc->name().empty() ? "acc" : acc->name()) + "_drain";
    forEachPage(batchDims(page), [&](int64_t p, const std::vector<int64_t>& at) {
      build.create(OpKind::Store, {window(build, acc, p, page, base + std::to_string(p)), store.operand(1)},
                   {attr::offsets(pageStoreOffsets(offsets, page.rank(), at))});
    });
    store.parentBlock()->erase(&store);
  }

  std::string describe(const Value* v) const { return ir::describe(v, diags_.sources()); }
  std::string describe(const Op& op) const { return ir::describe(op, diags_.sources()); }

  Function& f_;
  DiagnosticEngine& diags_;
  const Limits& limits_;
  const TargetModel& model_;
  passes::ValueUnionFind uf_;
  bool ok_ = true;
};

class PackAccumulators final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"pack-accumulators",
                                "lay out each batched accumulator: pack its pages along columns, or reject it",
                                PropSSA, PropAccumulatorsPacked, 0};
    return kInfo;
  }

  bool run(Module& m, PassContext& ctx) override {
    bool ok = true;
    for (auto& f : m.functions()) {
      ok = FunctionPacking(*f, ctx.diags, ctx.limits).run() && ok;
      ok = packRowWindows(*f, ctx.diags) && ok;
    }
    return ok;
  }
};

}  // namespace

std::unique_ptr<Pass> createPackAccumulatorsPass() { return std::make_unique<PackAccumulators>(); }

}  // namespace tilec::pto
