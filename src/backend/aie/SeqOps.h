// What each op kind is to a runtime sequence, in one place: the AIE passes and writers
// switch over this small enum instead of every op kind.
#pragma once
#include "ir/IR.h"

namespace tilec::aie {

enum class SeqForm {
  Const,     // arith.const
  Index,     // arith.index
  Loop,      // scf.for
  Branch,    // scf.if
  Yield,     // scf.yield
  Transfer,  // dma.fill, dma.drain
  Wait,      // dma.wait
  Require,   // seq.require
  Raw,       // seq.raw
  TileWork,  // everything that computes on tiles: no place in a sequence (aie-legality)
};

SeqForm seqForm(ir::OpKind k);

}  // namespace tilec::aie
