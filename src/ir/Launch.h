// The share of a parallel loop's iterations that one block runs, written once for the
// interpreter (on integers) and for distribute-blocks (on expressions, which the emitted
// kernel computes from the block index).
//   - parallel (blocked): the trip count T splits into `units` runs of T / units
//     iterations, the first T % units runs one longer; unit u runs the u-th;
//   - parallel_cyclic: unit u runs iterations u, u + units, u + 2 * units, ...
// A unit is one block, or one sub-block when blocks have several (block * subblocks + sub).
#pragma once
#include <algorithm>
#include <cstdint>

#include "ir/Expr.h"
#include "ir/IR.h"
#include "ir/OpDefs.h"

namespace tilec::ir {

// Whether `f` asks for its block or sub-block (a launch query op anywhere in it).
inline bool readsLaunch(const Function& f) {
  for (const OpInfo& info : allOps())
    if (info.group == OpGroup::Launch && f.count(info.kind) > 0) return true;
  return false;
}

template <class T>
struct LoopShare {
  T lb, ub, step;
};

namespace launch_detail {
inline int64_t floorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
inline int64_t ceilDiv(int64_t a, int64_t b) { return -floorDiv(-a, b); }
inline int64_t minOf(int64_t a, int64_t b) { return std::min(a, b); }
inline int64_t maxOf(int64_t a, int64_t b) { return std::max(a, b); }
inline Expr floorDiv(const Expr& a, const Expr& b) { return Expr::floorDiv(a, b); }
inline Expr ceilDiv(const Expr& a, const Expr& b) { return Expr::ceilDiv(a, b); }
inline Expr minOf(const Expr& a, const Expr& b) { return Expr::min(a, b); }
inline Expr maxOf(const Expr& a, const Expr& b) { return Expr::max(a, b); }
inline int64_t lit(int64_t v, int64_t) { return v; }
inline Expr lit(int64_t v, const Expr&) { return Expr::constant(v); }
}  // namespace launch_detail

// `unit` in [0, units); lb, ub and step the loop's (step > 0).
template <class T>
LoopShare<T> shareOf(LoopMode mode, const T& lb, const T& ub, const T& step, const T& unit, const T& units) {
  using namespace launch_detail;
  if (mode == LoopMode::ParallelCyclic) return {lb + unit * step, ub, step * units};
  const T zero = lit(0, unit), one = lit(1, unit);
  const T trip = maxOf(zero, ceilDiv(ub - lb, step));
  const T each = floorDiv(trip, units), longer = trip - each * units;
  const T first = unit * each + minOf(unit, longer);
  const T next = (unit + one) * each + minOf(unit + one, longer);
  return {lb + first * step, minOf(ub, lb + next * step), step};
}

}  // namespace tilec::ir
