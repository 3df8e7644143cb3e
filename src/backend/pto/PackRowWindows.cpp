// Row windows of a 2-D accumulator, packed along columns (see PackRowWindows.h and
// pack-accumulators for why rows do not work in acc). The loops stay as written: only the
// window offsets move, (row, col) to (0, (row / R) * N + col), so the K-outer, row-inner
// order and its reuse of the right operand are kept, runtime row loops included.
#include "backend/pto/PackRowWindows.h"

#include <map>

#include "backend/pto/PtoModel.h"
#include "ir/Builder.h"
#include "ir/Describe.h"
#include "ir/OpDefs.h"
#include "passes/PassUtils.h"

namespace tilec::pto {
namespace {

using namespace ir;

// A window the matrix unit cannot address as it is: a row band of an accumulator wider
// than one 16-column block (pto-legality's E0526 rule, before spaces are known).
bool needsPacking(const Op& slice) {
  const Type& parent = slice.operand(0)->type();
  const Type& part = slice.result()->type();
  if (parent.rank() != 2 || part.rank() != 2 || part.shape()[0] == parent.shape()[0]) return false;
  const auto* at = slice.find(attr::offsets);
  std::optional<int64_t> col = at && at->size() == 2 ? (*at)[1].asConst() : std::nullopt;
  return !(col && inOneAccBlockColumn(*col, part.shape()[1]));
}

bool updatesInPlace(const Op& slice) {
  const Value* w = slice.result();
  return w->uses().size() == 1 && w->uses()[0].user->kind() == OpKind::MatmulAcc && w->uses()[0].index == 0;
}

struct Chain {
  std::vector<Op*> windows;     // slices updated by matmul_acc, in program order
  std::vector<Value*> members;  // the accumulator's values
  std::vector<Op*> writeBacks;
  std::vector<Op*> drains;
  std::vector<Op*> allocations;
  std::string reason;           // empty while packable
  const Op* at = nullptr;       // where the reason is
  void reject(std::string why, const Op* where) {
    if (reason.empty()) reason = std::move(why), at = where;
  }
};

class RowWindows {
 public:
  RowWindows(Function& f, DiagnosticEngine& diags) : f_(f), diags_(diags) {}

  bool run() {
    if (f_.count(OpKind::Slice) == 0) return true;  // no window to pack: no need to join every tile
    std::vector<Op*> ops = passes::preorder(f_);
    passes::forEachTileJoin(ops, /*views=*/false, [&](Value* a, Value* b) { uf_.unite(a, b); });
    std::map<Value*, Chain*> byRoot;
    std::vector<std::unique_ptr<Chain>> chains;
    for (Op* op : ops)
      if (op->kind() == OpKind::Slice && updatesInPlace(*op) && needsPacking(*op)) {
        Chain*& c = byRoot[uf_.find(op->operand(0))];
        if (!c) c = chains.emplace_back(std::make_unique<Chain>()).get();
        c->windows.push_back(op);
      }
    for (Op* op : ops)
      for (Value* v : op->results())
        if (passes::isTile(v)) {
          auto it = byRoot.find(uf_.find(v));
          if (it != byRoot.end()) it->second->members.push_back(v);
        }
    for (Op* op : ops)
      if (op->kind() == OpKind::For)
        for (unsigned i = 1; i < op->body().numArgs(); ++i)
          if (auto it = byRoot.find(uf_.find(op->body().arg(i))); it != byRoot.end())
            it->second->members.push_back(op->body().arg(i));
    bool ok = true;
    for (auto& c : chains) ok = decide(*c) && ok;
    return ok;
  }

 private:
  bool decide(Chain& c) {
    const Type& parent = c.windows.front()->operand(0)->type();
    const int64_t rows = parent.shape()[0], n = parent.shape()[1];
    const int64_t r = c.windows.front()->result()->type().shape()[0];
    judgeWindows(c, rows, n, r);
    judgeMembers(c, parent);
    const std::string box = std::to_string(kBoxSide);
    if (dtypeBytes(parent.dtype()) != kAccElementBytes)
      c.reject(std::string("its element type ") + dtypeName(parent.dtype()) + " is not " +
                   std::to_string(kAccElementBytes) + " bytes wide",
               nullptr);
    if (r % kBoxSide || n % kBoxSide)
      c.reject("a window of " + std::to_string(r) + "x" + std::to_string(n) + " is not whole " + box + "x" + box +
                   " boxes",
               nullptr);
    if (c.allocations.size() != 1)
      c.reject("it has " + std::to_string(c.allocations.size()) + " allocations; it needs exactly one create",
               c.allocations.size() > 1 ? c.allocations[1] : nullptr);
    if (!c.reason.empty()) return report(c);
    pack(c, rows / r, r, n);
    return true;
  }

  void judgeWindows(Chain& c, int64_t rows, int64_t n, int64_t r) {
    for (Op* w : c.windows) {
      const Type& t = w->result()->type();
      const auto& at = w->get(attr::offsets);
      if (t.shape()[0] != r)
        c.reject("its row windows have different heights (" + std::to_string(r) + " and " +
                     std::to_string(t.shape()[0]) + " rows)", w);
      else if (rows % r)
        c.reject("its " + std::to_string(r) + "-row windows do not divide its " + std::to_string(rows) + " rows", w);
      else if (t.shape()[1] != n || !provablyEqual(at[1], Expr::constant(0)))
        c.reject("a window is not a full-width row band", w);
      else if (!provablyEqual(Expr::mod(at[0], Expr::constant(r)), Expr::constant(0)))
        c.reject("the row offset " + exprText(at[0]) +
                     " is not provably a multiple of the window height " + std::to_string(r), w);
      else if (!t.hasFullValid())
        c.reject("a window has a partial valid shape", w);
      const Value* updated = w->result()->uses()[0].user->result();
      bool writtenBack = updated->uses().size() == 1 && isWriteBack(*updated->uses()[0].user);
      if (!writtenBack)
        c.reject("the matmul_acc result is not written back to the window it read (acc = assemble(acc, w, "
                 "<the same offsets>))", w->result()->uses()[0].user);
    }
  }

  void judgeMembers(Chain& c, const Type& parent) {
    for (Value* v : c.members) {
      if (v->type() != parent) c.reject(describe(v) + " does not have the accumulator's type", v->definingOp());
      if (Op* def = v->definingOp()) {
        if (def->kind() == OpKind::Create) c.allocations.push_back(def);
        else if (def->kind() != OpKind::For && def->kind() != OpKind::If && !isWriteBack(*def))
          c.reject(describe(v) + " is produced by " + describe(*def) + ", not by a write-back of a window", def);
        if (isWriteBack(*def)) c.writeBacks.push_back(def);
      }
      for (const Use& u : v->uses()) {
        const Op* user = u.user;
        bool window = user->kind() == OpKind::Slice && updatesInPlace(*user) && needsPacking(*user);
        bool carried = user->kind() == OpKind::For || user->kind() == OpKind::Yield;
        bool writeBack = user->kind() == OpKind::Assemble && u.index == 0 && isWriteBack(*user);
        if (user->kind() == OpKind::Store && u.index == 0) c.drains.push_back(u.user);
        else if (!window && !carried && !writeBack)
          c.reject(describe(v) + " is read by " + describe(*user) + ", which reads it in its logical row order", user);
      }
    }
  }

  bool report(const Chain& c) {
    const Op* first = c.windows.front();
    const Value* acc = c.allocations.size() == 1 ? c.allocations[0]->result() : first->operand(0);
    Diagnostic& d = diags_.report(
        Diag::AccRowWindows, first->result()->uses()[0].user->loc(),
        describe(*first->result()->uses()[0].user) + " cannot lay out the row windows of accumulator " + describe(acc) + ": " +
            c.reason +
            "; update equal, aligned, full-width row windows of one created accumulator in place "
            "(w = slice(acc, [t*R, 0], [R, N]); w = matmul_acc(w, ...); acc = assemble(acc, w, [t*R, 0])) "
            "and store the whole accumulator after the loops");
    passes::addNote(d, {},
                    "the matrix unit writes a window compactly with no row stride, so a row window of an "
                    "accumulator wider than " + std::to_string(kBoxSide) +
                        " columns is packed into a column band of an [R, T*N] tile");
    if (c.at && c.at != first) passes::addNote(d, c.at->loc(), "here");
    return false;
  }

  // Window offsets (row, col) become (0, (row / R) * N + col); types [T*R, N] become [R, T*N].
  void pack(Chain& c, int64_t t, int64_t r, int64_t n) {
    for (Value* v : c.members) v->setType(v->type().withShape({r, t * n}, {}));
    auto move = [&](Op* op) {
      const auto& at = op->get(attr::offsets);
      op->set(attr::offsets, std::vector<Expr>{Expr::constant(0),
                                               Expr::floorDiv(at[0], Expr::constant(r)) * n + at[1]});
    };
    for (Op* w : c.windows) move(w);
    for (Op* a : c.writeBacks) move(a);
    for (Op* store : c.drains) {
      Value* acc = store->operand(0);
      const auto offsets = store->get(attr::offsets);
      OpBuilder build = OpBuilder::before(*store);
      const std::string base = (acc->name().empty() ? "acc" : acc->name()) + "_rows";
      for (int64_t i = 0; i < t; ++i) {
        Value* part = passes::madeFrom(build.createValue(OpKind::Slice, {acc},
                                                 {attr::offsets(std::vector<Expr>{Expr::constant(0), Expr::constant(i * n)})},
                                                 acc->type().withShape({r, n}, {}), base + std::to_string(i)),
                               acc);
        std::vector<Expr> at = offsets;
        at[at.size() - 2] = at[at.size() - 2] + i * r;
        build.create(OpKind::Store, {part, store->operand(1)}, {attr::offsets(at)});
      }
      store->parentBlock()->erase(store);
    }
  }

  std::string describe(const Value* v) const { return ir::describe(v, diags_.sources()); }
  std::string describe(const Op& op) const { return ir::describe(op, diags_.sources()); }

  Function& f_;
  DiagnosticEngine& diags_;
  passes::ValueUnionFind uf_;
};

}  // namespace

bool packRowWindows(Function& f, DiagnosticEngine& diags) { return RowWindows(f, diags).run(); }

}  // namespace tilec::pto
