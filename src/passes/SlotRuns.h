// Which slots of a tile array a slot write covers, proven symbolically. A write at a
// constant index covers one slot. The write in the body of a rolled loop (the MIDDLE of a
// peeled slot-writing loop, or a loop linx-peel is deciding about) covers one slot per
// iteration: its index must be an affine function of the loop variable, constant in the
// first iteration, the trip count a constant, every slot inside the grid, and consecutive
// iterations must write consecutive ordinals (row * columns + column), so the slots are one
// run of ordinals, each written once. The proof reads the loop's bounds and the index's
// coefficients, never its iterations: constant time per write whatever the trip count.
// derive-regions, linx-peel and linx-legality ask the same question here.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ir/IR.h"
#include "support/Diagnostics.h"

namespace tilec::passes {

// The ordinals first, first + stride, ..., count of them.
struct SlotRun {
  int64_t first = 0;
  int64_t stride = 0;  // +1 or -1 when count > 1
  int64_t count = 1;
  int64_t lowest() const { return stride < 0 ? first + stride * (count - 1) : first; }
};

// The run `write` (a region.insert) covers: its constant slot, or, when `loop` (the scf.for
// whose body holds it) is given, the slots of every iteration. nullopt when it cannot be
// proven; the reason (E1005, E1006, E0222 or E1003, naming the slot) goes to `diags` if
// given, so a pass can also just ask.
std::optional<SlotRun> slotRun(const ir::Op& write, const ir::Op* loop, DiagnosticEngine* diags);

// The same for the write in the body of `loop` as if its index were `index`: a pass
// deciding about a loop inside loops still to be unrolled asks with their variables bound.
std::optional<SlotRun> slotRunAt(const ir::Op& write, const std::vector<ir::Expr>& index, const ir::Op& loop,
                                 DiagnosticEngine* diags);

// The slot of an ordinal in `grid`, as "[i, j]".
std::string slotText(int64_t ordinal, const std::vector<int64_t>& grid);

}  // namespace tilec::passes
