// Tile arrays in the IR (docs/ir.md#tile-regions): which values hold one.
#pragma once
#include <optional>
#include <unordered_set>
#include <vector>

#include "ir/IR.h"

namespace tilec::ir {

// The values that hold a tile array under construction: region.array and region.insert
// results, and the loop arguments, loop results and branch results that carry one on.
// One walk; tolerates malformed IR (the verifier uses it before checking anything).
std::unordered_set<const Value*> tileArrayValues(const Function& f);

// The slot writes of the tile array `array` (a region.array) in order, along the one
// straight chain of its values: region.insert, and rolled loops (`rolled`, linx-peel)
// whose body is one region.insert of the carried array (that write stands for all their
// iterations). `assembly` is set when the chain ends in the array's region.assembly, as
// derive-regions proves; otherwise the chain stops at `end`, the last array value, which
// has no use, several, or one by `stop`, an op that neither writes the array nor
// assembles it.
struct ArrayChain {
  std::vector<Op*> writes;
  Op* assembly = nullptr;
  const Value* end = nullptr;
  Op* stop = nullptr;
};
ArrayChain arrayChain(const Op& array);

// The rolled loop whose body holds the slot write `write`, or null.
const Op* rolledLoopOf(const Op& write);

// Whether `loop` is the rolled MIDDLE of a peeled slot-writing loop (its `rolled` fact).
bool isRolled(const Op& loop);

// The slot write in the body of scf.for `loop` that takes its carried value `operand`
// straight to the yield, that value's only use in the body; null otherwise.
Op* loopSlotWrite(const Op& loop, unsigned operand);

// The ordinal (row * columns + column) of a slot write's constant index; nullopt when the
// index is not constant.
std::optional<int64_t> slotOrdinal(const Op& write);

}  // namespace tilec::ir
