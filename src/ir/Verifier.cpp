// The IR verifier: structural rules (dominance in structured regions, region
// shapes, scf.yield placement and types, loop-carried values, expression
// variables) as E0302, then each op's own typing rules via verifyOp (reported
// with the rule's E02xx code). Every violation is reported; verification goes on.
// One walk over the function: linear in its size (times the expression sizes).
#include <algorithm>
#include <functional>
#include <optional>
#include <unordered_set>

#include "ir/Describe.h"
#include "ir/IRText.h"
#include "ir/OpDefs.h"
#include "ir/Regions.h"

namespace tilec::ir {
namespace {

class FunctionVerifier {
 public:
  FunctionVerifier(const Function& f, DiagnosticEngine& diags)
      : f_(f), diags_(diags), visible_(f.valueIdBound()), arrays_(tileArrayValues(f)) {}

  bool run() {
    const Block& body = f_.body();
    for (const auto& a : body.args()) show(a.get());
    for (unsigned i = 0; i < f_.numParams(); ++i) checkParam(i);
    verifyOps(body);
    return ok_;
  }

 private:
  // ---- reporting ----
  std::string name(const Value* v) const { return "'" + irName(v, names()) + "'"; }
  // Names are only needed for messages: built on the first one.
  const ValueNames& names() const {
    if (!names_) names_.emplace(f_);
    return *names_;
  }

  SourceRange definitionLoc(const Value* v) const {
    if (const Op* def = v->definingOp()) return def->loc();
    const Block* b = v->ownerBlock();
    if (b == &f_.body()) return f_.paramLoc(v->index());
    return b && b->parentOp() ? b->parentOp()->loc() : f_.loc();
  }

  Diagnostic& report(Diag id, SourceRange at, std::string message) {
    ok_ = false;
    return diags_.report(id, at, std::move(message));
  }

  void reportWithValue(Diag id, SourceRange at, std::string message, const Value* v) {
    Diagnostic& d = report(id, at, std::move(message));
    if (v) d.notes.push_back({name(v) + " is defined here", definitionLoc(v)});
  }

  // ---- parameters ----
  void checkParam(unsigned i) {
    const Value* p = f_.param(i);
    bool tensor = p->type().isTensor();
    if (tensor && f_.paramDir(i) == ParamDir::None)
      report(Diag::IRVerify, f_.paramLoc(i),
             "tensor parameter " + name(p) + " has no direction; mark it in, out or inout");
    if (!tensor && f_.paramDir(i) != ParamDir::None)
      report(Diag::IRVerify, f_.paramLoc(i),
             "parameter " + name(p) + " is not a tensor but is marked " + paramDirName(f_.paramDir(i)) +
                 "; only tensor parameters take a direction");
    checkTypeExprs(p->type(), f_.paramLoc(i), [&] { return "the type of parameter " + name(p); });
  }

  // ---- expressions ----
  // What an expression belongs to, for messages; only called to report one.
  using Where = std::function<std::string()>;

  void checkExpr(const Expr& e, SourceRange at, const Where& where) {
    for (const Value* v : e.vars()) {
      if (!visible(v)) {
        reportWithValue(Diag::IRVerify, at,
                        where() + " uses " + name(v) + ", which is not visible here; use a value defined before it",
                        v);
        continue;
      }
      const Type& t = v->type();
      if (!t.isScalar() || isFloat(t.dtype()))
        reportWithValue(Diag::IRVerify, at,
                        where() + " uses " + name(v) + " of type " + typeStr(t) +
                            ", but expressions take only index, integer and bool values; use an integer value",
                        v);
    }
  }

  void checkTypeExprs(const Type& t, SourceRange at, const Where& where) {
    for (const Expr& e : t.isTensor() ? t.dims() : t.valid()) checkExpr(e, at, where);
  }

  void checkAttrExprs(const Op& op) {
    for (const auto& [key, value] : op.attrs()) {
      const Where where = [&, &key = key] { return "attribute '" + std::string(key) + "' of " + op.name(); };
      if (const auto* e = std::get_if<Expr>(&value)) checkExpr(*e, op.loc(), where);
      if (const auto* es = std::get_if<std::vector<Expr>>(&value))
        for (const Expr& e : *es) checkExpr(e, op.loc(), where);
      if (const auto* t = std::get_if<TypeAttr>(&value)) checkTypeExprs(t->type(), op.loc(), where);
    }
  }

  // ---- ops ----
  void verifyOps(const Block& b) {
    for (const auto& op : b.ops()) verifyOp(*op, b);
  }

  void verifyOperands(const Op& op) {
    for (unsigned i = 0; i < op.numOperands(); ++i) {
      const Value* v = op.operand(i);
      if (!v) {
        report(Diag::IRVerify, op.loc(), std::string(op.name()) + " operand " + std::to_string(i) +
                                             " is missing; give every operand a value");
      } else if (!visible(v)) {
        reportWithValue(Diag::IRVerify, op.loc(),
                        std::string(op.name()) + " uses " + name(v) +
                            ", which does not dominate it; define it earlier in this block or an enclosing one",
                        v);
      }
    }
  }

  void verifyOp(const Op& op, const Block& parent) {
    verifyOperands(op);
    checkAttrExprs(op);
    for (unsigned i = 0; i < op.numResults(); ++i)
      checkTypeExprs(op.result(i)->type(), op.loc(), [&] { return "the result type of " + std::string(op.name()); });
    if (op.kind() == OpKind::Yield) checkYieldPlacement(op, parent);
    if (opInfo(op.kind()).group == OpGroup::Cores) checkCorePlacement(op, parent);
    if (opInfo(op.kind()).group == OpGroup::Launch) checkLaunchQuery(op);
    bool regionsOk = op.numRegions() == unsigned(opInfo(op.kind()).numRegions);
    if (regionsOk && op.kind() == OpKind::For) checkFor(op);
    if (regionsOk && op.kind() == OpKind::If) checkIf(op);
    checkArrayOperand(op);
    for (unsigned r = 0; r < op.numRegions(); ++r) verifyRegion(op.body(r));
    // A missing operand was reported above; the op rules need every operand's type.
    if (std::all_of(op.operands().begin(), op.operands().end(), [](const Value* v) { return v != nullptr; }))
      checkRules(op);
    for (unsigned i = 0; i < op.numResults(); ++i) {
      show(op.result(i));
      checkLinear(op.result(i), &parent);
    }
  }

  // ---- tile arrays ----
  // A tile array is linear: each value of one (tileArrayValues) is used at most once, in
  // its own block, by a slot write, the assembly, or the yield or loop that carries it on;
  // and slot writes and assemblies take tile arrays only.
  void checkArrayOperand(const Op& op) {
    if (op.kind() != OpKind::RegionInsert && op.kind() != OpKind::RegionAssembly) return;
    const Value* a = op.numOperands() ? op.operand(0) : nullptr;
    if (a && !arrays_.count(a))
      reportWithValue(Diag::IRVerify, op.loc(),
                      std::string(op.name()) + " takes a tile array, but " + name(a) + " is not one; start it with region.array",
                      a);
  }

  void checkLinear(const Value* v, const Block* home) {
    if (!arrays_.count(v)) return;
    const auto& uses = v->uses();
    for (const Use& u : uses) {
      const OpKind k = u.user->kind();
      const bool carries = k == OpKind::Yield || k == OpKind::For ||
                           ((k == OpKind::RegionInsert || k == OpKind::RegionAssembly) && u.index == 0);
      if (uses.size() > 1 || !carries || u.user->parentBlock() != home)
        return reportWithValue(Diag::IRVerify, u.user->loc(),
                               "tile array " + name(v) + " is used " +
                                   (uses.size() > 1 ? "more than once" : "by " + std::string(u.user->name()) +
                                                          (u.user->parentBlock() != home ? " in another block" : "")) +
                                   "; a tile array is written slot by slot and consumed once by region.assembly",
                               v);
    }
  }

  // A region's values are visible inside it only.
  void verifyRegion(const Block& b) {
    for (const auto& a : b.args()) show(a.get());
    for (const auto& a : b.args()) {
      checkTypeExprs(a->type(), definitionLoc(a.get()), [&] { return "the type of block argument " + name(a.get()); });
      checkLinear(a.get(), &b);
    }
    verifyOps(b);
    for (const auto& op : b.ops())
      for (unsigned i = 0; i < op->numResults(); ++i) hide(op->result(i));
    for (const auto& a : b.args()) hide(a.get());
  }

  void checkRules(const Op& op) {
    auto e = ir::verifyOp(op);
    if (!e) return;
    const Value* about = e->operand >= 0 && unsigned(e->operand) < op.numOperands() ? op.operand(unsigned(e->operand))
                                                                                    : nullptr;
    reportWithValue(e->id, op.loc(), e->message, about);
  }

  // ---- control flow ----
  void checkYieldPlacement(const Op& op, const Block& parent) {
    const Op* owner = parent.parentOp();
    if (!owner || (owner->kind() != OpKind::For && owner->kind() != OpKind::If))
      report(Diag::IRVerify, op.loc(), "scf.yield may only end a scf.for or scf.if body; remove it");
    else if (parent.back() != &op)
      report(Diag::IRVerify, op.loc(), "scf.yield must be the last op of its block; move the ops after it before it");
  }

  // A split kernel: pipes and sections at function level, the pipes' transfers in a section.
  void checkCorePlacement(const Op& op, const Block& parent) {
    const bool top = op.kind() == OpKind::PipeInit || op.numRegions() == 1;
    if (top && parent.parentOp())
      report(Diag::IRVerify, op.loc(), std::string(op.name()) + " stands inside " + parent.parentOp()->name() +
                                           "; pipes and sections are ops of the function's body");
    if (top) return;
    for (const Op* o = parent.parentOp(); o; o = o->parentOp())
      if (o->kind() == OpKind::CoreCube || o->kind() == OpKind::CoreVector) return;
    report(Diag::IRVerify, op.loc(), std::string(op.name()) + " stands outside core.cube and core.vector; a pipe carries "
                                                              "tiles between the sections, so move it into one");
  }

  // The yield ending `body` must pass values of exactly `types`.
  void checkYield(const Op& owner, const Block& body, const std::vector<Type>& types, const char* what) {
    const Op* y = body.terminator();
    if (!y) {
      report(Diag::IRVerify, owner.loc(), std::string(owner.name()) + " " + what +
                                              " does not end with scf.yield; end it with scf.yield of the " +
                                              std::to_string(types.size()) + " carried value(s)");
      return;
    }
    if (y->numOperands() != types.size()) {
      report(Diag::IRVerify, y->loc(), "scf.yield passes " + std::to_string(y->numOperands()) + " value(s) but " +
                                           owner.name() + " " + what + " must yield " + std::to_string(types.size()) +
                                           "; yield one value per result");
      return;
    }
    for (unsigned i = 0; i < types.size(); ++i) {
      const Value* v = y->operand(i);
      if (v && v->type() != types[i])
        reportWithValue(Diag::IRVerify, y->loc(),
                        "scf.yield value " + std::to_string(i) + " (" + name(v) + ") has type " + typeStr(v->type()) +
                            " but " + owner.name() + " expects " + typeStr(types[i]) + "; yield a value of that type",
                        v);
    }
  }

  std::string typeStr(const Type& t) const {
    return t.str([&](const Value* v) { return irName(v, names()); });
  }

  void checkLaunchQuery(const Op& op) {
    const Module& m = op.function()->module();
    if (!m.target().hasBlocks())
      report(Diag::IRVerify, op.loc(), std::string(op.name()) + " asks for the launch, but " + m.target().name +
                                           " kernels run as one program, not as blocks; use a target that launches blocks");
  }

  // A parallel loop's iterations go to blocks once: one inside another would split them again.
  void checkNestedParallel(const Op& op) {
    const LoopMode* mode = op.find(attr::mode);
    if (!mode || !isParallel(*mode)) return;
    for (const Op* p = op.parentOp(); p; p = p->parentOp())
      if (const LoopMode* outer = p->find(attr::mode); p->kind() == OpKind::For && outer && isParallel(*outer)) {
        report(Diag::IRVerify, op.loc(), "a parallel scf.for inside another one; its iterations are already "
                                         "split over the blocks, so make it serial or merge the two loops");
        return;
      }
  }

  void checkFor(const Op& op) {
    checkNestedParallel(op);
    const Block& body = op.body();
    unsigned n = op.numOperands();
    if (op.numResults() != n)
      report(Diag::IRVerify, op.loc(), "scf.for carries " + std::to_string(n) + " value(s) but has " +
                                           std::to_string(op.numResults()) + " result(s); give one result per carried value");
    if (body.numArgs() != n + 1) {
      report(Diag::IRVerify, op.loc(), "scf.for body has " + std::to_string(body.numArgs()) +
                                           " argument(s) but needs " + std::to_string(n + 1) +
                                           " (the induction variable, then one per carried value)");
      return;
    }
    if (!body.arg(0)->type().isIndex())
      report(Diag::IRVerify, op.loc(), "scf.for induction variable " + name(body.arg(0)) + " has type " +
                                           typeStr(body.arg(0)->type()) + "; it must be index");
    std::vector<Type> carried;
    for (unsigned i = 0; i < n; ++i) {
      const Value* init = op.operand(i);
      const Value* arg = body.arg(i + 1);
      carried.push_back(arg->type());
      if (arg->type().isTensor())
        report(Diag::IRVerify, op.loc(), "scf.for carries tensor " + name(arg) + "; tensors are parameters, carry tiles or integers");
      if (init && init->type() != arg->type())
        reportWithValue(Diag::IRVerify, op.loc(),
                        "scf.for carried value " + name(arg) + " has type " + typeStr(arg->type()) +
                            " but its initial value " + name(init) + " has type " + typeStr(init->type()) +
                            "; make them equal",
                        init);
      if (i < op.numResults() && op.result(i)->type() != arg->type())
        report(Diag::IRVerify, op.loc(), "scf.for result " + name(op.result(i)) + " has type " +
                                             typeStr(op.result(i)->type()) + " but the loop carries " +
                                             typeStr(arg->type()) + "; make them equal");
    }
    checkYield(op, body, carried, "body");
  }

  void checkIf(const Op& op) {
    std::vector<Type> types;
    for (unsigned i = 0; i < op.numResults(); ++i) types.push_back(op.result(i)->type());
    const char* what[] = {"then region", "else region"};
    for (unsigned r = 0; r < 2; ++r) {
      if (op.body(r).numArgs())
        report(Diag::IRVerify, op.loc(), std::string("scf.if ") + what[r] + " has block arguments; it takes none");
      checkYield(op, op.body(r), types, what[r]);
    }
  }

  const Function& f_;
  DiagnosticEngine& diags_;
  // Values in scope, by id (ids are unique within a function and below its bound).
  bool visible(const Value* v) const {
    return v->function() == &f_ && v->id() < visible_.size() && visible_[v->id()];
  }
  void show(const Value* v) { visible_.at(v->id()) = 1; }
  void hide(const Value* v) { visible_.at(v->id()) = 0; }

  mutable std::optional<ValueNames> names_;
  std::vector<char> visible_;
  const std::unordered_set<const Value*> arrays_;
  bool ok_ = true;
};

}  // namespace

bool verifyModule(const Module& m, DiagnosticEngine& diags) {
  bool ok = true;
  for (const auto& f : m.functions()) ok = FunctionVerifier(*f, diags).run() && ok;
  return ok;
}

}  // namespace tilec::ir
