#include "passes/PassUtils.h"

#include <algorithm>

#include "ir/Describe.h"
#include "ir/OpDefs.h"

namespace tilec::passes {
using namespace ir;

namespace {

void collectPreorder(Block& b, std::vector<Op*>& out) {
  for (auto& op : b.ops()) {
    out.push_back(op.get());
    for (unsigned r = 0; r < op->numRegions(); ++r) collectPreorder(op->body(r), out);
  }
}

void joinIfTiles(Value* a, Value* b, const std::function<void(Value*, Value*)>& join) {
  if (isTile(a) && isTile(b)) join(a, b);
}

}  // namespace

std::vector<Op*> preorder(Function& f) {
  std::vector<Op*> out;
  collectPreorder(f.body(), out);
  return out;
}

namespace {

std::vector<Op*> opsWhere(Function& f, const std::function<bool(OpKind)>& wanted) {
  bool any = false;
  for (const OpInfo& info : allOps()) any = any || (wanted(info.kind) && f.count(info.kind) > 0);
  if (!any) return {};
  std::vector<Op*> ops = preorder(f);
  ops.erase(std::remove_if(ops.begin(), ops.end(), [&](Op* op) { return !wanted(op->kind()); }), ops.end());
  return ops;
}

}  // namespace

std::vector<Op*> opsOfKind(Function& f, std::initializer_list<OpKind> kinds) {
  return opsWhere(f, [&](OpKind k) { return std::find(kinds.begin(), kinds.end(), k) != kinds.end(); });
}

std::vector<Op*> opsWithTrait(Function& f, uint32_t traits) {
  return opsWhere(f, [&](OpKind k) { return (opInfo(k).traits & traits) != 0; });
}

bool isTile(const Value* v) { return v && v->type().isTile(); }

int64_t countOps(const Block& b) {
  int64_t n = 0;
  for (const auto& op : b.ops()) {
    ++n;
    for (unsigned i = 0; i < op->numRegions(); ++i) n += countOps(op->body(i));
  }
  return n;
}

ValueUnionFind::Entry& ValueUnionFind::entry(Value* v) {
  if (Entry* e = entries_.find(v)) return *e;
  return entries_[v] = Entry{v, 1};
}

Value* ValueUnionFind::find(Value* v) {
  while (true) {
    Entry& e = entry(v);
    if (e.parent == v) return v;
    Entry& p = entry(e.parent);
    e.parent = p.parent;  // path halving
    v = e.parent;
  }
}

bool ValueUnionFind::unite(Value* a, Value* b) {
  a = find(a);
  b = find(b);
  if (a == b) return false;
  Entry& ea = entry(a);
  Entry& eb = entry(b);
  if (ea.size < eb.size) {
    ea.parent = b;
    eb.size += ea.size;
  } else {
    eb.parent = a;
    ea.size += eb.size;
  }
  return true;
}

void forEachTileJoin(const std::vector<Op*>& ops, bool views, const std::function<void(Value*, Value*)>& join) {
  for (Op* op : ops) {
    int tied = tiedOperand(op->kind());
    if (tied >= 0 && unsigned(tied) < op->numOperands() && op->numResults() == 1)
      joinIfTiles(op->operand(unsigned(tied)), op->result(), join);
    if (views && isView(op->kind()) && op->numOperands() == 1 && op->numResults() == 1)
      joinIfTiles(op->operand(0), op->result(), join);
    if (op->kind() == OpKind::For) {
      Block& body = op->body();
      Op* yield = body.terminator();
      for (unsigned i = 0; i < op->numResults(); ++i) {
        if (i < op->numOperands()) joinIfTiles(op->operand(i), op->result(i), join);
        if (i + 1 < body.numArgs()) joinIfTiles(body.arg(i + 1), op->result(i), join);
        if (yield && i < yield->numOperands()) joinIfTiles(yield->operand(i), op->result(i), join);
      }
    }
    if (op->kind() == OpKind::If) {
      for (unsigned r = 0; r < op->numRegions(); ++r) {
        Op* yield = op->body(r).terminator();
        for (unsigned i = 0; yield && i < op->numResults() && i < yield->numOperands(); ++i)
          joinIfTiles(yield->operand(i), op->result(i), join);
      }
    }
  }
}

SourceRange definitionLoc(const Value* v) {
  if (Op* def = v->definingOp()) return def->loc();
  if (Op* owner = v->ownerBlock() ? v->ownerBlock()->parentOp() : nullptr) return owner->loc();
  if (Function* fn = v->ownerBlock() ? v->ownerBlock()->function() : nullptr) {
    for (unsigned i = 0; i < fn->numParams(); ++i)
      if (fn->param(i) == v) return fn->paramLoc(i);
    return fn->loc();
  }
  return {};
}

ir::Value* madeFrom(ir::Value* made, const ir::Value* from) {
  made->setOrigin(from->origin());
  return made;
}

void addNamedScalars(const ir::Op& op, std::set<const ir::Value*>& out) {
  using namespace ir;
  auto note = [&out](const Expr& e) {
    for (const Value* v : e.vars()) out.insert(v);
    return e;
  };
  for (const auto& [key, value] : op.attrs()) {
    if (const auto* e = std::get_if<Expr>(&value)) note(*e);
    if (const auto* es = std::get_if<std::vector<Expr>>(&value))
      for (const Expr& e : *es) note(e);
    if (const auto* t = std::get_if<TypeAttr>(&value)) t->type().mapExprs(note);
  }
  for (const Value* r : op.results()) r->type().mapExprs(note);
}

void bindInExprs(ir::Op& op, const ir::Value* v, const ir::Expr& e) {
  using namespace ir;
  auto subst = [&](const Expr& x) { return x.substitute([&](const Value* w) { return w == v ? e : Expr(); }); };
  auto retype = [&](Value* val) { val->setType(val->type().mapExprs(subst)); };
  op.walk([&](Op& o) {
    for (auto& [key, value] : o.attrs()) {
      if (auto* x = std::get_if<Expr>(&value)) *x = subst(*x);
      else if (auto* t = std::get_if<TypeAttr>(&value)) *t = t->type().mapExprs(subst);
      else if (auto* xs = std::get_if<std::vector<Expr>>(&value))
        for (Expr& x : *xs) x = subst(x);
    }
    for (Value* r : o.results()) retype(r);
    for (unsigned i = 0; i < o.numRegions(); ++i)
      for (const auto& arg : o.body(i).args()) retype(arg.get());
  });
}

std::vector<ir::Op*> cloneIteration(ir::OpBuilder& b, const ir::Op& loop, const ir::Expr& iv,
                                    std::vector<ir::Value*>& carried) {
  using namespace ir;
  const Block& body = loop.body();
  Value* ivValue = madeFrom(b.createValue(OpKind::IndexExpr, {}, {{"value", iv}}, body.arg(0)->type(), body.arg(0)->name()),
                            body.arg(0));
  ValueMapping mapping{{body.arg(0), ivValue}};
  for (unsigned i = 1; i < body.numArgs(); ++i) mapping[body.arg(i)] = carried[i - 1];
  std::vector<Op*> copies;
  for (const auto& op : body.ops()) {
    if (op->kind() == OpKind::Yield) {
      for (unsigned i = 0; i < op->numOperands(); ++i) {
        auto it = mapping.find(op->operand(i));
        carried[i] = it == mapping.end() ? op->operand(i) : it->second;
      }
      continue;
    }
    copies.push_back(b.clone(*op, mapping));
    bindInExprs(*copies.back(), ivValue, iv);
  }
  // Operands may still read the arith.index; expressions hold the value itself.
  Op* index = ivValue->definingOp();
  if (ivValue->hasUses()) copies.insert(copies.begin(), index);
  else index->parentBlock()->erase(index);
  return copies;
}

bool checkIteration(const std::vector<ir::Op*>& copies, const ir::Op& loop, const ir::Expr& iv, const char* how,
                    DiagnosticEngine& diags) {
  std::optional<ir::OpError> error;
  const ir::Op* culprit = nullptr;
  for (ir::Op* copy : copies)
    copy->walk([&](ir::Op& o) {
      if (!error && (error = ir::verifyOp(o))) culprit = &o;
    });
  if (!error) return true;
  Diagnostic& d = diags.report(error->id, culprit->loc(), error->message);
  addNote(d, loop.loc(),
          "in the iteration " + ir::sourceText(loop.body().arg(0), diags.sources()) + " = " + ir::exprText(iv) +
              " of this loop, which is " + how);
  return false;
}

void addNote(Diagnostic& d, SourceRange range, std::string message) {
  d.notes.push_back({std::move(message), range});
}

}  // namespace tilec::passes
