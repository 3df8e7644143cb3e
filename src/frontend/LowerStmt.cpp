// Statements and SSA construction for loops and branches.
#include <set>

#include "frontend/Lowering.h"
#include "support/Wording.h"

namespace tilec::frontend {
namespace {

// Finds the names a statement list assigns that are declared outside it, in
// order of first assignment. Declarations inside shadow outer names from the
// point they appear, exactly as lowering resolves them. Every loop and branch
// scans its own body, so the total work is the program size times the nesting
// depth.
class OuterAssignments {
 public:
  std::vector<std::pair<std::string, SourceRange>> scan(const std::vector<const ast::Stmt*>& stmts) {
    locals_.emplace_back();
    for (const ast::Stmt* s : stmts) stmt(*s);
    locals_.pop_back();
    return std::move(found_);
  }

 private:
  void block(const ast::Block& b) {
    locals_.emplace_back();
    for (const ast::StmtPtr& s : b.stmts) stmt(*s);
    locals_.pop_back();
  }

  void stmt(const ast::Stmt& s) {
    switch (s.kind) {
      case ast::StmtKind::Block: block(static_cast<const ast::Block&>(s)); break;
      case ast::StmtKind::Bind: locals_.back().insert(static_cast<const ast::Bind&>(s).name); break;
      case ast::StmtKind::Const: locals_.back().insert(static_cast<const ast::ConstDecl&>(s).name); break;
      case ast::StmtKind::Assign: {
        const auto& a = static_cast<const ast::Assign&>(s);
        if (!isLocal(a.name) && !seen_.count(a.name)) {
          seen_.insert(a.name);
          found_.emplace_back(a.name, a.range);
        }
        break;
      }
      case ast::StmtKind::For: {
        const auto& f = static_cast<const ast::For&>(s);
        locals_.push_back({f.var});
        block(*f.body);
        locals_.pop_back();
        break;
      }
      case ast::StmtKind::If: {
        const auto& i = static_cast<const ast::If&>(s);
        block(*i.thenBlock);
        if (i.elseStmt) stmt(*i.elseStmt);
        break;
      }
      case ast::StmtKind::Expr: break;
    }
  }

  bool isLocal(const std::string& name) const {
    for (const auto& frame : locals_)
      if (frame.count(name)) return true;
    return false;
  }

  std::vector<std::set<std::string>> locals_;
  std::set<std::string> seen_;
  std::vector<std::pair<std::string, SourceRange>> found_;
};

bool isCarriable(ValKind k) {
  return k == ValKind::Tile || k == ValKind::Int || k == ValKind::Bool || k == ValKind::Scalar ||
         k == ValKind::TileArray;
}

}  // namespace

// A variable declared outside a loop or branch and reassigned inside it.
struct Lowerer::Carried {
  Binding* binding;
  Val outer;               // its value before the construct
  ir::Type type;           // the SSA type it is carried with
  SourceRange firstAssign;  // its first assignment inside the construct
};

// ---------------------------------------------------------------- blocks

void Lowerer::lowerBlock(const ast::Block& b) {
  scopes_.push();
  const BlockPosition outer = position_;
  for (size_t i = 0; i < b.stmts.size(); ++i) {
    position_ = {&b, i};
    lowerStmt(*b.stmts[i]);
  }
  position_ = outer;
  scopes_.pop();
}

bool Lowerer::assignedLater(const std::string& name) const {
  if (!position_.block) return false;
  std::vector<const ast::Stmt*> rest;
  for (size_t i = position_.index + 1; i < position_.block->stmts.size(); ++i) rest.push_back(position_.block->stmts[i].get());
  for (const auto& assigned : OuterAssignments().scan(rest))
    if (assigned.first == name) return true;
  return false;
}

std::string Lowerer::freshName(const std::string& base) {
  for (int n = 2;; ++n) {
    std::string name = base + std::to_string(n);
    if (!scopes_.lookup(name) && !findBuiltin(name)) return name;
  }
}

void Lowerer::lowerStmt(const ast::Stmt& s) {
  switch (s.kind) {
    case ast::StmtKind::Block: lowerBlock(static_cast<const ast::Block&>(s)); return;
    case ast::StmtKind::Bind: lowerBind(static_cast<const ast::Bind&>(s)); return;
    case ast::StmtKind::Assign: lowerAssign(static_cast<const ast::Assign&>(s)); return;
    case ast::StmtKind::For: lowerFor(static_cast<const ast::For&>(s)); return;
    case ast::StmtKind::If: lowerIf(static_cast<const ast::If&>(s)); return;
    case ast::StmtKind::Const: lowerConst(static_cast<const ast::ConstDecl&>(s), false); return;
    case ast::StmtKind::Expr: {
      const ast::Expr& e = *static_cast<const ast::ExprStmt&>(s).expr;
      Val v = eval(e);
      if (v.kind == ValKind::Tile) discardedTile(e, v.value->type());
      return;
    }
  }
}

// `exp(x);`: the author most likely meant to update the variable the call reads first, so
// the fix assigns the result back to it when it is a var of the result's type, and
// otherwise binds it to a new let (assigning to a let is E0703; a var that changed type in a
// loop, E0712).
void Lowerer::discardedTile(const ast::Expr& e, const ir::Type& result) {
  const auto* call = ast::dynCast<ast::Call>(&e);
  const auto* first = call && !call->args.empty() ? ast::dynCast<ast::NameRef>(call->args[0].value.get()) : nullptr;
  const Binding* target = first ? scopes_.lookup(first->name) : nullptr;
  const bool assignBack = target && target->kind == BindKind::Var && target->val.kind == ValKind::Tile &&
                          target->val.value->type() == result;
  const std::string prefix = assignBack ? first->name + " = "
                                        : "let " + freshName(first ? first->name : call ? call->callee : "t") + " = ";
  const std::string what = call ? quotedName(call->callee) : std::string("this expression");
  const std::string expr = text(e.range);
  const std::string shown = expr.size() <= 40 ? expr : call ? call->callee + "(...)" : "...";
  Diagnostic& d = error(Diag::UnusedResult, e.range,
                        "the result of " + what + " is discarded; " +
                            (assignBack ? "assign it back to the var: " : "bind it: ") + prefix + shown + ";");
  d.fixes.push_back({SourceRange{e.range.file, e.range.begin, e.range.begin}, prefix});
}

// ---------------------------------------------------------------- bindings

void Lowerer::lowerBind(const ast::Bind& b) {
  Val v = eval(*b.init);
  if (v.kind == ValKind::Void) {
    error(Diag::WrongValueKind, b.init->range, "store(...) has no result to bind; call it as a statement");
    v = Val::poison(v.range);
  }
  if (b.type && !v.isPoison()) checkAnnotation(*b.type, v);
  if ((v.kind == ValKind::Tile || v.kind == ValKind::TileArray) && v.value->name().empty()) nameValue(v.value, b.name, b.nameRange);
  // An integer that is an op's result (an element read from a tensor) takes the let's name too.
  if (v.kind == ValKind::Int && v.expr.kind() == ir::ExprKind::Var && v.expr.var()->definingOp() &&
      v.expr.var()->name().empty())
    nameValue(const_cast<ir::Value*>(v.expr.var()), b.name, b.nameRange);
  define(b.name, b.isMutable ? BindKind::Var : BindKind::Let, b.nameRange, v);
  scopes_.lookup(b.name)->keywordRange = {b.range.file, b.range.begin, b.range.begin + 3};  // `let` or `var`
}

void Lowerer::lowerAssign(const ast::Assign& a) {
  Binding* b = scopes_.lookup(a.name);
  if (!b) return undeclaredAssign(a);
  if (observer_) observer_->resolved(a.nameRange, *b);
  if (!a.indices.empty()) return lowerSlotWrite(a, *b);
  switch (b->kind) {
    case BindKind::Var: break;
    case BindKind::Param:
    case BindKind::Size: {
      std::string what = b->val.kind == ValKind::Tensor ? "tensor parameter" : b->kind == BindKind::Size ? "size" : "parameter";
      std::string fix = b->val.kind == ValKind::Tensor ? "write tensors with store(...)"
                                                      : "copy it into a var first: var x = " + a.name + ";";
      error(Diag::AssignToParam, a.nameRange, "cannot assign to " + what + " " + quotedName(a.name) + "; " + fix)
          .notes.push_back({quotedName(a.name) + " declared here", b->declRange});
      return;
    }
    default: {
      const char* what = b->kind == BindKind::Const ? "constant" : b->kind == BindKind::Let ? "let binding"
                                                                                            : "loop variable";
      const bool let = b->kind == BindKind::Let && b->keywordRange.valid();
      std::string fix = let ? "declare it with var to reassign it" : "use a var declared with another name";
      Diagnostic& d = error(Diag::AssignToImmutable, a.nameRange,
                            std::string("cannot assign to ") + what + " " + quotedName(a.name) + "; " + fix);
      d.notes.push_back({quotedName(a.name) + " declared here", b->declRange});
      if (let) d.fixes.push_back({b->keywordRange, "var"});
      return;
    }
  }
  Val v;
  if (a.compound) {
    Val current = b->val;
    current.range = a.nameRange;
    v = binary(*a.compound, current, eval(*a.value), a.opRange, a.range);
  } else {
    v = eval(*a.value);
  }
  if (!v.isPoison() && !b->val.isPoison() && v.kind != b->val.kind) {
    error(Diag::WrongValueKind, a.value->range,
          quotedName(a.name) + " holds " + valKindName(b->val.kind) + " and cannot be assigned " + valKindName(v.kind) +
              "; declare a new variable for it")
        .notes.push_back({quotedName(a.name) + " declared here", b->declRange});
    v = Val::poison(v.range);
  }
  if (v.kind == ValKind::Tile && v.value->name().empty()) nameValue(v.value, a.name, a.nameRange);
  b->val = v;
  b->assignedAt = a.range;
}

// `x = e;` with no x declared: a misspelled var when one is close, otherwise a missing
// declaration (let, or var when the block assigns x again). Either way x is then declared,
// as poison, so its later uses and assignments report nothing more.
void Lowerer::undeclaredAssign(const ast::Assign& a) {
  eval(*a.value);
  std::vector<std::string> vars;
  for (const std::string& name : scopes_.visibleNames())
    if (scopes_.lookup(name)->kind == BindKind::Var) vars.push_back(name);
  const std::optional<std::string> guess = closestName(a.name, vars);
  const bool plain = a.indices.empty() && !a.compound;
  const char* keyword = assignedLater(a.name) ? "var" : "let";
  if (guess) {
    Diagnostic& d = error(Diag::UnknownName, a.nameRange,
                          "unknown name " + quotedName(a.name) + "; did you mean the var " + quotedName(*guess) + "?");
    d.notes.push_back({quotedName(*guess) + " declared here", scopes_.lookup(*guess)->declRange});
    d.fixes.push_back({a.nameRange, *guess});
  } else if (plain) {
    error(Diag::UnknownName, a.nameRange,
          "unknown name " + quotedName(a.name) + "; declare it where it is first assigned: " + keyword + " " +
              (a.name.size() <= 40 ? a.name : "...") + " = ...;")
        .fixes.push_back({SourceRange{a.nameRange.file, a.nameRange.begin, a.nameRange.begin}, std::string(keyword) + " "});
  } else {
    error(Diag::UnknownName, a.nameRange,
          "unknown name " + quotedName(a.name) + "; declare it before " + (a.compound ? "updating it" : "writing its slots"));
  }
  define(a.name, BindKind::Var, a.nameRange, Val::poison(a.nameRange));
}

void Lowerer::checkAnnotation(const ast::TypeAnn& t, const Val& v) {
  std::string annotation = text(t.range);
  auto mismatch = [&](const std::string& actual) {
    error(Diag::AnnotationMismatch, v.range,
          "the value is " + actual + ", which does not match the annotation '" + annotation +
              "'; fix the annotation or convert the value");
  };
  switch (t.kind) {
    case ast::TypeAnn::Kind::Index:
      if (v.kind != ValKind::Int) mismatch(valKindName(v.kind));
      return;
    case ast::TypeAnn::Kind::Scalar: {
      bool ok = t.dtype == ir::DType::Bool ? v.kind == ValKind::Bool
                : ir::isInteger(t.dtype)   ? v.kind == ValKind::Int
                                           : v.kind == ValKind::Float ||
                                               (v.kind == ValKind::Scalar && v.value->type().dtype() == t.dtype);
      if (!ok) mismatch(v.kind == ValKind::Scalar ? typeText(v.value->type()) : valKindName(v.kind));
      return;
    }
    case ast::TypeAnn::Kind::Tile: break;
  }
  if (v.kind != ValKind::Tile) {
    mismatch(valKindName(v.kind));
    return;
  }
  const ir::Type& actual = v.value->type();
  Val shapeList = Val::make(ValKind::List, t.range);
  for (const ast::ExprPtr& d : t.shape) shapeList.elems.push_back(eval(*d));
  std::optional<std::vector<int64_t>> shape = staticShapeOf(shapeList, "the annotated shape");
  std::optional<ir::SpaceId> space = ir::kNoSpace;
  if (t.space) {
    space = spaceNamed(*t.space, t.spaceRange);
    if (!space) return;
  }
  if (!shape) return;
  bool ok = actual.dtype() == t.dtype && actual.shape() == *shape &&
            (*space == ir::kNoSpace || actual.space() == ir::kNoSpace || actual.space() == *space);
  if (ok && !t.valid.empty()) {
    ok = t.valid.size() == actual.valid().size();
    for (size_t i = 0; ok && i < t.valid.size(); ++i) {
      std::optional<ir::Expr> e = asInt(eval(*t.valid[i]), "an annotated valid extent");
      if (!e) return;
      ok = ir::provablyEqual(*e, actual.valid()[i]);
    }
  }
  if (!ok) mismatch(typeText(actual));
}

// ---------------------------------------------------------------- carried values

std::vector<Lowerer::Carried> Lowerer::carriedBindings(const std::vector<const ast::Stmt*>& stmts,
                                                      SourceRange construct) {
  std::vector<Carried> out;
  for (const auto& [name, at] : OuterAssignments().scan(stmts)) {
    Binding* b = scopes_.lookup(name);
    // the assignment reports it; a tile array's slots are written whether it is a let or a var
    if (!b || b->val.isPoison() || (b->kind != BindKind::Var && b->val.kind != ValKind::TileArray)) continue;
    if (!isCarriable(b->val.kind)) {
      error(Diag::CarriedTypeChange, at,
            quotedName(name) + " holds " + valKindName(b->val.kind) +
                ", which cannot change inside a loop or branch; assign it outside, or declare a new let inside")
          .notes.push_back({quotedName(name) + " declared here", b->declRange});
      continue;
    }
    out.push_back({b, b->val, carriedType(b->val), at});
  }
  return out;
}

ir::Value* Lowerer::carriedValue(ir::Value* v, const Carried& c) {
  nameValue(v, c.binding->name, c.binding->declRange);
  return v;
}

ir::Type Lowerer::carriedType(const Val& v) const {
  switch (v.kind) {
    case ValKind::Int: return ir::Type::index();
    case ValKind::Bool: return ir::Type::scalar(ir::DType::Bool);
    default: return v.value->type();
  }
}

Val Lowerer::valueOfArg(const Val& like, ir::Value* v, SourceRange r) const {
  switch (like.kind) {
    case ValKind::Int: return Val::integer(ir::Expr::var(v), r);
    case ValKind::Bool: return Val::boolean(ir::Expr::var(v), r);
    default: {
      Val out = like;  // keeps a tile array's grid
      out.value = v;
      out.range = r;
      return out;
    }
  }
}

// The SSA value to yield for `c` at the end of the current region. When an error
// made its value poison, the value it had before the construct keeps the IR whole.
ir::Value* Lowerer::yieldValue(const Carried& c, SourceRange at) {
  const Val& current = c.binding->val.isPoison() ? c.outer : c.binding->val;
  if (current.kind == ValKind::Int || current.kind == ValKind::Bool) return materialize(current.expr, c.type, at);
  return current.value;
}

// `expected` is the type `c` has at the point `expectedWhere`; `v` is its value
// at `actualWhere`.
void Lowerer::checkCarriedType(const Carried& c, ir::Value* v, const ir::Type& expected, SourceRange at,
                               const std::string& expectedWhere, const std::string& actualWhere) {
  if (v->type() == expected) return;
  const std::string& name = c.binding->name;
  error(Diag::CarriedTypeChange, at,
        quotedName(name) + " is " + typeText(expected) + " " + expectedWhere + " but " + typeText(v->type()) + " " +
            actualWhere + "; give it the same type on every path (cast, move or set_valid_shape)")
      .notes.push_back({quotedName(name) + " declared here", c.binding->declRange});
}

// ---------------------------------------------------------------- loops

// The loop's mode, with a parallel loop's schedule: `blocked` (the default) or `cyclic`.
ir::LoopMode Lowerer::loopMode(const ast::For& f) {
  if (f.schedule.empty() || f.schedule == "blocked") return f.mode;
  if (f.schedule == "cyclic") return ir::LoopMode::ParallelCyclic;
  std::optional<std::string> near = closestName(f.schedule, {"blocked", "cyclic"});
  error(Diag::LoopSchedule, f.scheduleRange,
        "'" + f.schedule + "' is no schedule of a parallel loop; write parallel(blocked) for runs of iterations "
        "per block or parallel(cyclic) for every block_num()-th iteration" + (near ? " (did you mean '" + *near + "'?)" : ""));
  return f.mode;
}

// `buffers(N)` after a serial loop's bounds: N in [1, ir::kMaxLoopBuffers] iterations at once,
// each with buffers of its own (1: never more than one). Nothing when there is no clause or
// it is wrong (reported).
std::optional<int64_t> Lowerer::bufferingClause(const ast::For& f) {
  if (f.clause.empty()) return std::nullopt;
  if (f.clause != "buffers") {
    error(Diag::LoopClause, f.clauseRange,
          "'" + f.clause + "' is no loop clause; write buffers(N) after the bounds to run N iterations at once, " +
              "each with buffers of its own" + (closestName(f.clause, {"buffers"}) ? " (did you mean 'buffers'?)" : ""));
    return std::nullopt;
  }
  const Val v = eval(*f.clauseValue);
  const std::optional<int64_t> n = v.constInt();
  if (v.isPoison()) return std::nullopt;
  if (!n || *n < 1 || *n > ir::kMaxLoopBuffers) {
    error(Diag::LoopClause, v.range,
          "buffers(N) needs a constant N from 1 to " + std::to_string(ir::kMaxLoopBuffers) +
              " (1: one buffer per tile; 2: double buffering; more: deeper pipelining)");
    return std::nullopt;
  }
  if (f.mode != ast::LoopMode::Serial) {
    error(Diag::LoopClause, f.clauseRange,
          std::string("buffers(N) applies to a serial loop, but this one is ") +
              (f.mode == ast::LoopMode::Unroll ? "unrolled (every iteration already has buffers of its own)"
                                               : "parallel (its iterations run on different blocks)") +
              "; drop the clause or the loop's keyword");
    return std::nullopt;
  }
  return n;
}

void Lowerer::lowerFor(const ast::For& f) {
  std::optional<ir::Expr> lb = asInt(eval(*f.lb), "the loop start");
  std::optional<ir::Expr> ub = asInt(eval(*f.ub), "the loop end");
  std::optional<ir::Expr> step = ir::Expr::constant(1);
  if (f.step) {
    Val s = eval(*f.step);
    step = asInt(s, "the loop step");
    if (std::optional<int64_t> c = s.constInt(); c && *c <= 0) {
      error(Diag::BadLoopStep, s.range, "the loop step must be positive, but it is " + std::to_string(*c) +
                                            "; count upwards with a positive step");
      step.reset();
    }
  }
  if (f.mode == ast::LoopMode::Unroll && lb && ub && step && !(lb->isConst() && ub->isConst() && step->isConst()))
    error(Diag::NotConstant, f.range,
          "an unroll loop needs compile-time bounds and step; use constants, or drop 'unroll'");

  const ir::LoopMode mode = loopMode(f);
  if (ir::isParallel(mode) && parallelDepth_ > 0)
    error(Diag::NestedParallel, f.range,
          "this parallel loop is inside another one, whose iterations are already split over the blocks; make it "
          "a serial loop, or make one parallel loop over the product of the two trip counts");
  ParallelScope scope(*this, ir::isParallel(mode));
  std::vector<Carried> carried = carriedBindings({f.body.get()}, f.range);
  if (f.mode == ast::LoopMode::Parallel)
    for (const Carried& c : carried)
      error(Diag::ParallelCarry, c.firstAssign,
            "a parallel loop cannot reassign '" + c.binding->name +
                "', which is declared outside it; use a serial loop or declare it inside the loop");
  std::vector<ir::Value*> inits;
  for (const Carried& c : carried)
    inits.push_back(c.outer.kind == ValKind::Int || c.outer.kind == ValKind::Bool
                        ? materialize(c.outer.expr, c.type, f.range)
                        : c.outer.value);

  const size_t diagsBefore = diags_.all().size();
  LoweredLoop loop = buildLoop(f, mode, carried, inits, lb, ub, step);
  // A tile seeded by a fresh create that the body leaves with fewer valid rows or columns:
  // the seed is declared again at the extent the body yields, and the loop lowered again.
  bool narrowed = false;
  if (diags_.all().size() == diagsBefore)
    for (size_t i = 0; i < carried.size(); ++i)
      if (std::optional<ir::Type> t = narrowedSeed(carried[i], loop.next[i], *loop.op)) {
        carried[i].type = *t;
        inits[i] = carriedValue(block_->create(ir::OpKind::Create, f.range)->addResult(*t), carried[i]);
        narrowed = true;
      }
  if (narrowed) {
    for (Carried& c : carried) c.binding->val = c.outer;
    block_->erase(loop.op);
    loop = buildLoop(f, mode, carried, inits, lb, ub, step);
  }
  for (size_t i = 0; i < carried.size(); ++i)
    checkCarriedType(carried[i], loop.next[i], carried[i].type, carried[i].binding->assignedAt,
                     "when the loop starts", "at the end of an iteration");
  if (std::optional<int64_t> copies = bufferingClause(f)) loop.op->set(ir::attr::buffering, *copies);
  ir::Op* yield = loop.op->body().create(ir::OpKind::Yield, f.range);
  for (ir::Value* v : loop.next) yield->addOperand(v);
  for (const Carried& c : carried)
    c.binding->val = valueOfArg(c.outer, carriedValue(loop.op->addResult(c.type), c), f.range);
}

// The loop op with its body lowered, and the value each carried binding has at the end of
// the body (the yield is left to the caller).
Lowerer::LoweredLoop Lowerer::buildLoop(const ast::For& f, ir::LoopMode mode, const std::vector<Carried>& carried,
                                        const std::vector<ir::Value*>& inits, const std::optional<ir::Expr>& lb,
                                        const std::optional<ir::Expr>& ub, const std::optional<ir::Expr>& step) {
  ir::Op* loop = block_->create(ir::OpKind::For, f.range);
  loop->set(ir::attr::lb, lb ? *lb : ir::Expr::constant(0));
  loop->set(ir::attr::ub, ub ? *ub : ir::Expr::constant(0));
  loop->set(ir::attr::step, step ? *step : ir::Expr::constant(1));
  loop->set(ir::attr::mode, mode);
  for (ir::Value* v : inits) loop->addOperand(v);
  ir::Block& body = loop->addRegion().block();
  ir::Value* iv = body.addArg(ir::Type::index());
  nameValue(iv, f.var, f.varRange);
  std::vector<ir::Value*> args;
  for (const Carried& c : carried) args.push_back(carriedValue(body.addArg(c.type), c));

  ir::Block* outerBlock = block_;
  block_ = &body;
  scopes_.push();
  define(f.var, BindKind::LoopVar, f.varRange, Val::integer(ir::Expr::var(iv), f.varRange));
  for (size_t i = 0; i < carried.size(); ++i)
    carried[i].binding->val = valueOfArg(carried[i].outer, args[i], f.varRange);
  lowerBlock(*f.body);
  for (const Carried& c : carried)
    if (c.binding->val.kind == ValKind::TileArray && c.binding->val.assembledAt)
      error(Diag::RegionArrayConsumed, *c.binding->val.assembledAt,
            "tile array " + quotedName(c.binding->name) + " is assembled inside the loop that writes its slots, so the next " +
                "iteration would write slots of an array that assembly has consumed; assemble it after the loop")
          .notes.push_back({"its slots are written here", c.firstAssign});
  std::vector<ir::Value*> next;
  for (const Carried& c : carried) next.push_back(yieldValue(c, f.range));
  scopes_.pop();
  block_ = outerBlock;
  return {loop, next};
}

// The type a carried tile's seed is declared with again when the loop body leaves it with
// other valid extents than its seed, a fresh create, has: the body's, provided they differ
// only in the valid extents and those are known before the loop (a runtime extent
// computed inside the loop cannot type the seed).
std::optional<ir::Type> Lowerer::narrowedSeed(const Carried& c, const ir::Value* next, const ir::Op& loop) const {
  const ir::Type& seed = c.type;
  const ir::Type& body = next->type();
  const ir::Op* def = c.outer.kind == ValKind::Tile ? c.outer.value->definingOp() : nullptr;
  if (!def || def->kind() != ir::OpKind::Create || !seed.isTile() || !body.isTile() || seed == body) return std::nullopt;
  if (seed.withValid(body.valid()) != body) return std::nullopt;
  auto insideLoop = [&](const ir::Value* v) {
    const ir::Op* p = v->definingOp() ? v->definingOp()->parentOp() : v->ownerBlock()->parentOp();
    for (; p; p = p->parentOp())
      if (p == &loop) return true;
    return false;
  };
  for (const ir::Expr& e : body.valid())
    for (const ir::Value* v : e.vars())
      if (insideLoop(v)) return std::nullopt;
  return body;
}

// ---------------------------------------------------------------- branches

void Lowerer::lowerIf(const ast::If& i) {
  std::optional<ir::Expr> cond = asBool(eval(*i.cond), "the if condition");
  std::vector<const ast::Stmt*> branches = {i.thenBlock.get()};
  if (i.elseStmt) branches.push_back(i.elseStmt.get());
  std::vector<Carried> carried = carriedBindings(branches, i.range);
  for (const Carried& c : carried)
    if (c.outer.kind == ValKind::TileArray)
      error(Diag::RegionEscape, c.firstAssign,
            "tile array '" + c.binding->name +
                "' is written under a condition; write every slot on every path, outside the branch");

  ir::Op* branch = block_->create(ir::OpKind::If, i.range);
  branch->set(ir::attr::cond, cond ? *cond : ir::Expr::boolean(false));
  ir::Block& thenBlock = branch->addRegion().block();
  ir::Block& elseBlock = branch->addRegion().block();
  ir::Block* outerBlock = block_;

  // Then branch; its yielded types become the result types.
  block_ = &thenBlock;
  lowerBlock(*i.thenBlock);
  std::vector<ir::Value*> thenValues;
  for (Carried& c : carried) {
    thenValues.push_back(yieldValue(c, i.range));
    c.type = thenValues.back()->type();
    c.binding->val = c.outer;
  }
  ir::Op* thenYield = thenBlock.create(ir::OpKind::Yield, i.range);
  for (ir::Value* v : thenValues) thenYield->addOperand(v);

  block_ = &elseBlock;
  if (i.elseStmt) lowerElse(*i.elseStmt);
  std::vector<ir::Value*> elseValues;
  for (const Carried& c : carried) {
    elseValues.push_back(yieldValue(c, i.range));
    checkCarriedType(c, elseValues.back(), c.type, c.firstAssign, "at the end of the then branch",
                     "at the end of the else branch");
  }
  ir::Op* elseYield = elseBlock.create(ir::OpKind::Yield, i.range);
  for (ir::Value* v : elseValues) elseYield->addOperand(v);
  block_ = outerBlock;

  for (const Carried& c : carried)
    c.binding->val = valueOfArg(c.outer, carriedValue(branch->addResult(c.type), c), i.range);
}

void Lowerer::lowerElse(const ast::Stmt& s) {
  if (const auto* nested = ast::dynCast<ast::If>(&s)) {
    scopes_.push();
    lowerIf(*nested);
    scopes_.pop();
    return;
  }
  lowerBlock(static_cast<const ast::Block&>(s));
}

}  // namespace tilec::frontend
