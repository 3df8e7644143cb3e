// Resource limits: the sizes past which tilec reports a diagnostic instead of running
// out of memory or time. Each has a command-line flag (docs/cli.md).
#pragma once
#include <cstdint>

namespace tilec {

struct Limits {
  int64_t maxOps = 1'000'000;        // --max-ops: IR ops a function may grow to by expansion
  int64_t maxUnroll = 4096;          // --max-unroll: pages one op may unroll into (batch matmul, N-D transpose)
  int64_t maxTensorRank = 8;         // --max-tensor-rank: dimensions of a tensor parameter
  int64_t maxTileElements = 1 << 22; // --max-tile-elements: elements of one tile the host interpreter holds
};

inline const Limits& defaultLimits() {
  static const Limits kDefault;
  return kDefault;
}

}  // namespace tilec
