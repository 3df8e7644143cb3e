// The IR model of the linx target: Local and Shared tiles, one kernel kind, and the
// layouts a kernel may name (LinxISA's row_major and cube layouts, and the fractal
// layouts of the TileOP API); and the target's numbers, each once. The header-word
// encoding's own constants (opcodes, bit fields, register names) are LinxWords.cpp's, the
// layouts' geometry LinxLayout.cpp's.
#pragma once
#include <string>

#include "ir/TargetModel.h"

namespace tilec::linx {

enum Space : ir::SpaceId { Local = 1, Shared = 2 };

const ir::TargetModel& linxModel();

// Tile memory is CELLs of 128 bytes, 2048 per PE; a region range is whole CELLs.
constexpr int64_t kCellBytes = 128;
constexpr int64_t kCellsPerPe = 2048;

// A SizeCode c names kCellBytes << (c - 1) bytes. A Local binder gives a tile up to SizeCode
// 10 (64 KiB), a Shared one up to 12 (256 KiB), the largest range a modifier names.
constexpr int kMaxLocalSizeCode = 10;
constexpr int kMaxSharedSizeCode = 12;
int maxSizeCode(ir::SpaceId space);  // the largest SizeCode a binder of `space` may give

// The relative tile queue: four hands, T, U, M and N, and a binder names a source among the
// latest 16 tiles bound to its hand (T#1 is the latest, T#16 the oldest).
constexpr char kHandNames[] = "TUMN";
constexpr int kHands = int(sizeof(kHandNames)) - 1;
constexpr int kQueueReach = 16;
std::string handList();  // "T, U, M, N", for messages

// Shared tiles live in 256 absolute Shared registers, S0..S255, each visible to a core's
// four PEs.
constexpr int kSharedRegisters = 256;

// A range modifier's CELL offset: its constant part in an 11-bit immediate, the rest in a
// register.
constexpr int kImmBits = 11;
constexpr int kImmMax = (1 << kImmBits) - 1;
// The registers (r numbers) an offset may be computed into: a0..a7, s1..s8 and x0..x3,
// never zero, sp, ra or s0/fp.
constexpr int kOffsetRegisters[] = {2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23};

// The bytes a row-major Local tile's physical row is a whole multiple of: 32 (PTO's
// RowMajor tiles need Cols * bits % 256 == 0, so a column of f32 is 8 physical columns
// wide, as the seed's RowState Tile<Vec, float, M, 8, RowMajor, M, 1> is).
int64_t rowAlignBytes();

}  // namespace tilec::linx
