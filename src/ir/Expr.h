// Symbolic integer expressions: every shape, offset, valid shape, loop bound and
// condition in the IR is an Expr. Expressions are immutable, shared, and always
// built through the factory functions below, which canonicalize:
//   - constants fold; x+0, x*1, x*0, min(x,x) ... simplify;
//   - sums are flattened into `c0 + c1*t1 + c2*t2 ...` with terms ordered by a
//     deterministic key (Var: the value's id; compound: structural order);
//   - floordiv/mod/ceildiv by constants simplify when the divisor divides every
//     coefficient; min/max fold when one side provably dominates.
// Two canonical expressions that are structurally equal are `==`.
// Boolean expressions (Cmp, And, Or, Not) have value 0 or 1.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilec::ir {

class Value;
class Op;

enum class ExprKind : uint8_t {
  Const,     // integer literal
  Var,       // an SSA value of index/integer/bool type (function arg, loop var, op result)
  Add,       // n-ary sum
  Mul,       // n-ary product
  FloorDiv,  // binary, rounds toward -inf
  CeilDiv,   // binary
  Mod,       // binary, result has the sign of the divisor (floor modulo)
  Min,       // n-ary
  Max,       // n-ary
  Cmp,       // binary comparison, see CmpKind
  And,       // n-ary logical and
  Or,        // n-ary logical or
  Not,       // unary logical not
  Select,    // select(cond, a, b)
};

enum class CmpKind : uint8_t { EQ, NE, LT, LE, GT, GE };

class ExprNode;

class Expr {
 public:
  Expr() = default;  // null expression; only valid() may be called on it
  bool valid() const { return node_ != nullptr; }

  // --- factories (canonicalizing) ---
  static Expr constant(int64_t v);
  static Expr var(const Value* v);
  static Expr add(Expr a, Expr b);
  static Expr sub(Expr a, Expr b);
  static Expr mul(Expr a, Expr b);
  static Expr neg(Expr a);
  static Expr floorDiv(Expr a, Expr b);
  static Expr ceilDiv(Expr a, Expr b);
  static Expr mod(Expr a, Expr b);
  static Expr min(Expr a, Expr b);
  static Expr max(Expr a, Expr b);
  static Expr cmp(CmpKind k, Expr a, Expr b);
  static Expr boolean(bool b);  // a constant known to be a condition (constant(1) is an integer)
  static Expr logicalAnd(Expr a, Expr b);
  static Expr logicalOr(Expr a, Expr b);
  static Expr logicalNot(Expr a);
  static Expr select(Expr c, Expr a, Expr b);

  // --- inspection ---
  ExprKind kind() const;
  bool isConst() const;
  std::optional<int64_t> asConst() const;
  int64_t constValue() const;  // requires isConst()
  const Value* var() const;    // requires kind()==Var
  const std::vector<Expr>& operands() const;
  CmpKind cmpKind() const;     // requires kind()==Cmp
  bool isBool() const;         // Cmp/And/Or/Not, or a constant 0/1 produced by them

  // Structural equality of canonical forms (a sound but incomplete equality proof).
  bool operator==(const Expr& o) const;
  bool operator!=(const Expr& o) const { return !(*this == o); }
  // Total deterministic order (used to sort terms); never depends on addresses.
  static int compare(const Expr& a, const Expr& b);
  size_t hash() const;

  // Rebuilds the expression with each Var replaced by f(var) (or kept when f returns null).
  Expr substitute(const std::function<Expr(const Value*)>& f) const;
  // Every distinct Var in first-occurrence order.
  std::vector<const Value*> vars() const;
  bool dependsOn(const Value* v) const;

  // Prints in the .tir/.tile surface syntax: `min(16, %S - %c)`, `%i * 32 + 4`,
  // `%i == 0`, `select(c, a, b)`, `ceildiv(a, b)`, `a / b` (floordiv), `a % b`.
  // `name(v)` gives the text for a Var (e.g. "%S").
  std::string str(const std::function<std::string(const Value*)>& name) const;

 private:
  explicit Expr(std::shared_ptr<const ExprNode> n) : node_(std::move(n)) {}
  std::shared_ptr<const ExprNode> node_;
  friend class ExprNode;
  friend struct ExprBuilder;
};

// Inclusive integer interval; nullopt means unbounded on that side.
struct Interval {
  std::optional<int64_t> lo, hi;
  bool isConst() const { return lo && hi && *lo == *hi; }
};
using VarRanges = std::function<Interval(const Value*)>;

// The values a loop's induction variable takes, from its bounds (and those of the loops
// around it); at least 0 for a block or sub-block index and 1 for their counts; unbounded
// for any other value. A VarRanges for code that has no list of the
// loops around it.
Interval loopBounds(const Value* v);
// The scf.for whose induction variable `v` is, or null.
const Op* loopOf(const Value* v);

// Bounds of `e` given bounds of its variables (interval arithmetic). Sound.
Interval bounds(const Expr& e, const VarRanges& ranges = nullptr);
// Tries to decide `a k b`; nullopt when it cannot be proven either way.
std::optional<bool> prove(CmpKind k, const Expr& a, const Expr& b,
                          const VarRanges& ranges = nullptr);
// a == b for all variable values (canonical equality, then a-b == 0 by bounds).
bool provablyEqual(const Expr& a, const Expr& b, const VarRanges& ranges = nullptr);

// Convenience operators.
inline Expr operator+(Expr a, Expr b) { return Expr::add(std::move(a), std::move(b)); }
inline Expr operator-(Expr a, Expr b) { return Expr::sub(std::move(a), std::move(b)); }
inline Expr operator*(Expr a, Expr b) { return Expr::mul(std::move(a), std::move(b)); }
inline Expr operator+(Expr a, int64_t b) { return a + Expr::constant(b); }
inline Expr operator*(Expr a, int64_t b) { return a * Expr::constant(b); }

// Product of a list (1 when empty).
Expr product(const std::vector<Expr>& es);
// The constants of a list of integers: a static shape as extents.
std::vector<Expr> constExprs(const std::vector<int64_t>& xs);

}  // namespace tilec::ir
