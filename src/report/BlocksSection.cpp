// The blocks of the launch: for a kernel that runs as several blocks (or sub-blocks) and
// reads its block index, the window of every tensor each block loads and stores, and
// whether two blocks can touch one element, one of them writing (the race the interpreter
// reports as E0804). Nothing is run: each window is worked out on the IR's expressions
// with the launch values fixed to the block's (Expr::substitute), the loop variables over
// their share of the iterations (bounds()). It is the bounding box over the loops around
// the access, except that an axis whose offset steps by a constant in one loop keeps its
// separate runs, so the interleaved rows of a cyclic loop are not mistaken for an overlap;
// where the bounds are not exact (a loop variable divided and taken modulo) and the loops
// are short, their iterations' boxes are listed instead (refine). Runtime sizes stay
// symbolic: an axis's ends are then the expressions the access takes at its loops' first
// and last iterations, simplified.
// Cost: the accesses times the units, for every unit (the check needs them all; the page
// lists at most kHead + kTail) and times at most kMaxIterations where refined, plus the
// pairs of windows that meet on their first axis.
#include <algorithm>
#include <map>
#include <optional>

#include "ir/NdShape.h"
#include "report/Panels.h"
#include "report/Report.h"

namespace tilec::report {
namespace {

using ir::Expr;
using ir::ExprKind;
using ir::Interval;
using ir::OpKind;
using ir::Value;

constexpr int64_t kListAll = 32;         // units listed one by one up to this many
constexpr int64_t kHead = 8, kTail = 4;  // else the first and the last ones
constexpr size_t kMaxFindings = 4;       // overlaps named per tensor
constexpr int64_t kMaxBoxes = 64;        // runs drawn per window; more are drawn as their bounding box
constexpr size_t kMaxIterations = 64;    // iterations run to make an inexact window exact

// The units of the launch: block b's sub-block s is unit b * subblocks + s, as the
// interpreter numbers them.
struct Launch {
  int64_t blocks, subblocks;
  int64_t units() const { return blocks * subblocks; }
  std::string name(int64_t u) const {
    const std::string b = "block " + std::to_string(u / subblocks);
    return subblocks > 1 ? b + " sub-block " + std::to_string(u % subblocks) : b;
  }
  std::string label(int64_t u) const {  // short, for the drawing
    const std::string b = "b" + std::to_string(u / subblocks);
    return subblocks > 1 ? b + "." + std::to_string(u % subblocks) : b;
  }
  // The units the page lists: all, or the first kHead and the last kTail.
  std::vector<int64_t> listed() const {
    std::vector<int64_t> out;
    for (int64_t u = 0; u < units(); ++u)
      if (units() <= kListAll || u < kHead || u >= units() - kTail) out.push_back(u);
    return out;
  }
};

// A load or store, with the loops and branches around it (outermost first; for a branch,
// the region the access is in).
struct Access {
  const ir::Op* op;
  std::vector<std::pair<const ir::Op*, unsigned>> around;
  bool isStore() const { return op->kind() == OpKind::Store; }
  const Value* tensor() const { return op->operand(isStore() ? 1 : 0); }
};

void collect(const ir::Block& b, std::vector<std::pair<const ir::Op*, unsigned>>& around, std::vector<Access>& out) {
  for (const auto& op : b.ops()) {
    if (op->kind() == OpKind::Load || op->kind() == OpKind::Store) out.push_back({op.get(), around});
    for (unsigned r = 0; r < op->numRegions(); ++r) {
      const bool scoped = op->kind() == OpKind::For || op->kind() == OpKind::If;
      if (scoped) around.push_back({op.get(), r});
      collect(op->body(r), around, out);
      if (scoped) around.pop_back();
    }
  }
}

// One axis of a window. In numbers: `runs` runs of `width` elements from `lo`, `period`
// apart (one run when they touch), all inside [lo, hi). Otherwise `loText`/`hiText` are
// the ends as expressions of the runtime sizes; runs 0 is runs whose count is open.
struct Axis {
  int64_t lo = 0, hi = 0, width = 0, period = 0, runs = 1;
  std::string loText, hiText;
};

struct Window {
  bool runs = true;   // false: the access has no iteration in this unit
  bool known = true;  // the ends are numbers
  bool exact = true;  // the elements touched are exactly the product of the axes' runs
  std::vector<Axis> axes;
  std::vector<const Value*> runtime;      // the values it depends on other than its loops' variables
  std::vector<std::vector<Axis>> pieces;  // when not empty, the window is exactly these boxes
};

// A loop around an access, its bounds with the launch values fixed.
struct Loop {
  Expr lb, ub, step;
  Interval range;                // the values of its variable
  std::optional<int64_t> trips;  // when lb, ub and step are constants
};

// Rewrites `a + min(x, y)` into `min(a + x, a + y)` (likewise max), so that a window's end
// such as `%r + min(16, %M - %r)` cancels to `min(%r + 16, %M)`, plainly non-decreasing in %r.
Expr distribute(const Expr& e) {
  if (e.kind() != ExprKind::Add) return e;
  const std::vector<Expr>& ops = e.operands();
  for (size_t i = 0; i < ops.size(); ++i) {
    if (ops[i].kind() != ExprKind::Min && ops[i].kind() != ExprKind::Max) continue;
    Expr rest = Expr::constant(0);
    for (size_t j = 0; j < ops.size(); ++j)
      if (j != i) rest = rest + ops[j];
    const bool isMin = ops[i].kind() == ExprKind::Min;
    Expr out;
    for (const Expr& x : ops[i].operands()) {
      const Expr term = distribute(rest + x);
      out = !out.valid() ? term : isMin ? Expr::min(out, term) : Expr::max(out, term);
    }
    return out;
  }
  return e;
}

// `e` rebuilt from `ops` (its operands, simplified) through the canonicalizing factories.
Expr rebuild(const Expr& e, const std::vector<Expr>& ops) {
  auto fold = [&](Expr (*f)(Expr, Expr)) {
    Expr out = ops[0];
    for (size_t i = 1; i < ops.size(); ++i) out = f(out, ops[i]);
    return out;
  };
  switch (e.kind()) {
    case ExprKind::Add:
      return fold(&Expr::add);
    case ExprKind::Mul:
      return fold(&Expr::mul);
    case ExprKind::FloorDiv:
      return Expr::floorDiv(ops[0], ops[1]);
    case ExprKind::CeilDiv:
      return Expr::ceilDiv(ops[0], ops[1]);
    case ExprKind::Mod:
      return Expr::mod(ops[0], ops[1]);
    case ExprKind::Min:
      return fold(&Expr::min);
    case ExprKind::Max:
      return fold(&Expr::max);
    case ExprKind::Cmp:
      return Expr::cmp(e.cmpKind(), ops[0], ops[1]);
    case ExprKind::And:
      return fold(&Expr::logicalAnd);
    case ExprKind::Or:
      return fold(&Expr::logicalOr);
    case ExprKind::Not:
      return Expr::logicalNot(ops[0]);
    case ExprKind::Select:
      return Expr::select(ops[0], ops[1], ops[2]);
    default:
      return e;
  }
}

// `c * ceildiv(x, c)`, x rounded up to a multiple of c, as (c, x); nullopt for another form.
std::optional<std::pair<int64_t, Expr>> roundedUp(const Expr& e) {
  if (e.kind() != ExprKind::Mul || e.operands().size() != 2 || !e.operands()[0].isConst()) return std::nullopt;
  const Expr& q = e.operands()[1];
  const int64_t c = e.operands()[0].constValue();
  if (c <= 0 || q.kind() != ExprKind::CeilDiv || q.operands()[1] != Expr::constant(c)) return std::nullopt;
  return std::make_pair(c, q.operands()[0]);
}

// a >= b for every size.
bool atLeast(const Expr& a, const Expr& b, const ir::VarRanges& sizes) {
  if (ir::prove(ir::CmpKind::GE, a, b, sizes).value_or(false)) return true;
  const auto r = roundedUp(a);
  return r && r->second == b;
}

// A term of a sum as its coefficient and the rest.
std::pair<int64_t, Expr> termOf(const Expr& t) {
  if (t.kind() == ExprKind::Mul && t.operands().size() == 2 && t.operands()[0].isConst())
    return {t.operands()[0].constValue(), t.operands()[1]};
  return {1, t};
}

// In the terms of a sum: k * x - k * c * (x / c) is k * (x % c), and k * c * (x / c) +
// k * (x % c) is k * x.
void foldDivisions(std::vector<Expr>& terms) {
  for (size_t i = 0; i < terms.size(); ++i) {
    const auto [ki, div] = termOf(terms[i]);
    if (div.kind() != ExprKind::FloorDiv || !div.operands()[1].isConst()) continue;
    const Expr x = div.operands()[0], c = div.operands()[1];
    for (size_t j = 0; j < terms.size(); ++j) {
      const auto [kj, other] = termOf(terms[j]);
      Expr folded;
      if (other == x && ki == -kj * c.constValue())
        folded = Expr::mod(x, c) * kj;
      else if (other == Expr::mod(x, c) && ki == kj * c.constValue())
        folded = x * kj;
      else
        continue;
      terms.erase(terms.begin() + long(std::max(i, j))), terms.erase(terms.begin() + long(std::min(i, j)));
      terms.push_back(folded);
      i = size_t(-1);
      break;
    }
  }
}

// A runtime size's expression made shorter for a reader, knowing what the canonical form
// does not: sizes are not negative (`max(0, ceildiv(%M, 16))` is `ceildiv(%M, 16)`),
// `x - x / c * c` is `x % c` (foldDivisions), rounding a min up is the min of the
// roundings, and a rounded-up x is at least x. The share of a blocked loop is full of
// them; with them, the end of a block's rows is `min(%M, <where the next block starts>)`.
Expr simplify(const Expr& e, const ir::VarRanges& sizes) {
  if (e.operands().empty()) return e;
  std::vector<Expr> ops;
  for (const Expr& o : e.operands()) ops.push_back(simplify(o, sizes));
  const Expr built = rebuild(e, ops);
  if (const auto r = roundedUp(built); r && r->second.kind() == ExprKind::Min) {
    Expr out;
    for (const Expr& x : r->second.operands()) {
      const Expr each = Expr::ceilDiv(x, Expr::constant(r->first)) * r->first;
      out = out.valid() ? Expr::min(out, each) : each;
    }
    return simplify(out, sizes);
  }
  if (e.kind() == ExprKind::Min || e.kind() == ExprKind::Max) {
    const bool isMin = e.kind() == ExprKind::Min;
    std::vector<Expr> flat;
    for (const Expr& o : ops)
      if (o.kind() == e.kind())
        flat.insert(flat.end(), o.operands().begin(), o.operands().end());
      else
        flat.push_back(o);
    for (size_t i = 0; i < flat.size() && flat.size() > 1;) {
      bool dominated = false;
      for (size_t j = 0; j < flat.size() && !dominated; ++j)
        dominated = j != i && (isMin ? atLeast(flat[i], flat[j], sizes) : atLeast(flat[j], flat[i], sizes));
      if (dominated)
        flat.erase(flat.begin() + long(i));
      else
        ++i;
    }
    return rebuild(e, flat);
  }
  if (e.kind() == ExprKind::Add) foldDivisions(ops);
  return rebuild(e, ops);
}

// +1 when `e` is non-decreasing in `v`, -1 when non-increasing, 0 when it does not depend
// on it; nullopt when that is not plain from its form.
std::optional<int> monotone(const Expr& e, const Value* v) {
  if (!e.dependsOn(v)) return 0;
  auto combine = [&](const std::vector<Expr>& ops, int sign) -> std::optional<int> {
    int out = 0;
    for (const Expr& o : ops) {
      const std::optional<int> m = monotone(o, v);
      if (!m) return std::nullopt;
      if (*m == 0) continue;
      if (out != 0 && out != *m * sign) return std::nullopt;
      out = *m * sign;
    }
    return out;
  };
  const std::vector<Expr>& ops = e.operands();
  switch (e.kind()) {
    case ExprKind::Var:
      return 1;
    case ExprKind::Add:
    case ExprKind::Min:
    case ExprKind::Max:
      return combine(ops, 1);
    case ExprKind::Mul: {
      // A coefficient times one factor: the canonical form puts the constant first.
      if (ops.size() != 2 || !ops[0].isConst()) return std::nullopt;
      return combine({ops[1]}, ops[0].constValue() < 0 ? -1 : 1);
    }
    case ExprKind::FloorDiv:
    case ExprKind::CeilDiv:
      if (!ops[1].isConst() || ops[1].constValue() <= 0) return std::nullopt;
      return combine({ops[0]}, 1);
    default:
      return std::nullopt;
  }
}

// The windows of one unit: the launch values fixed to its own.
class UnitWindows {
 public:
  UnitWindows(const KernelView& kernel, const Launch& launch, int64_t unit)
      : kernel_(kernel), launch_(launch), unit_(unit) {}

  Window window(const Access& a) const {
    Window w;
    std::map<const Value*, Loop> loops;
    const ir::VarRanges ranges = [&](const Value* v) {
      auto it = loops.find(v);
      return it == loops.end() ? Interval{} : it->second.range;
    };
    for (const auto& [op, region] : a.around) {
      if (op->kind() == OpKind::If) {
        const Expr c = fix(op->get(ir::attr::cond));
        const Interval taken = ir::bounds(c, ranges);
        if (region == 0 ? (taken.hi && *taken.hi == 0) : (taken.lo && *taken.lo > 0)) w.runs = false;
        w.known &= runtimeFree(c, loops, w);
        w.exact &= c.isConst();
        continue;
      }
      const Value* v = op->body().arg(0);
      Loop l{fix(op->get(ir::attr::lb)), fix(op->get(ir::attr::ub)), fix(op->get(ir::attr::step)), {}, {}};
      for (const Expr* e : {&l.lb, &l.ub, &l.step}) w.known &= runtimeFree(*e, loops, w);
      if (l.lb.isConst() && l.ub.isConst() && l.step.isConst() && l.step.constValue() > 0) {
        const int64_t lb = l.lb.constValue(), step = l.step.constValue();
        l.trips = std::max<int64_t>(0, (l.ub.constValue() - lb + step - 1) / step);
        if (*l.trips == 0) w.runs = false;
        l.range = {lb, lb + step * std::max<int64_t>(0, *l.trips - 1)};
      } else {
        const Interval lo = ir::bounds(l.lb, ranges), hi = ir::bounds(l.ub, ranges);
        l.range = {lo.lo, hi.hi ? std::optional<int64_t>(*hi.hi - 1) : std::nullopt};
        if (l.range.lo && l.range.hi && *l.range.lo > *l.range.hi) w.runs = false;
        w.exact = false;
      }
      loops[v] = l;
    }
    const std::vector<Expr>& offsets = a.op->get(ir::attr::offsets);
    const std::vector<Expr> extents = nd::accessWindow(*a.op);
    std::map<const Value*, size_t> stepped;  // a loop variable and the axis it steps
    for (size_t k = 0; k < offsets.size() && k < extents.size(); ++k) {
      const Expr off = fix(offsets[k]), ext = fix(extents[k]);
      w.known &= runtimeFree(off, loops, w);  // both run: each records what it finds in w
      w.known &= runtimeFree(ext, loops, w);
      w.axes.push_back(axis(off, ext, loops, ranges, a, w, stepped, k));
    }
    if (w.known && w.runs && !w.exact) refine(a, w);
    return w;
  }

 private:
  Expr fix(const Expr& e) const {
    return e.substitute([&](const Value* v) -> Expr {
      const ir::Op* def = v->definingOp();
      if (!def) return Expr();
      switch (def->kind()) {
        case OpKind::BlockIdx:
          return Expr::constant(unit_ / launch_.subblocks);
        case OpKind::BlockNum:
          return Expr::constant(launch_.blocks);
        case OpKind::SubblockIdx:
          return Expr::constant(unit_ % launch_.subblocks);
        case OpKind::SubblockNum:
          return Expr::constant(launch_.subblocks);
        default:
          return Expr();
      }
    });
  }

  // No value left in `e` but the loops' variables: its numbers are known here. The others
  // are noted in `w`.
  static bool runtimeFree(const Expr& e, const std::map<const Value*, Loop>& loops, Window& w) {
    bool free = true;
    for (const Value* v : e.vars())
      if (!loops.count(v)) {
        free = false;
        if (std::find(w.runtime.begin(), w.runtime.end(), v) == w.runtime.end()) w.runtime.push_back(v);
      }
    return free;
  }

  Axis axis(const Expr& off, const Expr& ext, const std::map<const Value*, Loop>& loops, const ir::VarRanges& ranges,
            const Access& a, Window& w, std::map<const Value*, size_t>& stepped, size_t k) const {
    Axis x;
    const std::optional<std::pair<const Value*, int64_t>> step = stepOf(off, loops);
    if (!w.known) {
      const std::optional<Expr> lo = symbolicEnd(off, a, loops, false), hi = symbolicEnd(off + ext, a, loops, true);
      x.loText = lo ? kernel_.expr(*lo) : "?";
      x.hiText = hi ? kernel_.expr(*hi) : "?";
      // Runs of a bounded size a constant distance apart, from a known start: only their
      // count is open (and the last one may be shorter, as the end says).
      const Interval width = ir::bounds(ext, ranges);
      if (step && width.hi && step->second > *width.hi && lo && lo->isConst())
        x.lo = lo->constValue(), x.width = *width.hi, x.period = step->second, x.runs = 0;
      return x;
    }
    const Interval lo = ir::bounds(off, ranges), hi = ir::bounds(off + ext, ranges), width = ir::bounds(ext, ranges);
    if (!lo.lo || !hi.hi || !width.hi) {  // unbounded although nothing is a runtime value
      w.known = false;
      return axis(off, ext, loops, ranges, a, w, stepped, k);
    }
    x.lo = *lo.lo, x.hi = std::max(*lo.lo, *hi.hi), x.width = x.hi - x.lo;
    x.loText = std::to_string(x.lo), x.hiText = std::to_string(x.hi);
    w.exact &= width.isConst();
    if (off.vars().empty()) return x;
    const Loop* l = step ? &loops.at(step->first) : nullptr;
    if (!l || !l->trips || !width.isConst()) {
      w.exact = false;
      return x;
    }
    w.exact &= stepped.emplace(step->first, k).second;  // two axes stepped by one loop: a diagonal, not a box
    if (step->second > *width.lo && *l->trips > 1) x.width = *width.lo, x.period = step->second, x.runs = *l->trips;
    return x;
  }

  // When the bounds are not exact (a loop variable divided and taken modulo, say) and the
  // loops have few iterations, the box of each iteration: the window is then exactly their
  // union, and its bounding box theirs.
  void refine(const Access& a, Window& w) const {
    std::vector<std::vector<Axis>> boxes;
    std::map<const Value*, int64_t> at;
    size_t budget = kMaxIterations;
    if (!iterate(a, 0, at, boxes, budget)) return;
    if (boxes.empty()) {  // no iteration passes the branches around the access
      w.runs = false;
      return;
    }
    for (size_t k = 0; k < w.axes.size(); ++k) {
      Axis& x = w.axes[k];
      x = boxes[0][k];
      for (const std::vector<Axis>& b : boxes) x.lo = std::min(x.lo, b[k].lo), x.hi = std::max(x.hi, b[k].hi);
      x.width = x.hi - x.lo, x.loText = std::to_string(x.lo), x.hiText = std::to_string(x.hi);
    }
    w.pieces = std::move(boxes);
    w.exact = true;
  }

  // Runs the loops around `a` from the `depth`-th on with the outer variables at `at`,
  // adding each iteration's box to `boxes` (once); false when a value is not a constant or
  // the budget of iterations runs out.
  bool iterate(const Access& a, size_t depth, std::map<const Value*, int64_t>& at,
               std::vector<std::vector<Axis>>& boxes, size_t& budget) const {
    auto value = [&](const Expr& e) {
      return fix(e).substitute([&](const Value* v) { return at.count(v) ? Expr::constant(at[v]) : Expr(); }).asConst();
    };
    if (depth == a.around.size()) {
      std::vector<Axis> box;
      const std::vector<Expr>& offsets = a.op->get(ir::attr::offsets);
      const std::vector<Expr> extents = nd::accessWindow(*a.op);
      for (size_t k = 0; k < offsets.size() && k < extents.size(); ++k) {
        const std::optional<int64_t> off = value(offsets[k]), ext = value(extents[k]);
        if (!off || !ext) return false;
        box.push_back({*off, *off + *ext, *ext, 0, 1, "", ""});
      }
      auto same = [&](const std::vector<Axis>& b) {
        return std::equal(b.begin(), b.end(), box.begin(),
                          [](const Axis& x, const Axis& y) { return x.lo == y.lo && x.hi == y.hi; });
      };
      if (std::none_of(boxes.begin(), boxes.end(), same)) boxes.push_back(std::move(box));
      return true;
    }
    const auto [op, region] = a.around[depth];
    if (op->kind() == OpKind::If) {
      const std::optional<int64_t> c = value(op->get(ir::attr::cond));
      if (!c) return false;
      return (*c != 0) != (region == 0) || iterate(a, depth + 1, at, boxes, budget);
    }
    const std::optional<int64_t> lb = value(op->get(ir::attr::lb)), ub = value(op->get(ir::attr::ub)),
                                 step = value(op->get(ir::attr::step));
    if (!lb || !ub || !step || *step <= 0) return false;
    const Value* v = op->body().arg(0);
    for (int64_t i = *lb; i < *ub; i += *step) {
      if (budget-- == 0) return false;
      at[v] = i;
      if (!iterate(a, depth + 1, at, boxes, budget)) return false;
    }
    at.erase(v);
    return true;
  }

  // An offset that moves by a constant with each iteration of one loop (a constant
  // coefficient times its variable, a constant step): the variable and the distance.
  static std::optional<std::pair<const Value*, int64_t>> stepOf(const Expr& off,
                                                                const std::map<const Value*, Loop>& loops) {
    const std::vector<const Value*> vars = off.vars();
    if (vars.size() != 1 || !loops.count(vars[0])) return std::nullopt;
    const Value* v = vars[0];
    const Loop& l = loops.at(v);
    const Expr slope = off.substitute([&](const Value* u) { return u == v ? Expr::var(v) + 1 : Expr(); }) - off;
    if (!slope.isConst() || !l.step.isConst()) return std::nullopt;
    return std::make_pair(v, std::abs(slope.constValue()) * l.step.constValue());
  }

  // An end of an axis with runtime sizes: `e` at the loops' first or last iterations,
  // innermost loop first, whichever gives the least (or the most) by the form of `e`;
  // nullopt when the form does not tell.
  std::optional<Expr> symbolicEnd(Expr e, const Access& a, const std::map<const Value*, Loop>& loops, bool most) const {
    for (auto it = a.around.rbegin(); it != a.around.rend(); ++it) {
      if (it->first->kind() != OpKind::For) continue;
      const Value* v = it->first->body().arg(0);
      e = distribute(e);
      const std::optional<int> m = monotone(e, v);
      if (!m) return std::nullopt;
      if (*m == 0) continue;
      const Loop& l = loops.at(v);
      const Expr last = l.lb + l.step * (Expr::ceilDiv(l.ub - l.lb, l.step) - Expr::constant(1));
      const Expr at = (*m > 0) == most ? last : l.lb;
      e = e.substitute([&](const Value* u) { return u == v ? at : Expr(); });
    }
    // The kernel's parameters are its sizes here, none negative.
    const ir::Block& params = kernel_.function().body();
    return simplify(e, [&](const Value* v) {
      return !v->definingOp() && v->ownerBlock() == &params ? Interval{0, std::nullopt} : Interval{};
    });
  }

  const KernelView& kernel_;
  const Launch& launch_;
  int64_t unit_;
};

using Ranges = std::vector<std::pair<int64_t, int64_t>>;  // per axis, [first, last + 1)

// The first element range where two axes meet, or nullopt when they are apart. Walks the
// runs of the one with fewer, finding the other's candidate run by division.
std::optional<std::pair<int64_t, int64_t>> meet(const Axis& a, const Axis& b) {
  if (a.runs > b.runs) return meet(b, a);
  const int64_t aw = a.runs > 1 ? a.width : a.hi - a.lo, bw = b.runs > 1 ? b.width : b.hi - b.lo;
  if (aw <= 0 || bw <= 0) return std::nullopt;  // an empty window (a tail of no elements)
  for (int64_t i = 0; i < a.runs; ++i) {
    const int64_t x0 = a.lo + i * a.period, x1 = x0 + aw;
    if (x1 <= b.lo) continue;
    if (x0 >= b.hi) break;
    int64_t j = 0;  // the first run of b that ends after x0
    if (b.runs > 1) {
      const int64_t d = x0 - bw - b.lo;
      j = std::max<int64_t>(0, (d >= 0 ? d / b.period : -((-d + b.period - 1) / b.period)) + 1);
      if (j >= b.runs) continue;
    }
    const int64_t y0 = b.lo + j * b.period, y1 = y0 + bw;
    if (y0 < x1) return std::make_pair(std::max(x0, y0), std::min(x1, y1));
  }
  return std::nullopt;
}

// Where two windows meet, per axis the first range both reach; nullopt when they are
// apart. A window of pieces meets another where one of its pieces does.
std::optional<Ranges> meet(const Window& a, const Window& b) {
  auto piecesOf = [](const Window& w) {
    std::vector<const std::vector<Axis>*> out;
    if (w.pieces.empty()) out.push_back(&w.axes);
    for (const std::vector<Axis>& p : w.pieces) out.push_back(&p);
    return out;
  };
  for (const std::vector<Axis>* pa : piecesOf(a))
    for (const std::vector<Axis>* pb : piecesOf(b)) {
      Ranges where;
      for (size_t k = 0; k < pa->size() && where.size() == k; ++k)
        if (auto m = meet((*pa)[k], (*pb)[k])) where.push_back(*m);
      if (where.size() == pa->size()) return where;
    }
  return std::nullopt;
}

bool isNumber(const std::string& s) { return !s.empty() && s.find_first_not_of("-0123456789") == std::string::npos; }

// "[16:32, 0:128]"; an axis of several runs as "{0:16, 64:80}" (the first two and the last
// when there are more than three).
std::string windowText(const Window& w) {
  if (!w.runs) return "no iteration";
  std::string out;
  for (const Axis& x : w.axes) {
    std::string t;
    auto run = [&](int64_t i) {
      return std::to_string(x.lo + i * x.period) + ":" + std::to_string(x.lo + i * x.period + x.width);
    };
    // Spaces around the colon only between expressions, where it would be lost.
    if (x.runs == 1)
      t = x.loText + (isNumber(x.loText) && isNumber(x.hiText) ? ":" : " : ") + x.hiText;
    else if (x.runs == 0)
      t = "{" + run(0) + ", " + run(1) + ", …, up to " + x.hiText + "}";
    else {
      t = "{" + run(0) + ", " + run(1);
      if (x.runs == 3) t += ", " + run(2);
      if (x.runs > 3)
        t += ", …, " + run(x.runs - 1) + " (" + std::to_string(x.runs) + " runs, " + std::to_string(x.period) +
             " apart)";
      t += "}";
    }
    out += (out.empty() ? "[" : ", ") + t;
  }
  return out + "]";
}

// The windows of one tensor in every unit, loads and stores apart.
struct TensorWindows {
  const Value* tensor = nullptr;
  bool loaded = false, stored = false, known = true;
  // Per unit, per access of the tensor (in program order).
  std::vector<std::vector<std::pair<const Access*, Window>>> byUnit;
};

// Two units' windows that may share an element, one of them stored: `certain` when both
// windows are exactly what their accesses touch, so the element is really shared.
struct Finding {
  int64_t a, b;  // units, a < b
  bool certain, aStores, bStores;
  Ranges where;  // per axis, the first range both reach
};

// Every tensor the kernel stores to is checked over all the units; `decided` is false when
// runtime sizes leave the numbers open.
struct Check {
  bool decided = true;
  std::vector<Finding> found;  // the first kMaxFindings
  size_t pairs = 0;            // pairs of windows that meet, in all
};

// A sweep over the windows by the start of their first axis, each compared with the ones
// still open there; two loads never race, nor two accesses of one unit.
Check check(const TensorWindows& t) {
  Check c;
  if (!t.known) {
    c.decided = false;
    return c;
  }
  struct Item {
    int64_t unit;
    bool store;
    const Window* w;
  };
  std::vector<Item> items;
  for (size_t u = 0; u < t.byUnit.size(); ++u)
    for (const auto& [access, w] : t.byUnit[u])
      if (w.runs && !w.axes.empty()) items.push_back({int64_t(u), access->isStore(), &w});
  std::stable_sort(items.begin(), items.end(),
                   [](const Item& x, const Item& y) { return x.w->axes[0].lo < y.w->axes[0].lo; });
  std::vector<const Item*> open;
  for (const Item& item : items) {
    open.erase(
        std::remove_if(open.begin(), open.end(), [&](const Item* o) { return o->w->axes[0].hi <= item.w->axes[0].lo; }),
        open.end());
    for (const Item* o : open) {
      if (o->unit == item.unit || (!o->store && !item.store)) continue;
      const bool first = o->unit < item.unit;  // o is unit a
      Finding f{first ? o->unit : item.unit,   first ? item.unit : o->unit,   o->w->exact && item.w->exact,
                first ? o->store : item.store, first ? item.store : o->store, {}};
      const std::optional<Ranges> where = meet(*o->w, *item.w);
      if (!where) continue;
      f.where = *where;
      if (++c.pairs <= kMaxFindings) c.found.push_back(f);
    }
    open.push_back(&item);
  }
  return c;
}

std::string rangesText(const Ranges& where) {
  std::string out;
  for (const auto& [lo, hi] : where) out += (out.empty() ? "[" : ", ") + std::to_string(lo) + ":" + std::to_string(hi);
  return out + "]";
}

// The check as a paragraph under the tensor's table.
std::string verdict(const KernelView& kernel, const Launch& launch, const TensorWindows& t, const Check& c) {
  if (!c.decided)
    return "Not checked: the windows depend on runtime values. Give the sizes with <code>-D</code> to have one "
           "size checked here, or run the kernel (<code>--run</code>, <code>--verify-semantics</code>), which "
           "reports two blocks on one element as E0804.";
  if (c.found.empty())
    return "<span class=\"blocks-apart\">Disjoint:</span> no element of " + escape(kernel.name(t.tensor)) +
           " is stored by two blocks, or stored by one and loaded by another.";
  std::string out;
  bool certain = false;
  for (const Finding& f : c.found) {
    const std::string pair = launch.name(f.a) + " and " + launch.name(f.b);
    const std::string at = escape(kernel.name(t.tensor) + rangesText(f.where));
    const std::string what = f.aStores && f.bStores ? "both store " + at
                                                    : launch.name(f.aStores ? f.a : f.b) + " stores " + at +
                                                          ", which " + launch.name(f.aStores ? f.b : f.a) + " loads";
    out += f.certain ? "<span class=\"diag-error\">Overlap between " + pair + "</span>: " + what + ".<br>"
                     : "<span class=\"diag-warning\">" + pair + " may overlap</span>: by their bounds, " + what +
                           "; the expressions alone do not decide it.<br>";
    certain |= f.certain;
  }
  if (c.pairs > c.found.size()) out += std::to_string(c.pairs) + " pairs of windows meet in all.<br>";
  return out + (certain ? "Running the kernel (<code>--run</code>, <code>--verify-semantics</code>) reports this race "
                          "as E0804."
                        : "<code>--run</code> and <code>--verify-semantics</code> run every block and report a real "
                          "race as E0804.");
}

// A unit's distinct windows of one kind (stores or loads), as text, in program order.
std::vector<std::string> windowTexts(const std::vector<std::pair<const Access*, Window>>& windows, bool stores) {
  std::vector<std::string> texts;
  for (const auto& [access, w] : windows)
    if (access->isStore() == stores && w.runs) {
      const std::string t = windowText(w);
      if (std::find(texts.begin(), texts.end(), t) == texts.end()) texts.push_back(t);
    }
  return texts;
}

// The boxes of a window on the tensor's panel: its pieces, or one per combination of the
// axes' runs, or the bounding box when that would be more than kMaxBoxes.
std::vector<PanelBox> boxesOf(const Window& w, const std::string& cls, const std::string& label) {
  if (!w.pieces.empty()) {
    std::vector<PanelBox> out;
    for (const std::vector<Axis>& p : w.pieces) {
      PanelBox b{{}, {}, {}, cls, "", label};
      for (const Axis& x : p) b.offset.push_back(double(x.lo)), b.size.push_back(double(x.hi - x.lo));
      out.push_back(std::move(b));
    }
    return out;
  }
  int64_t count = 1;
  for (const Axis& x : w.axes) count = std::min(count * x.runs, kMaxBoxes + 1);
  const bool split = count <= kMaxBoxes;
  std::vector<PanelBox> out;
  std::vector<int64_t> at(w.axes.size(), 0);  // the run of each axis, the last fastest
  for (int64_t n = 0; n < (split ? count : 1); ++n) {
    PanelBox b{{}, {}, {}, cls, "", label};
    for (size_t k = 0; k < w.axes.size(); ++k) {
      const Axis& x = w.axes[k];
      const bool runs = split && x.runs > 1;
      b.offset.push_back(double(x.lo + (runs ? at[k] * x.period : 0)));
      b.size.push_back(double(runs ? x.width : x.hi - x.lo));
    }
    for (size_t k = w.axes.size(); k-- > 0;) {
      if (++at[k] < w.axes[k].runs) break;
      at[k] = 0;
    }
    out.push_back(std::move(b));
  }
  return out;
}

// The listed units' stored windows (the loaded ones for a tensor never stored) on the
// tensor's panel, each unit in its own colour, and where two units meet outlined.
Svg drawTensor(const KernelView& kernel, const Launch& launch, const TensorWindows& t,
               const std::vector<int64_t>& units, const Check& c) {
  std::vector<double> extent;
  std::vector<std::string> names;
  for (const Expr& d : t.tensor->type().dims()) {
    extent.push_back(double(d.constValue()));
    names.push_back(std::to_string(d.constValue()));
  }
  Panels panels(extent, names);
  for (size_t i = 0; i < units.size(); ++i) {
    const int64_t u = units[i];
    std::vector<PanelBox> boxes;
    for (const auto& [access, w] : t.byUnit[size_t(u)])
      if (w.runs && access->isStore() == t.stored)
        for (PanelBox& b : boxesOf(w, "window " + categoryClass(i), launch.label(u))) boxes.push_back(std::move(b));
    std::string text;
    for (const std::string& w : windowTexts(t.byUnit[size_t(u)], t.stored)) text += (text.empty() ? "" : "; ") + w;
    for (PanelBox& b : boxes)
      b.tip = launch.name(u) + (t.stored ? " stores " : " loads ") + kernel.name(t.tensor) + text;
    panels.add("block-window", "data-unit=\"" + std::to_string(u) + "\" data-window=\"" + escape(text) + "\"",
               std::move(boxes));
  }
  std::vector<PanelBox> met;
  for (const Finding& f : c.found) {
    PanelBox b{
        {},
        {},
        {},
        "blocks-overlap",
        launch.name(f.a) + " and " + launch.name(f.b) + " meet at " + kernel.name(t.tensor) + rangesText(f.where),
        ""};
    for (const auto& [lo, hi] : f.where) b.offset.push_back(double(lo)), b.size.push_back(double(hi - lo));
    met.push_back(std::move(b));
  }
  if (!met.empty()) panels.add("overlaps", "data-overlaps=\"" + std::to_string(c.pairs) + "\"", std::move(met));
  return panels.draw(kernel.name(t.tensor) + ": the window each block " + (t.stored ? "stores" : "loads"));
}

// No two listed units' windows meet. A tensor only loaded is drawn only then: where every
// block loads the same weights, the drawing would show one block's box over the others'.
bool apart(const TensorWindows& t, const std::vector<int64_t>& units) {
  for (size_t i = 0; i < units.size(); ++i)
    for (size_t j = i + 1; j < units.size(); ++j)
      for (const auto& [a, wa] : t.byUnit[size_t(units[i])])
        for (const auto& [b, wb] : t.byUnit[size_t(units[j])]) {
          if (wa.runs && wb.runs && meet(wa, wb)) return false;
        }
  return true;
}

// A table cell: the unit's distinct windows of one kind, one a line.
std::string cell(const std::vector<std::pair<const Access*, Window>>& windows, bool stores) {
  const std::vector<std::string> texts = windowTexts(windows, stores);
  if (texts.empty()) return "<span class=\"empty\">none</span>";
  std::string out;
  for (const std::string& t : texts) out += (out.empty() ? "" : "<br>") + ("<code>" + escape(t) + "</code>");
  return out;
}

void writeTensor(const KernelView& kernel, const Launch& launch, const TensorWindows& t,
                 const std::vector<int64_t>& units, Page& page) {
  const ir::Type& type = t.tensor->type();
  page.heading(kernel.name(t.tensor) + " " + ir::dtypeName(type.dtype()) + kernel.exprs(type.dims()));
  const Check c = t.stored ? check(t) : Check{};
  std::vector<SourceRange> sources;
  for (const auto& windows : t.byUnit)
    for (const auto& [access, window] : windows) sources.push_back(access->op->loc());
  const std::string from = "The accesses of " + kernel.nameLink(t.tensor) + " at " + kernel.linesHtml(sources) + ".";
  if (t.known && (t.stored || apart(t, units))) page.figure(drawTensor(kernel, launch, t, units, c), "blocks-figure", "", from);
  else page.paragraph(from);
  std::vector<std::string> header = {launch.subblocks > 1 ? "unit" : "block"};
  if (t.loaded) header.push_back("loads");
  if (t.stored) header.push_back("stores");
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < units.size(); ++i) {
    const int64_t u = units[i];
    if (i > 0 && units[i - 1] + 1 != u)
      rows.push_back({"<span class=\"empty\">⋮ " + std::to_string(u - units[i - 1] - 1) + " not listed (" +
                      launch.name(units[i - 1] + 1) + " to " + launch.name(u - 1) + ")</span>"});
    std::vector<std::string> row = {launch.name(u)};
    if (t.loaded) row.push_back(cell(t.byUnit[size_t(u)], false));
    if (t.stored) row.push_back(cell(t.byUnit[size_t(u)], true));
    rows.push_back(row);
  }
  page.table(header, rows, "blocks-table");
  if (t.stored) page.paragraph(verdict(kernel, launch, t, c));
}

}  // namespace

bool writeBlocksSection(const KernelView& kernel, Page& page) {
  const ir::Function& f = kernel.function();
  const Launch launch{std::max<int64_t>(f.blocks(), 1), std::max<int64_t>(f.subblocks(), 1)};
  if (launch.blocks <= 1 || (f.count(OpKind::BlockIdx) == 0 && f.count(OpKind::SubblockIdx) == 0)) return false;
  std::vector<Access> accesses;
  std::vector<std::pair<const ir::Op*, unsigned>> around;
  collect(f.body(), around, accesses);
  if (accesses.empty()) return false;

  // Every tensor in the order the kernel first accesses it; every unit's windows, for the check.
  std::vector<TensorWindows> tensors;
  std::vector<size_t> tensorOf;
  for (const Access& a : accesses) {
    auto it =
        std::find_if(tensors.begin(), tensors.end(), [&](const TensorWindows& t) { return t.tensor == a.tensor(); });
    if (it == tensors.end()) it = tensors.insert(tensors.end(), TensorWindows{a.tensor(), false, false, true, {}});
    (a.isStore() ? it->stored : it->loaded) = true;
    tensorOf.push_back(size_t(it - tensors.begin()));
  }
  for (TensorWindows& t : tensors) t.byUnit.resize(size_t(launch.units()));
  // The listed units first: a tensor whose windows they leave open is not checked, so the
  // other units need not work its windows out.
  const std::vector<int64_t> units = launch.listed();
  std::vector<int64_t> order = units;
  for (int64_t u = 0; u < launch.units(); ++u)
    if (!std::binary_search(units.begin(), units.end(), u)) order.push_back(u);
  std::vector<const Value*> runtime;  // what leaves windows open, in the order met
  for (size_t n = 0; n < order.size(); ++n) {
    const UnitWindows unit(kernel, launch, order[n]);
    for (size_t i = 0; i < accesses.size(); ++i) {
      TensorWindows& t = tensors[tensorOf[i]];
      if (n >= units.size() && !t.known) continue;
      Window w = unit.window(accesses[i]);
      t.known &= w.known;
      for (const Value* v : w.runtime)
        if (std::find(runtime.begin(), runtime.end(), v) == runtime.end()) runtime.push_back(v);
      t.byUnit[size_t(order[n])].push_back({&accesses[i], std::move(w)});
    }
  }

  page.section(kernel.anchor("blocks"), f.name() + ": blocks of the launch", "blocks");
  page.addStyle("blocks",
                ".blocks-apart { color: #1e7b34; font-weight: 600; }\n"
                "svg .blocks-overlap { fill: none; stroke: #b00020; stroke-width: 2.5; stroke-dasharray: 5 3; }\n"
                ".legend span.overlap-swatch { background: #fff; border: 2px dashed #b00020; }");
  std::string launchText = std::to_string(launch.blocks) + " blocks";
  if (launch.subblocks > 1)
    launchText += " of " + std::to_string(launch.subblocks) + " sub-blocks each, " + std::to_string(launch.units()) +
                  " units (block b's sub-block s is unit b × " + std::to_string(launch.subblocks) + " + s)";
  page.paragraph("The kernel is launched as " + launchText +
                 "; each runs the kernel with its own block index, "
                 "and so its own share of every parallel loop (<code>distribute-blocks</code>). For each tensor, the "
                 "window each block loads and stores, per axis a half-open range: <code>[16:32, 0:128]</code> is rows "
                 "16 to 31 and all 128 columns. It is the bounding box over the loops around each access, except "
                 "that an axis a loop steps through with gaps (a cyclic loop's share) lists its runs in braces, "
                 "<code>{0:16, 64:80}</code>.");
  if (!runtime.empty()) {
    std::string names, defines;
    for (const Value* v : runtime) {
      names += (names.empty() ? "" : ", ") + ("<code>" + escape(kernel.name(v)) + "</code>");
      if (!v->definingOp() && v->ownerBlock() == &f.body())
        defines += " -D " + escape(kernel.names().base(v)) + "=&lt;n&gt;";
    }
    page.paragraph(names +
                   (runtime.size() == 1 ? " is a runtime value: windows that depend on it keep it"
                                        : " are runtime values: windows that depend on them keep them") +
                   ", each end the expression the access takes at its loops' "
                   "first or last iteration, simplified (<code>?</code> where the form does not tell which); a window "
                   "whose end is not past its start is empty at that size." +
                   (defines.empty() ? std::string()
                                    : " For the numbers of one size, and the check of the stores, compile with <code>" +
                                          defines.substr(1) + "</code>."));
  }
  const std::string what = launch.subblocks > 1 ? "units" : "blocks";
  if (int64_t(units.size()) < launch.units())
    page.paragraph("The first " + std::to_string(kHead) + " and the last " + std::to_string(kTail) + " of " +
                   std::to_string(launch.units()) + " " + what +
                   " are listed; the check of each tensor covers them all.");
  if (std::any_of(tensors.begin(), tensors.end(), [](const TensorWindows& t) { return t.known; }))
    page.legend({{"k0", "a block's window (colours tell neighbours apart; labels and tooltips name the block)"},
                 {"overlap-swatch", "where two blocks' windows meet"}});
  for (const TensorWindows& t : tensors) writeTensor(kernel, launch, t, units, page);
  return true;
}

}  // namespace tilec::report
