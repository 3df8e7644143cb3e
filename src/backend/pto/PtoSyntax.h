// Spellings of PTO assembly: MLIR element and scalar types, the verbose
// `!pto.tile_buf<...>` type, literals, and unique SSA names.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "backend/pto/PtoModel.h"
#include "ir/Type.h"
#include "support/StringSet.h"

namespace tilec::pto {

// Element type of tiles, pointers and views: f32, bf16, i8, ui8, i1, ...
std::string elementType(ir::DType d);
// Type of a scalar SSA value: arith works on signless integers, so u8 is i8.
std::string scalarType(ir::DType d);

// The fields of a `!pto.tile_buf` type; nullopt valid extents print as `?`.
struct TileBuf {
  ir::SpaceId space;
  ir::DType dtype;
  int64_t rows;
  int64_t cols;
  std::optional<int64_t> validRows;
  std::optional<int64_t> validCols;
  ir::TileLayout layout;
};
// A 2-D tile type with its valid extents static where they are constants.
TileBuf tileBufOf(const ir::Type& tile);
std::string tileBufType(const TileBuf& t);

// `!pto.tensor_view<?x?xf32>` and `!pto.partition_tensor_view<16x?xf32>`.
std::string tensorViewType(size_t rank, ir::DType d);
std::string partitionType(const std::vector<std::optional<int64_t>>& sizes, ir::DType d);

// An MLIR float literal for a constant of dtype `d` (hex bits when not finite).
std::string floatLiteral(double v, ir::DType d);

// Unique SSA names for one function, derived from IR name hints.
class NameTable {
 public:
  // `%hint`, `%hint_1`, ... or the next free number when the hint is empty.
  std::string fresh(const std::string& hint);
  // Takes exactly `%name`; false if it is already used.
  bool claim(const std::string& name);

 private:
  StringSet used_;
  std::map<std::string, unsigned> nextSuffix_;  // last `_N` tried per base name
  unsigned nextNumber_ = 0;
};

}  // namespace tilec::pto
