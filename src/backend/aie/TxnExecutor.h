// Runs a TXN stream against host buffers, the way the NPU's shim DMA would move their
// bytes, to check what a stream does rather than what its words are. The device is a
// loopback, like the interpreter's model of sequences: what MM2S channel n of a column
// reads from the host, S2MM channel n of the same column writes back, in order. Register
// writes other than descriptors, patches and queue pushes have no effect here; waits are
// no-ops (transfers run when pushed). Linear in the bytes moved plus the stream.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "backend/aie/TxnFormat.h"

namespace tilec::aie {

// Moves bytes between `buffers` (indexed by argument index) as `stream` says; the reason
// when it cannot (a walk outside a buffer, a drain with no data, a push of an unwritten
// descriptor).
std::string executeTxn(const TxnStream& stream, std::vector<std::vector<uint8_t>>& buffers);

}  // namespace tilec::aie
