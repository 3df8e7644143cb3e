// A seeded random number generator for property tests, deterministic across standard
// libraries (std::uniform_int_distribution is not), so a failing case number reproduces.
#pragma once
#include <cstdint>

namespace tilec::testing {

struct Rng {
  uint64_t state;
  int64_t below(int64_t n) {  // [0, n)
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return int64_t((state >> 33) % uint64_t(n));
  }
  int64_t in(int64_t lo, int64_t hi) { return lo + below(hi - lo + 1); }  // [lo, hi]
  bool chance(int percent) { return below(100) < percent; }
};

}  // namespace tilec::testing
