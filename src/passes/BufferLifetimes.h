// The on-chip buffers of a kernel (the `buffers` ids assign-buffers gives tiles) with their
// live ranges and sizes, and per memory space the bytes live at every point of the program:
// what check-capacity holds against the target's capacity and what the report draws.
// One computation for both, so the chart's peak is the number the check compares.
//
// A buffer lives from the first definition of any of its tiles to the last point one of them
// is needed (Liveness.h); its size is its largest tile rounded up to the space's alignment.
// A tile a pipe.pop makes is not counted: it lives in its pipe's slots, which a split kernel
// reserves for its whole run (check-capacity adds them).
// Linear in the ops plus sorts of the buffer ids and of the buffers' start and end points.
#pragma once
#include <cstdint>
#include <vector>

#include "ir/IR.h"
#include "support/Diagnostics.h"

namespace tilec::passes {

struct LiveBuffer {
  int64_t id;
  int start, end;             // program points (Liveness), start <= end
  int64_t bytes;              // the largest tile's bytes
  int64_t alignedBytes;       // rounded up to the space's alignment; saturates at INT64_MAX
  const ir::Value* first;     // the tile that names it
  std::vector<const ir::Value*> tiles;  // with `listTiles`: every tile in it, in program order
};

struct SpaceUse {
  ir::SpaceId space;
  std::vector<LiveBuffer> buffers;  // by id
  // The sweep over the buffers' start and end points (ends after starts at the same point):
  // each event opens or closes one buffer.
  struct Event {
    int point;
    bool opens;
    size_t buffer;                  // index into buffers
    int64_t liveAfter;              // aligned bytes live after the event; saturates
  };
  std::vector<Event> events;
  int64_t peakBytes = 0;
  int peakPoint = 0;
  std::vector<size_t> liveAtPeak;   // indices into buffers, in the order they opened
};

struct MemoryUse {
  std::vector<SpaceUse> spaces;     // every space of the target but kNoSpace, in model order
  int lastPoint = 0;                // the last program point of the function
  std::vector<int> opPoints;        // the enter point of every op, in pre-order (ascending)
  struct Loop {
    const ir::Op* loop;
    int enter, exit;
  };
  std::vector<Loop> loops;          // every scf.for, in pre-order: where a chart shades loop bodies
};

// `bytes` rounded up to a multiple of `alignment`; INT64_MAX when that overflows.
int64_t alignedBytes(int64_t bytes, int64_t alignment);

// Requires the `buffers` attributes of assign-buffers; tiles without one are not counted.
// `listTiles` fills LiveBuffer::tiles (a vector per buffer, which the check does not need).
MemoryUse memoryUse(const ir::Function& f, bool listTiles = false);

// The `addrs` of plan-addresses, checked: every tile of a buffer at one address, aligned,
// inside its space, and two buffers whose bytes overlap never live at once. Reports each
// violation (E0302) and returns false. Kernels without addresses pass. Time as memoryUse's
// sweep, times the buffers live at once.
bool verifyAddresses(const ir::Module& m, DiagnosticEngine& diags);

}  // namespace tilec::passes
