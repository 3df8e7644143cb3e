#include "interp/Numeric.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace tilec::interp {
using ir::DType;
using ir::RoundMode;

namespace {

struct FloatFormat {
  int precision;  // significand bits, the leading one included
  int minExp;     // exponent of the smallest normal number
  int maxExp;     // exponent of the largest finite number
};

FloatFormat formatOf(DType d) {
  switch (d) {
    case DType::F16: return {11, -14, 15};
    case DType::BF16: return {8, -126, 127};
    case DType::F32: return {24, -126, 127};
    case DType::Bool: case DType::I8: case DType::I16: case DType::I32: case DType::I64:
    case DType::U8: case DType::U16: case DType::U32: case DType::Index:
      break;
  }
  return {53, -1022, 1023};
}

struct IntRange {
  int bits;
  bool isSigned;
};

IntRange rangeOf(DType d) {
  switch (d) {
    case DType::I8: return {8, true};
    case DType::I16: return {16, true};
    case DType::I32: return {32, true};
    case DType::U8: return {8, false};
    case DType::U16: return {16, false};
    case DType::U32: return {32, false};
    case DType::Bool: return {1, false};
    case DType::I64: case DType::Index: case DType::F16: case DType::BF16: case DType::F32:
      break;
  }
  return {64, true};
}

bool towardZero(RoundMode m, bool negative) {
  return m == RoundMode::Trunc || m == RoundMode::Odd || (m == RoundMode::Floor && !negative) ||
         (m == RoundMode::Ceil && negative);
}

}  // namespace

uint64_t floatBits(double x, DType d) {
  if (d == DType::F32 || d == DType::BF16) {
    float f = float(x);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return d == DType::BF16 ? u >> 16 : u;  // x is exact in bf16: the low half is zero
  }
  // f16: sign, 5 exponent bits (bias 15), 10 mantissa bits.
  uint64_t sign = std::signbit(x) ? 0x8000 : 0;
  double m = std::fabs(x);
  if (std::isnan(m)) return sign | 0x7e00;
  if (std::isinf(m)) return sign | 0x7c00;
  if (m == 0) return sign;
  int e;
  std::frexp(m, &e);  // m in [2^(e-1), 2^e)
  if (e - 1 < -14) return sign | uint64_t(std::ldexp(m, 24));  // subnormal
  return sign | (uint64_t(e - 1 + 15) << 10) | (uint64_t(std::ldexp(m, 11 - e)) & 0x3ff);
}

double bitsToFloat(uint64_t u, DType d) {
  if (d == DType::F32 || d == DType::BF16) {
    uint32_t w = d == DType::BF16 ? uint32_t(u << 16) : uint32_t(u);
    float f;
    std::memcpy(&f, &w, 4);
    return f;
  }
  double sign = (u & 0x8000) ? -1 : 1;
  int e = int((u >> 10) & 0x1f);
  uint64_t m = u & 0x3ff;
  if (e == 31) return m ? NAN : sign * INFINITY;
  if (e == 0) return sign * std::ldexp(double(m), -24);
  return sign * std::ldexp(double(m | 0x400), e - 25);
}

bool isFloatType(DType d) { return d == DType::F16 || d == DType::BF16 || d == DType::F32; }

double roundToIntegral(double x, RoundMode mode) {
  if (!std::isfinite(x)) return x;
  double lo = std::floor(x);
  if (lo == x) return x;
  double hi = lo + 1;
  switch (mode) {
    case RoundMode::Floor: return lo;
    case RoundMode::Ceil: return hi;
    case RoundMode::Trunc: return x < 0 ? hi : lo;
    case RoundMode::Round: return x - lo < 0.5 ? lo : x - lo > 0.5 ? hi : (x < 0 ? lo : hi);
    case RoundMode::Odd: return std::fmod(lo, 2) != 0 ? lo : hi;
    case RoundMode::CastRint: case RoundMode::Rint: case RoundMode::None:
      break;
  }
  double d = x - lo;
  if (d != 0.5) return d < 0.5 ? lo : hi;
  return std::fmod(lo, 2) == 0 ? lo : hi;
}

double roundFloat(double x, DType d, RoundMode mode) {
  if (!isFloatType(d) || x == 0 || !std::isfinite(x)) return x;
  FloatFormat f = formatOf(d);
  int exp;
  std::frexp(x, &exp);                                    // |x| = m * 2^exp, m in [0.5, 1)
  int quantum = std::max(exp - 1, f.minExp) - (f.precision - 1);  // weight of the last bit
  double scaled = std::ldexp(x, -quantum);                 // exact: a power-of-two scaling
  double r = std::ldexp(roundToIntegral(scaled, mode), quantum);
  double maxFinite = std::ldexp(2 - std::ldexp(1, 1 - f.precision), f.maxExp);
  if (std::fabs(r) <= maxFinite) return r;
  if (towardZero(mode, x < 0)) return std::copysign(maxFinite, x);
  return std::copysign(std::numeric_limits<double>::infinity(), x);
}

int64_t wrapInt(int64_t x, DType d) {
  IntRange r = rangeOf(d);
  if (d == DType::Bool) return x != 0;
  if (r.bits == 64) return x;
  uint64_t mask = (uint64_t(1) << r.bits) - 1;
  uint64_t u = uint64_t(x) & mask;
  if (r.isSigned && (u >> (r.bits - 1))) return int64_t(u | ~mask);
  return int64_t(u);
}

Num convert(Num n, DType from, DType to, RoundMode mode) {
  Num out;
  if (isFloatType(to)) {
    out.f = roundFloat(isFloatType(from) ? n.f : double(n.i), to, mode);
    return out;
  }
  if (!isFloatType(from)) {
    out.i = wrapInt(n.i, to);
    return out;
  }
  if (std::isnan(n.f)) return out;
  if (to == DType::Bool) {
    out.i = n.f != 0;
    return out;
  }
  IntRange r = rangeOf(to);
  double lo = r.isSigned ? -std::ldexp(1, r.bits - 1) : 0;
  double hi = r.isSigned ? std::ldexp(1, r.bits - 1) - 1 : std::ldexp(1, r.bits) - 1;
  double v = roundToIntegral(n.f, mode);
  if (v <= lo) out.i = r.bits == 64 ? std::numeric_limits<int64_t>::min() : int64_t(lo);
  else if (v >= hi) out.i = r.bits == 64 ? std::numeric_limits<int64_t>::max() : int64_t(hi);
  else out.i = int64_t(v);
  return out;
}

}  // namespace tilec::interp
