// An access pattern in the shape a shim DMA descriptor walks: four (size, stride) pairs,
// outermost first, where the outermost is the descriptor's iteration (its repeat when the
// stride is 0) and the inner three are its dimensions.
#pragma once
#include <optional>
#include <string>

#include "backend/aie/TxnRuntime.h"
#include "ir/AccessPattern.h"

namespace tilec::aie {

// The plain shape: drops dimensions of size 1, merges dimensions that walk contiguously
// when there are more than four, and puts a repeat (stride 0) in the iteration dimension:
// the rule it breaks otherwise, in `error`. Linear in the number of dimensions. When the
// plain shape's numbers do not fit the fields, the compiler (aie-legality, for constants)
// and the builder (at dispatch) re-lay it with the same TxnRuntime.h layOut, so for equal
// sizes they write the same words.
std::optional<ir::AccessPattern> shimPattern(const ir::AccessPattern& p, int64_t elemBits, std::string& error);

// The transfer of a four-dimensional pattern with constant numbers (`value` gives a
// variable's value), in the encoder's order (dimension 0 fastest).
std::optional<tilec_txn::Transfer> constantTransfer(const ir::AccessPattern& p, int64_t elemBits,
                                                    const std::function<std::optional<int64_t>(const ir::Value*)>& value);

// The walk of `p` from offset 0 when its sizes and strides are constants (its offset may
// vary: a descriptor's layout does not depend on it).
std::optional<tilec_txn::Walk> constantWalk(const ir::AccessPattern& p, int64_t elemBits);

// The pattern of a descriptor's layout, outermost first, at `offset`.
ir::AccessPattern patternOf(const tilec_txn::Transfer& t, const ir::Expr& offset);

// split-transfers writes at most this many transfers for one; more is refused (E0903).
constexpr int64_t kMaxSplitPieces = 1024;

}  // namespace tilec::aie
