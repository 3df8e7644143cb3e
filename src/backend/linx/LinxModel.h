// The IR model of the linx target: Local and Shared tiles, one kernel kind, and the
// layouts a kernel may name (LinxISA's row_major and cube layouts, and the fractal
// layouts of the TileOP API).
#pragma once
#include "ir/TargetModel.h"

namespace tilec::linx {

enum Space : ir::SpaceId { Local = 1, Shared = 2 };

const ir::TargetModel& linxModel();

// The largest SizeCode a binder of `space` may give a tile: 10 (64 KiB) for Local, 12
// (256 KiB) for Shared.
int maxSizeCode(ir::SpaceId space);

// The bytes a row-major Local tile's physical row is a whole multiple of: 32 (PTO's
// RowMajor tiles need Cols * bits % 256 == 0, so a column of f32 is 8 physical columns
// wide, as the seed's RowState Tile<Vec, float, M, 8, RowMajor, M, 1> is).
int64_t rowAlignBytes();

}  // namespace tilec::linx
