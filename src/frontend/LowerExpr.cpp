// Expressions: names, literals, operators on integers, booleans, float constants
// and tiles; conversions between value kinds; building single ops through the op
// table so every type rule lives in one place (ir/OpDefs.cpp).
#include <cctype>
#include <cmath>
#include <stdexcept>

#include "frontend/Lowering.h"
#include "ir/Builder.h"
#include "ir/Describe.h"
#include "support/Wording.h"

namespace tilec::frontend {
namespace {

using ast::BinaryOp;

bool isComparison(BinaryOp op) { return op >= BinaryOp::Eq && op <= BinaryOp::Ge; }
bool isLogical(BinaryOp op) { return op == BinaryOp::And || op == BinaryOp::Or; }
bool isBitwise(BinaryOp op) { return op >= BinaryOp::BitAnd; }  // & | ^ << >> are the last five
bool isShift(BinaryOp op) { return op == BinaryOp::Shl || op == BinaryOp::Shr; }

// The switches over operators name every one (so a new operator is a compile error until
// each decides what it means); an operator that binary() routes elsewhere and still
// reaches one is a compiler bug.
[[noreturn]] void misrouted(BinaryOp op, const char* where) {
  throw std::logic_error(std::string("operator '") + ast::spelling(op) + "' reached " + where);
}

ir::CmpKind cmpKind(BinaryOp op) {
  switch (op) {
    case BinaryOp::Eq: return ir::CmpKind::EQ;
    case BinaryOp::Ne: return ir::CmpKind::NE;
    case BinaryOp::Lt: return ir::CmpKind::LT;
    case BinaryOp::Le: return ir::CmpKind::LE;
    case BinaryOp::Gt: return ir::CmpKind::GT;
    case BinaryOp::Ge: return ir::CmpKind::GE;
    case BinaryOp::Add: case BinaryOp::Sub: case BinaryOp::Mul: case BinaryOp::Div: case BinaryOp::Mod:
    case BinaryOp::And: case BinaryOp::Or: case BinaryOp::BitAnd: case BinaryOp::BitOr: case BinaryOp::BitXor:
    case BinaryOp::Shl: case BinaryOp::Shr: break;
  }
  misrouted(op, "the comparisons");
}

int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int64_t floorMod(int64_t a, int64_t b) {
  int64_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

// a << n and a >> n as Python computes them on unbounded integers (n >= 0): a times or
// floor-divided by 2^n; nullopt when a << n does not fit in 64 bits.
std::optional<int64_t> shiftLeft(int64_t a, int64_t n) {
  if (a == 0) return 0;
  if (n >= 64) return std::nullopt;
  const __int128 r = __int128(a) * (__int128(1) << n);
  if (r < INT64_MIN || r > INT64_MAX) return std::nullopt;
  return int64_t(r);
}
int64_t shiftRight(int64_t a, int64_t n) {
  const int64_t s = n >= 63 ? 63 : n;
  return a < 0 ? ~(~a >> s) : a >> s;
}

// Folds `a op b` for an arithmetic or bitwise operator; nullopt on int64 overflow.
std::optional<int64_t> foldChecked(BinaryOp op, int64_t a, int64_t b) {
  int64_t r = 0;
  switch (op) {
    case BinaryOp::Add: return __builtin_add_overflow(a, b, &r) ? std::nullopt : std::optional<int64_t>(r);
    case BinaryOp::Sub: return __builtin_sub_overflow(a, b, &r) ? std::nullopt : std::optional<int64_t>(r);
    case BinaryOp::Mul: return __builtin_mul_overflow(a, b, &r) ? std::nullopt : std::optional<int64_t>(r);
    case BinaryOp::Div:
      if (a == INT64_MIN && b == -1) return std::nullopt;
      return floorDiv(a, b);
    case BinaryOp::Mod:
      if (a == INT64_MIN && b == -1) return 0;
      return floorMod(a, b);
    case BinaryOp::BitAnd: return a & b;
    case BinaryOp::BitOr: return a | b;
    case BinaryOp::BitXor: return a ^ b;
    case BinaryOp::Shl: return shiftLeft(a, b);
    case BinaryOp::Shr: return shiftRight(a, b);
    case BinaryOp::Eq: case BinaryOp::Ne: case BinaryOp::Lt: case BinaryOp::Le: case BinaryOp::Gt: case BinaryOp::Ge:
    case BinaryOp::And: case BinaryOp::Or: break;
  }
  misrouted(op, "constant folding");
}

// The op that combines a tile with `small`, a row [1, C] (axis 0) or a column [.., R, 1]
// (the last axis), by the arithmetic of elementwise `kind`: "tile.mul" -> col_expand_mul
// or row_expand_mul, when the op table has it.
std::optional<ir::OpKind> expandOpFor(ir::OpKind kind, bool row) {
  return ir::opKindByName(std::string(row ? "tile.col_expand_" : "tile.row_expand_") + (ir::opInfo(kind).name + 5));
}

// The one axis along which a and b differ, where one of them is 1: NumPy's broadcasting
// of a size-1 dim, for the forms an expand op does (a row of a 2-D tile, or a column).
struct Broadcast {
  bool smallLeft;  // the size-1 operand is the left one
  bool row;        // along axis 0 of 2-D tiles (a row); otherwise the last axis (a column)
};
std::optional<Broadcast> broadcastOf(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  if (a.size() != b.size() || a.empty()) return std::nullopt;
  std::optional<size_t> axis;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) {
      if (axis || (a[i] != 1 && b[i] != 1)) return std::nullopt;
      axis = i;
    }
  const bool row = a.size() == 2 && axis == 0u;
  if (!axis || (!row && *axis + 1 != a.size())) return std::nullopt;
  return Broadcast{a[*axis] == 1, row};
}

// How `kind` is written on operands l and r: "l + r", "l << r", "max(l, r)".
std::string applied(ir::OpKind kind, const std::string& l, const std::string& r) {
  const std::string op = ir::opInfo(kind).spelling;
  return std::isalpha(static_cast<unsigned char>(op[0])) ? op + "(" + l + ", " + r + ")" : l + " " + op + " " + r;
}

// Where shapes a and b differ, for a message: "in axis 0 (16 and 8)".
std::string disagreement(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  if (a.size() != b.size()) return "in rank (" + std::to_string(a.size()) + " and " + std::to_string(b.size()) + ")";
  std::string out;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i])
      out += (out.empty() ? "in axis " : " and axis ") + std::to_string(i) + " (" + std::to_string(a[i]) + " and " +
             std::to_string(b[i]) + ")";
  return out;
}

}  // namespace

// ---------------------------------------------------------------- evaluation

Val Lowerer::eval(const ast::Expr& e) {
  Val v;
  switch (e.kind) {
    case ast::ExprKind::Int:
      v = Val::integer(ir::Expr::constant(static_cast<const ast::IntLit&>(e).value), e.range);
      break;
    case ast::ExprKind::Float: v = Val::floating(static_cast<const ast::FloatLit&>(e).value, e.range); break;
    case ast::ExprKind::Bool: v = Val::boolean(ir::Expr::boolean(static_cast<const ast::BoolLit&>(e).value), e.range); break;
    case ast::ExprKind::Name: v = evalName(static_cast<const ast::NameRef&>(e)); break;
    case ast::ExprKind::Unary: v = evalUnary(static_cast<const ast::Unary&>(e)); break;
    case ast::ExprKind::Binary: v = evalBinary(static_cast<const ast::Binary&>(e)); break;
    case ast::ExprKind::Call: v = evalCall(static_cast<const ast::Call&>(e)); break;
    case ast::ExprKind::Index: v = evalIndex(static_cast<const ast::Index&>(e)); break;
    case ast::ExprKind::List:
      v = Val::make(ValKind::List, e.range);
      for (const ast::ExprPtr& x : static_cast<const ast::List&>(e).elements) v.elems.push_back(eval(*x));
      break;
  }
  v.range = e.range;
  if (observer_) observer_->evaluated(e, v);
  return v;
}

Val Lowerer::evalName(const ast::NameRef& n) {
  if (Binding* b = scopes_.lookup(n.name)) {
    if (observer_) observer_->resolved(n.range, *b);
    return b->val;
  }
  if (findBuiltin(n.name)) {
    error(Diag::WrongValueKind, n.range,
          quotedName(n.name) + " is a built-in function, not a value; call it, e.g. " + n.name + "(...)");
    return Val::poison(n.range);
  }
  std::optional<std::string> guess = closestName(n.name, scopes_.visibleNames());
  if (!guess) {
    error(Diag::UnknownName, n.range, "unknown name " + quotedName(n.name) + "; declare it before using it");
    return Val::poison(n.range);
  }
  Diagnostic& d = error(Diag::UnknownName, n.range, "unknown name " + quotedName(n.name));
  d.notes.push_back({"did you mean '" + *guess + "'?", scopes_.lookup(*guess)->declRange});
  d.fixes.push_back({n.range, *guess});
  return Val::poison(n.range);
}

Val Lowerer::evalUnary(const ast::Unary& u) {
  Val x = eval(*u.operand);
  if (x.isPoison()) return x;
  if (u.op == ast::UnaryOp::Not) {
    std::optional<ir::Expr> b = asBool(x, "the operand of '!'");
    return b ? Val::boolean(ir::Expr::logicalNot(*b), u.range) : Val::poison(u.range);
  }
  if (u.op == ast::UnaryOp::BitNot) return bitNot(x, u.range);
  switch (x.kind) {
    case ValKind::Int:
      if (std::optional<int64_t> c = x.constInt()) {
        if (*c == INT64_MIN) {
          error(Diag::ConstOverflow, u.range, "integer overflow: -(" + std::to_string(*c) +
                                                  ") does not fit in 64 bits; use a smaller value");
          return Val::poison(u.range);
        }
        return Val::integer(ir::Expr::constant(-*c), u.range);
      }
      return Val::integer(ir::Expr::neg(x.expr), u.range);
    case ValKind::Float: return Val::floating(-x.number, u.range);
    case ValKind::Tile: return tileOp(ir::OpKind::Neg, {{x.value, x.range}}, {}, ir::Type(), u.range);
    default:
      error(Diag::WrongValueKind, u.range,
            std::string("'-' cannot negate ") + valKindName(x.kind) +
                "; it applies to integers, float constants and tiles");
      return Val::poison(u.range);
  }
}

Val Lowerer::evalBinary(const ast::Binary& b) {
  Val lhs = eval(*b.lhs);
  Val rhs = eval(*b.rhs);
  return binary(b.op, std::move(lhs), std::move(rhs), b.opRange, b.range);
}

Val Lowerer::binary(BinaryOp op, Val lhs, Val rhs, SourceRange opRange, SourceRange whole) {
  if (lhs.isPoison() || rhs.isPoison()) return Val::poison(whole);
  std::string opText = std::string("'") + ast::spelling(op) + "'";
  if (isLogical(op)) {
    std::optional<ir::Expr> a = asBool(lhs, ("the left operand of " + opText).c_str());
    std::optional<ir::Expr> c = asBool(rhs, ("the right operand of " + opText).c_str());
    if (!a || !c) return Val::poison(whole);
    return Val::boolean(op == BinaryOp::And ? ir::Expr::logicalAnd(*a, *c) : ir::Expr::logicalOr(*a, *c), whole);
  }
  if (lhs.kind == ValKind::Tile || rhs.kind == ValKind::Tile) {
    if (op == BinaryOp::Mod) {
      error(Diag::WrongValueKind, opRange,
            opText + " is not defined for tiles (their floor modulo is not built); for the remainder with "
                     "the dividend's sign write fmod(" + text(lhs.range) + ", " + text(rhs.range) + ")");
      return Val::poison(whole);
    }
    if (isComparison(op)) return tileCompare(op, lhs, rhs, whole);
    if (isBitwise(op)) return tileBitwise(op, lhs, rhs, whole);
    return tileBinary(op, lhs, rhs, whole);
  }
  if (lhs.kind == ValKind::Int && rhs.kind == ValKind::Int) return intBinary(op, lhs, rhs, opRange, whole);
  bool lhsNumber = lhs.kind == ValKind::Float || lhs.constInt();
  bool rhsNumber = rhs.kind == ValKind::Float || rhs.constInt();
  if (lhsNumber && rhsNumber && !isComparison(op)) return floatBinary(op, lhs, rhs, whole);
  const Val& odd = (lhs.kind == ValKind::Int || lhsNumber) ? rhs : lhs;
  error(Diag::WrongValueKind, odd.range,
        opText + " cannot take " + valKindName(odd.kind) + " here; arithmetic works on integers, float " +
            "constants and tiles");
  return Val::poison(whole);
}

Val Lowerer::intBinary(BinaryOp op, const Val& lhs, const Val& rhs, SourceRange opRange, SourceRange whole) {
  if (isComparison(op)) return Val::boolean(ir::Expr::cmp(cmpKind(op), lhs.expr, rhs.expr), whole);
  std::optional<int64_t> a = lhs.constInt(), b = rhs.constInt();
  if ((op == BinaryOp::Div || op == BinaryOp::Mod) && b && *b == 0) {
    error(Diag::ConstDivByZero, whole, "division by zero in " + quotedName(text(whole)) + "; use a non-zero divisor");
    return Val::poison(whole);
  }
  if (isShift(op) && b && *b < 0) {
    error(Diag::ShiftCount, rhs.range,
          "negative shift count " + std::to_string(*b) + " in " + quotedName(text(whole)) + "; shift by 0 or more");
    return Val::poison(whole);
  }
  if (isBitwise(op) && !(a && b)) {
    const Val& unknown = a ? rhs : lhs;
    error(Diag::NotConstant, unknown.range,
          std::string("'") + ast::spelling(op) + "' on integers needs compile-time constants, but " +
              quotedName(text(unknown.range)) + " is only known at run time; use literals and constants");
    return Val::poison(whole);
  }
  if (a && b) {
    std::optional<int64_t> r = foldChecked(op, *a, *b);
    if (!r) {
      error(Diag::ConstOverflow, whole,
            "integer overflow: " + std::to_string(*a) + " " + ast::spelling(op) + " " + std::to_string(*b) +
                " does not fit in 64 bits; use smaller values");
      return Val::poison(whole);
    }
    return Val::integer(ir::Expr::constant(*r), whole);
  }
  switch (op) {
    case BinaryOp::Add: return Val::integer(ir::Expr::add(lhs.expr, rhs.expr), whole);
    case BinaryOp::Sub: return Val::integer(ir::Expr::sub(lhs.expr, rhs.expr), whole);
    case BinaryOp::Mul: return Val::integer(ir::Expr::mul(lhs.expr, rhs.expr), whole);
    case BinaryOp::Div: return Val::integer(ir::Expr::floorDiv(lhs.expr, rhs.expr), whole);
    case BinaryOp::Mod: return Val::integer(ir::Expr::mod(lhs.expr, rhs.expr), whole);
    case BinaryOp::Eq: case BinaryOp::Ne: case BinaryOp::Lt: case BinaryOp::Le: case BinaryOp::Gt: case BinaryOp::Ge:
    case BinaryOp::And: case BinaryOp::Or: case BinaryOp::BitAnd: case BinaryOp::BitOr: case BinaryOp::BitXor:
    case BinaryOp::Shl: case BinaryOp::Shr: break;
  }
  misrouted(op, "integer arithmetic");
}

Val Lowerer::floatBinary(BinaryOp op, const Val& lhs, const Val& rhs, SourceRange whole) {
  auto number = [](const Val& v) { return v.kind == ValKind::Float ? v.number : double(*v.constInt()); };
  double a = number(lhs), b = number(rhs);
  switch (op) {
    case BinaryOp::Add: return Val::floating(a + b, whole);
    case BinaryOp::Sub: return Val::floating(a - b, whole);
    case BinaryOp::Mul: return Val::floating(a * b, whole);
    case BinaryOp::Div:
      if (b == 0) {
        error(Diag::ConstDivByZero, whole, "division by zero in " + quotedName(text(whole)) + "; use a non-zero divisor");
        return Val::poison(whole);
      }
      return Val::floating(a / b, whole);
    case BinaryOp::Mod: case BinaryOp::BitAnd: case BinaryOp::BitOr: case BinaryOp::BitXor: case BinaryOp::Shl:
    case BinaryOp::Shr:
      error(Diag::WrongValueKind, whole,
            std::string("'") + ast::spelling(op) + "' needs integer operands; use integers on both sides");
      return Val::poison(whole);
    case BinaryOp::Eq: case BinaryOp::Ne: case BinaryOp::Lt: case BinaryOp::Le: case BinaryOp::Gt: case BinaryOp::Ge:
    case BinaryOp::And: case BinaryOp::Or: break;
  }
  misrouted(op, "float constant arithmetic");
}

// `t + u` (tile-tile), `t * 2.0` (tile-scalar), `2.0 * t` (commuted).
Val Lowerer::tileBinary(BinaryOp op, const Val& lhs, const Val& rhs, SourceRange whole) {
  static const ir::OpKind tileTile[] = {ir::OpKind::Add, ir::OpKind::Sub, ir::OpKind::Mul, ir::OpKind::Div};
  static const ir::OpKind tileScalar[] = {ir::OpKind::AddS, ir::OpKind::SubS, ir::OpKind::MulS, ir::OpKind::DivS};
  size_t index = size_t(op);  // Add, Sub, Mul, Div are the first four operators
  if (lhs.kind == ValKind::Tile && rhs.kind == ValKind::Tile) return combineTiles(tileTile[index], lhs, rhs, whole);
  bool tileLeft = lhs.kind == ValKind::Tile;
  if (!tileLeft && (op == BinaryOp::Sub || op == BinaryOp::Div)) {
    std::string fix = op == BinaryOp::Sub ? "write -t + s instead" : "write recip(t) * s instead";
    error(Diag::ScalarOperand, lhs.range,
          std::string("a scalar cannot be the left operand of '") + ast::spelling(op) + "' with a tile; " + fix);
    return Val::poison(whole);
  }
  const Val& tile = tileLeft ? lhs : rhs;
  const Val& scalar = tileLeft ? rhs : lhs;
  ir::Value* s = scalarOperand(scalar, tile.value->type().dtype(), "the scalar operand");
  if (!s) return Val::poison(whole);
  return tileOp(tileScalar[index], {{tile.value, tile.range}, {s, scalar.range}}, {}, ir::Type(), whole);
}

// Two tiles combined by elementwise `kind`, with NumPy's broadcasting of one size-1 axis
// (docs/language.md, "Broadcasting"): `x * w` with w a [1, C] row is col_expand_mul(x, w),
// `x - m` with m a column row_expand_sub(x, m). A size-1 operand on the left commutes
// where the arithmetic does; `w - x` is (-x) + w, exact like the subtraction.
Val Lowerer::combineTiles(ir::OpKind kind, const Val& lhs, const Val& rhs, SourceRange whole) {
  const std::vector<int64_t>& a = lhs.value->type().shape();
  const std::vector<int64_t>& b = rhs.value->type().shape();
  if (a == b) return tileOp(kind, {{lhs.value, lhs.range}, {rhs.value, rhs.range}}, {}, ir::Type(), whole);
  std::optional<Broadcast> cast = broadcastOf(a, b);
  if (!cast)
    return broadcastError(lhs, rhs,
                          "they differ " + disagreement(a, b) +
                              ", but only one axis where one of them is 1 broadcasts: a [1, C] row down a 2-D tile, "
                              "or a [.., R, 1] column across the tile",
                          "make the shapes equal", whole);
  const Val& big = cast->smallLeft ? rhs : lhs;
  const Val& small = cast->smallLeft ? lhs : rhs;
  const bool negate = cast->smallLeft && kind == ir::OpKind::Sub;
  std::optional<ir::OpKind> expand = expandOpFor(negate ? ir::OpKind::Add : kind, cast->row);
  if (!expand || (cast->smallLeft && kind == ir::OpKind::Div)) {
    const ir::Type& t = big.value->type();
    const std::string zeros = "full<" + std::string(ir::dtypeName(t.dtype())) + ">(" + ir::shapeText(t.shape()) +
                              (ir::isFloat(t.dtype()) ? ", 0.0)" : ", 0)");
    const std::string widened =
        std::string(cast->row ? "col" : "row") + "_expand_add(" + zeros + ", " + text(small.range) + ")";
    const std::string form = cast->row ? "a row" : "a column";
    return broadcastError(lhs, rhs,
                          expand ? form + " on the left of '/' does not broadcast (the op divides by it)"
                                 : form + " does not broadcast in " + ir::opInfo(kind).spelling +
                                       " (there is no such op)",
                          "widen it to the tile first: " +
                              (cast->smallLeft ? applied(kind, widened, text(big.range))
                                               : applied(kind, text(big.range), widened)),
                          whole);
  }
  Val tile = big;
  if (negate) {
    tile = tileOp(ir::OpKind::Neg, {{big.value, big.range}}, {}, ir::Type(), big.range);
    if (tile.isPoison()) return Val::poison(whole);
  }
  return tileOp(*expand, {{tile.value, big.range}, {small.value, small.range}}, {}, ir::Type(), whole);
}

Val Lowerer::broadcastError(const Val& lhs, const Val& rhs, const std::string& why, const std::string& fix,
                            SourceRange whole) {
  error(Diag::ShapeMismatch, whole,
        quotedName(text(whole)) + " combines tiles of shapes " + ir::shapeText(lhs.value->type().shape()) +
            " and " + ir::shapeText(rhs.value->type().shape()) + ": " + why + "; " + fix);
  return Val::poison(whole);
}

// `t < u` (tile-tile) and `t < 0.5` give a mask; `0.5 < t` is `t > 0.5`.
Val Lowerer::tileCompare(BinaryOp op, const Val& lhs, const Val& rhs, SourceRange whole) {
  ir::CmpKind k = cmpKind(op);
  if (lhs.kind == ValKind::Tile && rhs.kind == ValKind::Tile)
    return tileOp(ir::OpKind::Cmp, {{lhs.value, lhs.range}, {rhs.value, rhs.range}}, {ir::attr::cmp(k)}, ir::Type(),
                  whole);
  static const ir::CmpKind kMirrored[] = {ir::CmpKind::EQ, ir::CmpKind::NE, ir::CmpKind::GT,
                                          ir::CmpKind::GE, ir::CmpKind::LT, ir::CmpKind::LE};
  const bool tileLeft = lhs.kind == ValKind::Tile;
  const Val& tile = tileLeft ? lhs : rhs;
  const Val& scalar = tileLeft ? rhs : lhs;
  const ir::DType dtype = tile.value->type().dtype();
  if (!literalFits(scalar, tile, "the dtype " + quotedName(text(tile.range)) + " is compared in",
                   "compare with a value in that range"))
    return Val::poison(whole);
  ir::Value* s = scalarOperand(scalar, dtype, "the scalar operand");
  if (!s) return Val::poison(whole);
  return tileOp(ir::OpKind::CmpS, {{tile.value, tile.range}, {s, scalar.range}},
                {ir::attr::cmp(tileLeft ? k : kMirrored[size_t(k)])}, ir::Type(), whole);
}

// The scalar of a tile-scalar op becomes the tile's dtype: an integer literal it cannot
// hold would wrap and act as another number. `role` says what the dtype is to the op.
bool Lowerer::literalFits(const Val& scalar, const Val& tile, const std::string& role, const std::string& fix) {
  const ir::DType dtype = tile.value->type().dtype();
  const std::optional<int64_t> literal = scalar.kind == ValKind::Int ? scalar.constInt() : std::nullopt;
  if (!literal || !ir::isInteger(dtype) || ir::dtypeBytes(dtype) >= 8) return true;
  const unsigned bits = 8 * ir::dtypeBytes(dtype);
  const int64_t lo = ir::isSigned(dtype) ? -(int64_t(1) << (bits - 1)) : 0;
  const int64_t hi = ir::isSigned(dtype) ? (int64_t(1) << (bits - 1)) - 1 : (int64_t(1) << bits) - 1;
  if (*literal >= lo && *literal <= hi) return true;
  error(Diag::ScalarOperand, scalar.range,
        std::to_string(*literal) + " is outside the range of " + ir::dtypeName(dtype) + " (" + std::to_string(lo) +
            " to " + std::to_string(hi) + "), " + role + "; " + fix);
  return false;
}

// `a & b`, `a ^ b`, `a << b` on integer tiles (the typing rule refuses others), and with a
// number: `a & 0xff`, `a << 3`. & | ^ commute with a number on the left; a shift does not.
Val Lowerer::tileBitwise(BinaryOp op, const Val& lhs, const Val& rhs, SourceRange whole) {
  static const ir::OpKind tileTile[] = {ir::OpKind::And, ir::OpKind::Or, ir::OpKind::Xor, ir::OpKind::Shl,
                                        ir::OpKind::Shr};
  static const ir::OpKind tileScalar[] = {ir::OpKind::AndS, ir::OpKind::OrS, ir::OpKind::XorS, ir::OpKind::ShlS,
                                          ir::OpKind::ShrS};
  const size_t index = size_t(op) - size_t(BinaryOp::BitAnd);
  if (lhs.kind == ValKind::Tile && rhs.kind == ValKind::Tile) return combineTiles(tileTile[index], lhs, rhs, whole);
  const bool tileLeft = lhs.kind == ValKind::Tile;
  const Val& tile = tileLeft ? lhs : rhs;
  const Val& scalar = tileLeft ? rhs : lhs;
  const ir::Type& t = tile.value->type();
  if (!tileLeft && isShift(op)) {
    error(Diag::ScalarOperand, lhs.range,
          std::string("a scalar cannot be the left operand of '") + ast::spelling(op) +
              "' with a tile; shift a tile of it: full<" + ir::dtypeName(t.dtype()) + ">(" + ir::shapeText(t.shape()) +
              ", " + text(lhs.range) + ") " + ast::spelling(op) + " " + text(rhs.range));
    return Val::poison(whole);
  }
  if (!literalFits(scalar, tile, std::string("the dtype of ") + quotedName(text(tile.range)),
                   "use a value in that range"))
    return Val::poison(whole);
  const std::optional<int64_t> count = scalar.kind == ValKind::Int ? scalar.constInt() : std::nullopt;
  const int64_t bits = 8 * int64_t(ir::dtypeBytes(t.dtype()));
  if (isShift(op) && count && ir::isInteger(t.dtype()) && (*count < 0 || *count >= bits)) {
    error(Diag::ShiftCount, scalar.range,
          "a shift of the " + std::string(ir::dtypeName(t.dtype())) + " tile " + quotedName(text(tile.range)) +
              " counts 0 to " + std::to_string(bits - 1) + " bits, not " + std::to_string(*count) +
              "; shift by a count in that range");
    return Val::poison(whole);
  }
  ir::Value* s = scalarOperand(scalar, t.dtype(), "the scalar operand");
  if (!s) return Val::poison(whole);
  return tileOp(tileScalar[index], {{tile.value, tile.range}, {s, scalar.range}}, {}, ir::Type(), whole);
}

// `~a`: the bits of an integer tile or integer constant inverted.
Val Lowerer::bitNot(const Val& x, SourceRange whole) {
  switch (x.kind) {
    case ValKind::Tile: return tileOp(ir::OpKind::Not, {{x.value, x.range}}, {}, ir::Type(), whole);
    case ValKind::Int:
      if (std::optional<int64_t> c = x.constInt()) return Val::integer(ir::Expr::constant(~*c), whole);
      error(Diag::NotConstant, x.range,
            "'~' on an integer needs a compile-time constant, but " + quotedName(text(x.range)) +
                " is only known at run time; use literals and constants");
      return Val::poison(whole);
    default:
      error(Diag::WrongValueKind, x.range,
            std::string("'~' cannot invert ") + valKindName(x.kind) + "; it applies to integer constants and tiles");
      return Val::poison(whole);
  }
}

// ---------------------------------------------------------------- conversions

std::optional<ir::Expr> Lowerer::asInt(const Val& v, const char* role) {
  if (v.kind == ValKind::Int) return v.expr;
  if (v.isPoison()) return std::nullopt;
  std::string fix = v.kind == ValKind::Tile ? "tile data is not an integer, use an index expression here"
                                            : "use an integer expression";
  error(Diag::WrongValueKind, v.range,
        std::string(role) + " must be an integer, but this is " + valKindName(v.kind) + "; " + fix);
  return std::nullopt;
}

std::optional<ir::Expr> Lowerer::asBool(const Val& v, const char* role) {
  if (v.kind == ValKind::Bool) return v.expr;
  if (v.isPoison()) return std::nullopt;
  std::string fix = v.kind == ValKind::Int ? "compare it, e.g. '" + text(v.range) + " != 0'"
                                           : std::string("use a comparison");
  error(Diag::WrongValueKind, v.range,
        std::string(role) + " must be a boolean, but this is " + valKindName(v.kind) + "; " + fix);
  return std::nullopt;
}

ir::Value* Lowerer::asTile(const Val& v, const char* role) {
  if (v.kind == ValKind::Tile) return v.value;
  if (v.isPoison()) return nullptr;
  std::string fix = v.kind == ValKind::Tensor ? "load a tile from it first" : "pass a tile";
  error(Diag::WrongValueKind, v.range,
        std::string(role) + " must be a tile, but this is " + valKindName(v.kind) + "; " + fix);
  return nullptr;
}

ir::Value* Lowerer::asTensor(const Val& v, const char* role) {
  if (v.kind == ValKind::Tensor) return v.value;
  if (v.isPoison()) return nullptr;
  error(Diag::WrongValueKind, v.range,
        std::string(role) + " must be a tensor parameter, but this is " + valKindName(v.kind) +
            "; pass a tensor parameter of the kernel");
  return nullptr;
}

std::optional<int64_t> Lowerer::constInt(const Val& v, const char* role) {
  std::optional<ir::Expr> e = asInt(v, role);
  if (!e) return std::nullopt;
  if (std::optional<int64_t> c = e->asConst()) return c;
  error(Diag::NotConstant, v.range,
        std::string(role) + " must be a compile-time constant, but '" + text(v.range) +
            "' is only known at run time; use literals and constants");
  return std::nullopt;
}

// The SSA scalar for the scalar side of a tile-scalar op or full(): literals
// and constants become arith.const of the tile's dtype; run-time integer expressions
// become arith.index of the tile's dtype.
ir::Value* Lowerer::scalarOperand(const Val& v, ir::DType dtype, const char* role) {
  switch (v.kind) {
    case ValKind::Poison: return nullptr;
    case ValKind::Scalar: return v.value;
    case ValKind::Float:
      if (ir::isFloat(dtype)) return constant(v, dtype, v.range);
      error(Diag::ScalarOperand, v.range,
            std::string("a float constant cannot be used with a tile of dtype ") + ir::dtypeName(dtype) +
                "; use an integer value or cast the tile to a float dtype");
      return nullptr;
    case ValKind::Int: {
      if (v.constInt()) return constant(v, dtype, v.range);
      const ir::Value* var = v.expr.kind() == ir::ExprKind::Var ? v.expr.var() : nullptr;
      if (var && var->type() == ir::Type::scalar(dtype)) return const_cast<ir::Value*>(var);
      // A float tile takes the integer's value converted to its dtype (`t / N`): the
      // arith.index of a float type computes the integer and then converts it once.
      return materialize(v.expr, ir::Type::scalar(dtype), v.range);
    }
    default:
      error(Diag::WrongValueKind, v.range,
            std::string(role) + " must be a number or a scalar parameter, but this is " + valKindName(v.kind) +
                "; pass a literal, a constant or a scalar parameter");
      return nullptr;
  }
}

ir::Value* Lowerer::constant(const Val& v, ir::DType dtype, SourceRange at) {
  ir::Op* op = block_->create(ir::OpKind::Const, at);
  // Callers pass float constants only for float dtypes.
  if (ir::isFloat(dtype))
    op->set(ir::attr::value, v.kind == ValKind::Float ? v.number : double(*v.constInt()));
  else
    op->set(ir::attr::value, *v.constInt());
  return op->addResult(ir::Type::scalar(dtype));
}

ir::Value* Lowerer::materialize(const ir::Expr& e, const ir::Type& type, SourceRange at) {
  if (e.kind() == ir::ExprKind::Var && e.var()->type() == type) return const_cast<ir::Value*>(e.var());
  ir::Op* op = block_->create(ir::OpKind::IndexExpr, at);
  op->set(ir::attr::expr, e);
  return op->addResult(type);
}

// `ids[t]`: one element of an input tensor, an integer the kernel computes offsets with.
Val Lowerer::readElement(const ast::Index& x, const Val& tensor) {
  const unsigned param = tensor.value->index();
  // An element read is not ordered after the kernel's own stores (on PTO the scalar unit
  // reads memory the vector unit writes), so only tensors the kernel never writes are read.
  if (!tensor.value->definingOp() && fn_->paramDir(param) != ir::ParamDir::In) {
    error(Diag::WrongValueKind, x.range,
          "elements are read from input tensors, but " + quotedName(x.name) + " is " +
              ir::paramDirName(fn_->paramDir(param)) + ", which this kernel writes; pass the indices in an in tensor of their own")
        .notes.push_back({quotedName(x.name) + " declared here", fn_->paramLoc(param)});
    return Val::poison(x.range);
  }
  std::vector<ir::Expr> index;
  for (const ast::ExprPtr& i : x.indices) {
    std::optional<ir::Expr> e = asInt(eval(*i), "a tensor index");
    if (!e) return Val::poison(x.range);
    index.push_back(*e);
  }
  ir::OpBuilder builder(*block_);
  builder.setLoc(x.range);
  auto made = builder.tryCreate(ir::OpKind::TensorRead, {tensor.value}, {ir::attr::offsets(index)});
  if (const auto* err = std::get_if<ir::OpError>(&made)) {
    reportOpError(*err, {{tensor.value, x.nameRange}}, x.range);
    return Val::poison(x.range);
  }
  return Val::integer(ir::Expr::var(std::get<ir::Op*>(made)->result()), x.range);
}

// ---------------------------------------------------------------- tile ops

Val Lowerer::tileOp(ir::OpKind kind, const std::vector<Operand>& operands, ir::AttrMap attrs, ir::Type declared,
                    SourceRange at) {
  ir::OpBuilder builder(*block_);
  builder.setLoc(at);
  std::vector<ir::Value*> values;
  for (const Operand& o : operands) values.push_back(o.value);
  auto made = builder.tryCreate(kind, values, std::move(attrs), std::move(declared));
  if (const auto* err = std::get_if<ir::OpError>(&made)) {
    reportOpError(*err, operands, at);
    return Val::poison(at);
  }
  return Val::ssa(ValKind::Tile, std::get<ir::Op*>(made)->result(), at);
}

void Lowerer::reportOpError(const ir::OpError& err, const std::vector<Operand>& operands, SourceRange at) {
  bool onOperand = err.operand >= 0 && size_t(err.operand) < operands.size();
  error(err.id, onOperand ? operands[size_t(err.operand)].range : at, err.message);
}

}  // namespace tilec::frontend
