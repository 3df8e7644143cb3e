#include "backend/pto/ScalarEmitter.h"

#include <cstdlib>
#include <optional>

namespace tilec::pto {
using namespace ir;

namespace {

const char* predicate(CmpKind k) {
  switch (k) {
    case CmpKind::EQ: return "eq";
    case CmpKind::NE: return "ne";
    case CmpKind::LT: return "slt";
    case CmpKind::LE: return "sle";
    case CmpKind::GT: return "sgt";
    case CmpKind::GE: return "sge";
  }
  return "eq";
}

bool hasNegativeCoefficient(const Expr& term) {
  if (term.kind() != ExprKind::Mul) return false;
  for (const Expr& o : term.operands())
    if (auto c = o.asConst()) return *c < 0;
  return false;
}

}  // namespace

std::string ScalarEmitter::value(const Value* v) const {
  const std::string* name = values_.find(v);
  return name ? *name : std::string();
}

// ---- constants ----

std::string ScalarEmitter::constantNamed(const std::string& key, const std::string& hint,
                                         const std::string& literal, const std::string& type) {
  auto it = constantNames_.find(key);
  if (it != constantNames_.end()) return it->second;
  std::string name = names_.fresh(hint);
  constants_ << "    " << name << " = arith.constant " << literal
             << (type.empty() ? "" : " : " + type) << '\n';
  constantNames_.emplace(key, name);
  return name;
}

std::string ScalarEmitter::indexConstant(int64_t v) {
  std::string text = std::to_string(v);
  return constantNamed("index " + text, "c" + text, text, "index");
}

std::string ScalarEmitter::boolConstant(bool v) {
  const char* text = v ? "true" : "false";
  return constantNamed(std::string("i1 ") + text, text, text, "");
}

std::string ScalarEmitter::constant(DType d, const AttrValue& value) {
  const int64_t* i = std::get_if<int64_t>(&value);
  const double* f = std::get_if<double>(&value);
  if (d == DType::Bool) return boolConstant(i ? *i != 0 : f && *f != 0);
  if (isFloat(d)) {
    std::string literal = floatLiteral(f ? *f : double(i ? *i : 0), d);
    return constantNamed(scalarType(d) + " " + literal, "cst", literal, scalarType(d));
  }
  int64_t x = i ? *i : int64_t(f ? *f : 0);
  if (d == DType::Index) return indexConstant(x);
  std::string text = std::to_string(x);
  return constantNamed(scalarType(d) + " " + text, "c" + text + "_" + scalarType(d), text,
                       scalarType(d));
}

// ---- ops ----

std::string ScalarEmitter::op(const std::string& text, const std::string& type,
                              const std::string& hint) {
  std::string name = names_.fresh(hint);
  body_.line(name + " = " + text + " : " + type);
  return name;
}

std::string ScalarEmitter::binary(const char* opName, const std::string& a, const std::string& b,
                                  const char* type, const std::string& hint) {
  return op(std::string(opName) + " " + a + ", " + b, type, hint);
}

std::string ScalarEmitter::memoized(const std::string& key,
                                    const std::function<std::string()>& build) {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto found = it->find(key);
    if (found != it->end()) return found->second;
  }
  std::string name = build();
  scopes_.back().emplace(key, name);
  return name;
}

std::string ScalarEmitter::keyOf(const Expr& e) const {
  return e.str([](const Value* v) { return "%v" + std::to_string(v->id()); });
}

std::string ScalarEmitter::cast(const std::string& indexValue, DType d, const std::string& hint) {
  if (d == DType::Index) return indexValue;
  if (d == DType::Bool) {
    std::string zero = indexConstant(0);
    return op("arith.cmpi ne, " + indexValue + ", " + zero, "index", hint);
  }
  if (!isFloat(d)) return op("arith.index_cast " + indexValue, "index to " + scalarType(d), hint);
  // MLIR converts index to float through a fixed-width integer.
  std::string wide = op("arith.index_cast " + indexValue, "index to i64", "");
  return op("arith.sitofp " + wide, "i64 to " + scalarType(d), hint);
}

std::string ScalarEmitter::castAtUse(const std::string& indexValue, DType d) {
  return memoized("cast " + indexValue + " to " + scalarType(d), [&] { return cast(indexValue, d, ""); });
}

// ---- index expressions ----

std::string ScalarEmitter::varIndex(const Value* v) {
  std::string name = value(v);
  DType d = v->type().dtype();
  if (d == DType::Index) return name;
  return memoized("index of " + name, [&] {
    if (d == DType::Bool) {
      std::string one = indexConstant(1);
      std::string zero = indexConstant(0);
      return op("arith.select " + name + ", " + one + ", " + zero, "index", "");
    }
    return op("arith.index_cast " + name, scalarType(d) + " to index", "");
  });
}

std::string ScalarEmitter::index(const Expr& e, const std::string& hint) {
  if (auto c = e.asConst()) return indexConstant(*c);
  if (e.kind() == ExprKind::Var) return varIndex(e.var());
  return memoized("index " + keyOf(e), [&] { return buildIndex(e, hint); });
}

std::string ScalarEmitter::buildIndex(const Expr& e, const std::string& hint) {
  const auto& ops = e.operands();
  switch (e.kind()) {
    case ExprKind::Add:
      return buildSum(e, hint);
    case ExprKind::Mul:
      return buildProduct(e, hint);
    case ExprKind::FloorDiv:
      return binary("arith.floordivsi", index(ops[0]), index(ops[1]), "index", hint);
    case ExprKind::CeilDiv: {
      // ceildiv(a, b) = -floordiv(-a, b): PTOAS's own tests use floordivsi, not ceildivsi.
      std::string zero = indexConstant(0);
      std::string negated = binary("arith.subi", zero, index(ops[0]), "index", "");
      std::string floor = binary("arith.floordivsi", negated, index(ops[1]), "index", "");
      return binary("arith.subi", zero, floor, "index", hint);
    }
    case ExprKind::Mod:
      return buildMod(e, hint);
    case ExprKind::Min:
      return chain("arith.minsi", ops, "index", hint, false);
    case ExprKind::Max:
      return chain("arith.maxsi", ops, "index", hint, false);
    case ExprKind::Select: {
      std::string c = boolean(ops[0]);
      std::string a = index(ops[1]);
      std::string b = index(ops[2]);
      return op("arith.select " + c + ", " + a + ", " + b, "index", hint);
    }
    default: {  // a comparison or logical expression used as an integer
      std::string c = boolean(e);
      std::string one = indexConstant(1);
      std::string zero = indexConstant(0);
      return op("arith.select " + c + ", " + one + ", " + zero, "index", hint);
    }
  }
}

// c0 + t1 + ... - u1 - ...: positive terms added, negative ones subtracted.
std::string ScalarEmitter::buildSum(const Expr& e, const std::string& hint) {
  int64_t constant = 0;
  std::vector<Expr> added, subtracted;
  for (const Expr& t : e.operands()) {
    if (auto c = t.asConst()) constant += *c;
    else if (hasNegativeCoefficient(t)) subtracted.push_back(Expr::neg(t));
    else added.push_back(t);
  }
  struct Step {
    const char* op;
    std::optional<Expr> term;  // nullopt: the constant
  };
  std::vector<Step> steps;
  for (size_t i = 1; i < added.size(); ++i) steps.push_back({"arith.addi", added[i]});
  for (const Expr& t : subtracted) steps.push_back({"arith.subi", t});
  if (!added.empty() && constant != 0)
    steps.push_back({constant > 0 ? "arith.addi" : "arith.subi", std::nullopt});
  std::string acc = added.empty() ? indexConstant(constant) : index(added[0]);
  for (size_t i = 0; i < steps.size(); ++i) {
    std::string rhs = steps[i].term ? index(*steps[i].term) : indexConstant(std::abs(constant));
    acc = binary(steps[i].op, acc, rhs, "index", i + 1 == steps.size() ? hint : "");
  }
  return acc;
}

std::string ScalarEmitter::buildProduct(const Expr& e, const std::string& hint) {
  int64_t coefficient = 1;
  std::vector<Expr> factors;
  for (const Expr& o : e.operands()) {
    if (auto c = o.asConst()) coefficient *= *c;
    else factors.push_back(o);
  }
  if (coefficient == -1 && factors.size() == 1) {
    std::string zero = indexConstant(0);
    std::string x = index(factors[0]);
    return binary("arith.subi", zero, x, "index", hint);
  }
  std::string acc = index(factors[0]);
  size_t steps = factors.size() - 1 + (coefficient != 1);
  for (size_t i = 1; i <= steps; ++i) {
    std::string rhs = i < factors.size() ? index(factors[i]) : indexConstant(coefficient);
    acc = binary("arith.muli", acc, rhs, "index", i == steps ? hint : "");
  }
  return acc;
}

// Floor modulo. remsi truncates, so it is exact only for a non-negative dividend
// and a positive divisor; otherwise ((a rem b) + b) rem b has the divisor's sign.
std::string ScalarEmitter::buildMod(const Expr& e, const std::string& hint) {
  const Expr& dividend = e.operands()[0];
  const Expr& divisor = e.operands()[1];
  std::string a = index(dividend);
  std::string b = index(divisor);
  auto lo = bounds(dividend).lo;
  auto d = divisor.asConst();
  if (lo && *lo >= 0 && d && *d > 0) return binary("arith.remsi", a, b, "index", hint);
  std::string r = binary("arith.remsi", a, b, "index", "");
  std::string shifted = binary("arith.addi", r, b, "index", "");
  return binary("arith.remsi", shifted, b, "index", hint);
}

std::string ScalarEmitter::chain(const char* opName, const std::vector<Expr>& operands,
                                 const char* type, const std::string& hint, bool asBool) {
  auto get = [&](const Expr& x) { return asBool ? boolean(x) : index(x); };
  std::string acc = get(operands[0]);
  for (size_t i = 1; i < operands.size(); ++i) {
    std::string rhs = get(operands[i]);
    acc = binary(opName, acc, rhs, type, i + 1 == operands.size() ? hint : "");
  }
  return acc;
}

// ---- i1 expressions ----

std::string ScalarEmitter::boolean(const Expr& e, const std::string& hint) {
  if (auto c = e.asConst()) return boolConstant(*c != 0);
  if (e.kind() == ExprKind::Var && e.var()->type().dtype() == DType::Bool) return value(e.var());
  return memoized("i1 " + keyOf(e), [&] { return buildBool(e, hint); });
}

std::string ScalarEmitter::buildBool(const Expr& e, const std::string& hint) {
  const auto& ops = e.operands();
  switch (e.kind()) {
    case ExprKind::Cmp: {
      std::string a = index(ops[0]);
      std::string b = index(ops[1]);
      return op(std::string("arith.cmpi ") + predicate(e.cmpKind()) + ", " + a + ", " + b,
                "index", hint);
    }
    case ExprKind::And:
      return chain("arith.andi", ops, "i1", hint, true);
    case ExprKind::Or:
      return chain("arith.ori", ops, "i1", hint, true);
    case ExprKind::Not: {
      std::string x = boolean(ops[0]);
      std::string t = boolConstant(true);
      return binary("arith.xori", x, t, "i1", hint);
    }
    case ExprKind::Select: {
      std::string c = boolean(ops[0]);
      std::string a = boolean(ops[1]);
      std::string b = boolean(ops[2]);
      return op("arith.select " + c + ", " + a + ", " + b, "i1", hint);
    }
    default: {  // an integer used as a condition
      std::string x = index(e);
      std::string zero = indexConstant(0);
      return op("arith.cmpi ne, " + x + ", " + zero, "index", hint);
    }
  }
}

}  // namespace tilec::pto
