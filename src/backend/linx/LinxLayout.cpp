#include "backend/linx/LinxLayout.h"

#include <algorithm>

namespace tilec::linx {
namespace {

using ir::CubeCells;
using ir::TileLayout;

int64_t elementBytes(const ir::Type& t) { return ir::dtypeBytes(t.dtype()); }

// The rows of one cube cell: 16 or 32 for m16/m32; for n8, the K rows of 8 columns that
// fill 128 bytes.
int64_t cubeCellRows(CubeCells c, int64_t bytes) {
  return c == CubeCells::M16 ? 16 : c == CubeCells::M32 ? 32 : kCellBytes / (8 * bytes);
}

bool boxed(const TileLayout& l) { return l.cells == CubeCells::None && l.slayout != ir::SLayout::NoneBox; }

// Box geometry of nz/zn/acc: rows x columns of one fractal box (16 rows of 32 or 64 bytes
// for nz/acc; the transpose for zn).
std::pair<int64_t, int64_t> boxShape(const TileLayout& l, int64_t bytes) {
  const int64_t lineElems = l.fractal / 16 / bytes;
  return l.slayout == ir::SLayout::RowMajor ? std::make_pair(int64_t(16), lineElems)
                                            : std::make_pair(lineElems, int64_t(16));
}

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

std::string layoutText(const TileLayout& l) {
  if (const char* n = ir::layoutName(l)) return n;
  return std::string(ir::blayoutName(l.blayout)) + "/" + ir::slayoutName(l.slayout) + "/" + std::to_string(l.fractal);
}

bool storedInRows(const ir::Type& t) {
  const TileLayout& l = t.layout();
  if (t.rank() != 2 || l.cells != CubeCells::None || l.slayout != ir::SLayout::NoneBox) return false;
  return l.blayout == ir::BLayout::RowMajor || t.shape()[1] == 1;
}

std::optional<int64_t> storageBytes(const ir::Type& t, std::string& why) {
  const TileLayout& l = t.layout();
  const int64_t bytes = elementBytes(t), rows = t.shape()[0], cols = t.shape()[1];
  if (l.cells == CubeCells::M16 || l.cells == CubeCells::M32) {
    const int64_t cr = cubeCellRows(l.cells, bytes);
    if (rows > cr || kCellBytes % (cr * bytes) != 0) {
      why = "a " + layoutText(l) + " tile holds at most " + std::to_string(cr) + " rows of whole " +
            std::to_string(kCellBytes) + "-byte cells, but this one is " + std::to_string(rows) + " x " +
            std::to_string(cols) + " " + ir::dtypeName(t.dtype()) + "; cut it into tiles of at most " +
            std::to_string(cr) + " rows";
      return std::nullopt;
    }
    const int64_t cc = kCellBytes / (cr * bytes);
    return ceilDiv(cols, cc) * kCellBytes;
  }
  if (l.cells == CubeCells::N8) {
    const int64_t cr = cubeCellRows(l.cells, bytes);
    if (cr < 1) {
      why = "a cube_n8 cell of 8 columns of " + std::string(ir::dtypeName(t.dtype())) + " is more than " +
            std::to_string(kCellBytes) + " bytes; use another layout for this dtype";
      return std::nullopt;
    }
    return ceilDiv(rows, cr) * ceilDiv(cols, 8) * kCellBytes;
  }
  if (boxed(l)) {
    auto [br, bc] = boxShape(l, bytes);
    if (br < 1 || bc < 1 || rows % br != 0 || cols % bc != 0) {
      why = "a " + layoutText(l) + " tile is whole " + std::to_string(br) + " x " + std::to_string(bc) +
            " boxes, but this one is " + std::to_string(rows) + " x " + std::to_string(cols) +
            "; pad its shape to whole boxes";
      return std::nullopt;
    }
  }
  return rows * cols * bytes;
}

int64_t byteOffset(const ir::Type& t, int64_t r, int64_t c) {
  const TileLayout& l = t.layout();
  const int64_t bytes = elementBytes(t), rows = t.shape()[0], cols = t.shape()[1];
  int64_t index = 0;
  if (l.cells == CubeCells::M16 || l.cells == CubeCells::M32) {
    const int64_t cr = cubeCellRows(l.cells, bytes), cc = kCellBytes / (cr * bytes);
    index = (c / cc) * (cr * cc) + r * cc + c % cc;
  } else if (l.cells == CubeCells::N8) {
    const int64_t cr = cubeCellRows(l.cells, bytes), kRepeat = ceilDiv(rows, cr);
    index = ((c / 8) * kRepeat + r / cr) * (cr * 8) + (c % 8) * cr + r % cr;
  } else if (boxed(l)) {
    auto [br, bc] = boxShape(l, bytes);
    if (l.slayout == ir::SLayout::RowMajor)  // nz, acc: column blocks of stacked boxes
      index = (c / bc) * rows * bc + (r / br) * br * bc + (r % br) * bc + c % bc;
    else  // zn: row blocks of boxes side by side
      index = (r / br) * cols * br + (c / bc) * br * bc + r % br + (c % bc) * br;
  } else {
    index = l.blayout == ir::BLayout::RowMajor ? r * cols + c : c * rows + r;
  }
  return index * bytes;
}

int capacityCode(int64_t bytes) {
  int code = 1;
  for (int64_t capacity = kCellBytes; capacity < bytes; capacity *= 2)
    if (++code > 12) return 0;
  return code;
}

int sizeCodeOf(const ir::Type& t) {
  std::string why;
  return capacityCode(storageBytes(t, why).value_or(0));
}

bool opensGeneration(const ir::Op& insert) {
  const ir::RegionPhase phase = insert.get(ir::attr::phase);
  return phase == ir::RegionPhase::Init || phase == ir::RegionPhase::InitLast;
}

int assembleSizeField(const ir::Op& insert, AssembleRev rev) {
  if (rev == AssembleRev::B) return sizeCodeOf(insert.operand(1)->type());
  return opensGeneration(insert) ? sizeCodeOf(insert.result()->type()) : 0;
}

int assembleDestinationCode(const ir::Op& insert, AssembleRev rev) {
  if (rev == AssembleRev::A) return sizeCodeOf(insert.operand(1)->type());
  return opensGeneration(insert) ? sizeCodeOf(insert.result()->type()) : 0;
}

std::string splitHint(const TileLayout& l) {
  const std::string name = layoutText(l);
  if (l.cells == CubeCells::N8)
    return "a cube_n8 tile is contiguous along runs of K rows inside one 8-column strip, or whole strips";
  const bool rowSplits = l.cells == CubeCells::None && (boxed(l) ? l.slayout == ir::SLayout::ColMajor
                                                                 : l.blayout == ir::BLayout::RowMajor);
  return rowSplits ? "a " + name + " tile admits only row splits, [R, 1]"
                   : "a " + name + " tile admits only column splits, [1, C]";
}

namespace {

// Whether slot (i, j), a tile of type `slot` stored in `range` bytes, is exactly the
// parent's bytes [base, base + range) with base = ordinal * range: every element where
// the slot's own layout puts it, offset by base. A slot that owns whole padded cells (a
// cube_m32 slot of 16 rows) is one such range; so is every exact cut of an unpadded
// layout. On failure, `why` says how it is not.
bool slotInPlace(const ir::Type& parent, const ir::Type& slot, int64_t range, int64_t i, int64_t j, int64_t ordinal,
                 std::string& why) {
  const int64_t h = slot.shape()[0], w = slot.shape()[1], bytes = elementBytes(parent), base = ordinal * range;
  int64_t lo = INT64_MAX, hi = 0;
  bool ordered = true;
  for (int64_t r = 0; r < h; ++r)
    for (int64_t c = 0; c < w; ++c) {
      const int64_t at = byteOffset(parent, i * h + r, j * w + c);
      lo = std::min(lo, at);
      hi = std::max(hi, at + bytes);
      ordered = ordered && at - base == byteOffset(slot, r, c);
    }
  const std::string name = "slot [" + std::to_string(i) + ", " + std::to_string(j) + "]";
  if (hi - lo > range)
    why = name + " is not contiguous (its elements span " + std::to_string(hi - lo) + " bytes for a range of " +
          std::to_string(range) + ")";
  else if (lo < base || hi > base + range)
    why = name + " is the bytes at " + std::to_string(lo) + ", not at " + std::to_string(base) + " where its ordinal " +
          std::to_string(ordinal) + " puts it";
  else if (!ordered)
    why = name + " holds its elements in another order than a " + std::to_string(h) + " x " + std::to_string(w) + " " +
          layoutText(slot.layout()) + " tile";
  else
    return true;
  return false;
}

}  // namespace

std::optional<SlotRanges> proveSlots(const ir::Type& parent, const std::vector<int64_t>& grid, std::string& why) {
  std::optional<int64_t> parentBytes = storageBytes(parent, why);
  if (!parentBytes) return std::nullopt;
  const int64_t h = parent.shape()[0] / grid[0], w = parent.shape()[1] / grid[1];
  const std::string cut = "cutting the " + std::to_string(parent.shape()[0]) + " x " +
                          std::to_string(parent.shape()[1]) + " " + layoutText(parent.layout()) + " tile into [" +
                          std::to_string(grid[0]) + ", " + std::to_string(grid[1]) + "] slots of " +
                          std::to_string(h) + " x " + std::to_string(w);
  const ir::Type slot = parent.withShape({h, w}, {});
  std::optional<int64_t> slotBytes = storageBytes(slot, why);
  if (!slotBytes) {
    why = cut + ": " + why;
    return std::nullopt;
  }
  for (int64_t i = 0; i < grid[0]; ++i)
    for (int64_t j = 0; j < grid[1]; ++j)
      if (!slotInPlace(parent, slot, *slotBytes, i, j, i * grid[1] + j, why)) {
        why = cut + ": " + why + "; " + splitHint(parent.layout());
        return std::nullopt;
      }
  if (*slotBytes * grid[0] * grid[1] != *parentBytes) {
    why = cut + ": the " + std::to_string(grid[0] * grid[1]) + " slots of " + std::to_string(*slotBytes) +
          " bytes take " + std::to_string(*slotBytes * grid[0] * grid[1]) + " of the parent's " +
          std::to_string(*parentBytes) + "; choose a shape the layout stores in whole slots";
    return std::nullopt;
  }
  return SlotRanges{*slotBytes, *slotBytes / kCellBytes, *parentBytes};
}

}  // namespace tilec::linx
