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

// A stream of a few kilobytes can ask for terabytes of transfers (a descriptor repeats,
// and the loopback queues what nobody drains), so a run moves at most this many bytes,
// host reads and writes together: 512 MiB, eight times the largest tensor --run holds.
constexpr uint64_t kMaxTxnBytesMoved = uint64_t(1) << 29;

// Moves bytes between `buffers` (indexed by argument index) as `stream` says; the reason
// when it cannot (a walk outside a buffer, a drain with no data, a push of an unwritten
// descriptor, more than `maxBytesMoved` bytes moved), and then `failedOp`, when given, gets
// the index of the op that failed (0 for a stream refused as a whole: a legacy 1.0 one).
std::string executeTxn(const TxnStream& stream, std::vector<std::vector<uint8_t>>& buffers,
                       uint64_t maxBytesMoved = kMaxTxnBytesMoved, size_t* failedOp = nullptr);

}  // namespace tilec::aie
