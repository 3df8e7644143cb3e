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

}  // namespace tilec::linx
