// Shape arithmetic shared by the ND-to-2D passes: how an N-D tile collapses to
// [product of leading dims, last], and which tensor boxes a collapsed tile can name.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ir/Expr.h"
#include "ir/Type.h"
#include "support/Diagnostics.h"

namespace tilec::ir {
class Op;
}

namespace tilec::nd {

// [2, 3, 4] -> [6, 4]; a 1-D tile is one row, [n] -> [1, n] (the product of no dims is 1).
// Requires rank >= 1.
std::vector<int64_t> collapseShape(const std::vector<int64_t>& shape);
// [1, S, 512] -> [S, 512]; [2, S, 8] -> [2 * S, 8]: symbolic factors survive.
std::vector<ir::Expr> collapseExprs(const std::vector<ir::Expr>& dims);
// The 2-D type of an N-D tile (valid collapsed the same way; a default layout stays default).
ir::Type collapseTile(const ir::Type& t);

// Row-major offset fold: row = ((o0 * d1 + o1) * d2 + ...) + o[n-2], col = o[n-1]; a 1-D
// offset [o] is (0, o).
std::vector<ir::Expr> foldOffsets(const std::vector<ir::Expr>& offsets,
                                  const std::vector<ir::Expr>& dims);

// True when a box of extents `part` inside `full` (same rank) is one contiguous run once
// the leading dims are collapsed: some leading 1s, at most one partial dim, then full dims.
// The last (column) dim is not considered.
bool collapsesContiguously(const std::vector<ir::Expr>& part, const std::vector<ir::Expr>& full);

// The partition window a store of a tile with valid extents `valid` writes into a tensor of
// extents `dims` at `offsets`, or a reason it has none. The tile's axes are the tensor's
// trailing axes (the window is `valid` padded with leading 1s; bounds are the caller's to
// check), except that a 2-D tile with more rows than the tensor's row axis runs on into the
// outer axes, consuming whole axes from the innermost outward.
struct StoreWindow {
  std::vector<ir::Expr> window;  // tensor rank
  enum class Failure { None, PastTensor, FractionalAxis, NonZeroOffset } failure = Failure::None;
  std::string message;           // set when failure != None
  Diag diag() const;             // the failure's diagnostic code (E0608-E0610)
};
StoreWindow storeWindow(const std::vector<ir::Expr>& valid, const std::vector<ir::Expr>& dims,
                        const std::vector<ir::Expr>& offsets);

// A flattened N-D tile holds its valid elements packed row after row (the layout an N-D
// load produces and an N-D store reads). True when that packing puts every valid element
// where the physical N-D layout has it too: some leading axes with one valid entry, at most
// one partial axis, then full axes (the last axis aside). Ops that address a tile by physical
// position (set_valid_shape, reshape, assemble offsets) need this of their N-D tiles.
bool packedIsPhysical(const ir::Type& tile);

// A tile's valid extents padded with leading 1s to `rank` (>= the tile's rank): the box a
// load or store moves when it names none.
std::vector<ir::Expr> paddedWindow(const ir::Type& tile, size_t rank);

// The box of its tensor a tile.load or tile.store moves (tensor rank): the `window`
// attribute, or the tile's valid extents padded with leading 1s, except that a store's
// 2-D rows may run on into outer axes as storeWindow() finds them.
std::vector<ir::Expr> accessWindow(const ir::Op& op);

}  // namespace tilec::nd
