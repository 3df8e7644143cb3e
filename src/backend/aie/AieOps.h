// The AIE backend's per-op table (AieOps.def): what each op of the groups npu1 and npu2
// accept is to a runtime sequence. The AIE passes and writers switch over its form. Ops
// of other groups (tiles, regions) have no row: aie-legality refuses them, so code after
// it treats one as an internal error.
#pragma once
#include "ir/IR.h"
#include "ir/OpTable.h"

namespace tilec::aie {

enum class AieForm {
  Const,     // a constant scalar
  Index,     // an integer expression made a value
  Loop,      // a counted loop, run on the host
  Branch,    // a two-way branch, run on the host
  Yield,     // the end of a loop or branch body and the values it carries
  Transfer,  // a shim DMA transfer: a descriptor walking a host tensor, pushed to a channel
  Wait,      // a wait for the oldest unfinished transfer of a channel
  Require,   // a condition on the runtime sizes, checked at dispatch
  Raw,       // a register-level operation, written to the stream as given
};

// Which way the shim channel an op uses moves data.
enum class AieChannel {
  None,   // the op uses no channel
  MM2S,   // host memory to the array (a fill)
  S2MM,   // the array to host memory (a drain)
  Named,  // the op's `drain` attribute says which (a wait)
};

struct AieOpInfo {
  ir::OpKind kind;
  AieForm form;
  AieChannel channel;
};

// Every row of AieOps.def.
const ir::OpTable<AieOpInfo>& aieOps();

// The row of op kind `k`, or null: the op is of a group the AIE targets do not accept.
const AieOpInfo* findAieOp(ir::OpKind k);
// The row of an op that passed aie-legality; an internal error (std::logic_error) for an
// op without one, which aie-legality refuses.
const AieOpInfo& aieOp(const ir::Op& op);
// Whether the channel a transfer or wait uses moves data to the host (S2MM).
bool drains(const ir::Op& op);
// The queue entries a transfer takes (assign-bds plans them, the writers lay out within
// them): the pushes of a long repeat (`pushes`), or one per piece of a split = n.
int64_t queueEntries(const ir::Op& op);

}  // namespace tilec::aie
