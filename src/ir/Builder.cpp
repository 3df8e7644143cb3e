#include "ir/Builder.h"

#include <stdexcept>

namespace tilec::ir {

Expr remap(const Expr& e, const ValueMapping& m) {
  if (m.empty()) return e;
  return e.substitute([&](const Value* v) -> Expr {
    auto it = m.find(v);
    return it == m.end() ? Expr() : Expr::var(it->second);
  });
}

Type remap(const Type& t, const ValueMapping& m) {
  if (m.empty()) return t;
  return t.mapExprs([&](const Expr& e) { return remap(e, m); });
}

AttrValue remap(const AttrValue& v, const ValueMapping& m) {
  if (const auto* e = std::get_if<Expr>(&v)) return remap(*e, m);
  if (const auto* t = std::get_if<TypeAttr>(&v)) return remap(t->type(), m);
  if (const auto* es = std::get_if<std::vector<Expr>>(&v)) {
    std::vector<Expr> out;
    out.reserve(es->size());
    for (const Expr& e : *es) out.push_back(remap(e, m));
    return out;
  }
  return v;
}

OpBuilder OpBuilder::before(Op& op) {
  OpBuilder b(*op.parentBlock(), &op);
  b.setLoc(op.loc());
  return b;
}

Op* OpBuilder::insert(OpKind kind) { return block_->create(kind, loc_, before_); }

std::variant<Op*, OpError> OpBuilder::tryCreate(OpKind kind, const std::vector<Value*>& operands,
                                                AttrMap attrs, Type declared, std::string name) {
  InferInput in;
  in.kind = kind;
  for (const Value* v : operands) in.operands.push_back(v->type());
  in.attrs = &attrs;
  in.declared = std::move(declared);
  std::variant<Type, OpError> result = inferResultType(in);
  if (auto* err = std::get_if<OpError>(&result)) return std::move(*err);
  Op* op = insert(kind);
  for (Value* v : operands) op->addOperand(v);
  op->attrs() = std::move(attrs);
  Type& type = std::get<Type>(result);
  if (!type.isNone()) op->addResult(std::move(type), std::move(name));
  return op;
}

Op* OpBuilder::create(OpKind kind, const std::vector<Value*>& operands, AttrMap attrs, Type declared,
                      std::string name) {
  auto made = tryCreate(kind, operands, std::move(attrs), std::move(declared), std::move(name));
  if (auto* err = std::get_if<OpError>(&made))
    throw std::logic_error(std::string("OpBuilder built an ill-typed ") + opInfo(kind).name + ": " +
                           err->message);
  return std::get<Op*>(made);
}

Op* OpBuilder::clone(const Op& op, ValueMapping& mapping) {
  Op* copy = insert(op.kind());
  copy->setLoc(op.loc());
  for (Value* v : op.operands()) {
    auto it = mapping.find(v);
    copy->addOperand(it == mapping.end() ? v : it->second);
  }
  for (const auto& [key, value] : op.attrs()) copy->attrs()[key] = remap(value, mapping);
  for (unsigned i = 0; i < op.numResults(); ++i) {
    const Value* r = op.result(i);
    Value* c = copy->addResult(remap(r->type(), mapping), r->name());
    c->setOrigin(r->origin());
    mapping[r] = c;
  }
  for (unsigned i = 0; i < op.numRegions(); ++i) {
    const Block& from = op.body(i);
    Block& to = copy->addRegion().block();
    for (const auto& arg : from.args()) {
      Value* c = to.addArg(remap(arg->type(), mapping), arg->name());
      c->setOrigin(arg->origin());
      mapping[arg.get()] = c;
    }
    OpBuilder inner(to);
    for (const auto& nested : from.ops()) inner.clone(*nested, mapping);
  }
  return copy;
}

}  // namespace tilec::ir
