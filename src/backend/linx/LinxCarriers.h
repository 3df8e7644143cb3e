// Sub-CELL tile-array writers packed into 128-byte carriers (docs/linx.md, "Sub-CELL
// writers"): n fragments that together fill one CELL are inserted side by side into a
// created carrier (tile.assemble, a TINSERT block whose first write allocates it), and the
// carrier is written into the array as one slot of a grid n times coarser. linx-pack-cells
// packs unrolled writes this way, linx-peel the writes of one iteration of a rolled loop.
#pragma once
#include <vector>

#include "ir/IR.h"

namespace tilec::linx {

// Replaces the slot writes `run` (consecutive in one array's chain, consecutive slots in
// ordinal order; down the rows of a one-column grid when `rows`, else along a row) by a
// carrier of their fragments and one write of it at `index` of the `coarse` grid, which
// takes the last write's place and name. Returns that write (no phase yet). Linear in the run.
ir::Op* packRun(const std::vector<ir::Op*>& run, const std::vector<int64_t>& coarse, const std::vector<ir::Expr>& index,
                bool rows);

}  // namespace tilec::linx
