// Where a Linx tile's elements live, and the proof that a region slot is one CELL range.
// Byte offsets follow each layout's storage formula (docs/linx.md, "Layouts"): row_major
// and col_major are unboxed; nz/acc stack 16-row boxes of 32/64-byte rows in column
// blocks, zn is nz transposed; cube_m16/m32 order 128-byte cells of 16/32 rows along the
// columns, cube_n8 orders cells of 8 columns K-major. A slot is legal when its elements are
// exactly the bytes [k * 128, (k + n) * 128) with n a power of two, at the place its
// ordinal (i * C + j) gives it, its elements where a tile of the slot's shape has them
// (cells a slot owns may be padded, as cube_m32 cells of a 16-row tile are): the decision
// procedure enumerates the slot's elements, so it is the layout formula itself that
// decides, never a shortcut. Linear in the tile.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "backend/linx/LinxModel.h"
#include "backend/linx/LinxWords.h"
#include "ir/IR.h"
#include "ir/Type.h"

namespace tilec::linx {

// A layout's name for messages ("row_major", "cube_m16", ...).
std::string layoutText(const ir::TileLayout& l);

// Stored as whole rows: an unboxed row-major 2-D tile, or an unboxed column-major one of
// one column (its elements are in the same order). Such a tile's rows must be whole units
// of the row alignment (LinxModel.h); linx-align-rows pads them.
bool storedInRows(const ir::Type& t);

// The bytes a tile of `t`'s type occupies in its layout, or nullopt with the reason its
// shape does not fit the layout (a cube_m16 tile of more than 16 rows, ...).
std::optional<int64_t> storageBytes(const ir::Type& t, std::string& why);

// The SizeCode of the allocation a binder gives a tile of `bytes`: the smallest power of
// two of at least one CELL that holds it (0 past 256 KiB).
int capacityCode(int64_t bytes);
// The SizeCode of a tile's allocation (the parent of an array is exactly its slots): what
// the encoder writes and the report labels.
int sizeCodeOf(const ir::Type& t);
// True for the first write of an array (INIT, INIT_LAST): the one that opens its generation.
bool opensGeneration(const ir::Op& insert);
// Field 5 of the B.ASSEMBLE word of a region.insert: the writer's SizeCode (revision B), or
// the parent's on INIT and 0 after it (revision A).
int assembleSizeField(const ir::Op& insert, AssembleRev rev);
// The destination SizeCode of the binder that carries a region.insert's B.ASSEMBLE, 0 for
// none. Revision A sizes every writer by its binder's destination, so each write's binder
// has one of the writer's SizeCode; revision B gives only INIT's binder a destination, of
// the parent's SizeCode (it allocates the parent), and later binders name the parent as
// their last source instead.
int assembleDestinationCode(const ir::Op& insert, AssembleRev rev);

// The byte offset of element (r, c) in a tile of `t`'s type; requires storageBytes(t).
int64_t byteOffset(const ir::Type& t, int64_t r, int64_t c);

// What the proof of one partition establishes.
struct SlotRanges {
  int64_t slotBytes = 0;    // each slot's range
  int64_t slotCells = 0;
  int64_t parentBytes = 0;  // the parent's storage
};

// Which cuts of a tile in layout `l` can give contiguous slots, for messages.
std::string splitHint(const ir::TileLayout& l);

// Proves that cutting `parent` into `grid` slots maps slot (i, j) to the CELL range at
// ordinal (i * C + j) of size slotBytes (a slot's storage in the parent's layout, padding
// included), every slot one such range holding its elements where its own layout puts
// them: a bijection over the parent's CELLs in ordinal order. On failure, `why` names the
// rule and the numbers.
std::optional<SlotRanges> proveSlots(const ir::Type& parent, const std::vector<int64_t>& grid, std::string& why);

}  // namespace tilec::linx
