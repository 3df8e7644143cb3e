// How a tile.assemble is written in PTO assembly on a target, decided in one place for
// pto-legality (which rejects an assemble no form writes, E0525) and the emitter (which
// spells the form).
#pragma once
#include <vector>

#include "backend/pto/PtoModel.h"
#include "ir/IR.h"

namespace tilec::pto {

enum class AssembleForm {
  Move,     // pto.tmov into a subview of the target at the offsets
  Insert,   // pto.tinsert into the target at the offsets
  AddZero,  // pto.tadds of 0 into a subview of the target
  None,     // none on this target
};

struct AssembleWrite {
  AssembleForm form = AssembleForm::None;
  // A window of a column vector that PTOAS would widen is written through the row-major
  // views of both tiles: the same bytes seen transposed (pto.treshape). `target`, `source`
  // and `offsets` are then the views' types and the offsets swapped.
  bool rowViews = false;
  ir::Type target, source;
  std::vector<ir::Expr> offsets;
};

// The form of an assemble that is not a write-back (ir::isWriteBack).
AssembleWrite assembleWrite(const ir::Op& assemble, Arch arch);

// The column offsets tinsert takes on `arch` for `d` are multiples of this many elements.
int64_t insertColumnStep(Arch arch, ir::DType d);

// True for an unboxed row-major vec tile, what tinsert and the window tadds take.
bool rowMajorVec(const ir::Type& t);

}  // namespace tilec::pto
