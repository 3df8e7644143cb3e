// The PTO backend's per-op table (PtoOps.def): how each op is spelled in PTO assembly,
// which element types PTOAS accepts for it on each target, and which of its tiles must be
// row-major. Header-only data, read by the emitter and by pto-legality.
#pragma once
#include <cstdint>
#include <iterator>

#include "backend/pto/PtoModel.h"
#include "ir/IR.h"

namespace tilec::pto {

enum class PtoForm { Dps, Own, Scalar, Control, None };
// Which tiles of an op must be row-major (not column vectors).
enum class RowMajorScope { None, All, AllOperands, FirstOperandAndResult };

constexpr uint32_t dtypeBit(ir::DType d) { return 1u << unsigned(d); }

namespace dtypes {  // the element-type sets the table names
using ir::DType;
constexpr uint32_t AnyDType = ~0u;
constexpr uint32_t F16F32 = dtypeBit(DType::F16) | dtypeBit(DType::F32);
constexpr uint32_t I8 = dtypeBit(DType::I8);
constexpr uint32_t I32 = dtypeBit(DType::I32);
constexpr uint32_t BF16 = dtypeBit(DType::BF16);
constexpr uint32_t Base = I32 | dtypeBit(DType::I16) | F16F32;
constexpr uint32_t GmTransfer = I8 | dtypeBit(DType::I16) | I32 | dtypeBit(DType::I64) | F16F32 | BF16;
constexpr uint32_t Transposable = I8 | dtypeBit(DType::U8) | dtypeBit(DType::I16) | dtypeBit(DType::U16) |
                                  I32 | dtypeBit(DType::U32) | F16F32 | BF16;
}  // namespace dtypes

struct PtoOpInfo {
  ir::OpKind kind;
  PtoForm form;
  const char* mnemonic;  // after "pto."; "" where the form has none
  uint32_t a2a3;         // accepted element types (dtypeBit sets)
  uint32_t a5;
  RowMajorScope rowMajor;
  uint32_t dtypes(Arch t) const { return t == Arch::A5 ? a5 : a2a3; }
};

inline constexpr PtoOpInfo kPtoOps[] = {
#define TILEC_PTO_OP(E, FORM, MNEMONIC, A2A3, A5, ROWMAJOR)                                   \
  {ir::OpKind::E, PtoForm::FORM, MNEMONIC, [] { using namespace dtypes; return uint32_t(A2A3); }(), \
   [] { using namespace dtypes; return uint32_t(A5); }(), RowMajorScope::ROWMAJOR},
#include "backend/pto/PtoOps.def"
#undef TILEC_PTO_OP
};
inline constexpr size_t kNumPtoOps = std::size(kPtoOps);

// The row of op kind `k` (rows are in OpKind order; tests/unit/opdefs_test.cpp checks it).
inline const PtoOpInfo& ptoOp(ir::OpKind k) { return kPtoOps[size_t(k)]; }

}  // namespace tilec::pto
