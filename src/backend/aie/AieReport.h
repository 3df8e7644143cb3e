// --emit=report's section for runtime sequences on the NPUs (npu1, npu2): every dma.fill
// and dma.drain drawn over its host tensor as mlir-aie's taplib draws an access pattern
// (access order and access count), the buffer descriptor each one uses with the fields
// the encoder writes, and the channel queues over the sequence.
#pragma once
#include "report/Section.h"

namespace tilec::aie {

// Writes the kernel's "AIE transfers" section; false (nothing written) without transfers.
bool writeTransferSection(const report::KernelView& kernel, report::Page& page);

}  // namespace tilec::aie
