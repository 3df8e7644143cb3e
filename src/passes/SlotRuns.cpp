#include "passes/SlotRuns.h"

#include "ir/Describe.h"

namespace tilec::passes {
namespace {
using namespace ir;
using Wide = __int128;  // index arithmetic over a trip count of up to 2^63 cannot overflow

// One axis of a loop's slot index: its value in the first iteration and its change per
// iteration.
struct AxisStep {
  int64_t base = 0;
  Wide delta = 0;  // the coefficient times the step: past int64 for extreme constants
};

class RunProver {
 public:
  RunProver(const Op& write, const std::vector<Expr>& index, const Op& loop, DiagnosticEngine* diags)
      : write_(write), index_(index), loop_(loop), var_(loop.body().arg(0)), grid_(write.get(attr::grid)),
        diags_(diags) {}

  std::optional<SlotRun> prove() {
    const std::optional<int64_t> step = loop_.get(attr::step).asConst();
    if (!step || *step <= 0)
      return fail(Diag::RegionLoop, loop_,
                  "this loop writes slots of tile array " + array() + ", but its step " + text(loop_.get(attr::step)) +
                      " is not a positive constant, so which slots it writes cannot be proven; step by a positive "
                      "constant");
    step_ = *step;
    const Expr trips = Expr::max(Expr::constant(0), Expr::ceilDiv(loop_.get(attr::ub) - loop_.get(attr::lb), Expr::constant(step_)));
    AxisStep axes[2];
    for (int axis = 0; axis < 2; ++axis)
      if (!axisStep(index_[size_t(axis)], axes[axis])) return std::nullopt;
    if (!trips.isConst()) return unknownTrips(trips, axes);
    const int64_t count = trips.constValue();
    if (count == 0) return SlotRun{0, 1, 0};
    for (int axis = 0; axis < 2; ++axis)
      if (std::optional<int64_t> k = firstOutside(axes[axis], grid_[size_t(axis)], count)) return outside(*k, axes);
    const int64_t first = axes[0].base * grid_[1] + axes[1].base;
    if (count == 1) return SlotRun{first, 1, 1};
    // Both slots of the first two iterations are inside the grid: each delta is below its extent.
    const Wide stride = axes[0].delta * grid_[1] + axes[1].delta;
    if (stride == 0)
      return fail(Diag::RegionSlotTwice, write_,
                  "every iteration of this loop writes slot " + slotAt(0, axes) + " of tile array " + array() +
                      ", which may be written once; index the slot with the loop variable " + loopVar());
    if (stride != 1 && stride != -1)
      return fail(Diag::RegionLoop, write_,
                  "consecutive iterations of this loop write slots " + slotAt(0, axes) + " and " + slotAt(1, axes) +
                      " of tile array " + array() + ", " + std::to_string(int64_t(stride)) +
                      " ordinals apart, but a loop that stays rolled must write consecutive slots; write the slots "
                      "along a row of the grid (down a one-column grid), or give the loop constant bounds so it is "
                      "unrolled");
    return SlotRun{first, int64_t(stride), count};
  }

 private:
  // The index of one axis as base + delta * k in iteration k; false (reported) when it is
  // not affine in the loop variable or not constant in the first iteration.
  bool axisStep(const Expr& index, AxisStep& out) {
    auto at = [&](const Expr& v) { return index.substitute([&](const Value* w) { return w == var_ ? v : Expr(); }); };
    const std::optional<int64_t> coefficient = (at(Expr::constant(1)) - at(Expr::constant(0))).asConst();
    if (!coefficient || (index - Expr::var(var_) * *coefficient).dependsOn(var_)) {
      fail(Diag::RegionSlotDynamic, write_,
           "this slot write's index " + text(index) + " is not an affine function of the loop variable " + loopVar() +
               " (a constant times it plus a part the loop does not change), so which slot each iteration writes "
               "cannot be proven; index the slot with " + loopVar() + " times a constant");
      return false;
    }
    const std::optional<int64_t> base = at(loop_.get(attr::lb)).asConst();
    if (!base) {
      fail(Diag::RegionSlotDynamic, write_,
           "in the first iteration of this loop (" + loopVar() + " = " + text(loop_.get(attr::lb)) +
               ") this slot write's index " + text(index) + " is " + text(at(loop_.get(attr::lb))) +
               ", not a compile-time constant, so which slots the loop writes cannot be proven; make the index a "
               "constant slot in the first iteration (for j in s .. s + n, write a[j - s, 0])");
      return false;
    }
    out = {*base, Wide(*coefficient) * step_};
    return true;
  }

  // The first iteration whose index on this axis leaves 0..extent-1, if any.
  static std::optional<int64_t> firstOutside(const AxisStep& a, int64_t extent, int64_t count) {
    if (a.base < 0 || a.base >= extent) return 0;
    if (count == 1) return std::nullopt;
    // |delta| below the extent keeps the product in range; a larger one leaves at once.
    if (a.delta >= extent || -a.delta >= extent) return 1;
    const Wide last = a.base + a.delta * (count - 1);
    if (last >= 0 && last < extent) return std::nullopt;  // an affine index between two ends inside
    const Wide k = a.delta > 0 ? (Wide(extent) - a.base + a.delta - 1) / a.delta : Wide(a.base) / -a.delta + 1;
    return int64_t(k);
  }

  std::optional<SlotRun> outside(int64_t k, const AxisStep* axes) {
    return fail(Diag::RegionIndex, write_,
                "in the iteration " + loopVar() + " = " + iterationText(k) + " this write's slot " + slotAt(k, axes) +
                    " is outside the " + shapeText(grid_) + " grid of tile array " + array() +
                    "; loop over the slots the array has");
  }

  // A runtime trip count: the first slot that is written only if the loop runs far enough.
  std::optional<SlotRun> unknownTrips(const Expr& trips, const AxisStep* axes) {
    const int64_t surely = bounds(trips, loopBounds).lo.value_or(0);
    const Expr count = Expr::ceilDiv(loop_.get(attr::ub) - loop_.get(attr::lb), Expr::constant(step_));
    return fail(Diag::RegionLoop, loop_,
                "this loop writes slot " + slotAt(surely, axes) + " of tile array " + array() +
                    " only if its trip count, " + text(count) + ", is more than " + std::to_string(surely) +
                    ", which is known only at run time, so that every slot is written once cannot be proven; make "
                    "the trip count the number of slots the loop writes (a loop s .. s + n with a constant n)");
  }

  std::string slotAt(int64_t k, const AxisStep* axes) const {
    auto at = [&](const AxisStep& a) { return wideText(a.base + a.delta * k); };
    return "[" + at(axes[0]) + ", " + at(axes[1]) + "]";
  }

  std::string iterationText(int64_t k) const {
    return text(loop_.get(attr::lb) + Expr::constant(k) * step_);
  }

  // Decimal text of a number that may not fit int64 (a slot far outside the grid).
  static std::string wideText(Wide v) {
    if (v >= INT64_MIN && v <= INT64_MAX) return std::to_string(int64_t(v));
    std::string digits;
    const bool negative = v < 0;
    for (unsigned __int128 u = negative ? -(unsigned __int128)v : (unsigned __int128)v; u; u /= 10)
      digits.insert(digits.begin(), char('0' + int(u % 10)));
    return (negative ? "-" : "") + digits;
  }

  std::optional<SlotRun> fail(Diag id, const Op& at, const std::string& message) {
    if (diags_) diags_->report(id, at.loc(), message);
    return std::nullopt;
  }

  std::string array() const { return diags_ ? describe(write_.operand(0), diags_->sources()) : std::string(); }
  std::string loopVar() const { return diags_ ? sourceText(var_, diags_->sources()) : std::string(); }
  static std::string text(const Expr& e) { return exprText(e); }

  const Op& write_;
  const std::vector<Expr>& index_;
  const Op& loop_;
  const Value* var_;
  const std::vector<int64_t>& grid_;
  DiagnosticEngine* diags_;
  int64_t step_ = 1;
};

}  // namespace

std::optional<SlotRun> slotRun(const Op& write, const Op* loop, DiagnosticEngine* diags) {
  if (loop) return RunProver(write, write.get(attr::index), *loop, diags).prove();
  const auto& index = write.get(attr::index);
  for (const Expr& e : index)
    if (!e.isConst()) {
      if (diags)
        diags->report(Diag::RegionSlotDynamic, write.loc(),
                      "this slot write's index " + exprText(e) +
                          " is not a compile-time constant; write slots inside loops with constant bounds "
                          "(they are unrolled) or with constant indices");
      return std::nullopt;
    }
  return SlotRun{index[0].constValue() * write.get(attr::grid)[1] + index[1].constValue(), 0, 1};
}

std::optional<SlotRun> slotRunAt(const Op& write, const std::vector<Expr>& index, const Op& loop,
                                 DiagnosticEngine* diags) {
  return RunProver(write, index, loop, diags).prove();
}

std::string slotText(int64_t ordinal, const std::vector<int64_t>& grid) {
  return shapeText(std::vector<int64_t>{ordinal / grid[1], ordinal % grid[1]});
}

}  // namespace tilec::passes
