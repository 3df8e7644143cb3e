// The PTO backend's per-op table (PtoOps.def): for every op of the groups the PTO targets
// accept, how it is spelled in PTO assembly (its form, mnemonic, or the emitter method
// that writes it), which element types PTOAS accepts for it on each target, which of its
// tiles must be row-major, and the pto-legality rule of its own if it has one. The
// emitter and pto-legality dispatch through it; an op without a row is of a group PTO
// does not accept.
#pragma once
#include <cstdint>
#include <vector>

#include "backend/pto/PtoModel.h"
#include "ir/IR.h"
#include "ir/OpTable.h"
#include "ir/OpDefs.h"

namespace tilec::pto {

// The op groups the PTO targets compile: region ops are lowered by lower-regions before
// the emitter sees them.
inline constexpr ir::OpGroups kPtoGroups =
    ir::groupBit(ir::OpGroup::Core) | ir::groupBit(ir::OpGroup::Tile) | ir::groupBit(ir::OpGroup::Region) |
    ir::groupBit(ir::OpGroup::Cores) | ir::groupBit(ir::OpGroup::Launch);

enum class PtoForm {
  Dps,      // `pto.<mnemonic> ins(operands) outs(result)`
  Own,      // a PTO op the row's emitter method writes
  Scalar,   // arith, written by the row's emitter method
  Control,  // scf, written by the row's emitter method
  Alloc,    // nothing but its buffer's pto.alloc_tile
  Lowered,  // rewritten by a PTO pass before emission
};
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
constexpr uint32_t U8 = dtypeBit(DType::U8);
constexpr uint32_t U16U32 = dtypeBit(DType::U16) | dtypeBit(DType::U32);
constexpr uint32_t GmTransfer = I8 | dtypeBit(DType::I16) | I32 | dtypeBit(DType::I64) | F16F32 | BF16;
constexpr uint32_t IotaDTypes = dtypeBit(DType::I16) | dtypeBit(DType::U16) | I32 | dtypeBit(DType::U32);
constexpr uint32_t ColArgA2A3 = dtypeBit(DType::F32) | dtypeBit(DType::U32);
constexpr uint32_t ColArgA5 = I8 | dtypeBit(DType::U8) | IotaDTypes | F16F32;
// Integers of 1 and 2 bytes, 2 and 4, and 1 to 4, signed or not (bitwise ops and shifts).
constexpr uint32_t Int8Int16 = I8 | U8 | dtypeBit(DType::I16) | dtypeBit(DType::U16);
constexpr uint32_t Int16Int32 = dtypeBit(DType::I16) | dtypeBit(DType::U16) | I32 | dtypeBit(DType::U32);
constexpr uint32_t Int8To32 = Int8Int16 | I32 | dtypeBit(DType::U32);
constexpr uint32_t Int16Only = dtypeBit(DType::I16) | dtypeBit(DType::U16);
constexpr uint32_t Transposable = I8 | dtypeBit(DType::U8) | dtypeBit(DType::I16) | dtypeBit(DType::U16) |
                                  I32 | dtypeBit(DType::U32) | F16F32 | BF16;
constexpr uint32_t F32Only = dtypeBit(DType::F32);
constexpr uint32_t FmodA5 = Base | U16U32;  // tfmod/tfmods on a5 (issue 28)
constexpr uint32_t SortKeys = dtypeBit(DType::F32);  // tsort32's values and its pairs (issue 28)
constexpr uint32_t GatherData = Base | U16U32;        // tgather's index form on both targets (issue 28)
}  // namespace dtypes

// The pipe an op runs on, as the table's Pipe column gives it: none (no instruction), the
// scalar unit, the cube, the pipe of the spaces a transfer moves between (transferRate), or
// the vector pipe at `vecWeight` times a plain elementwise op's time.
enum class OpPipe { None, Scalar, Cube, Transfer, Vec };
struct PipeClass {
  OpPipe pipe;
  double vecWeight;
};

class FunctionEmitter;
class FunctionLegality;

struct PtoOpInfo {
  ir::OpKind kind;
  PtoForm form;
  const char* mnemonic;  // after "pto."; "" where the form has none
  uint32_t a2a3;         // accepted element types (dtypeBit sets)
  uint32_t a5;
  RowMajorScope rowMajor;
  void (FunctionEmitter::*emit)(const ir::Op&);   // Own, Scalar and Control rows
  void (FunctionLegality::*rule)(const ir::Op&);  // null when the op has no rule of its own
  PipeClass pipe;
  uint32_t dtypes(Arch t) const { return perArch(t, a2a3, a5); }
};

// Every row of PtoOps.def.
const ir::OpTable<PtoOpInfo>& ptoOps();
// The row of op kind `k`, or null for an op of a group the PTO targets do not accept.
const PtoOpInfo* ptoOp(ir::OpKind k);

}  // namespace tilec::pto
