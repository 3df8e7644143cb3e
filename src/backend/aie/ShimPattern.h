// An access pattern in the shape a shim DMA descriptor walks: four (size, stride) pairs,
// outermost first, where the outermost is the descriptor's iteration (its repeat when the
// stride is 0) and the inner three are its dimensions.
#pragma once
#include <optional>
#include <string>

#include "backend/aie/TxnRuntime.h"
#include "ir/AccessPattern.h"

namespace tilec::aie {

// Drops dimensions of size 1, merges dimensions that walk contiguously when there are
// more than four, splits a contiguous innermost run longer than a descriptor's 1023 words
// into two dimensions when the pattern is not contiguous as a whole (the walk is the
// same), and puts a repeat (stride 0) in the iteration dimension: the rule it breaks
// otherwise, in `error`. Linear in the number of dimensions (plus the divisor search of a
// split, at most 1023 steps).
std::optional<ir::AccessPattern> shimPattern(const ir::AccessPattern& p, int64_t elemBits, std::string& error);

// The transfer of a four-dimensional pattern with constant numbers (`value` gives a
// variable's value), in the encoder's order (dimension 0 fastest).
std::optional<tilec_txn::Transfer> constantTransfer(const ir::AccessPattern& p, int64_t elemBits,
                                                    const std::function<std::optional<int64_t>(const ir::Value*)>& value);

}  // namespace tilec::aie
