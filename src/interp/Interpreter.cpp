#include "interp/Interpreter.h"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <map>
#include <functional>
#include <optional>
#include <unordered_map>

#include "interp/Npy.h"
#include "ir/Describe.h"
#include "ir/Launch.h"
#include "ir/NdShape.h"
#include "ir/OpDefs.h"

namespace tilec::interp {
using namespace ir;

namespace {

// Saturating arithmetic on non-negative counts.
int64_t satAdd(int64_t a, int64_t b) { return a > INT64_MAX - b ? INT64_MAX : a + b; }
int64_t satMul(int64_t a, int64_t b) { return b != 0 && a > INT64_MAX / b ? INT64_MAX : a * b; }

int64_t floorDiv(int64_t a, int64_t b) {
  if (b == -1) return int64_t(0 - uint64_t(a));  // wraps for INT64_MIN, as the hardware does
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int64_t product(const std::vector<int64_t>& xs) {
  uint64_t n = 1;  // wraps rather than overflowing; callers bound their extents first
  for (int64_t x : xs) n *= uint64_t(x);
  return int64_t(n);
}

// Row-major flat index of `at` in `shape`.
int64_t flatten(const std::vector<int64_t>& at, const std::vector<int64_t>& shape) {
  int64_t flat = 0;
  for (size_t i = 0; i < shape.size(); ++i) flat = flat * shape[i] + at[i];
  return flat;
}

// Calls f(index) for every index of the box `extents`, row-major.
void forEachIndex(const std::vector<int64_t>& extents, const std::function<void(const std::vector<int64_t>&)>& f) {
  for (int64_t e : extents)
    if (e <= 0) return;
  std::vector<int64_t> i(extents.size(), 0);
  while (true) {
    f(i);
    size_t a = extents.size();
    while (a > 0 && ++i[a - 1] == extents[a - 1]) i[--a] = 0;
    if (a == 0) return;
  }
}

// The element arithmetic each op does, by op kind (a table, not a switch with a default:
// the op kinds it lists are the ones the runner hands it).
enum class BinOp { Add, Sub, Mul, Div, Max, Min, And, Or, Xor, Shl, Shr, Fmod, LRelu };
enum class UnOp { Exp, Log, Neg, Sqrt, Rsqrt, Recip, Abs, Relu, Not };

BinOp binOpOf(OpKind k) {
  static const std::unordered_map<OpKind, BinOp> kBinOps = {
      {OpKind::Add, BinOp::Add}, {OpKind::AddS, BinOp::Add}, {OpKind::RowExpandAdd, BinOp::Add},
      {OpKind::Sub, BinOp::Sub}, {OpKind::SubS, BinOp::Sub}, {OpKind::RowExpandSub, BinOp::Sub},
      {OpKind::Mul, BinOp::Mul}, {OpKind::MulS, BinOp::Mul}, {OpKind::RowExpandMul, BinOp::Mul},
      {OpKind::Div, BinOp::Div}, {OpKind::DivS, BinOp::Div}, {OpKind::RowExpandDiv, BinOp::Div},
      {OpKind::Max, BinOp::Max}, {OpKind::MaxS, BinOp::Max}, {OpKind::RowMax, BinOp::Max},
      {OpKind::ColMax, BinOp::Max}, {OpKind::Min, BinOp::Min}, {OpKind::MinS, BinOp::Min},
      {OpKind::RowMin, BinOp::Min}, {OpKind::ColMin, BinOp::Min}, {OpKind::RowSum, BinOp::Add},
      {OpKind::ColSum, BinOp::Add},
      // col_expand_* (issue 28, broadcasts)
      {OpKind::ColExpandMul, BinOp::Mul}, {OpKind::ColExpandAdd, BinOp::Add}, {OpKind::ColExpandSub, BinOp::Sub},
      {OpKind::ColExpandDiv, BinOp::Div}, {OpKind::ColExpandMax, BinOp::Max}, {OpKind::ColExpandMin, BinOp::Min},
      // bitwise and shifts (issue 28)
      {OpKind::And, BinOp::And}, {OpKind::AndS, BinOp::And}, {OpKind::Or, BinOp::Or}, {OpKind::OrS, BinOp::Or},
      {OpKind::Xor, BinOp::Xor}, {OpKind::XorS, BinOp::Xor}, {OpKind::Shl, BinOp::Shl}, {OpKind::ShlS, BinOp::Shl},
      {OpKind::Shr, BinOp::Shr}, {OpKind::ShrS, BinOp::Shr},
      // remainder and leaky relu (issue 28)
      {OpKind::Fmod, BinOp::Fmod}, {OpKind::FmodS, BinOp::Fmod}, {OpKind::LRelu, BinOp::LRelu}};
  return kBinOps.at(k);
}

UnOp unOpOf(OpKind k) {
  static const std::unordered_map<OpKind, UnOp> kUnOps = {
      {OpKind::Exp, UnOp::Exp},     {OpKind::Log, UnOp::Log},     {OpKind::Neg, UnOp::Neg},
      {OpKind::Sqrt, UnOp::Sqrt},   {OpKind::Rsqrt, UnOp::Rsqrt}, {OpKind::Recip, UnOp::Recip},
      {OpKind::Abs, UnOp::Abs},     {OpKind::Relu, UnOp::Relu},   {OpKind::Not, UnOp::Not}};
  return kUnOps.at(k);
}

}  // namespace

int64_t evaluate(const Expr& e, const std::function<std::optional<int64_t>(const Value*)>& var, SourceRange loc) {
  auto ev = [&](const Expr& x) { return evaluate(x, var, loc); };
  const auto& ops = e.kind() == ExprKind::Const || e.kind() == ExprKind::Var ? std::vector<Expr>{} : e.operands();
  switch (e.kind()) {
    case ExprKind::Const: return e.constValue();
    case ExprKind::Var: {
      std::optional<int64_t> v = var(e.var());
      if (!v) throw RunError(loc, "the expression names " + describeByName(e.var()) + ", which has no value here");
      return *v;
    }
    case ExprKind::Add: {  // 64-bit two's complement, like the index arithmetic of the hardware
      uint64_t s = 0;
      for (const Expr& o : ops) s += uint64_t(ev(o));
      return int64_t(s);
    }
    case ExprKind::Mul: {
      uint64_t p = 1;
      for (const Expr& o : ops) p *= uint64_t(ev(o));
      return int64_t(p);
    }
    case ExprKind::FloorDiv: case ExprKind::CeilDiv: case ExprKind::Mod: {
      int64_t a = ev(ops[0]), b = ev(ops[1]);
      if (b == 0) throw RunError(loc, "division by zero in index arithmetic");
      if (e.kind() == ExprKind::FloorDiv) return floorDiv(a, b);
      if (e.kind() == ExprKind::CeilDiv) return int64_t(0 - uint64_t(floorDiv(int64_t(0 - uint64_t(a)), b)));
      return int64_t(uint64_t(a) - uint64_t(floorDiv(a, b)) * uint64_t(b));
    }
    case ExprKind::Min: case ExprKind::Max: {
      int64_t r = ev(ops[0]);
      for (size_t i = 1; i < ops.size(); ++i)
        r = e.kind() == ExprKind::Min ? std::min(r, ev(ops[i])) : std::max(r, ev(ops[i]));
      return r;
    }
    case ExprKind::Cmp: {
      int64_t a = ev(ops[0]), b = ev(ops[1]);
      switch (e.cmpKind()) {
        case CmpKind::EQ: return a == b;
        case CmpKind::NE: return a != b;
        case CmpKind::LT: return a < b;
        case CmpKind::LE: return a <= b;
        case CmpKind::GT: return a > b;
        case CmpKind::GE: return a >= b;
      }
      return 0;
    }
    case ExprKind::And: {
      for (const Expr& o : ops)
        if (!ev(o)) return 0;
      return 1;
    }
    case ExprKind::Or: {
      for (const Expr& o : ops)
        if (ev(o)) return 1;
      return 0;
    }
    case ExprKind::Not: return !ev(ops[0]);
    case ExprKind::Select: return ev(ops[0]) ? ev(ops[1]) : ev(ops[2]);
  }
  return 0;
}

namespace {

// The pipes of a split kernel, shared by the sections running at the same time (one host
// thread each). A section that would wait (a push on a full pipe, a pop on an empty one)
// while every other section has ended or waits for what has not happened either can
// never go on: a deadlock, or a pop whose push the other section, now ended, never made.
// Either is a fault at the waiting op.
struct Pipes {
  struct Sent {
    Tile tile;
    const Op* push;
  };
  struct Pipe {
    int64_t slots = 0;
    std::deque<Sent> queued;       // pushed, not yet popped
    std::deque<const Value*> held;  // popped by their pipe.pop, not yet freed (their slots are still taken)
  };
  // A section stopped because another one faulted: it reports nothing itself.
  struct Cancelled {};

  std::mutex m;
  std::condition_variable changed;
  std::map<int64_t, Pipe> pipes;
  struct Wait {
    const Op* op;
    std::function<bool()> ready;
  };
  std::map<int, Wait> waiting;  // per section: the op it waits at, and for what
  std::map<int, bool> ended;

  bool othersCanRun(int section) const {
    for (const auto& [other, done] : ended) {
      if (other == section || done) continue;
      auto w = waiting.find(other);
      if (w == waiting.end() || w->second.ready()) return true;
    }
    return false;
  }
  std::exception_ptr failure;

  void fail(std::exception_ptr e) {
    if (!failure) failure = e;
    changed.notify_all();
  }
};

const char* sectionName(int section) { return section == 0 ? "cube" : "vector"; }

// Which launch unit (a block, or a block's sub-block) last wrote and first read each element
// of each tensor, to find two units that touch one element, one of them writing: blocks run
// in no set order on the hardware, so the kernel's result would depend on it.
struct Races {
  static constexpr int32_t kNone = -1;
  struct Shadow {
    std::vector<int32_t> writer, reader, otherReader;  // otherReader: a second unit that read
    std::vector<const Op*> writeOp, readOp, otherReadOp;
    explicit Shadow(size_t n)
        : writer(n, kNone), reader(n, kNone), otherReader(n, kNone), writeOp(n), readOp(n), otherReadOp(n) {}
  };
  std::mutex m;  // the sections of a split kernel run on threads of their own
  std::unordered_map<const TensorData*, Shadow> shadows;
  int64_t subblocks = 1;

  std::string unitName(int32_t u) const {
    std::string s = "block " + std::to_string(u / subblocks);
    return subblocks > 1 ? s + " sub-block " + std::to_string(u % subblocks) : s;
  }
};

}  // namespace

struct Interpreter::Impl {
  const Function& f;
  RunLimits limits;
  std::unordered_map<const Value*, RtValue> env;
  int64_t steps = 0;

  // ---- values ----

  const RtValue& get(const Value* v, const Op& at) const {
    auto it = env.find(v);
    if (it == env.end()) throw RunError(at.loc(), spellingOf(at.kind()) + " reads " + describeByName(v) + " before it has a value");
    return it->second;
  }
  const Tile& tile(const Value* v, const Op& at) const {
    const auto* t = std::get_if<Tile>(&get(v, at));
    if (!t) throw RunError(at.loc(), spellingOf(at.kind()) + " expects a tile in " + describeByName(v));
    return *t;
  }
  const Tensor& tensor(const Value* v, const Op& at) const {
    const auto* t = std::get_if<Tensor>(&get(v, at));
    if (!t) throw RunError(at.loc(), spellingOf(at.kind()) + " expects a tensor in " + describeByName(v));
    return *t;
  }
  Scalar scalar(const Value* v, const Op& at) const {
    const auto* s = std::get_if<Scalar>(&get(v, at));
    if (!s) throw RunError(at.loc(), spellingOf(at.kind()) + " expects a scalar in " + describeByName(v));
    return *s;
  }

  int64_t eval(const Expr& e, const Op& at) const {
    return evaluate(e, [&](const Value* v) -> std::optional<int64_t> {
      auto it = env.find(v);
      if (it == env.end()) return std::nullopt;
      if (const auto* s = std::get_if<Scalar>(&it->second))
        return isFloatType(s->dtype) ? int64_t(s->value.f) : s->value.i;
      return std::nullopt;
    }, at.loc());
  }
  std::vector<int64_t> evalAll(const std::vector<Expr>& es, const Op& at) const {
    std::vector<int64_t> out;
    for (const Expr& e : es) out.push_back(eval(e, at));
    return out;
  }

  // A tile of `type` with every element poison; its valid extents evaluated.
  Tile blank(const Type& type, const Op& at) const {
    if (type.elementCount() > limits.maxTileElements)
      throw RunError(at.loc(), spellingOf(at.kind()) + " makes a tile of " + std::to_string(type.elementCount()) +
                                   " elements, more than the interpreter holds (" +
                                   std::to_string(limits.maxTileElements) + ")");
    Tile t{type.dtype(), type.shape(), evalAll(type.valid(), at), {}, {}};
    size_t n = size_t(product(t.shape));
    t.elems.assign(n, Num{});
    t.defined.assign(n, 0);
    for (size_t i = 0; i < t.valid.size(); ++i)
      if (t.valid[i] < 1 || t.valid[i] > t.shape[i])
        throw RunError(at.loc(), spellingOf(at.kind()) + " makes a tile whose valid extent " +
                                     std::to_string(t.valid[i]) + " of axis " + std::to_string(i) +
                                     " is outside [1, " + std::to_string(t.shape[i]) + "]");
    return t;
  }

  static bool insideValid(const Tile& t, const std::vector<int64_t>& at) {
    for (size_t i = 0; i < at.size(); ++i)
      if (at[i] >= t.valid[i]) return false;
    return true;
  }

  // The element of `t` at `at`, which must be defined: a poison read is a fault.
  Num read(const Tile& t, const std::vector<int64_t>& at, const Value* v, const Op& op) const {
    int64_t i = flatten(at, t.shape);
    if (!t.defined[size_t(i)])
      throw RunError(op.loc(), spellingOf(op.kind()) + " reads element " + ir::shapeText(at) + " of " + describeByName(v) +
                                   ", which holds no defined value (poison: never written, or outside the "
                                   "valid extents it was computed under)");
    return t.elems[size_t(i)];
  }

  // Charges `op`'s work (one, plus every tile element it reads or writes, times the
  // reduction length for cube ops) against the budget: counting ops alone would let a
  // loop of large tile copies run for minutes.
  // A view (a slice, a page) is charged for the elements it reads, as many as its result
  // has, not for the whole tile it looks into. An op tied to an operand (other than a
  // matmul, which reads and writes all of its accumulator) writes into that tile in place
  // (tiedTile): it is charged for the tiles it writes there, read and written, or for the
  // whole tile when it has none. So the pages of a flattened N-D tile, sliced out and
  // assembled back, cost what they move, not the whole tile each time.
  void step(const Op& op) {
    int64_t work = 1;
    auto elems = [](const Value* v) { return v->type().isTile() ? v->type().elementCount() : 0; };
    if (opInfo(op.kind()).has(OpTrait::View)) return charge(op, satAdd(work, satMul(elems(op.result()), 2)));
    const int tied = tiedOperand(op.kind());
    if (tied >= 0 && !opInfo(op.kind()).has(OpTrait::Cube)) {
      int64_t written = 0;
      for (unsigned i = 0; i < op.numOperands(); ++i)
        if (int(i) != tied) written = satAdd(written, elems(op.operand(i)));
      return charge(op, satAdd(work, written ? satMul(written, 2) : elems(op.result())));
    }
    for (const Value* v : op.operands()) work = satAdd(work, elems(v));
    for (const Value* v : op.results()) work = satAdd(work, elems(v));
    if (opInfo(op.kind()).has(OpTrait::Cube) && op.numResults() == 1) {
      const Type& lhs = op.operand(op.numOperands() == 3 ? 1 : 0)->type();
      if (lhs.isTile() && !lhs.shape().empty()) work = satAdd(work, satMul(elems(op.result()), lhs.shape().back()));
    }
    charge(op, work);
  }

  void charge(const Op& op, int64_t work) {
    steps = satAdd(steps, work);
    if (steps > limits.maxWork)
      throw WorkLimitError(op.loc(), "the run did more than " + std::to_string(limits.maxWork) +
                                   " units of work (elements read and written); it is stopped there (a "
                                   "limit of the interpreter)");
  }

  // ---- element arithmetic ----

  static Num arith(BinOp k, Num a, Num b, DType d, const Op& op) {
    Num r;
    if (isFloatType(d)) {
      double x = a.f, y = b.f, z = 0;
      switch (k) {
        case BinOp::Add: z = x + y; break;
        case BinOp::Sub: z = x - y; break;
        case BinOp::Mul: z = x * y; break;
        case BinOp::Div: z = x / y; break;
        case BinOp::Max: z = std::isnan(x) || std::isnan(y) ? NAN : std::max(x, y); break;
        case BinOp::Min: z = std::isnan(x) || std::isnan(y) ? NAN : std::min(x, y); break;
        case BinOp::Fmod: z = std::fmod(x, y); break;  // exact, so the rounding below keeps it
        case BinOp::LRelu: z = x > 0 ? x : x * y; break;  // y is the slope in the tile's dtype
        case BinOp::And: case BinOp::Or: case BinOp::Xor: case BinOp::Shl: case BinOp::Shr:
          throw std::logic_error(spellingOf(op.kind()) + " reached the interpreter with float tiles");
      }
      r.f = roundFloat(z, d);
      return r;
    }
    int64_t x = a.i, y = b.i, z = 0;
    switch (k) {  // two's complement wrap-around, like the hardware
      case BinOp::Add: z = int64_t(uint64_t(x) + uint64_t(y)); break;
      case BinOp::Sub: z = int64_t(uint64_t(x) - uint64_t(y)); break;
      case BinOp::Mul: z = int64_t(uint64_t(x) * uint64_t(y)); break;
      case BinOp::Div:
        if (y == 0) throw RunError(op.loc(), spellingOf(op.kind()) + " divides an integer by zero");
        z = (x == INT64_MIN && y == -1) ? x : x / y;
        break;
      case BinOp::Max: z = std::max(x, y); break;
      case BinOp::Min: z = std::min(x, y); break;
      case BinOp::And: z = x & y; break;  // on the value's two's complement, as wrapInt keeps it
      case BinOp::Or: z = x | y; break;
      case BinOp::Xor: z = x ^ y; break;
      case BinOp::Shl: z = int64_t(uint64_t(x) << shiftCount(y, d, op)); break;
      case BinOp::Shr: {  // copies of the sign bit come in for signed dtypes (x < 0 only there)
        const int64_t n = shiftCount(y, d, op);
        z = x < 0 ? ~(~x >> n) : x >> n;
        break;
      }
      case BinOp::Fmod:  // C's %: truncated; x % -1 is 0 (INT64_MIN % -1 is undefined in C++)
        if (y == 0) throw RunError(op.loc(), spellingOf(op.kind()) + " takes the remainder of an integer divided by zero");
        z = y == -1 ? 0 : x % y;
        break;
      case BinOp::LRelu: throw std::logic_error("'lrelu' reached the interpreter with an integer tile");
    }
    r.i = wrapInt(z, d);
    return r;
  }

  // The hardware shifts by counts in [0, bit width) (pto-isa's a2a3 tshr is C's `>>` on
  // the element type, undefined beyond it): any other count stops the run.
  static int64_t shiftCount(int64_t count, DType d, const Op& op) {
    const int64_t bits = 8 * int64_t(dtypeBytes(d));
    if (count >= 0 && count < bits) return count;
    throw RunError(op.loc(), spellingOf(op.kind()) + " shifts " + dtypeName(d) + " elements by " +
                                 std::to_string(count) + "; a count must be 0 to " + std::to_string(bits - 1));
  }

  static Num unary(UnOp k, Num a, DType d) {
    Num r;
    if (!isFloatType(d)) {
      int64_t x = a.i, z = x;
      if (k == UnOp::Neg) z = int64_t(0 - uint64_t(x));
      if (k == UnOp::Abs) z = x < 0 ? int64_t(0 - uint64_t(x)) : x;
      if (k == UnOp::Relu) z = std::max<int64_t>(x, 0);
      if (k == UnOp::Not) z = ~x;
      r.i = wrapInt(z, d);
      return r;
    }
    double x = a.f, z = x;
    switch (k) {
      case UnOp::Exp: z = std::exp(x); break;
      case UnOp::Log: z = std::log(x); break;
      case UnOp::Neg: z = -x; break;
      case UnOp::Sqrt: z = std::sqrt(x); break;
      case UnOp::Rsqrt: z = 1 / std::sqrt(x); break;
      case UnOp::Recip: z = 1 / x; break;
      case UnOp::Abs: z = std::fabs(x); break;
      case UnOp::Relu: z = x > 0 ? x : 0; break;
      case UnOp::Not: throw std::logic_error("'~' reached the interpreter with a float tile");
    }
    r.f = roundFloat(z, d);
    return r;
  }

  // ---- ops ----

  void runBlock(const Block& b, std::vector<RtValue>* yielded) {
    for (const auto& op : b.ops()) {
      if (op->kind() == OpKind::Yield) {
        if (yielded)
          for (const Value* v : op->operands()) yielded->push_back(get(v, *op));
        return;
      }
      step(*op);
      runOp(*op);
    }
  }

  void set(const Value* v, RtValue x) { env[v] = std::move(x); }

  // Whether `v` is dead after `op`: defined in op's block, used by op once, and every other
  // use lies in an op before it there (a slice of a page taken before the page is written
  // back). Blocks run their ops in order, and each run of the block defines `v` anew.
  bool diesAt(const Value* v, const Op& op) {
    const Block* home = v->block();
    if (home != op.parentBlock()) return false;
    const size_t at = position(op);
    bool usedByOp = false;
    for (const Use& u : v->uses()) {
      if (u.user == &op) {
        if (usedByOp) return false;
        usedByOp = true;
        continue;
      }
      const Op* user = u.user;
      while (user && user->parentBlock() != home) user = user->parentOp();
      if (!user || position(*user) >= at) return false;
    }
    return true;
  }

  // An op's place in its block, numbered for the whole function on first use.
  size_t position(const Op& op) {
    if (positions.empty()) number(f.body());
    return positions.at(&op);
  }
  void number(const Block& b) {
    size_t i = 0;
    for (const auto& op : b.ops()) {
      positions[op.get()] = i++;
      for (unsigned r = 0; r < op->numRegions(); ++r) number(op->body(r));
    }
  }

  // The tile `op` updates in place (its tied operand). Taken over when the tile dies at
  // `op`, so nothing else sees the update; otherwise copied, and the copy charged.
  Tile tiedTile(const Op& op) {
    const Value* v = op.operand(unsigned(tiedOperand(op.kind())));
    if (diesAt(v, op)) {
      auto it = env.find(v);
      if (it != env.end())
        if (auto* t = std::get_if<Tile>(&it->second)) {
          Tile taken = std::move(*t);
          env.erase(it);
          return taken;
        }
    }
    charge(op, v->type().elementCount());
    return tile(v, op);
  }

  void runOp(const Op& op) {
    switch (op.kind()) {
      case OpKind::Const: {
        const AttrValue& v = op.attrs().at("value");
        DType d = op.result()->type().dtype();
        Num n;
        if (const auto* i = std::get_if<int64_t>(&v)) {
          if (isFloatType(d)) n.f = roundFloat(double(*i), d);
          else n.i = wrapInt(*i, d);
        } else {
          n.f = roundFloat(std::get<double>(v), d);
        }
        return set(op.result(), Scalar{d, n});
      }
      case OpKind::IndexExpr: {
        const DType d = op.result()->type().dtype();
        const int64_t value = eval(op.get(attr::expr), op);
        Num n;
        if (isFloatType(d)) n.f = roundFloat(double(value), d);
        else n.i = value;
        return set(op.result(), Scalar{d, n});
      }
      case OpKind::For: return runFor(op);
      case OpKind::BlockIdx: case OpKind::BlockNum: case OpKind::SubblockIdx: case OpKind::SubblockNum:
        return set(op.result(), launchValue(op));
      case OpKind::If: return runIf(op);
      case OpKind::Yield: return;
      case OpKind::TensorView: {
        Tensor t = tensor(op.operand(0), op);
        t.dims = evalAll(op.result()->type().dims(), op);
        if (product(t.dims) != int64_t(t.data->elems.size()))
          throw RunError(op.loc(), "the tensor view of " + ir::shapeText(tensor(op.operand(0), op).dims) + " as " +
                                       ir::shapeText(t.dims) + " changes the element count");
        return set(op.result(), t);
      }
      case OpKind::Load: return runLoad(op);
      case OpKind::TensorRead: return runTensorRead(op);
      case OpKind::Store: return runStore(op);
      case OpKind::DmaFill: return runFill(op);
      case OpKind::DmaDrain: return runDrain(op);
      case OpKind::DmaWait: return;  // transfers complete in program order on the host
      case OpKind::SeqRaw: return;    // register writes: nothing the host tensors see
      case OpKind::SeqRequire:
        if (!eval(op.get(attr::cond), op))
          throw RunError(op.loc(), "a requirement of the sequence fails: " + op.get(attr::message));
        return;
      case OpKind::Create: return set(op.result(), blank(op.result()->type(), op));
      case OpKind::Full: {
        Tile t = blank(op.result()->type(), op);
        Scalar s = scalar(op.operand(0), op);
        Num v = convert(s.value, s.dtype, t.dtype, RoundMode::Rint);
        forEachIndex(t.valid, [&](const std::vector<int64_t>& at) {
          size_t i = size_t(flatten(at, t.shape));
          t.elems[i] = v;
          t.defined[i] = 1;
        });
        return set(op.result(), std::move(t));
      }
      case OpKind::Move: return set(op.result(), tile(op.operand(0), op));
      case OpKind::Add: case OpKind::Sub: case OpKind::Mul: case OpKind::Div: case OpKind::Max: case OpKind::Min:
      case OpKind::And: case OpKind::Or: case OpKind::Xor: case OpKind::Shl: case OpKind::Shr:
      case OpKind::Fmod:
        return runBinary(op);
      case OpKind::AddS: case OpKind::SubS: case OpKind::MulS: case OpKind::DivS: case OpKind::MaxS: case OpKind::MinS:
      case OpKind::AndS: case OpKind::OrS: case OpKind::XorS: case OpKind::ShlS: case OpKind::ShrS:
      case OpKind::FmodS: case OpKind::LRelu:
        return runTileScalar(op);
      case OpKind::Exp: case OpKind::Log: case OpKind::Neg: case OpKind::Sqrt: case OpKind::Rsqrt: case OpKind::Recip:
      case OpKind::Abs: case OpKind::Relu: case OpKind::Not:
        return runUnary(op);
      case OpKind::Cast: return runCast(op);
      case OpKind::Cmp: case OpKind::CmpS: return runCompare(op);
      case OpKind::Sel: return runSelect(op);
      case OpKind::Tri: return runTri(op);
      case OpKind::Scan: return runScan(op);
      case OpKind::RowMax: case OpKind::RowSum: case OpKind::RowMin: return runReduce(op, /*rows=*/true);
      case OpKind::ColMax: case OpKind::ColSum: case OpKind::ColMin: return runReduce(op, /*rows=*/false);
      case OpKind::RowExpandAdd: case OpKind::RowExpandSub: case OpKind::RowExpandMul: case OpKind::RowExpandDiv:
        return runExpand(op, /*axis=*/-1);
      case OpKind::ColExpandAdd: case OpKind::ColExpandSub: case OpKind::ColExpandMul: case OpKind::ColExpandDiv:
      case OpKind::ColExpandMax: case OpKind::ColExpandMin:
        return runExpand(op, /*axis=*/0);
      case OpKind::Iota: return runIota(op);
      case OpKind::PipeInit: case OpKind::PipePush: case OpKind::PipePop: case OpKind::PipeFree: return runPipeOp(op);
      case OpKind::CoreCube: case OpKind::CoreVector:
        throw RunError(op.loc(), std::string(op.name()) + " stands inside another op; the sections of a split kernel are "
                                                          "the last ops of its body");
      case OpKind::RowArgMax: case OpKind::RowArgMin: return runArgReduce(op, /*rows=*/true);
      case OpKind::ColArgMax: case OpKind::ColArgMin: return runArgReduce(op, /*rows=*/false);
      case OpKind::Sort32: return runSort32(op);
      case OpKind::PairValues: case OpKind::PairIndices: return runPairField(op);
      case OpKind::Gather: return runGather(op);
      case OpKind::Matmul: case OpKind::BatchMatmul: return runMatmul(op, 0);
      case OpKind::MatmulAcc: case OpKind::BatchMatmulAcc: return runMatmul(op, 1);
      case OpKind::Transpose: case OpKind::TransposeView: return runTranspose(op);
      case OpKind::Reshape: case OpKind::ReinterpretView: return runReshape(op);
      case OpKind::Slice: return runSlice(op);
      case OpKind::Assemble: return runAssemble(op);
      case OpKind::RegionPart: return runRegionPart(op);
      case OpKind::RegionArray: return set(op.result(), blank(op.result()->type(), op));
      case OpKind::RegionInsert: return runRegionInsert(op);
      case OpKind::RegionAssembly: return set(op.result(), tile(op.operand(0), op));
      case OpKind::SetValidShape: {
        Tile t = tile(op.operand(0), op);
        Tile r = blank(op.result()->type(), op);
        forEachIndex(r.valid, [&](const std::vector<int64_t>& at) {
          size_t i = size_t(flatten(at, r.shape));
          r.elems[i] = t.elems[i];
          r.defined[i] = t.defined[i];
        });
        return set(op.result(), std::move(r));
      }
    }
  }

  void runFor(const Op& op) {
    int64_t lb = eval(op.get(attr::lb), op), ub = eval(op.get(attr::ub), op);
    int64_t stepBy = eval(op.get(attr::step), op);
    if (stepBy <= 0) throw RunError(op.loc(), "the for loop steps by " + std::to_string(stepBy) + "; a step must be positive");
    if (const LoopMode* mode = op.find(attr::mode); mode && isParallel(*mode)) {
      const LoopShare<int64_t> share = shareOf<int64_t>(*mode, lb, ub, stepBy, unit(), blocks * subblocks);
      lb = share.lb, ub = share.ub, stepBy = share.step;
    }
    const Block& body = op.body();
    std::vector<RtValue> carried;
    for (const Value* v : op.operands()) carried.push_back(get(v, op));
    for (int64_t i = lb; i < ub; i += stepBy) {
      Num iv;
      iv.i = i;
      set(body.arg(0), Scalar{DType::Index, iv});
      for (size_t c = 0; c < carried.size(); ++c) set(body.arg(unsigned(c + 1)), std::move(carried[c]));
      std::vector<RtValue> next;
      runBlock(body, &next);
      carried = std::move(next);
      // An iteration hands its carried values on, moved, not copied: one unit, not their
      // elements (a loop that builds a 64 KiB tile array slot by slot would otherwise cost
      // the whole tile twice an iteration, quadratic in the array).
      charge(op, 1);
    }
    for (unsigned r = 0; r < op.numResults() && r < carried.size(); ++r) set(op.result(r), carried[r]);
  }

  void runIf(const Op& op) {
    bool cond = eval(op.get(attr::cond), op) != 0;
    std::vector<RtValue> results;
    runBlock(op.body(cond ? 0 : 1), &results);
    for (unsigned r = 0; r < op.numResults() && r < results.size(); ++r) set(op.result(r), results[r]);
  }

  // Where a window's offset on `axis` came from, when the source does not show its value (a
  // loop variable, a size, an element read from a tensor): ", where offset b * 16 is 272 in 'table'".
  static std::string offsetOrigin(const Op& op, size_t axis, int64_t value) {
    const Expr& offset = op.get(attr::offsets)[axis];
    if (offset.asConst()) return "";
    const Value* tensor = op.operand(op.kind() == OpKind::Store ? 1 : 0);
    return ", where offset " + ir::exprText(offset) + " is " + std::to_string(value) + " in " + describeByName(tensor);
  }

  // The window a load or store moves, and where it starts.
  std::pair<std::vector<int64_t>, std::vector<int64_t>> windowOf(const Op& op, const Tile& t, const Tensor& x) const {
    std::vector<int64_t> offsets = evalAll(op.get(attr::offsets), op);
    std::vector<int64_t> window;
    if (const auto* w = op.find(attr::window)) {
      window = evalAll(*w, op);
    } else if (op.kind() == OpKind::Store) {
      // The language's rule, the one store-partition applies (a 2-D tile's rows may run on).
      nd::StoreWindow sw = nd::storeWindow(constExprs(t.valid), constExprs(x.dims), constExprs(offsets));
      if (sw.failure != nd::StoreWindow::Failure::None) throw RunError(op.loc(), sw.message);
      window = evalAll(sw.window, op);
    } else {
      window.assign(x.dims.size() - t.valid.size(), 1);
      window.insert(window.end(), t.valid.begin(), t.valid.end());
    }
    if (product(window) != product(t.valid))
      throw RunError(op.loc(), spellingOf(op.kind()) + " moves the window " + ir::shapeText(window) + " (" +
                                   std::to_string(product(window)) + " elements) but the tile's valid extents " +
                                   ir::shapeText(t.valid) + " hold " + std::to_string(product(t.valid)));
    for (size_t a = 0; a < x.dims.size(); ++a)
      if (offsets[a] < 0 || offsets[a] + window[a] > x.dims[a])
        throw RunError(op.loc(), spellingOf(op.kind()) + " window " + ir::shapeText(window) + " at " + ir::shapeText(offsets) +
                                     " runs past the " + ir::shapeText(x.dims) + " tensor on axis " + std::to_string(a) +
                                     offsetOrigin(op, a, offsets[a]));
    return {window, offsets};
  }

  // The tile indices of the valid region, row-major: the order a window packs into.
  static std::vector<std::vector<int64_t>> validOrder(const Tile& t) {
    std::vector<std::vector<int64_t>> out;
    forEachIndex(t.valid, [&](const std::vector<int64_t>& at) { out.push_back(at); });
    return out;
  }

  // Pairs each element of a load's or store's window (its tensor element index) with the
  // tile element it packs into: the window row-major, onto the valid region row-major.
  void forEachTransfer(const Op& op, const Tile& t, const Tensor& x,
                       const std::function<void(size_t tensorIndex, const std::vector<int64_t>& tileAt)>& f) const {
    const auto box = windowOf(op, t, x);  // (extents, offsets); no structured binding: the lambda reads it
    const std::vector<int64_t>& window = box.first;
    const std::vector<int64_t>& offsets = box.second;
    std::vector<std::vector<int64_t>> slots = validOrder(t);
    size_t k = 0;
    forEachIndex(window, [&](const std::vector<int64_t>& w) {
      std::vector<int64_t> at = offsets;
      for (size_t a = 0; a < at.size(); ++a) at[a] += w[a];
      f(size_t(flatten(at, x.dims)), slots[k++]);
    });
  }

  void runLoad(const Op& op) {
    const Tensor& x = tensor(op.operand(0), op);
    Tile t = blank(op.result()->type(), op);
    Races::Shadow* shadow = shadowOf(x);
    forEachTransfer(op, t, x, [&](size_t from, const std::vector<int64_t>& at) {
      touch(shadow, op, 0, x, from, false);
      size_t i = size_t(flatten(at, t.shape));
      t.elems[i] = x.data->elems[from];
      t.defined[i] = 1;
    });
    set(op.result(), std::move(t));
  }

  // An element of an integer tensor as an index. An index out of range is the kernel's
  // fault, not the interpreter's: it names the tensor, the index as written and its value.
  void runTensorRead(const Op& op) {
    const Tensor& x = tensor(op.operand(0), op);
    const std::vector<Expr>& index = op.get(attr::offsets);
    const std::vector<int64_t> at = evalAll(index, op);
    for (size_t a = 0; a < at.size(); ++a)
      if (at[a] < 0 || at[a] >= x.dims[a])
        throw RunError(op.loc(), "index " + ir::exprText(index[a]) + " = " + std::to_string(at[a]) + " is outside " +
                                     describeByName(op.operand(0)) + ", whose axis " + std::to_string(a) +
                                     " has " + std::to_string(x.dims[a]) + " elements");
    Num n;
    const size_t flat = size_t(flatten(at, x.dims));
    touch(shadowOf(x), op, 0, x, flat, false);
    n.i = x.data->elems[flat].i;
    set(op.result(), Scalar{DType::Index, n});
  }

  // ---- runtime sequences ----
  // The host models the device as a loopback: a drain on channel (column, n) takes, in
  // order, the bytes fills on (column, n) put in, each element as a device buffer holds it
  // (a DMA moves bytes, so a drain of wider elements joins the bytes of narrower ones, as
  // txn-run's executor and the hardware do). This is what a passthrough design does, and
  // enough to check that passes keep every transfer's data and order.
  using ChannelKey = std::pair<int64_t, int64_t>;
  std::map<ChannelKey, std::deque<uint8_t>> channels;

  ChannelKey channelOf(const Op& op) const {
    const auto& c = op.get(attr::channel);
    return {eval(c[0], op), eval(c[1], op)};
  }

  // Calls `f(i)` for the tensor element of every step of the transfer's walk, in order.
  template <class F>
  void forEachElement(const Op& op, const Tensor& x, F f) {
    const auto& sizes = op.get(attr::sizes);
    const auto& strides = op.get(attr::strides);
    std::vector<int64_t> n, st;
    for (size_t k = 0; k < sizes.size(); ++k) {
      n.push_back(eval(sizes[k], op));
      st.push_back(eval(strides[k], op));
      if (n.back() < 0) throw RunError(op.loc(), spellingOf(op.kind()) + " has a negative size");
    }
    const int64_t offset = eval(op.get(attr::offset), op);
    const int64_t elements = cappedCount(x.dims, RunLimits::kMaxTensorElements);
    charge(op, cappedCount(n, limits.maxWork));  // a stride-0 walk may visit far more than the tensor
    forEachIndex(n, [&](const std::vector<int64_t>& at) {
      int64_t i = offset;
      for (size_t k = 0; k < at.size(); ++k) i += at[k] * st[k];
      if (i < 0 || i >= elements)
        throw RunError(op.loc(), spellingOf(op.kind()) + " reaches element " + std::to_string(i) +
                                     " of a tensor of " + std::to_string(elements) + " elements");
      f(size_t(i));
    });
  }

  void runFill(const Op& op) {
    const Tensor& x = tensor(op.operand(0), op);
    std::deque<uint8_t>& fifo = channels[channelOf(op)];
    const DType d = x.data->dtype;
    const unsigned width = elementBytes(d);
    forEachElement(op, x, [&](size_t i) {
      const uint64_t bits = elementBits(x.data->elems[i], d);
      for (unsigned b = 0; b < width; ++b) fifo.push_back(uint8_t(bits >> (8 * b)));
    });
  }

  void runDrain(const Op& op) {
    const Tensor& x = tensor(op.operand(0), op);
    std::deque<uint8_t>& fifo = channels[channelOf(op)];
    const DType d = x.data->dtype;
    const unsigned width = elementBytes(d);
    forEachElement(op, x, [&](size_t i) {
      if (fifo.size() < width)
        throw RunError(op.loc(), "'drain' takes more bytes than the fills on its channel put in (the host models the "
                                 "device as a loopback: a drain on a column's channel n takes the bytes fills on it "
                                 "put in); fill at least as many bytes on the channel before the drain");
      uint8_t bytes[8];
      for (unsigned b = 0; b < width; ++b) {
        bytes[b] = fifo.front();
        fifo.pop_front();
      }
      x.data->elems[i] = elementFromBytes(bytes, d);
    });
  }

  void runStore(const Op& op) {
    const Tile& t = tile(op.operand(0), op);
    const Tensor& x = tensor(op.operand(1), op);
    Races::Shadow* shadow = shadowOf(x);
    forEachTransfer(op, t, x, [&](size_t to, const std::vector<int64_t>& at) {
      touch(shadow, op, 1, x, to, true);
      x.data->elems[to] = read(t, at, op.operand(0), op);
    });
  }

  void runBinary(const Op& op) {
    const Tile& a = tile(op.operand(0), op);
    const Tile& b = tile(op.operand(1), op);
    Tile r = blank(op.result()->type(), op);
    forEachIndex(r.valid, [&](const std::vector<int64_t>& at) {
      size_t i = size_t(flatten(at, r.shape));
      r.defined[i] = a.defined[i] && b.defined[i];
      if (r.defined[i]) r.elems[i] = arith(binOpOf(op.kind()), a.elems[i], b.elems[i], r.dtype, op);
    });
    set(op.result(), std::move(r));
  }

  void runTileScalar(const Op& op) {
    const Tile& a = tile(op.operand(0), op);
    Scalar s = scalar(op.operand(1), op);
    Num v = convert(s.value, s.dtype, a.dtype, RoundMode::Rint);
    Tile r = blank(op.result()->type(), op);
    forEachIndex(r.valid, [&](const std::vector<int64_t>& at) {
      size_t i = size_t(flatten(at, r.shape));
      r.defined[i] = a.defined[i];
      if (r.defined[i]) r.elems[i] = arith(binOpOf(op.kind()), a.elems[i], v, r.dtype, op);
    });
    set(op.result(), std::move(r));
  }

  // IEEE comparisons of the operands' values: a NaN is unordered, so every predicate but
  // != is false with one. A mask element is 1 where the predicate holds.
  static bool compare(CmpKind k, Num a, Num b, DType d) {
    if (isFloatType(d)) {
      double x = a.f, y = b.f;
      switch (k) {
        case CmpKind::EQ: return x == y;
        case CmpKind::NE: return x != y;
        case CmpKind::LT: return x < y;
        case CmpKind::LE: return x <= y;
        case CmpKind::GT: return x > y;
        case CmpKind::GE: return x >= y;
      }
    }
    switch (k) {
      case CmpKind::EQ: return a.i == b.i;
      case CmpKind::NE: return a.i != b.i;
      case CmpKind::LT: return a.i < b.i;
      case CmpKind::LE: return a.i <= b.i;
      case CmpKind::GT: return a.i > b.i;
      case CmpKind::GE: return a.i >= b.i;
    }
    return false;
  }

  void runCompare(const Op& op) {
    const Tile& a = tile(op.operand(0), op);
    const bool withScalar = op.kind() == OpKind::CmpS;
    std::optional<Num> s;
    if (withScalar) {
      Scalar v = scalar(op.operand(1), op);
      s = convert(v.value, v.dtype, a.dtype, RoundMode::Rint);
    }
    const Tile* b = withScalar ? nullptr : &tile(op.operand(1), op);
    const CmpKind k = op.get(attr::cmp);
    Tile r = blank(op.result()->type(), op);
    forEachIndex(r.valid, [&](const std::vector<int64_t>& at) {
      size_t i = size_t(flatten(at, r.shape));
      r.defined[i] = a.defined[i] && (withScalar || b->defined[i]);
      if (r.defined[i]) r.elems[i].i = compare(k, a.elems[i], withScalar ? *s : b->elems[i], a.dtype);
    });
    set(op.result(), std::move(r));
  }

  // where(mask, a, b): a's element where the mask holds, else b's; only the chosen value
  // needs to be defined.
  void runSelect(const Op& op) {
    const Tile& m = tile(op.operand(0), op);
    const Tile& a = tile(op.operand(1), op);
    const Tile& b = tile(op.operand(2), op);
    Tile r = blank(op.result()->type(), op);
    forEachIndex(r.valid, [&](const std::vector<int64_t>& at) {
      size_t i = size_t(flatten(at, r.shape));
      if (!m.defined[i]) return;
      const Tile& chosen = m.elems[i].i ? a : b;
      r.defined[i] = chosen.defined[i];
      r.elems[i] = chosen.elems[i];
    });
    set(op.result(), std::move(r));
  }

  // Ones on one side of the diagonal (row i, column j of the last two axes: the lower
  // triangle j <= i + d, the upper j >= i + d), zeros elsewhere.
  void runTri(const Op& op) {
    const Scalar d = scalar(op.operand(0), op);
    const bool upper = op.find(attr::upper) && op.get(attr::upper);
    Tile r = blank(op.result()->type(), op);
    const size_t rank = r.shape.size();
    forEachIndex(r.valid, [&](const std::vector<int64_t>& at) {
      const int64_t i = rank >= 2 ? at[rank - 2] : 0, j = at[rank - 1];
      const bool one = upper ? j >= i + d.value.i : j <= i + d.value.i;
      size_t k = size_t(flatten(at, r.shape));
      r.defined[k] = 1;
      if (isFloatType(r.dtype)) r.elems[k].f = one ? 1.0 : 0.0;
      else r.elems[k].i = one ? 1 : 0;
    });
    set(op.result(), std::move(r));
  }

  void runUnary(const Op& op) {
    const Tile& a = tile(op.operand(0), op);
    Tile r = blank(op.result()->type(), op);
    forEachIndex(r.valid, [&](const std::vector<int64_t>& at) {
      size_t i = size_t(flatten(at, r.shape));
      r.defined[i] = a.defined[i];
      if (r.defined[i]) r.elems[i] = unary(unOpOf(op.kind()), a.elems[i], r.dtype);
    });
    set(op.result(), std::move(r));
  }

  void runCast(const Op& op) {
    const Tile& a = tile(op.operand(0), op);
    const auto* mode = op.find(attr::rmode);
    Tile r = blank(op.result()->type(), op);
    forEachIndex(r.valid, [&](const std::vector<int64_t>& at) {
      size_t i = size_t(flatten(at, r.shape));
      r.defined[i] = a.defined[i];
      if (r.defined[i]) r.elems[i] = convert(a.elems[i], a.dtype, r.dtype, mode ? *mode : RoundMode::CastRint);
    });
    set(op.result(), std::move(r));
  }

  // Row reductions fold the last axis, column reductions the one before it, left to right
  // in the tile's dtype.
  void runReduce(const Op& op, bool rows) {
    const Tile& a = tile(op.operand(0), op);
    Tile r = blank(op.result()->type(), op);
    const size_t n = a.shape.size();
    const size_t axis = rows ? n - 1 : n - 2;
    BinOp combine = binOpOf(op.kind());
    forEachIndex(r.valid, [&](const std::vector<int64_t>& at) {
      std::vector<int64_t> from = at;
      from[axis] = 0;
      Num acc = read(a, from, op.operand(0), op);
      for (int64_t j = 1; j < a.valid[axis]; ++j) {
        from[axis] = j;
        acc = arith(combine, acc, read(a, from, op.operand(0), op), a.dtype, op);
      }
      size_t i = size_t(flatten(at, r.shape));
      r.elems[i] = acc;
      r.defined[i] = 1;
    });
    set(op.result(), std::move(r));
  }

  // The inclusive prefix along the axis over the valid region, one combine at a time in
  // order (each rounded to the dtype, integer sums wrapping, a NaN kept once seen: arith),
  // which is what the lowering's one-row ops compute. An element after an undefined one is
  // undefined, as an elementwise op leaves it.
  void runScan(const Op& op) {
    const BinOp combine = binOpOf(scanStep(op.get(attr::scan)));
    const size_t axis = size_t(op.get(attr::axis));
    const Tile& a = tile(op.operand(0), op);
    Tile r = blank(op.result()->type(), op);
    std::vector<int64_t> lines = r.valid;
    lines[axis] = 1;
    forEachIndex(lines, [&](const std::vector<int64_t>& first) {
      std::vector<int64_t> at = first;
      Num acc{};
      bool defined = true;
      for (int64_t k = 0; k < r.valid[axis]; ++k) {
        at[axis] = k;
        const size_t i = size_t(flatten(at, r.shape));
        defined = defined && a.defined[i];
        if (defined) acc = k == 0 ? a.elems[i] : arith(combine, acc, a.elems[i], r.dtype, op);
        r.elems[i] = acc;
        r.defined[i] = defined;
      }
    });
    set(op.result(), std::move(r));
  }

  // One row: element j is start + j (start - j descending), wrapped to the dtype.
  void runIota(const Op& op) {
    Tile r = blank(op.result()->type(), op);
    const Scalar start = scalar(op.operand(0), op);
    const bool* down = op.find(attr::descending);
    const uint64_t first = uint64_t(start.value.i);
    forEachIndex(r.valid, [&](const std::vector<int64_t>& at) {
      const uint64_t j = uint64_t(at.back());
      size_t i = size_t(flatten(at, r.shape));
      r.elems[i].i = wrapInt(int64_t(down && *down ? first - j : first + j), r.dtype);
      r.defined[i] = 1;
    });
    set(op.result(), std::move(r));
  }

  // The index of the first extreme along the axis, as pto-isa computes it: a running best
  // from element 0, replaced only by an element strictly beyond it. Ties keep the first; a
  // NaN never compares beyond, so it is skipped, unless it is element 0, which then stays.
  void runArgReduce(const Op& op, bool rows) {
    const Tile& a = tile(op.operand(0), op);
    Tile r = blank(op.result()->type(), op);
    const size_t axis = rows ? a.shape.size() - 1 : a.shape.size() - 2;
    const bool max = op.kind() == OpKind::RowArgMax || op.kind() == OpKind::ColArgMax;
    const bool fp = isFloatType(a.dtype);
    auto beyond = [&](Num x, Num best) {
      if (fp) return max ? x.f > best.f : x.f < best.f;
      return max ? x.i > best.i : x.i < best.i;
    };
    forEachIndex(r.valid, [&](const std::vector<int64_t>& at) {
      std::vector<int64_t> from = at;
      from[axis] = 0;
      Num best = read(a, from, op.operand(0), op);
      int64_t index = 0;
      for (int64_t j = 1; j < a.valid[axis]; ++j) {
        from[axis] = j;
        Num x = read(a, from, op.operand(0), op);
        if (beyond(x, best)) best = x, index = j;
      }
      size_t i = size_t(flatten(at, r.shape));
      r.elems[i].i = wrapInt(index, r.dtype);
      r.defined[i] = 1;
    });
    set(op.result(), std::move(r));
  }

  // Each run of 32 columns of each valid row sorted as pto-isa's tsort32 sorts: descending
  // by value, equal values by the smaller index (a stable sort of the run, whose indices
  // ascend). The hardware documents no order for NaN; here NaN ranks above +inf, as in
  // torch.topk. Pair j of a row is slots 2j (the value) and 2j + 1 (the index's u32 bits).
  void runSort32(const Op& op) {
    const Tile& x = tile(op.operand(0), op);
    const Tile& ids = tile(op.operand(1), op);
    Tile r = blank(op.result()->type(), op);
    constexpr int64_t kRun = 32;
    struct Entry {
      double value;
      int64_t index;
    };
    auto before = [](const Entry& a, const Entry& b) {
      if (std::isnan(a.value) || std::isnan(b.value)) return std::isnan(a.value) && !std::isnan(b.value);
      return a.value > b.value;
    };
    for (int64_t row = 0; row < x.valid[0]; ++row)
      for (int64_t from = 0; from < x.valid[1]; from += kRun) {
        std::vector<Entry> run;
        for (int64_t c = from; c < std::min(from + kRun, x.valid[1]); ++c)
          run.push_back({read(x, {row, c}, op.operand(0), op).f, read(ids, {row, c}, op.operand(1), op).i});
        std::stable_sort(run.begin(), run.end(), before);
        for (size_t k = 0; k < run.size(); ++k) {
          size_t at = size_t(flatten({row, 2 * (from + int64_t(k))}, r.shape));
          r.elems[at].f = run[k].value;
          r.elems[at + 1].f = bitsToFloat(uint64_t(run[k].index) & 0xffffffffu, DType::F32);
          r.defined[at] = r.defined[at + 1] = 1;
        }
      }
    set(op.result(), std::move(r));
  }

  // The values (even slots) or the indices (odd slots, their bits as i32) of a pair tile.
  void runPairField(const Op& op) {
    const Tile& pairs = tile(op.operand(0), op);
    Tile r = blank(op.result()->type(), op);
    const bool indices = op.kind() == OpKind::PairIndices;
    forEachIndex(r.valid, [&](const std::vector<int64_t>& at) {
      Num slot = read(pairs, {at[0], 2 * at[1] + (indices ? 1 : 0)}, op.operand(0), op);
      size_t i = size_t(flatten(at, r.shape));
      r.elems[i] = indices ? reinterpretBits(slot, DType::F32, DType::I32) : slot;
      r.defined[i] = 1;
    });
    set(op.result(), std::move(r));
  }

  // NumPy's take_along_axis along the last axis: result[i, j] = src[i, index[i, j]] (row 0
  // of a one-row src for every i), over the index's valid extents. With `row_stride` s (the
  // flat form lower-gather writes) the index is i * s + c for column c of row i. An index
  // naming no valid column of its row stops the run: the hardware reads whatever is there
  // (pto-isa's simulator reads 0), so no value would be right. A poison index or source
  // element gives a poison element, as elementwise ops carry poison.
  void runGather(const Op& op) {
    const Tile& src = tile(op.operand(0), op);
    const Tile& index = tile(op.operand(1), op);
    Tile r = blank(op.result()->type(), op);
    const int64_t* stride = op.find(attr::row_stride);
    const bool oneRow = src.shape.size() == 1 || src.shape[0] == 1;
    const int64_t columns = src.valid.back();
    forEachIndex(r.valid, [&](const std::vector<int64_t>& at) {
      const size_t i = size_t(flatten(at, r.shape));
      if (!index.defined[i]) return;
      const int64_t value = index.elems[i].i;
      const int64_t row = oneRow ? 0 : at[0];
      const int64_t column = stride ? int64_t(uint64_t(value) - uint64_t(row) * uint64_t(*stride)) : value;
      if (column < 0 || column >= columns) {  // the column is the index the author's tile holds
        const std::string where = at.size() == 1 ? "element " + std::to_string(at[0])
                                                 : "row " + std::to_string(at[0]) + ", column " + std::to_string(at[1]);
        const std::string rowText = src.shape.size() == 1 ? "the source" : "source row " + std::to_string(row);
        throw RunError(op.loc(), spellingOf(op.kind()) + " index " + std::to_string(column) + " at " + where +
                                     " is outside [0, " + std::to_string(columns) + "), the valid columns of " +
                                     rowText + "; an index must name a column of its source row (the hardware "
                                     "result is undefined there)");
      }
      const std::vector<int64_t> from = src.shape.size() == 1 ? std::vector<int64_t>{column}
                                                              : std::vector<int64_t>{row, column};
      const size_t k = size_t(flatten(from, src.shape));
      r.defined[i] = src.defined[k];
      r.elems[i] = src.elems[k];
    });
    set(op.result(), std::move(r));
  }

  // Operand 1 has extent 1 along `axis` (-1: the last): its one value there combines with
  // every element of operand 0 along that axis.
  void runExpand(const Op& op, int axis) {
    const Tile& a = tile(op.operand(0), op);
    const Tile& b = tile(op.operand(1), op);
    Tile r = blank(op.result()->type(), op);
    const size_t spread = axis < 0 ? r.shape.size() - 1 : size_t(axis);
    forEachIndex(r.valid, [&](const std::vector<int64_t>& at) {
      std::vector<int64_t> c = at;
      c[spread] = 0;
      size_t i = size_t(flatten(at, r.shape));
      size_t bi = size_t(flatten(c, b.shape));
      r.defined[i] = a.defined[i] && b.defined[bi];
      if (r.defined[i]) r.elems[i] = arith(binOpOf(op.kind()), a.elems[i], b.elems[bi], r.dtype, op);
    });
    set(op.result(), std::move(r));
  }

  // [..B, M, K] x [..B, K, N] with NumPy broadcasting of the batch axes; products summed
  // exactly (in double for floats, int64 for integers) and rounded once to the result
  // dtype, added to the accumulator when one is given and `init` does not start afresh.
  void runMatmul(const Op& op, unsigned first) {
    const Tile& lhs = tile(op.operand(first), op);
    const Tile& rhs = tile(op.operand(first + 1), op);
    const Tile* acc = first ? &tile(op.operand(0), op) : nullptr;
    if (acc) {
      const Expr* init = op.find(attr::init);
      if (init && eval(*init, op)) acc = nullptr;
    }
    Tile r = blank(op.result()->type(), op);
    const size_t n = r.shape.size();
    const int64_t k = lhs.valid[lhs.shape.size() - 1];
    auto batchIndex = [](const std::vector<int64_t>& at, const Tile& t) {
      std::vector<int64_t> b(t.shape.size(), 0);
      size_t skip = at.size() - t.shape.size();
      for (size_t i = 0; i + 2 < t.shape.size(); ++i) b[i] = t.shape[i] == 1 ? 0 : at[skip + i];
      return b;
    };
    bool isFloat = isFloatType(r.dtype);
    const bool lhsFloat = isFloatType(lhs.dtype), rhsFloat = isFloatType(rhs.dtype);
    const size_t rhsRow = size_t(rhs.shape.back());  // rhs steps a whole row per K step
    forEachIndex(r.valid, [&](const std::vector<int64_t>& at) {
      std::vector<int64_t> li = batchIndex(at, lhs), ri = batchIndex(at, rhs);
      li[li.size() - 2] = at[n - 2];
      ri[ri.size() - 1] = at[n - 1];
      // Flat positions of K step 0; the loop walks them directly (the hot loop of --run).
      const size_t l0 = size_t(flatten(li, lhs.shape)), r0 = size_t(flatten(ri, rhs.shape));
      double sumF = 0;
      int64_t sumI = 0;
      for (int64_t j = 0; j < k; ++j) {
        const size_t lj = l0 + size_t(j), rj = r0 + size_t(j) * rhsRow;
        if (!lhs.defined[lj] || !rhs.defined[rj]) {  // read() names the poisoned element
          li[li.size() - 1] = j;
          ri[ri.size() - 2] = j;
          read(lhs, li, op.operand(first), op);
          read(rhs, ri, op.operand(first + 1), op);
        }
        const Num x = lhs.elems[lj], y = rhs.elems[rj];
        if (isFloat) sumF += (lhsFloat ? x.f : double(x.i)) * (rhsFloat ? y.f : double(y.i));
        else sumI += x.i * y.i;
      }
      size_t i = size_t(flatten(at, r.shape));
      if (acc) {
        Num a = read(*acc, at, op.operand(0), op);
        if (isFloat) sumF += a.f;
        else sumI += a.i;
      }
      if (isFloat) r.elems[i].f = roundFloat(sumF, r.dtype);
      else r.elems[i].i = wrapInt(sumI, r.dtype);
      r.defined[i] = 1;
    });
    set(op.result(), std::move(r));
  }

  void runTranspose(const Op& op) {
    const Tile& a = tile(op.operand(0), op);
    const auto& axes = op.get(attr::axes);
    Tile r = blank(op.result()->type(), op);
    forEachIndex(a.shape, [&](const std::vector<int64_t>& at) {
      std::vector<int64_t> to = at;
      std::swap(to[size_t(axes[0])], to[size_t(axes[1])]);
      if (!insideValid(r, to)) return;
      size_t i = size_t(flatten(to, r.shape)), j = size_t(flatten(at, a.shape));
      r.elems[i] = a.elems[j];
      r.defined[i] = a.defined[j];
    });
    set(op.result(), std::move(r));
  }

  // The same memory read with another shape (and, for reinterpret_view, dtype):
  // element p of the result is element p of the source in physical row-major order.
  // Between element sizes the bytes are regrouped, little-endian; a result element is
  // defined when every source element it takes bytes from is.
  void runReshape(const Op& op) {
    const Tile& a = tile(op.operand(0), op);
    Tile r = blank(op.result()->type(), op);
    const size_t from = dtypeBytes(a.dtype), to = dtypeBytes(r.dtype);
    forEachIndex(r.valid, [&](const std::vector<int64_t>& at) {
      size_t i = size_t(flatten(at, r.shape));
      if (r.dtype == a.dtype) {
        r.defined[i] = a.defined[i];
        r.elems[i] = a.elems[i];
        return;
      }
      uint64_t bits = 0;
      bool defined = true;
      for (size_t b = to; b-- > 0;) {  // byte b of the result element, most significant first
        size_t byte = i * to + b, src = byte / from;
        uint64_t word = isFloatType(a.dtype) ? floatBits(a.elems[src].f, a.dtype) : uint64_t(a.elems[src].i);
        bits = (bits << 8) | ((word >> (8 * (byte % from))) & 0xff);
        defined = defined && a.defined[src];
      }
      r.defined[i] = defined;
      Num n;
      n.i = int64_t(bits);
      r.elems[i] = reinterpretBits(n, DType::I64, r.dtype);
    });
    set(op.result(), std::move(r));
  }

  static Num reinterpretBits(Num n, DType from, DType to) {
    uint64_t bits = isFloatType(from) ? floatBits(n.f, from) : uint64_t(n.i);
    uint64_t mask = dtypeBytes(to) >= 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * dtypeBytes(to))) - 1;
    Num r;
    if (isFloatType(to)) r.f = bitsToFloat(bits & mask, to);
    else r.i = wrapInt(int64_t(bits & mask), to);
    return r;
  }

  // Copies the `region` box from `from` at `fromAt` to `to` at `toAt` (the offsets of a
  // slice or an assemble); an element is defined where its source is and it lies inside
  // the destination's valid extents.
  void copyRegion(const Tile& from, const std::vector<int64_t>& fromAt, Tile& to, const std::vector<int64_t>& toAt,
                  const std::vector<int64_t>& region, const Op& op) {
    forEachIndex(region, [&](const std::vector<int64_t>& at) {
      std::vector<int64_t> src = at, dst = at;
      for (size_t i = 0; i < at.size(); ++i) src[i] += fromAt[i], dst[i] += toAt[i];
      for (size_t i = 0; i < at.size(); ++i)
        if (src[i] >= from.shape[i] || dst[i] >= to.shape[i])
          throw RunError(op.loc(), spellingOf(op.kind()) + " moves element " + ir::shapeText(src) + " of the " + ir::shapeText(from.shape) +
                                       " tile to " + ir::shapeText(dst) + " of the " + ir::shapeText(to.shape) + " tile, past one of them");
      size_t i = size_t(flatten(dst, to.shape)), j = size_t(flatten(src, from.shape));
      to.elems[i] = from.elems[j];
      to.defined[i] = from.defined[j] && insideValid(from, src) && insideValid(to, dst);
    });
  }

  void runSlice(const Op& op) {
    const Tile& a = tile(op.operand(0), op);
    Tile r = blank(op.result()->type(), op);
    copyRegion(a, evalAll(op.get(attr::offsets), op), r, std::vector<int64_t>(r.shape.size(), 0),
               r.valid, op);
    set(op.result(), std::move(r));
  }

  // The element offsets of slot `index` of a grid whose slots are `slot`-shaped.
  std::vector<int64_t> slotOffsets(const Op& op, const std::vector<int64_t>& slot) {
    std::vector<int64_t> index = evalAll(op.get(attr::index), op);
    const auto& grid = op.get(attr::grid);
    for (size_t axis = 0; axis < 2; ++axis)
      if (index[axis] < 0 || index[axis] >= grid[axis])
        throw RunError(op.loc(), spellingOf(op.kind()) + " names slot [" + std::to_string(index[0]) + ", " +
                                     std::to_string(index[1]) + "] of a " + ir::shapeText(grid) + " grid");
    return {index[0] * slot[0], index[1] * slot[1]};
  }

  void runRegionPart(const Op& op) {
    const Tile& parent = tile(op.operand(0), op);
    Tile r = blank(op.result()->type(), op);
    copyRegion(parent, slotOffsets(op, r.shape), r, std::vector<int64_t>(2, 0), r.valid, op);
    set(op.result(), std::move(r));
  }

  void runRegionInsert(const Op& op) {
    Tile r = tiedTile(op);
    const Tile& slot = tile(op.operand(1), op);
    copyRegion(slot, std::vector<int64_t>(2, 0), r, slotOffsets(op, slot.shape), slot.valid, op);
    set(op.result(), std::move(r));
  }

  void runAssemble(const Op& op) {
    Tile r = tiedTile(op);
    const Tile& src = tile(op.operand(1), op);
    r.valid = evalAll(op.result()->type().valid(), op);
    copyRegion(src, std::vector<int64_t>(src.shape.size(), 0), r, evalAll(op.get(attr::offsets), op),
               src.valid, op);
    set(op.result(), std::move(r));
  }

  std::unordered_map<const Op*, size_t> positions;  // see position()
  Pipes* pipes = nullptr;  // a split kernel's, shared with the other section
  int section = 0;         // 0: the cube section, 1: the vector one

  // ---- the launch ----
  int64_t block = 0, blocks = 1, subblock = 0, subblocks = 1;
  Races* races = nullptr;  // when the launch has several units

  int32_t unit() const { return int32_t(block * subblocks + subblock); }

  Scalar launchValue(const Op& op) const {
    Num n;
    switch (op.kind()) {
      case OpKind::BlockIdx: n.i = block; break;
      case OpKind::BlockNum: n.i = blocks; break;
      case OpKind::SubblockIdx: n.i = subblock; break;
      default: n.i = subblocks; break;
    }
    return Scalar{DType::Index, n};
  }

  // The access record of tensor `x`, when the launch has several units; made on first use.
  Races::Shadow* shadowOf(const Tensor& x) {
    if (!races) return nullptr;
    std::lock_guard<std::mutex> lock(races->m);
    auto it = races->shadows.find(x.data.get());
    if (it == races->shadows.end()) it = races->shadows.emplace(x.data.get(), Races::Shadow(x.data->elems.size())).first;
    return &it->second;  // unordered_map nodes stay put
  }

  // Records in `s` (shadowOf the tensor `op` names in operand `operand`) that this unit reads
  // or writes element `i`; a fault when another unit wrote it, or (for a write) read it.
  void touch(Races::Shadow* shadow, const Op& op, unsigned operand, const Tensor& x, size_t i, bool write) {
    if (!shadow) return;
    std::unique_lock<std::mutex> lock(races->m, std::defer_lock);
    if (pipes) lock.lock();
    Races::Shadow& s = *shadow;
    const int32_t me = unit();
    if (s.writer[i] != Races::kNone && s.writer[i] != me) race(op, operand, x, i, write, s.writer[i], *s.writeOp[i], true);
    if (write) {
      if (s.reader[i] != Races::kNone && s.reader[i] != me) race(op, operand, x, i, true, s.reader[i], *s.readOp[i], false);
      if (s.otherReader[i] != Races::kNone && s.otherReader[i] != me)
        race(op, operand, x, i, true, s.otherReader[i], *s.otherReadOp[i], false);
      s.writer[i] = me;
      s.writeOp[i] = &op;
    } else if (s.reader[i] == Races::kNone) {
      s.reader[i] = me;
      s.readOp[i] = &op;
    } else if (s.reader[i] != me && s.otherReader[i] == Races::kNone) {
      s.otherReader[i] = me;
      s.otherReadOp[i] = &op;
    }
  }

  [[noreturn]] void race(const Op& op, unsigned operand, const Tensor& x, size_t i, bool write, int32_t other,
                         const Op& otherOp, bool otherWrote) const {
    const std::string what = " element " + indexText(int64_t(i), x.dims) + " of " + describeByName(op.operand(operand));
    const std::string mine = races->unitName(unit()) + (write ? " writes" : " reads") + what + " with this " +
                             spellingOf(op.kind());
    const std::string theirs = races->unitName(other) + (otherWrote ? " writes" : " reads") + " it with the " +
                               spellingOf(otherOp.kind()) + " noted";
    throw RaceError(op.loc(), mine + ", and " + theirs + "; blocks run in no set order, so the result would depend on it. "
                              "Give each block elements of its own (a parallel loop splits its iterations over the blocks)",
                    otherOp.loc(), races->unitName(other) + "'s " + spellingOf(otherOp.kind()) + " of the element");
  }

  // ---- a kernel split between the cores ----

  Pipes::Pipe& pipeOf(const Op& op) {
    if (pipes) {
      auto it = pipes->pipes.find(op.get(attr::pipe));
      if (it != pipes->pipes.end()) return it->second;
    }
    throw RunError(op.loc(), spellingOf(op.kind()) + " uses pipe " + std::to_string(op.get(attr::pipe)) +
                                   ", which no pipe.init of the kernel declares");
  }

  // Waits (holding `lock`) until `ready` holds; a fault when no section can run any more.
  template <class Ready>
  void waitFor(std::unique_lock<std::mutex>& lock, const Op& op, Ready ready) {
    while (!ready()) {
      if (pipes->failure) throw Pipes::Cancelled{};
      if (!pipes->othersCanRun(section)) throw stuck(op);
      pipes->waiting[section] = {&op, ready};
      pipes->changed.wait(lock);
      pipes->waiting.erase(section);
    }
    if (pipes->failure) throw Pipes::Cancelled{};
  }

  // The fault when no section can go on: at the cube section's op when both wait (the same
  // report whichever thread finds it), naming the other's.
  RunError stuck(const Op& op) const {
    auto what = [](const Op& o) { return o.kind() == OpKind::PipePush ? "a free slot" : "a tile"; };
    auto who = [&](int s, const Op& o) {
      return std::string("the ") + sectionName(s) + " section's " + spellingOf(o.kind()) + " on pipe " +
             std::to_string(o.get(attr::pipe));
    };
    const int other = 1 - section;
    auto peer = pipes->waiting.find(other);
    if (peer != pipes->waiting.end()) {
      const bool mineFirst = section == 0;
      const Op& first = mineFirst ? op : *peer->second.op;
      const Op& second = mineFirst ? *peer->second.op : op;
      return RunError(first.loc(), "deadlock: " + who(0, first) + " waits for " + what(first) + " while " +
                                       who(1, second) + " waits for " + what(second) +
                                       "; each pop must follow its push in both sections' order, with a slot per "
                                       "tile held at once");
    }
    return RunError(op.loc(), who(section, op) + " waits for " + what(op) + ", but the " + sectionName(other) +
                                  " section has ended without " +
                                  (op.kind() == OpKind::PipePush ? "popping and freeing one" : "pushing it") +
                                  "; every push needs its pop (and free) in the other section");
  }

  void runPipeOp(const Op& op) {
    if (op.kind() == OpKind::PipeInit) {
      if (!pipes) throw RunError(op.loc(), "pipe.init stands outside a split kernel's prologue");
      pipes->pipes[op.get(attr::pipe)].slots = op.get(attr::slots);
      return;
    }
    Pipes::Pipe& p = pipeOf(op);
    std::unique_lock<std::mutex> lock(pipes->m);
    switch (op.kind()) {
      case OpKind::PipePush: {
        Tile t = tile(op.operand(0), op);
        waitFor(lock, op, [&] { return int64_t(p.queued.size() + p.held.size()) < p.slots; });
        p.queued.push_back({std::move(t), &op});
        break;
      }
      case OpKind::PipePop:
        waitFor(lock, op, [&] { return !p.queued.empty(); });
        set(op.result(), std::move(p.queued.front().tile));
        p.queued.pop_front();
        p.held.push_back(op.result());
        break;
      default:  // PipeFree
        if (p.held.empty())
          throw RunError(op.loc(), "pipe free on pipe " + std::to_string(op.get(attr::pipe)) +
                                       " frees no slot: no popped tile of it is held; free once after each pop");
        // The slot may be written again: the popped tile is gone.
        if (auto it = env.find(p.held.front()); it != env.end())
          if (auto* t = std::get_if<Tile>(&it->second)) std::fill(t->defined.begin(), t->defined.end(), 0);
        p.held.pop_front();
        break;
    }
    pipes->changed.notify_all();
  }
};

Interpreter::Interpreter(const Function& f, RunLimits limits) : f_(f), limits_(limits) {}

std::string indexText(int64_t flat, const std::vector<int64_t>& dims) {
  std::vector<int64_t> at(dims.size());
  for (size_t i = dims.size(); i-- > 0;) {
    at[i] = dims[i] ? flat % dims[i] : 0;
    flat = dims[i] ? flat / dims[i] : 0;
  }
  return ir::shapeText(at);
}

Diagnostic& reportFault(DiagnosticEngine& diags, const RunError& e) {
  const auto* race = dynamic_cast<const RaceError*>(&e);
  Diagnostic& d = diags.report(race ? Diag::BlockRace : Diag::RunFault, e.loc(), e.what());
  if (race) d.notes.push_back({race->otherNote(), race->otherLoc()});
  return d;
}

namespace {

bool isSection(const Op& op) { return op.kind() == OpKind::CoreCube || op.kind() == OpKind::CoreVector; }

// 0 .. n-1 ascending, or shuffled (Fisher-Yates on splitmix64: the same order everywhere).
std::vector<int64_t> unitOrder(int64_t n, std::optional<uint64_t> seed) {
  std::vector<int64_t> order(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) order[size_t(i)] = i;
  if (!seed) return order;
  uint64_t state = *seed;
  auto next = [&state] {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[size_t(next() % i)]);
  return order;
}

}  // namespace

// Every unit of the launch in turn, each on the same tensors; the work limit is for them all.
void Interpreter::run(const std::vector<RtValue>& args) {
  const int64_t blocks = std::max<int64_t>(f_.blocks(), 1), subblocks = std::max<int64_t>(f_.subblocks(), 1);
  Races races;
  races.subblocks = subblocks;
  const auto& ops = f_.body().ops();
  const bool split = std::any_of(ops.begin(), ops.end(), [](const auto& op) { return isSection(*op); });
  int64_t steps = 0;
  for (int64_t u : unitOrder(blocks * subblocks, limits_.blockOrderSeed)) {
    Impl impl{f_, limits_, {}, steps, {}, {}};
    impl.block = u / subblocks, impl.subblock = u % subblocks;
    impl.blocks = blocks, impl.subblocks = subblocks;
    impl.races = blocks * subblocks > 1 ? &races : nullptr;
    for (unsigned i = 0; i < f_.numParams() && i < args.size(); ++i) impl.env[f_.param(i)] = args[i];
    if (split) runSplit(impl);
    else impl.runBlock(f_.body(), nullptr);
    steps = impl.steps;
  }
}

// A split kernel: its prologue (the pipes), then each section on a thread of its own. Each
// section starts from the work done so far, and what the sections did is added to it after.
void Interpreter::runSplit(Impl& prologue) {
  Pipes pipes;
  prologue.pipes = &pipes;
  std::vector<const Op*> sections;
  for (const auto& op : f_.body().ops()) {
    if (isSection(*op)) {
      sections.push_back(op.get());
      continue;
    }
    prologue.step(*op);
    prologue.runOp(*op);
  }
  for (const Op* s : sections) pipes.ended[s->kind() == OpKind::CoreCube ? 0 : 1] = false;
  std::vector<std::thread> threads;
  std::vector<int64_t> used(sections.size(), 0);
  for (size_t i = 0; i < sections.size(); ++i) {
    threads.emplace_back([&pipes, &prologue, &used, i, s = sections[i]] {
      Impl impl{prologue.f, prologue.limits, prologue.env, prologue.steps, {}, {}};
      impl.pipes = &pipes;
      impl.block = prologue.block, impl.blocks = prologue.blocks;
      impl.subblock = prologue.subblock, impl.subblocks = prologue.subblocks;
      impl.races = prologue.races;
      impl.section = s->kind() == OpKind::CoreCube ? 0 : 1;
      try {
        impl.runBlock(s->body(), nullptr);
      } catch (const Pipes::Cancelled&) {
      } catch (...) {
        std::lock_guard<std::mutex> lock(pipes.m);
        pipes.fail(std::current_exception());
      }
      used[i] = impl.steps - prologue.steps;
      std::lock_guard<std::mutex> lock(pipes.m);
      pipes.ended[impl.section] = true;
      pipes.changed.notify_all();
    });
  }
  for (std::thread& t : threads) t.join();
  if (pipes.failure) std::rethrow_exception(pipes.failure);
  for (size_t i = 0; i < sections.size(); ++i) prologue.charge(*sections[i], used[i]);
  for (const auto& [id, p] : pipes.pipes) {
    if (!p.queued.empty())
      throw RunError(p.queued.front().push->loc(), "pipe push on pipe " + std::to_string(id) +
                                                       " sends a tile that no pipe pop takes before the kernel ends; "
                                                       "pop every pushed tile in the other section");
    if (!p.held.empty())
      throw RunError(p.held.front()->definingOp()->loc(), "pipe pop on pipe " + std::to_string(id) +
                                                " takes a slot that no pipe free gives back before the kernel ends; "
                                                "free each popped slot after its tile's last use");
  }
}

}  // namespace tilec::interp
