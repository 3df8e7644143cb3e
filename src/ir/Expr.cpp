// Canonicalizing construction of symbolic integer expressions.
//
// Canonical forms (every factory returns one unless an integer fold would
// overflow, in which case the unfolded node is kept):
//   Add  [k?, t1, t2, ...]  constant k (omitted when 0) first, then at least one
//                           term, terms ordered by their factor lists, distinct;
//   Mul  [c?, f1, f2, ...]  coefficient c (omitted when 1) first, then factors
//                           ordered by Expr::compare; factors are never Const or
//                           Mul; an Add factor is primitive (its coefficients have
//                           gcd 1 and its first term is positive: the content
//                           moves into c);
//   Min/Max                 flattened, at most one constant, no operand provably
//                           dominated by another, ordered by Expr::compare;
//   And/Or                  flattened, no constants, no duplicates, source order.
// Constants distribute over sums (`2 * (a + b)` is `2a + 2b`); any other product
// with a multi-term sum keeps the sum as one factor. Distributing those too would
// make the form depend on the order of association and can blow up the size.
#include "ir/Expr.h"

#include <algorithm>
#include <unordered_set>

#include "ir/IR.h"
#include "ir/OpDefs.h"

namespace tilec::ir {

class ExprNode {
 public:
  ExprKind kind = ExprKind::Const;
  bool boolConst = false;  // a Const produced by folding a boolean expression
  bool raw = false;        // an Add/Mul kept unfolded because a fold overflowed
  CmpKind cmp = CmpKind::EQ;
  int64_t value = 0;
  const Value* var = nullptr;
  std::vector<Expr> ops;
  size_t hash = 0;
};

struct ExprBuilder {
  static Expr make(ExprKind k, std::vector<Expr> ops, int64_t value = 0,
                   const Value* var = nullptr, CmpKind cmp = CmpKind::EQ, bool boolConst = false) {
    auto n = std::make_shared<ExprNode>();
    n->kind = k;
    n->boolConst = boolConst;
    n->cmp = cmp;
    n->value = value;
    n->var = var;
    n->ops = std::move(ops);
    size_t h = size_t(k) * 0x9e3779b97f4a7c15ull;
    auto mix = [&h](size_t x) { h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); };
    mix(std::hash<int64_t>()(value));
    mix(var ? var->id() : 0);
    mix(size_t(cmp));
    for (const Expr& o : n->ops) mix(o.hash());
    n->hash = h;
    return Expr(std::shared_ptr<const ExprNode>(std::move(n)));
  }
  // The unfolded node kept when canonicalizing would overflow; treated as an atom.
  static Expr raw(ExprKind k, std::vector<Expr> ops) {
    Expr e = make(k, std::move(ops));
    const_cast<ExprNode&>(*e.node_).raw = true;
    return e;
  }
  static const ExprNode& node(const Expr& e) { return *e.node_; }
  static const ExprNode* ptr(const Expr& e) { return e.node_.get(); }
};

namespace {

using B = ExprBuilder;

// ---- overflow-checked integer arithmetic ----

std::optional<int64_t> checkedAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

std::optional<int64_t> checkedMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

std::optional<int64_t> floorDivInt(int64_t a, int64_t b) {
  if (b == 0 || (a == INT64_MIN && b == -1)) return std::nullopt;
  int64_t q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;
  return q;
}

std::optional<int64_t> ceilDivInt(int64_t a, int64_t b) {
  if (b == 0 || (a == INT64_MIN && b == -1)) return std::nullopt;
  int64_t q = a / b;
  if (a % b != 0 && ((a < 0) == (b < 0))) ++q;
  return q;
}

std::optional<int64_t> floorModInt(int64_t a, int64_t b) {
  if (b == 0) return std::nullopt;
  if (b == -1) return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

// ---- sum-of-products view of an expression ----

struct Term {
  std::vector<Expr> factors;  // sorted, non-empty
  int64_t coef = 1;
};

struct Sum {
  int64_t constant = 0;
  std::vector<Term> terms;  // sorted by factors, distinct, non-zero coefficients
  bool isSingleTerm() const { return constant == 0 && terms.size() == 1; }
};

int compareFactors(const std::vector<Expr>& a, const std::vector<Expr>& b) {
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i)
    if (int c = Expr::compare(a[i], b[i])) return c;
  return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}

bool isRaw(const Expr& e) { return B::node(e).raw; }

Term toTerm(const Expr& e) {
  if (e.kind() != ExprKind::Mul || isRaw(e)) return {{e}, 1};
  const auto& ops = e.operands();
  Term t;
  size_t first = 0;
  if (ops[0].isConst()) {
    t.coef = ops[0].constValue();
    first = 1;
  }
  t.factors.assign(ops.begin() + long(first), ops.end());
  return t;
}

Sum toSum(const Expr& e) {
  Sum s;
  if (e.isConst()) {
    s.constant = e.constValue();
    return s;
  }
  if (e.kind() != ExprKind::Add || isRaw(e)) {
    s.terms.push_back(toTerm(e));
    return s;
  }
  for (const Expr& o : e.operands()) {
    if (o.isConst())
      s.constant = o.constValue();
    else
      s.terms.push_back(toTerm(o));
  }
  return s;
}

Expr fromTerm(const Term& t) {
  if (t.coef == 1 && t.factors.size() == 1) return t.factors[0];
  std::vector<Expr> ops;
  if (t.coef != 1) ops.push_back(Expr::constant(t.coef));
  ops.insert(ops.end(), t.factors.begin(), t.factors.end());
  return B::make(ExprKind::Mul, std::move(ops));
}

Expr fromSum(const Sum& s) {
  if (s.terms.empty()) return Expr::constant(s.constant);
  if (s.constant == 0 && s.terms.size() == 1) return fromTerm(s.terms[0]);
  std::vector<Expr> ops;
  if (s.constant != 0) ops.push_back(Expr::constant(s.constant));
  for (const Term& t : s.terms) ops.push_back(fromTerm(t));
  return B::make(ExprKind::Add, std::move(ops));
}

// Merges two sorted term lists, adding coefficients of equal monomials.
std::optional<Sum> addSums(const Sum& a, const Sum& b) {
  Sum r;
  auto k = checkedAdd(a.constant, b.constant);
  if (!k) return std::nullopt;
  r.constant = *k;
  size_t i = 0, j = 0;
  while (i < a.terms.size() || j < b.terms.size()) {
    int c = i == a.terms.size()   ? 1
            : j == b.terms.size() ? -1
                                  : compareFactors(a.terms[i].factors, b.terms[j].factors);
    if (c < 0) {
      r.terms.push_back(a.terms[i++]);
    } else if (c > 0) {
      r.terms.push_back(b.terms[j++]);
    } else {
      auto coef = checkedAdd(a.terms[i].coef, b.terms[j].coef);
      if (!coef) return std::nullopt;
      if (*coef != 0) r.terms.push_back({a.terms[i].factors, *coef});
      ++i, ++j;
    }
  }
  return r;
}

std::optional<Sum> scaleSum(const Sum& s, int64_t c) {
  Sum r;
  if (c == 0) return r;
  auto k = checkedMul(s.constant, c);
  if (!k) return std::nullopt;
  r.constant = *k;
  for (const Term& t : s.terms) {
    auto coef = checkedMul(t.coef, c);
    if (!coef) return std::nullopt;
    r.terms.push_back({t.factors, *coef});
  }
  return r;
}

std::optional<Term> mulTerms(const Term& a, const Term& b) {
  auto coef = checkedMul(a.coef, b.coef);
  if (!coef) return std::nullopt;
  Term t;
  t.coef = *coef;
  t.factors.reserve(a.factors.size() + b.factors.size());
  std::merge(a.factors.begin(), a.factors.end(), b.factors.begin(), b.factors.end(),
             std::back_inserter(t.factors),
             [](const Expr& x, const Expr& y) { return Expr::compare(x, y) < 0; });
  return t;
}

uint64_t gcd(uint64_t a, uint64_t b) {
  while (b) {
    uint64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

uint64_t magnitude(int64_t x) { return x < 0 ? uint64_t(0) - uint64_t(x) : uint64_t(x); }

// `s` as one term of a product: itself when it is a monomial, else its primitive part
// (coefficients divided by their gcd, first term positive) as a factor with the
// content as the coefficient, so that 2a + 2b and a + b differ only in coefficient.
Term asFactorTerm(const Expr& e, const Sum& s) {
  if (s.isSingleTerm()) return s.terms[0];
  uint64_t g = magnitude(s.constant);
  bool hasMin = s.constant == INT64_MIN;  // cannot be negated
  for (const Term& t : s.terms) {
    g = gcd(g, magnitude(t.coef));
    hasMin = hasMin || t.coef == INT64_MIN;
  }
  bool negate = s.terms[0].coef < 0;
  if (hasMin || (g == 1 && !negate)) return {{e}, 1};
  int64_t content = negate ? -int64_t(g) : int64_t(g);
  Sum primitive;
  primitive.constant = s.constant / content;
  for (const Term& t : s.terms) primitive.terms.push_back({t.factors, t.coef / content});
  return {{fromSum(primitive)}, content};
}

// Splits `s` into the part whose coefficients `c` divides (divided by c) and the rest.
struct DivSplit {
  Sum quotient;  // terms with coefficients divisible by c, divided by c
  Sum rest;      // the other terms (constant left 0)
};

DivSplit splitDivisible(const Sum& s, int64_t c) {
  DivSplit d;
  for (const Term& t : s.terms) {
    if (t.coef % c == 0)
      d.quotient.terms.push_back({t.factors, t.coef / c});
    else
      d.rest.terms.push_back(t);
  }
  return d;
}

bool within(const Interval& i, int64_t lo, int64_t hi) {
  return i.lo && i.hi && *i.lo >= lo && *i.hi <= hi;
}

// ---- interval arithmetic ----

using Bound = std::optional<int64_t>;

Bound addBound(Bound a, Bound b) { return a && b ? checkedAdd(*a, *b) : std::nullopt; }

Interval addIntervals(const Interval& a, const Interval& b) {
  return {addBound(a.lo, b.lo), addBound(a.hi, b.hi)};
}

bool excludesZero(const Interval& i) { return (i.lo && *i.lo > 0) || (i.hi && *i.hi < 0); }
bool isZero(const Interval& i) { return i.isConst() && *i.lo == 0; }

Interval scaleInterval(const Interval& a, int64_t c) {
  Bound lo = a.lo ? checkedMul(*a.lo, c) : std::nullopt;
  Bound hi = a.hi ? checkedMul(*a.hi, c) : std::nullopt;
  if (c < 0) std::swap(lo, hi);
  // A missing side stays missing, but an overflowing fold must not pretend to be bounded.
  return {lo, hi};
}

// min/max over the four corner values of f(a-bound, b-bound); nullopt if any is missing.
template <class F>
Interval corners(const Interval& a, const Interval& b, F f) {
  if (!a.lo || !a.hi || !b.lo || !b.hi) return {};
  Bound vals[4] = {f(*a.lo, *b.lo), f(*a.lo, *b.hi), f(*a.hi, *b.lo), f(*a.hi, *b.hi)};
  Interval r;
  for (const Bound& v : vals) {
    if (!v) return {};
    r.lo = r.lo ? std::min(*r.lo, *v) : *v;
    r.hi = r.hi ? std::max(*r.hi, *v) : *v;
  }
  return r;
}

Interval mulIntervals(const Interval& a, const Interval& b) {
  if (isZero(a) || isZero(b)) return {0, 0};
  if (a.isConst()) return scaleInterval(b, *a.lo);
  if (b.isConst()) return scaleInterval(a, *b.lo);
  if (a.lo && b.lo && *a.lo >= 0 && *b.lo >= 0) {
    Bound lo = checkedMul(*a.lo, *b.lo);
    Bound hi = a.hi && b.hi ? checkedMul(*a.hi, *b.hi) : std::nullopt;
    return {lo, hi};
  }
  return corners(a, b, checkedMul);
}

// Rounded division by a divisor interval that does not contain zero. Real division is
// monotone in each argument on such a box, and rounding is monotone, so the corners
// bound it; a constant positive divisor also handles a half-open numerator.
template <class DivFn>
Interval divIntervals(const Interval& a, const Interval& b, DivFn div) {
  if (!excludesZero(b)) return {};
  if (b.isConst() && *b.lo > 0) {
    int64_t c = *b.lo;
    return {a.lo ? div(*a.lo, c) : std::nullopt, a.hi ? div(*a.hi, c) : std::nullopt};
  }
  return corners(a, b, div);
}

Interval modInterval(const Interval& a, const Interval& b) {
  if (b.lo && *b.lo > 0) {
    if (a.lo && *a.lo >= 0 && a.hi && *a.hi < *b.lo) return a;
    if (b.hi) return {0, *b.hi - 1};
    return {0, std::nullopt};
  }
  if (b.hi && *b.hi < 0) {
    if (b.lo) return {*b.lo + 1, 0};
    return {std::nullopt, 0};
  }
  return {};
}

Interval minMaxInterval(const std::vector<Interval>& is, bool isMin) {
  // For min: lo is the least lo (unbounded if any is), hi the least known hi.
  Interval r;
  bool looseUnbounded = false;
  for (const Interval& i : is) {
    const Bound& tight = isMin ? i.hi : i.lo;  // the side one operand can bound alone
    const Bound& loose = isMin ? i.lo : i.hi;  // the side every operand must bound
    Bound& rt = isMin ? r.hi : r.lo;
    Bound& rl = isMin ? r.lo : r.hi;
    if (tight) rt = rt ? (isMin ? std::min(*rt, *tight) : std::max(*rt, *tight)) : *tight;
    if (!loose)
      looseUnbounded = true;
    else
      rl = rl ? (isMin ? std::min(*rl, *loose) : std::max(*rl, *loose)) : *loose;
  }
  if (looseUnbounded) (isMin ? r.lo : r.hi) = std::nullopt;
  return r;
}

Interval boolInterval(std::optional<bool> known) {
  if (known) return {int64_t(*known), int64_t(*known)};
  return {0, 1};
}

std::optional<bool> decide(CmpKind k, const Interval& d) {
  switch (k) {
    case CmpKind::EQ:
      if (isZero(d)) return true;
      if (excludesZero(d)) return false;
      return std::nullopt;
    case CmpKind::NE:
      if (isZero(d)) return false;
      if (excludesZero(d)) return true;
      return std::nullopt;
    case CmpKind::LT:
      if (d.hi && *d.hi < 0) return true;
      if (d.lo && *d.lo >= 0) return false;
      return std::nullopt;
    case CmpKind::LE:
      if (d.hi && *d.hi <= 0) return true;
      if (d.lo && *d.lo > 0) return false;
      return std::nullopt;
    case CmpKind::GT:
      if (d.lo && *d.lo > 0) return true;
      if (d.hi && *d.hi <= 0) return false;
      return std::nullopt;
    case CmpKind::GE:
      if (d.lo && *d.lo >= 0) return true;
      if (d.hi && *d.hi < 0) return false;
      return std::nullopt;
  }
  return std::nullopt;
}

CmpKind invert(CmpKind k) {
  switch (k) {
    case CmpKind::EQ: return CmpKind::NE;
    case CmpKind::NE: return CmpKind::EQ;
    case CmpKind::LT: return CmpKind::GE;
    case CmpKind::LE: return CmpKind::GT;
    case CmpKind::GT: return CmpKind::LE;
    case CmpKind::GE: return CmpKind::LT;
  }
  return k;
}

// ---- min / max / and / or ----

void flattenInto(ExprKind k, const Expr& e, std::vector<Expr>& out) {
  if (e.kind() == k)
    out.insert(out.end(), e.operands().begin(), e.operands().end());
  else
    out.push_back(e);
}

// Quadratic in the operand count (each candidate is compared with every kept operand);
// min/max operand lists are a handful of extents.
Expr minMax(ExprKind k, const Expr& a, const Expr& b) {
  const bool isMin = k == ExprKind::Min;
  std::vector<Expr> ops;
  flattenInto(k, a, ops);
  flattenInto(k, b, ops);
  std::sort(ops.begin(), ops.end(), [](const Expr& x, const Expr& y) { return Expr::compare(x, y) < 0; });
  // `x` makes `y` redundant when x <= y (min) or x >= y (max) always holds.
  auto dominates = [&](const Expr& x, const Expr& y) {
    return prove(isMin ? CmpKind::LE : CmpKind::GE, x, y) == std::optional<bool>(true);
  };
  std::vector<Expr> kept;
  for (const Expr& x : ops) {
    if (std::any_of(kept.begin(), kept.end(), [&](const Expr& k2) { return dominates(k2, x); }))
      continue;
    kept.erase(std::remove_if(kept.begin(), kept.end(), [&](const Expr& k2) { return dominates(x, k2); }),
               kept.end());
    kept.push_back(x);
  }
  if (kept.size() == 1) return kept[0];
  return B::make(k, std::move(kept));
}

// Turns a non-boolean operand of a logical op into `x != 0`, keeping values 0/1.
Expr asBool(const Expr& e) { return e.isBool() ? e : Expr::cmp(CmpKind::NE, e, Expr::constant(0)); }

Expr logical(ExprKind k, const Expr& a, const Expr& b) {
  const bool isAnd = k == ExprKind::And;
  std::vector<Expr> flat;
  flattenInto(k, a, flat);
  flattenInto(k, b, flat);
  std::vector<Expr> kept;
  for (const Expr& x : flat) {
    if (auto c = x.asConst()) {
      if ((*c != 0) != isAnd) return Expr::boolean(!isAnd);  // false && .., true || ..
      continue;
    }
    if (std::find(kept.begin(), kept.end(), x) == kept.end()) kept.push_back(x);
  }
  if (kept.empty()) return Expr::boolean(isAnd);
  if (kept.size() == 1) return asBool(kept[0]);
  return B::make(k, std::move(kept));
}

// Builds a node of kind `k` from (already canonical) operands through the factories.
Expr rebuild(const Expr& e, std::vector<Expr> ops) {
  switch (e.kind()) {
    case ExprKind::Const:
    case ExprKind::Var:
      return e;
    case ExprKind::Add: {
      Expr r = ops[0];
      for (size_t i = 1; i < ops.size(); ++i) r = Expr::add(r, ops[i]);
      return r;
    }
    case ExprKind::Mul: return product(ops);
    case ExprKind::FloorDiv: return Expr::floorDiv(ops[0], ops[1]);
    case ExprKind::CeilDiv: return Expr::ceilDiv(ops[0], ops[1]);
    case ExprKind::Mod: return Expr::mod(ops[0], ops[1]);
    case ExprKind::Min:
    case ExprKind::Max:
    case ExprKind::And:
    case ExprKind::Or: {
      Expr r = ops[0];
      for (size_t i = 1; i < ops.size(); ++i) {
        switch (e.kind()) {
          case ExprKind::Min: r = Expr::min(r, ops[i]); break;
          case ExprKind::Max: r = Expr::max(r, ops[i]); break;
          case ExprKind::And: r = Expr::logicalAnd(r, ops[i]); break;
          default: r = Expr::logicalOr(r, ops[i]); break;
        }
      }
      return r;
    }
    case ExprKind::Cmp: return Expr::cmp(e.cmpKind(), ops[0], ops[1]);
    case ExprKind::Not: return Expr::logicalNot(ops[0]);
    case ExprKind::Select: return Expr::select(ops[0], ops[1], ops[2]);
  }
  return e;
}

// ---- printing ----

// Binding strength, loosest first; a child binding looser than its context gets parentheses.
enum Prec : int { POr = 1, PAnd, PCmp, PAdd, PMul, PUnary, PAtom };

const char* cmpSpelling(CmpKind k) {
  switch (k) {
    case CmpKind::EQ: return "==";
    case CmpKind::NE: return "!=";
    case CmpKind::LT: return "<";
    case CmpKind::LE: return "<=";
    case CmpKind::GT: return ">";
    case CmpKind::GE: return ">=";
  }
  return "==";
}

class ExprPrinter {
 public:
  explicit ExprPrinter(const std::function<std::string(const Value*)>& name) : name_(name) {}

  // Text of `e` and the precedence of its outermost operator.
  std::pair<std::string, int> print(const Expr& e) {
    switch (e.kind()) {
      case ExprKind::Const: {
        const ExprNode& n = B::node(e);
        if (n.boolConst) return {n.value ? "true" : "false", PAtom};
        return {std::to_string(n.value), n.value < 0 ? PUnary : PAtom};
      }
      case ExprKind::Var: return {name_(e.var()), PAtom};
      case ExprKind::Add: return printSum(e);
      case ExprKind::Mul: return printProduct(e);
      case ExprKind::FloorDiv: return binary(e, " / ", PMul);
      case ExprKind::Mod: return binary(e, " % ", PMul);
      case ExprKind::CeilDiv: return call("ceildiv", e.operands());
      case ExprKind::Min: return nestedCall("min", e.operands(), 0);
      case ExprKind::Max: return nestedCall("max", e.operands(), 0);
      case ExprKind::Cmp: return binary(e, std::string(" ") + cmpSpelling(e.cmpKind()) + " ", PCmp, true);
      case ExprKind::And: return chain(e.operands(), " && ", PAnd);
      case ExprKind::Or: return chain(e.operands(), " || ", POr);
      case ExprKind::Not: return {"!" + operand(e.operands()[0], PUnary, false), PUnary};
      case ExprKind::Select: return call("select", e.operands());
    }
    return {"?", PAtom};
  }

 private:
  // `e` printed as an operand of an operator of precedence `p`; right operands (and
  // non-associative ones) need parentheses at equal precedence too.
  std::string operand(const Expr& e, int p, bool strict) {
    auto [s, q] = print(e);
    return (q < p || (strict && q == p)) ? "(" + s + ")" : s;
  }

  std::pair<std::string, int> binary(const Expr& e, const std::string& op, int p,
                                     bool nonAssoc = false) {
    return {operand(e.operands()[0], p, nonAssoc) + op + operand(e.operands()[1], p, true), p};
  }

  std::pair<std::string, int> chain(const std::vector<Expr>& ops, const char* sep, int p) {
    std::string s;
    for (size_t i = 0; i < ops.size(); ++i) s += (i ? sep : "") + operand(ops[i], p, i > 0);
    return {s, p};
  }

  std::pair<std::string, int> call(const char* fn, const std::vector<Expr>& ops) {
    std::string s = std::string(fn) + "(";
    for (size_t i = 0; i < ops.size(); ++i) s += (i ? ", " : "") + print(ops[i]).first;
    return {s + ")", PAtom};
  }

  // n-ary min/max as nested binary calls, the spelling the .tile language has.
  std::pair<std::string, int> nestedCall(const char* fn, const std::vector<Expr>& ops, size_t i) {
    if (i + 1 == ops.size()) return print(ops[i]);
    return {std::string(fn) + "(" + print(ops[i]).first + ", " + nestedCall(fn, ops, i + 1).first + ")",
            PAtom};
  }

  // Factors joined by " * ", then the coefficient text (if any).
  std::string factorsText(const std::vector<Expr>& factors, const std::string& coefText) {
    std::string s;
    for (size_t i = 0; i < factors.size(); ++i) s += (i ? " * " : "") + operand(factors[i], PMul, i > 0);
    if (!coefText.empty()) s += (s.empty() ? "" : " * ") + coefText;
    return s;
  }

  std::pair<std::string, int> printProduct(const Expr& e) {
    if (isRaw(e)) return chain(e.operands(), " * ", PMul);
    Term t = toTerm(e);
    if (t.coef == -1) {
      if (t.factors.size() == 1) return {"-" + operand(t.factors[0], PUnary, false), PUnary};
      return {"-(" + factorsText(t.factors, "") + ")", PUnary};
    }
    return {factorsText(t.factors, t.coef == 1 ? "" : std::to_string(t.coef)), PMul};
  }

  // Positive terms first, then negative ones, so `16 - %c` and `%S - %c + 1` read naturally.
  std::pair<std::string, int> printSum(const Expr& e) {
    if (isRaw(e)) return chain(e.operands(), " + ", PAdd);
    std::vector<Term> pos, neg;
    std::optional<int64_t> constant;
    for (const Expr& o : e.operands()) {
      if (o.isConst()) {
        constant = o.constValue();
        continue;
      }
      Term t = toTerm(o);
      (t.coef < 0 && t.coef != INT64_MIN ? neg : pos).push_back(t);
    }
    std::string s;
    bool constFirst = pos.empty() && constant && *constant > 0;
    if (constFirst) s = std::to_string(*constant);
    for (const Term& t : pos) s += s.empty() ? operand(fromTerm(t), PAdd, false) : " + " + operand(fromTerm(t), PAdd, true);
    for (const Term& t : neg) {
      if (s.empty())
        s = operand(fromTerm(t), PAdd, false);
      else
        s += " - " + operand(fromTerm({t.factors, -t.coef}), PAdd, true);
    }
    if (constant && !constFirst) {
      if (*constant < 0 && *constant != INT64_MIN)
        s += " - " + std::to_string(-*constant);
      else
        s += " + " + operand(Expr::constant(*constant), PAdd, true);
    }
    return {s, PAdd};
  }

  const std::function<std::string(const Value*)>& name_;
};

}  // namespace

// ---- factories ----

// Small constants (offsets, extents, steps) are most of the constants a program has: they
// share one node each instead of allocating one per use. Nodes are immutable, so sharing
// is invisible.
Expr Expr::constant(int64_t v) {
  constexpr int64_t kLeast = -16, kEnd = 1024;
  static const std::vector<Expr> shared = [] {
    std::vector<Expr> table;
    for (int64_t c = kLeast; c < kEnd; ++c) table.push_back(B::make(ExprKind::Const, {}, c));
    return table;
  }();
  if (v >= kLeast && v < kEnd) return shared[size_t(v - kLeast)];
  return B::make(ExprKind::Const, {}, v);
}

Expr Expr::var(const Value* v) { return B::make(ExprKind::Var, {}, 0, v); }

Expr Expr::add(Expr a, Expr b) {
  auto s = addSums(toSum(a), toSum(b));
  if (!s) return B::raw(ExprKind::Add, {a, b});
  return fromSum(*s);
}

Expr Expr::sub(Expr a, Expr b) { return add(std::move(a), neg(std::move(b))); }

Expr Expr::neg(Expr a) { return mul(std::move(a), constant(-1)); }

Expr Expr::mul(Expr a, Expr b) {
  if (b.isConst()) std::swap(a, b);
  if (a.isConst()) {
    if (a.constValue() == 1) return b;
    auto s = scaleSum(toSum(b), a.constValue());
    if (!s) return B::raw(ExprKind::Mul, {a, b});
    return fromSum(*s);
  }
  auto t = mulTerms(asFactorTerm(a, toSum(a)), asFactorTerm(b, toSum(b)));
  if (!t) return B::raw(ExprKind::Mul, {a, b});
  return fromTerm(*t);
}

Expr Expr::floorDiv(Expr a, Expr b) {
  auto c = b.asConst();
  if (!c || *c == 0) return B::make(ExprKind::FloorDiv, {a, b});
  if (auto k = a.asConst()) {
    if (auto q = floorDivInt(*k, *c)) return constant(*q);
    return B::make(ExprKind::FloorDiv, {a, b});
  }
  if (*c == 1) return a;
  if (*c < 0) return B::make(ExprKind::FloorDiv, {a, b});
  // a = c*Q + R + k with k = c*kq + kr, 0 <= kr < c: floor(a/c) = Q + kq + floor((R + kr)/c).
  Sum s = toSum(a);
  DivSplit d = splitDivisible(s, *c);
  int64_t kq = *floorDivInt(s.constant, *c), kr = *floorModInt(s.constant, *c);
  Expr q = add(fromSum(d.quotient), constant(kq));
  if (d.rest.terms.empty()) return q;
  d.rest.constant = kr;
  Expr rest = fromSum(d.rest);
  if (within(bounds(rest), 0, *c - 1)) return q;
  Expr inner = B::make(ExprKind::FloorDiv, {rest, b});
  // floor(floor(x / c1) / c) = floor(x / (c1 * c)) for positive divisors.
  if (kr == 0 && rest.kind() == ExprKind::FloorDiv) {
    auto c1 = rest.operands()[1].asConst();
    if (c1 && *c1 > 0)
      if (auto prod = checkedMul(*c1, *c)) inner = floorDiv(rest.operands()[0], constant(*prod));
  }
  return add(q, inner);
}

Expr Expr::ceilDiv(Expr a, Expr b) {
  auto c = b.asConst();
  if (!c || *c == 0) return B::make(ExprKind::CeilDiv, {a, b});
  if (auto k = a.asConst()) {
    if (auto q = ceilDivInt(*k, *c)) return constant(*q);
    return B::make(ExprKind::CeilDiv, {a, b});
  }
  if (*c == 1) return a;
  if (*c < 0) return B::make(ExprKind::CeilDiv, {a, b});
  // a = c*Q + R + c*kq + kr: ceil(a/c) = Q + kq + ceil((R + kr)/c).
  Sum s = toSum(a);
  DivSplit d = splitDivisible(s, *c);
  int64_t kq = *floorDivInt(s.constant, *c), kr = *floorModInt(s.constant, *c);
  if (d.rest.terms.empty()) return add(fromSum(d.quotient), constant(*ceilDivInt(s.constant, *c)));
  Expr q = add(fromSum(d.quotient), constant(kq));
  d.rest.constant = kr;
  Expr rest = fromSum(d.rest);
  Interval r = bounds(rest);
  if (within(r, 1, *c)) return add(q, constant(1));
  if (within(r, 1 - *c, 0)) return q;
  return add(q, B::make(ExprKind::CeilDiv, {rest, b}));
}

Expr Expr::mod(Expr a, Expr b) {
  auto c = b.asConst();
  if (!c || *c == 0) return B::make(ExprKind::Mod, {a, b});
  if (auto k = a.asConst()) return constant(*floorModInt(*k, *c));
  if (*c == 1 || *c == -1) return constant(0);
  if (*c < 0) return B::make(ExprKind::Mod, {a, b});
  Sum s = toSum(a);
  DivSplit d = splitDivisible(s, *c);
  d.rest.constant = *floorModInt(s.constant, *c);
  Expr rest = fromSum(d.rest);
  if (rest.isConst() || within(bounds(rest), 0, *c - 1)) return rest;
  return B::make(ExprKind::Mod, {rest, b});
}

Expr Expr::min(Expr a, Expr b) { return minMax(ExprKind::Min, a, b); }
Expr Expr::max(Expr a, Expr b) { return minMax(ExprKind::Max, a, b); }

Expr Expr::boolean(bool b) { return B::make(ExprKind::Const, {}, b ? 1 : 0, nullptr, CmpKind::EQ, true); }

Expr Expr::cmp(CmpKind k, Expr a, Expr b) {
  if (auto r = prove(k, a, b)) return Expr::boolean(*r);
  return B::make(ExprKind::Cmp, {a, b}, 0, nullptr, k);
}

Expr Expr::logicalAnd(Expr a, Expr b) { return logical(ExprKind::And, a, b); }
Expr Expr::logicalOr(Expr a, Expr b) { return logical(ExprKind::Or, a, b); }

Expr Expr::logicalNot(Expr a) {
  if (auto c = a.asConst()) return Expr::boolean(*c == 0);
  switch (a.kind()) {
    case ExprKind::Not: return asBool(a.operands()[0]);
    case ExprKind::Cmp: return cmp(invert(a.cmpKind()), a.operands()[0], a.operands()[1]);
    default: return B::make(ExprKind::Not, {a});
  }
}

Expr Expr::select(Expr c, Expr a, Expr b) {
  if (auto k = c.asConst()) return *k != 0 ? a : b;
  if (a == b) return a;
  return B::make(ExprKind::Select, {c, a, b});
}

std::vector<Expr> constExprs(const std::vector<int64_t>& xs) {
  std::vector<Expr> out;
  out.reserve(xs.size());
  for (int64_t x : xs) out.push_back(Expr::constant(x));
  return out;
}

Expr product(const std::vector<Expr>& es) {
  Expr r = Expr::constant(1);
  for (const Expr& e : es) r = r * e;
  return r;
}

// ---- inspection ----

ExprKind Expr::kind() const { return node_->kind; }
bool Expr::isConst() const { return node_->kind == ExprKind::Const; }
std::optional<int64_t> Expr::asConst() const {
  if (!isConst()) return std::nullopt;
  return node_->value;
}
int64_t Expr::constValue() const { return node_->value; }
const Value* Expr::var() const { return node_->var; }
const std::vector<Expr>& Expr::operands() const { return node_->ops; }
CmpKind Expr::cmpKind() const { return node_->cmp; }

bool Expr::isBool() const {
  switch (kind()) {
    case ExprKind::Cmp:
    case ExprKind::And:
    case ExprKind::Or:
    case ExprKind::Not:
      return true;
    case ExprKind::Const: return node_->boolConst;
    case ExprKind::Var: return node_->var->type().isScalar() && node_->var->type().dtype() == DType::Bool;
    case ExprKind::Select: return operands()[1].isBool() && operands()[2].isBool();
    default: return false;
  }
}

bool Expr::operator==(const Expr& o) const {
  if (!valid() || !o.valid()) return valid() == o.valid();
  return compare(*this, o) == 0;
}

int Expr::compare(const Expr& a, const Expr& b) {
  if (!a.valid() || !b.valid()) return int(a.valid()) - int(b.valid());
  const ExprNode* x = B::ptr(a);
  const ExprNode* y = B::ptr(b);
  if (x == y) return 0;
  if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
  switch (x->kind) {
    case ExprKind::Const: return x->value < y->value ? -1 : x->value > y->value ? 1 : 0;
    case ExprKind::Var: {
      uint32_t i = x->var->id(), j = y->var->id();
      return i < j ? -1 : i > j ? 1 : 0;
    }
    case ExprKind::Cmp:
      if (x->cmp != y->cmp) return x->cmp < y->cmp ? -1 : 1;
      break;
    default:
      break;
  }
  return compareFactors(x->ops, y->ops);
}

size_t Expr::hash() const { return node_ ? node_->hash : 0; }

Expr Expr::substitute(const std::function<Expr(const Value*)>& f) const {
  if (kind() == ExprKind::Var) {
    Expr r = f(var());
    return r.valid() ? r : *this;
  }
  if (operands().empty()) return *this;
  std::vector<Expr> ops;
  ops.reserve(operands().size());
  bool changed = false;
  for (const Expr& o : operands()) {
    ops.push_back(o.substitute(f));
    changed = changed || B::ptr(ops.back()) != B::ptr(o);
  }
  return changed ? rebuild(*this, std::move(ops)) : *this;
}

namespace {
void collectVars(const Expr& e, std::vector<const Value*>& out, std::unordered_set<const Value*>& seen) {
  if (e.kind() == ExprKind::Var) {
    if (seen.insert(e.var()).second) out.push_back(e.var());
    return;
  }
  for (const Expr& o : e.operands()) collectVars(o, out, seen);
}
}  // namespace

std::vector<const Value*> Expr::vars() const {
  std::vector<const Value*> out;
  std::unordered_set<const Value*> seen;
  collectVars(*this, out, seen);
  return out;
}

bool Expr::dependsOn(const Value* v) const {
  if (kind() == ExprKind::Var) return var() == v;
  return std::any_of(operands().begin(), operands().end(), [&](const Expr& o) { return o.dependsOn(v); });
}

std::string Expr::str(const std::function<std::string(const Value*)>& name) const {
  return ExprPrinter(name).print(*this).first;
}

// ---- bounds and proofs ----

Interval bounds(const Expr& e, const VarRanges& ranges) {
  const auto& ops = e.operands();
  switch (e.kind()) {
    case ExprKind::Const: return {e.constValue(), e.constValue()};
    case ExprKind::Var: return ranges ? ranges(e.var()) : Interval{};
    case ExprKind::Add: {
      Interval r{0, 0};
      for (const Expr& o : ops) r = addIntervals(r, bounds(o, ranges));
      return r;
    }
    case ExprKind::Mul: {
      Interval r{1, 1};
      for (const Expr& o : ops) r = mulIntervals(r, bounds(o, ranges));
      return r;
    }
    case ExprKind::FloorDiv: return divIntervals(bounds(ops[0], ranges), bounds(ops[1], ranges), floorDivInt);
    case ExprKind::CeilDiv: return divIntervals(bounds(ops[0], ranges), bounds(ops[1], ranges), ceilDivInt);
    case ExprKind::Mod: return modInterval(bounds(ops[0], ranges), bounds(ops[1], ranges));
    case ExprKind::Min:
    case ExprKind::Max: {
      std::vector<Interval> is;
      for (const Expr& o : ops) is.push_back(bounds(o, ranges));
      return minMaxInterval(is, e.kind() == ExprKind::Min);
    }
    case ExprKind::Cmp: return boolInterval(prove(e.cmpKind(), ops[0], ops[1], ranges));
    case ExprKind::And: {
      bool allTrue = true;
      for (const Expr& o : ops) {
        Interval i = bounds(o, ranges);
        if (isZero(i)) return {0, 0};
        allTrue = allTrue && excludesZero(i);
      }
      return allTrue ? Interval{1, 1} : Interval{0, 1};
    }
    case ExprKind::Or: {
      bool allFalse = true;
      for (const Expr& o : ops) {
        Interval i = bounds(o, ranges);
        if (excludesZero(i)) return {1, 1};
        allFalse = allFalse && isZero(i);
      }
      return allFalse ? Interval{0, 0} : Interval{0, 1};
    }
    case ExprKind::Not: {
      Interval i = bounds(ops[0], ranges);
      if (isZero(i)) return {1, 1};
      if (excludesZero(i)) return {0, 0};
      return {0, 1};
    }
    case ExprKind::Select: {
      Interval c = bounds(ops[0], ranges);
      Interval a = bounds(ops[1], ranges), b = bounds(ops[2], ranges);
      if (excludesZero(c)) return a;
      if (isZero(c)) return b;
      Interval r;
      if (a.lo && b.lo) r.lo = std::min(*a.lo, *b.lo);
      if (a.hi && b.hi) r.hi = std::max(*a.hi, *b.hi);
      return r;
    }
  }
  return {};
}

std::optional<bool> prove(CmpKind k, const Expr& a, const Expr& b, const VarRanges& ranges) {
  if (a == b) return k == CmpKind::EQ || k == CmpKind::LE || k == CmpKind::GE;
  return decide(k, bounds(Expr::sub(a, b), ranges));
}

bool provablyEqual(const Expr& a, const Expr& b, const VarRanges& ranges) {
  return a == b || prove(CmpKind::EQ, a, b, ranges) == std::optional<bool>(true);
}

const Op* loopOf(const Value* v) {
  const Block* body = v->ownerBlock();
  const Op* loop = body ? body->parentOp() : nullptr;
  return loop && loop->kind() == OpKind::For && loop->body().arg(0) == v ? loop : nullptr;
}

Interval loopBounds(const Value* v) {
  if (const Op* def = v->definingOp(); def && opInfo(def->kind()).group == OpGroup::Launch) {
    const bool count = def->kind() == OpKind::BlockNum || def->kind() == OpKind::SubblockNum;
    return {count ? 1 : 0, std::nullopt};  // an index is at least 0, a count at least 1
  }
  const Op* loop = loopOf(v);
  if (!loop) return {};
  const Interval lb = bounds(loop->get(attr::lb), loopBounds), ub = bounds(loop->get(attr::ub), loopBounds);
  return {lb.lo, ub.hi ? std::optional<int64_t>(*ub.hi - 1) : std::nullopt};
}

}  // namespace tilec::ir
