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

// The slot writes of the tile array `array` (a region.array) in order, and its assembly,
// when its values form one straight chain of region.insert ending in region.assembly (as
// derive-regions proves); nullopt otherwise.
struct ArrayChain {
  std::vector<Op*> writes;
  Op* assembly = nullptr;
};
std::optional<ArrayChain> arrayChain(const Op& array);

// The ordinal (row * columns + column) of a slot write's constant index; nullopt when the
// index is not constant.
std::optional<int64_t> slotOrdinal(const Op& write);

}  // namespace tilec::ir
