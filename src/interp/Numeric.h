// Element arithmetic of the reference interpreter: every dtype of the language, exact.
// Integers are kept in int64 and wrapped to their width; floats are kept in double and
// rounded to their format (f32, f16, bf16) after every operation, with each rounding
// mode of tile.cast. Emulating f16 and bf16 this way gives the results of hardware that
// computes in those formats with round-to-nearest-even.
#pragma once
#include <cstdint>

#include "ir/IR.h"

namespace tilec::interp {

// One element: `f` for float dtypes, `i` for integer and boolean ones.
struct Num {
  double f = 0;
  int64_t i = 0;
};

bool isFloatType(ir::DType d);

// x rounded to the float format of `d` (f32, f16, bf16) under `mode`; a value past the
// largest finite one becomes infinity (round-to-nearest modes) or the largest finite value
// (the directed modes that round toward zero).
double roundFloat(double x, ir::DType d, ir::RoundMode mode = ir::RoundMode::Rint);
// x wrapped to the width and signedness of integer dtype `d` (bool: 0 or 1).
int64_t wrapInt(int64_t x, ir::DType d);

// The value of `n` (of dtype `from`) as dtype `to`, rounding with `mode` where the value
// does not fit exactly; float-to-integer conversion saturates and maps NaN to 0.
Num convert(Num n, ir::DType from, ir::DType to, ir::RoundMode mode);

// The bit pattern of `x` in float format `d` (x must be exact in it), and back.
uint64_t floatBits(double x, ir::DType d);
double bitsToFloat(uint64_t bits, ir::DType d);

// A float rounded to an integer value with `mode` (cast_rint/rint/none: to nearest even,
// round: half away from zero, odd: to odd).
double roundToIntegral(double x, ir::RoundMode mode);

}  // namespace tilec::interp
