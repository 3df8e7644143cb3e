// The PTO targets as the IR sees them: the two architectures, their memory spaces by
// id, and the IR models (space table, kernel kinds, default layouts) of a2a3 and a5.
#pragma once
#include <cstdint>

#include "ir/TargetModel.h"

namespace tilec::pto {

// The two PTO architectures; they differ in capacities, dtypes, legal moves and the
// left operand's layout.
enum class Arch : uint8_t { A2A3, A5 };
const char* archName(Arch a);  // "a2a3" / "a5"

// The memory spaces of the PTO targets' IR model, by id (the order of its space table).
enum Space : ir::SpaceId { Vec = 1, Mat, Left, Right, Acc, Bias, Scaling };
const char* spaceName(ir::SpaceId s);  // as in .tile, .tir and PTO's `loc=`

// Its kernel kinds, by id: a kernel for the cube core, one for a vector core, or one
// whose kind inference decides (infer-memory-space).
enum class Kernel : ir::KernelKind { Incore, Aic, Aiv };

const ir::TargetModel& ptoModel(Arch a);
Arch archOf(const ir::TargetModel& m);  // m is a PTO model

// How a target writes a vec tile into a window of another that does not keep the parent's
// strides (ir::windowKeepsStrides). PTOAS gives such a subview its parent's physical shape.
struct WindowWrites {
  // tmov into that subview: a5's copies the valid region whatever the shapes, except that
  // PTOAS first reinterprets column-major vec tiles as rows, which needs their real shapes;
  // a2a3's needs equal shapes.
  bool moveIntoWidenedSubview;
  uint32_t insertDTypes;   // pto.tinsert at the window's offsets into the parent (unboxed row-major vec tiles)
  int64_t insertAlignBytes;  // tinsert's column offset is a multiple of this many bytes
  uint32_t addZeroDTypes;  // pto.tadds of 0 into the subview: elementwise ops compare valid shapes only
};
const WindowWrites& windowWrites(Arch a);

}  // namespace tilec::pto
