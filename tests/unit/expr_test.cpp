// Symbolic expressions: canonical forms, folds, bounds, proofs, printing and
// printing round trips through the .tir parser.
#include <doctest/doctest.h>

#include <climits>
#include <map>
#include <random>

#include "backend/pto/PtoModel.h"
#include "ir/Expr.h"
#include "ir/IR.h"
#include "ir/IRText.h"

using namespace tilec;
using namespace tilec::ir;

namespace {

// Index values S, c, i, j (ids in that order) to build expressions over.
struct Vars {
  Module m;
  Function& f = m.addFunction("k");
  Expr S = Expr::var(f.addParam(Type::index(), "S", ParamDir::None));
  Expr c = Expr::var(f.addParam(Type::index(), "c", ParamDir::None));
  Expr i = Expr::var(f.addParam(Type::index(), "i", ParamDir::None));
  Expr j = Expr::var(f.addParam(Type::index(), "j", ParamDir::None));
  Expr flag = Expr::var(f.addParam(Type::scalar(DType::Bool), "flag", ParamDir::None));
};

Expr k(int64_t v) { return Expr::constant(v); }

std::string str(const Expr& e) {
  return e.str([](const Value* v) { return "%" + v->name(); });
}

// Parses `text` as the value of an arith.index over %S, %c, %i, %j and prints it back.
std::string reparse(const std::string& text) {
  SourceManager sm;
  std::string src = "func @k(%S: index, %c: index, %i: index, %j: index, %flag: bool) incore {\n"
                    "  %r = arith.index {value = " + text + "} : index\n}\n";
  FileId file = sm.addBuffer("expr.tir", src);
  DiagnosticEngine diags(sm);
  auto m = parseModule(sm, file, diags, pto::ptoModel(pto::Arch::A2A3));
  REQUIRE_MESSAGE(m, "parse failed for " << text);
  const Op& op = *m->functions()[0]->body().ops().front();
  return str(op.get(attr::expr));
}

}  // namespace

TEST_CASE("constants fold") {
  CHECK(k(2) + k(3) == k(5));
  CHECK(k(6) * k(7) == k(42));
  CHECK(Expr::floorDiv(k(-7), k(2)) == k(-4));
  CHECK(Expr::ceilDiv(k(-7), k(2)) == k(-3));
  CHECK(Expr::ceilDiv(k(8), k(3)) == k(3));
  CHECK(Expr::mod(k(-7), k(2)) == k(1));
  CHECK(Expr::mod(k(7), k(-2)) == k(-1));
  CHECK(Expr::min(k(3), k(5)) == k(3));
  CHECK(Expr::max(k(3), k(5)) == k(5));
  CHECK(product({}) == k(1));
  CHECK(product({k(2), k(3), k(4)}) == k(24));
}

TEST_CASE("sums and products reach one canonical form") {
  Vars v;
  CHECK(v.i - v.i == k(0));
  CHECK((v.S - v.c) - (v.S - v.c) == k(0));
  CHECK(k(4) * (v.i + k(1)) == k(4) * v.i + k(4));
  CHECK(k(2) * (v.i + v.j) == k(2) * v.i + k(2) * v.j);
  CHECK(v.i + v.j == v.j + v.i);
  CHECK(v.i * v.j == v.j * v.i);
  CHECK((v.i + k(1)) + (v.j + k(2)) == (v.j + v.i) + k(3));
  CHECK(v.i * k(0) == k(0));
  CHECK(v.i * k(1) == v.i);
  CHECK(v.i + k(0) == v.i);
  // Only constants distribute; a sum factor is kept primitive, its content moving out.
  CHECK(v.i * (v.j + k(1)) == (k(1) + v.j) * v.i);
  CHECK(v.i * (v.j + k(1)) != v.i * v.j + v.i);
  CHECK((k(2) * v.i + k(2)) * v.j == k(2) * ((v.i + k(1)) * v.j));
  CHECK((Expr::neg(v.i) - v.j) * v.S == Expr::neg((v.i + v.j) * v.S));
  CHECK((v.j * (v.j - v.S - k(2))) * (v.i + k(1)) == v.j * ((v.j - v.S - k(2)) * (v.i + k(1))));
  CHECK(Expr::neg(Expr::neg(v.i)) == v.i);
  CHECK(v.i * k(3) - v.i * k(3) == k(0));
  CHECK((v.i + k(1)) * (v.j + k(1)) == (v.j + k(1)) * (v.i + k(1)));
  CHECK(v.i != v.j);
  CHECK(v.i + k(1) != v.i + k(2));
}

TEST_CASE("division and modulo by constants simplify") {
  Vars v;
  CHECK(Expr::floorDiv(k(4) * v.i + k(8), k(4)) == v.i + k(2));
  CHECK(Expr::mod(k(4) * v.i + k(8), k(4)) == k(0));
  CHECK(Expr::mod(v.i, k(1)) == k(0));
  CHECK(Expr::floorDiv(v.i, k(1)) == v.i);
  CHECK(Expr::ceilDiv(v.i, k(1)) == v.i);
  CHECK(Expr::ceilDiv(k(4) * v.i + k(8), k(4)) == Expr::floorDiv(k(4) * v.i + k(8), k(4)));
  CHECK(Expr::ceilDiv(k(4) * v.i + k(1), k(4)) == v.i + k(1));
  CHECK(Expr::floorDiv(k(4) * v.i + k(1), k(4)) == v.i);
  CHECK(Expr::mod(k(4) * v.i + k(5), k(4)) == k(1));
  CHECK(Expr::floorDiv(k(4) * v.i + v.j, k(4)) == v.i + Expr::floorDiv(v.j, k(4)));
  CHECK(Expr::floorDiv(Expr::floorDiv(v.j, k(4)), k(8)) == Expr::floorDiv(v.j, k(32)));
  CHECK(Expr::mod(Expr::mod(v.j, k(8)), k(8)) == Expr::mod(v.j, k(8)));
  CHECK(Expr::mod(Expr::mod(v.j, k(4)), k(8)) == Expr::mod(v.j, k(4)));
  // Not simplifiable: the divisor does not divide the symbolic part.
  CHECK(Expr::floorDiv(v.j, k(4)).kind() == ExprKind::FloorDiv);
  CHECK(Expr::ceilDiv(v.j, k(4)).kind() == ExprKind::CeilDiv);
  CHECK(Expr::floorDiv(v.j, v.i).kind() == ExprKind::FloorDiv);
  CHECK(Expr::floorDiv(v.j, k(0)).kind() == ExprKind::FloorDiv);
}

TEST_CASE("min and max drop dominated operands") {
  Vars v;
  CHECK(Expr::min(v.i, v.i + k(1)) == v.i);
  CHECK(Expr::max(v.i, v.i + k(1)) == v.i + k(1));
  CHECK(Expr::min(v.i, v.i) == v.i);
  CHECK(Expr::min(Expr::min(v.i, v.j), v.i) == Expr::min(v.i, v.j));
  CHECK(Expr::min(v.i, v.j) == Expr::min(v.j, v.i));
  CHECK(Expr::min(k(16), Expr::min(v.S - v.c, k(32))) == Expr::min(k(16), v.S - v.c));
  CHECK(Expr::min(k(16), v.S - v.c).kind() == ExprKind::Min);
  CHECK(Expr::min(k(16), Expr::mod(v.j, k(8))) == Expr::mod(v.j, k(8)));
  CHECK(Expr::max(k(0), Expr::mod(v.j, k(8))) == Expr::mod(v.j, k(8)));
  CHECK(Expr::max(v.i, Expr::max(v.j, k(3))).operands().size() == 3);
}

TEST_CASE("comparisons, logic and select fold") {
  Vars v;
  Expr lt = Expr::cmp(CmpKind::LT, v.i, v.i + k(1));
  CHECK(lt.isConst());
  CHECK(lt.constValue() == 1);
  CHECK(lt.isBool());
  CHECK(Expr::cmp(CmpKind::EQ, v.i, v.i).constValue() == 1);
  CHECK(Expr::cmp(CmpKind::NE, v.i, v.i).constValue() == 0);
  Expr c = Expr::cmp(CmpKind::EQ, v.i, k(0));
  CHECK(c.kind() == ExprKind::Cmp);
  CHECK(c.isBool());
  CHECK(!v.i.isBool());
  CHECK(v.flag.isBool());
  CHECK(Expr::logicalAnd(lt, c) == c);
  CHECK(Expr::logicalAnd(Expr::logicalNot(lt), c).constValue() == 0);
  CHECK(Expr::logicalOr(lt, c).constValue() == 1);
  CHECK(Expr::logicalOr(c, c) == c);
  CHECK(Expr::logicalNot(Expr::logicalNot(c)) == c);
  CHECK(Expr::logicalNot(Expr::cmp(CmpKind::LT, v.i, v.j)) == Expr::cmp(CmpKind::GE, v.i, v.j));
  CHECK(Expr::logicalAnd(lt, v.i) == Expr::cmp(CmpKind::NE, v.i, k(0)));
  CHECK(Expr::select(c, v.j, v.j) == v.j);
  CHECK(Expr::select(lt, v.i, v.j) == v.i);
  CHECK(Expr::select(k(0), v.i, v.j) == v.j);
  CHECK(Expr::select(c, v.i, v.j).kind() == ExprKind::Select);
}

TEST_CASE("bounds use interval arithmetic and variable ranges") {
  Vars v;
  VarRanges loop = [&](const Value* x) -> Interval {
    if (x == v.i.var()) return {0, 15};
    if (x == v.j.var()) return {1, 4};
    return {};
  };
  Interval b = bounds(k(4) * v.i + k(2), loop);
  CHECK(b.lo == 2);
  CHECK(b.hi == 62);
  b = bounds(Expr::min(k(16), v.S - v.c));
  CHECK(!b.lo);
  CHECK(b.hi == 16);
  b = bounds(Expr::floorDiv(v.i, v.j), loop);
  CHECK(b.lo == 0);
  CHECK(b.hi == 15);
  b = bounds(Expr::mod(v.S, k(8)));
  CHECK(b.lo == 0);
  CHECK(b.hi == 7);
  b = bounds(v.i * v.j, loop);
  CHECK(b.lo == 0);
  CHECK(b.hi == 60);
  CHECK(!bounds(v.S).lo);
  CHECK(bounds(Expr::cmp(CmpKind::LT, v.i, v.S)).hi == 1);
}

TEST_CASE("proofs decide what the bounds decide") {
  Vars v;
  CHECK(prove(CmpKind::LE, Expr::min(k(16), v.S - v.c), k(16)) == true);
  CHECK(!prove(CmpKind::GE, Expr::min(k(16), v.S - v.c), k(1)));
  CHECK(prove(CmpKind::LT, v.i, v.i + k(1)) == true);
  CHECK(prove(CmpKind::GT, v.i, v.i + k(1)) == false);
  CHECK(!prove(CmpKind::LT, v.i, v.j));
  VarRanges loop = [&](const Value* x) -> Interval {
    if (x == v.i.var()) return {0, 15};
    return {};
  };
  CHECK(prove(CmpKind::LT, v.i, k(16), loop) == true);
  CHECK(prove(CmpKind::GE, v.i, k(0), loop) == true);
  CHECK(prove(CmpKind::EQ, v.i, k(20), loop) == false);
  CHECK(provablyEqual(k(4) * (v.i + k(1)), k(4) * v.i + k(4)));
  CHECK(!provablyEqual(v.i, v.j));
}

TEST_CASE("overflowing folds keep the unfolded form") {
  Vars v;
  Expr big = k(INT64_MAX);
  Expr sum = big + k(1);
  CHECK(!sum.isConst());
  CHECK(sum.kind() == ExprKind::Add);
  Expr prod = v.i * big * k(2);
  CHECK(prod.kind() == ExprKind::Mul);
  CHECK(!(k(INT64_MIN) * k(-1)).isConst());
  CHECK(!Expr::floorDiv(k(INT64_MIN), k(-1)).isConst());
  CHECK(Expr::mod(k(INT64_MIN), k(-1)) == k(0));
  // The unfolded forms print and survive further arithmetic.
  CHECK(str(sum) == "9223372036854775807 + 1");
  CHECK(!bounds(sum).hi);
  CHECK((sum + v.i).kind() == ExprKind::Add);
}

TEST_CASE("substitution and variable queries") {
  Vars v;
  Expr e = Expr::min(k(16), v.S - v.c) + v.i;
  auto vars = e.vars();
  REQUIRE(vars.size() == 3);  // first occurrence in the canonical form: %i sorts first
  CHECK(vars[0] == v.i.var());
  CHECK(vars[1] == v.S.var());
  CHECK(e.dependsOn(v.c.var()));
  CHECK(!e.dependsOn(v.j.var()));
  Expr s = e.substitute([&](const Value* x) { return x == v.c.var() ? v.S - k(4) : Expr(); });
  CHECK(s == v.i + k(4));
  CHECK(e.hash() == (v.i + Expr::min(v.S - v.c, k(16))).hash());
}

TEST_CASE("printing uses minimal parentheses") {
  Vars v;
  CHECK(str(v.S - v.c) == "%S - %c");
  CHECK(str(Expr::min(k(16), v.S - v.c)) == "min(16, %S - %c)");
  CHECK(str(v.i * k(32) + k(4)) == "%i * 32 + 4");
  CHECK(str(k(16) - v.c) == "16 - %c");
  CHECK(str(v.c - v.S + k(1)) == "%c - %S + 1");
  CHECK(str(Expr::neg(v.i) - k(1)) == "-%i - 1");
  CHECK(str(v.i * k(-3)) == "%i * -3");
  CHECK(str(Expr::neg(v.i)) == "-%i");
  CHECK(str((v.i + k(1)) * (v.j + k(2))) == "(%i + 1) * (%j + 2)");
  CHECK(str(Expr::floorDiv(v.i + k(1), k(4))) == "(%i + 1) / 4");
  CHECK(str(Expr::floorDiv(v.j, k(4)) * k(4)) == "%j / 4 * 4");
  CHECK(str(v.i * Expr::floorDiv(v.j, k(4))) == "%i * (%j / 4)");
  CHECK(str(Expr::mod(v.j, k(8))) == "%j % 8");
  CHECK(str(Expr::ceilDiv(v.S, k(16))) == "ceildiv(%S, 16)");
  CHECK(str(Expr::min(v.j, Expr::min(v.i, k(4)))) == "min(4, min(%i, %j))");
  CHECK(str(Expr::cmp(CmpKind::EQ, v.i, k(0))) == "%i == 0");
  CHECK(str(Expr::logicalAnd(Expr::cmp(CmpKind::LT, v.i, v.j), Expr::cmp(CmpKind::LT, v.j, k(4)))) ==
        "%i < %j && %j < 4");
  CHECK(str(Expr::logicalNot(Expr::logicalAnd(v.flag, Expr::cmp(CmpKind::EQ, v.i, k(0))))) ==
        "!(%flag && %i == 0)");
  CHECK(str(Expr::logicalOr(Expr::logicalAnd(v.flag, Expr::cmp(CmpKind::EQ, v.i, k(0))), v.flag)) ==
        "%flag && %i == 0 || %flag");
  CHECK(str(Expr::logicalAnd(Expr::logicalOr(v.flag, Expr::cmp(CmpKind::EQ, v.i, k(0))), v.flag)) ==
        "(%flag || %i == 0) && %flag");
  CHECK(str(Expr::select(Expr::cmp(CmpKind::EQ, v.i, k(0)), v.j, k(4))) == "select(%i == 0, %j, 4)");
  CHECK(str(Expr::cmp(CmpKind::EQ, Expr::cmp(CmpKind::LT, v.i, v.j), v.flag)) == "(%i < %j) == %flag");
  CHECK(str(Expr::cmp(CmpKind::LT, v.i, v.i + k(1))) == "true");
  CHECK(str(k(-5)) == "-5");
  CHECK(str(k(INT64_MIN)) == "-9223372036854775808");
}

TEST_CASE("printed expressions parse back to themselves") {
  const char* texts[] = {
      "%S - %c",
      "min(16, %S - %c)",
      "%i * 32 + 4",
      "16 - %c",
      "%c - %S + 1",
      "-%i - 1",
      "%i * -3",
      "(%i + 1) * (%j + 2)",
      "(%i + 1) / 4",
      "%j / 4 * 4",
      "%i * (%j / 4)",
      "%j % 8",
      "ceildiv(%S, 16)",
      "min(4, min(%i, %j))",
      "max(%S, %i * 2)",
      "select(%i == 0, %j, 4)",
      "%i < %j && %j < 4",
      "!(%flag && %i == 0)",
      "(%flag || %i == 0) && %flag",
      "%flag && %i == 0 || %flag",
      "(%i < %j) == %flag",
      "true",
      "false",
      "-9223372036854775808",
      "9223372036854775807 + 1",
      "-(%i * %j)",
  };
  for (const char* t : texts) CHECK(reparse(t) == t);
  // Non-canonical input reaches the canonical text.
  CHECK(reparse("(%S - %c) - (%S - %c)") == "0");
  CHECK(reparse("4 * (%i + 1)") == "%i * 4 + 4");
  CHECK(reparse("(4 * %i + 8) / 4") == "%i + 2");
  CHECK(reparse("min(%i, %i + 1)") == "%i");
  CHECK(reparse("2 + 3 * 4 - 6 / 4 % 5") == "13");
  CHECK(reparse("!(%i < %j)") == "%i >= %j");
}

namespace {

// Reference semantics, evaluated on the built (canonical) expression.
std::optional<int64_t> eval(const Expr& e, const std::map<const Value*, int64_t>& env) {
  std::vector<int64_t> v;
  for (const Expr& o : e.operands()) {
    auto x = eval(o, env);
    if (!x) return std::nullopt;
    v.push_back(*x);
  }
  auto floorDiv = [](int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); };
  switch (e.kind()) {
    case ExprKind::Const: return e.constValue();
    case ExprKind::Var: return env.at(e.var());
    case ExprKind::Add: {
      int64_t r = 0;
      for (int64_t x : v) r += x;
      return r;
    }
    case ExprKind::Mul: {
      int64_t r = 1;
      for (int64_t x : v) r *= x;
      return r;
    }
    case ExprKind::FloorDiv:
      if (v[1] == 0) return std::nullopt;
      return floorDiv(v[0], v[1]);
    case ExprKind::CeilDiv:
      if (v[1] == 0) return std::nullopt;
      return -floorDiv(-v[0], v[1]);
    case ExprKind::Mod:
      if (v[1] == 0) return std::nullopt;
      return v[0] - v[1] * floorDiv(v[0], v[1]);
    case ExprKind::Min: return *std::min_element(v.begin(), v.end());
    case ExprKind::Max: return *std::max_element(v.begin(), v.end());
    case ExprKind::Cmp:
      switch (e.cmpKind()) {
        case CmpKind::EQ: return v[0] == v[1];
        case CmpKind::NE: return v[0] != v[1];
        case CmpKind::LT: return v[0] < v[1];
        case CmpKind::LE: return v[0] <= v[1];
        case CmpKind::GT: return v[0] > v[1];
        case CmpKind::GE: return v[0] >= v[1];
      }
      return std::nullopt;
    case ExprKind::And: return std::all_of(v.begin(), v.end(), [](int64_t x) { return x != 0; });
    case ExprKind::Or: return std::any_of(v.begin(), v.end(), [](int64_t x) { return x != 0; });
    case ExprKind::Not: return v[0] == 0;
    case ExprKind::Select: return v[0] != 0 ? v[1] : v[2];
  }
  return std::nullopt;
}

// A random expression over `vars` with its value under `env` computed alongside from the
// operation's definition (nullopt after a division by zero).
struct Built {
  Expr e;
  std::optional<int64_t> value;
};

Built randomExpr(std::mt19937& rng, const std::vector<Expr>& vars, const std::map<const Value*, int64_t>& env,
                 int depth) {
  auto pick = [&](int n) { return int(rng() % unsigned(n)); };
  if (depth == 0 || pick(4) == 0) {
    if (pick(2)) {
      const Expr& x = vars[size_t(pick(int(vars.size())))];
      return {x, env.at(x.var())};
    }
    int64_t c = pick(13) - 4;
    return {Expr::constant(c), c};
  }
  Built a = randomExpr(rng, vars, env, depth - 1);
  Built b = randomExpr(rng, vars, env, depth - 1);
  bool known = a.value && b.value;
  int64_t x = a.value.value_or(0), y = b.value.value_or(0);
  auto floorDiv = [](int64_t p, int64_t q) { return p / q - ((p % q != 0) && ((p < 0) != (q < 0))); };
  auto maybe = [&](bool ok, int64_t v) { return known && ok ? std::optional<int64_t>(v) : std::nullopt; };
  switch (pick(12)) {
    case 0: return {a.e + b.e, maybe(true, x + y)};
    case 1: return {a.e - b.e, maybe(true, x - y)};
    case 2: return {a.e * b.e, maybe(true, x * y)};
    case 3: return {Expr::floorDiv(a.e, b.e), maybe(y != 0, y ? floorDiv(x, y) : 0)};
    case 4: return {Expr::ceilDiv(a.e, b.e), maybe(y != 0, y ? -floorDiv(-x, y) : 0)};
    case 5: return {Expr::mod(a.e, b.e), maybe(y != 0, y ? x - y * floorDiv(x, y) : 0)};
    case 6: return {Expr::min(a.e, b.e), maybe(true, std::min(x, y))};
    case 7: return {Expr::max(a.e, b.e), maybe(true, std::max(x, y))};
    case 8: return {Expr::cmp(CmpKind(pick(6)), a.e, b.e), std::nullopt};
    case 9: return {Expr::logicalAnd(Expr::cmp(CmpKind::LT, a.e, b.e), Expr::cmp(CmpKind::GE, b.e, a.e)),
                    maybe(true, x < y && y >= x)};
    case 10: return {Expr::select(Expr::cmp(CmpKind::LE, a.e, b.e), a.e, b.e), maybe(true, x <= y ? x : y)};
    default: return {Expr::floorDiv(a.e, Expr::constant(4)) * Expr::constant(4) + Expr::mod(a.e, Expr::constant(4)),
                     maybe(true, x)};
  }
}

}  // namespace

TEST_CASE("canonicalization preserves values (seeded random expressions)") {
  Vars v;
  std::vector<Expr> vars{v.S, v.c, v.i, v.j};
  std::mt19937 rng(20261130);
  int checked = 0;
  for (int round = 0; round < 3000; ++round) {
    std::map<const Value*, int64_t> env;
    for (const Expr& x : vars) env[x.var()] = int64_t(rng() % 41) - 20;
    Built b = randomExpr(rng, vars, env, 4);
    if (!b.value) continue;
    auto got = eval(b.e, env);
    if (!got) continue;  // the canonical form kept a division whose divisor is 0 here
    CAPTURE(str(b.e));
    REQUIRE(*got == *b.value);
    CHECK(reparse(str(b.e)) == str(b.e));
    ++checked;
  }
  CHECK(checked > 1000);
}
