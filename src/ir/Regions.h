// Tile arrays in the IR (docs/ir.md#tile-regions): which values hold one.
#pragma once
#include <unordered_set>

#include "ir/IR.h"

namespace tilec::ir {

// The values that hold a tile array under construction: region.array and region.insert
// results, and the loop arguments, loop results and branch results that carry one on.
// One walk; tolerates malformed IR (the verifier uses it before checking anything).
std::unordered_set<const Value*> tileArrayValues(const Function& f);

}  // namespace tilec::ir
