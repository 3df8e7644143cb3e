#include "backend/pto/PtoSyntax.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace tilec::pto {
using namespace ir;

std::string elementType(DType d) {
  switch (d) {
    case DType::Bool: return "ui8";  // a bool tile is a comparison's mask, uint8_t in pto-isa
    case DType::U8: return "ui8";
    case DType::U16: return "ui16";
    case DType::U32: return "ui32";
    default: return dtypeName(d);
  }
}

std::string scalarType(DType d) {
  switch (d) {
    case DType::Bool: return "i1";
    case DType::U8: return "i8";
    case DType::U16: return "i16";
    case DType::U32: return "i32";
    default: return dtypeName(d);
  }
}

TileBuf tileBufOf(const Type& tile) {
  const auto& shape = tile.shape();
  const auto& valid = tile.valid();
  TileBuf buf{tile.space(), tile.dtype(), shape[0], shape[1], valid[0].asConst(), valid[1].asConst(), tile.layout()};
  // A row or column vector with a runtime extent has both: pto.set_validshape, which gives
  // the row view of a column (and the column view of a row) its runtime extent, takes only
  // such types, and the tiles of one op must have one type (pto-isa's tadd has one
  // template parameter for all three).
  const bool vector = shape[0] == 1 || shape[1] == 1;
  if (vector && (!buf.validRows || !buf.validCols)) buf.validRows = buf.validCols = std::nullopt;
  // A mask packs a bit per element, row i at row i of the tile (pto-isa's tsel on a2a3
  // and a5 reads it so): its valid columns are the bytes a whole row of bits takes, which
  // tcmp and tcmps fill and tsel steps by, whatever the compared tiles' valid columns.
  if (tile.dtype() == DType::Bool) buf.validCols = (shape[1] + 7) / 8;
  return buf;
}

namespace {
std::string extent(const std::optional<int64_t>& e) { return e ? std::to_string(*e) : "?"; }
}  // namespace

std::string tileBufType(const TileBuf& t) {
  return "!pto.tile_buf<loc=" + std::string(spaceName(t.space)) +
         ", dtype=" + elementType(t.dtype) + ", rows=" + std::to_string(t.rows) +
         ", cols=" + std::to_string(t.cols) + ", v_row=" + extent(t.validRows) +
         ", v_col=" + extent(t.validCols) + ", blayout=" + blayoutName(t.layout.blayout) +
         ", slayout=" + slayoutName(t.layout.slayout) +
         ", fractal=" + std::to_string(t.layout.fractal) +
         ", pad=" + std::to_string(int(t.layout.pad)) + ">";
}

std::string tensorViewType(size_t rank, DType d) {
  std::string s = "!pto.tensor_view<";
  for (size_t i = 0; i < rank; ++i) s += "?x";
  return s + elementType(d) + ">";
}

std::string partitionType(const std::vector<std::optional<int64_t>>& sizes, DType d) {
  std::string s = "!pto.partition_tensor_view<";
  for (const auto& e : sizes) s += extent(e) + "x";
  return s + elementType(d) + ">";
}

namespace {

// Bit patterns of +inf, -inf and a quiet NaN per float dtype.
std::string nonFiniteBits(double v, DType d) {
  struct Bits {
    DType dtype;
    const char *posInf, *negInf, *nan;
  };
  static const Bits kBits[] = {{DType::F32, "0x7F800000", "0xFF800000", "0x7FC00000"},
                               {DType::F16, "0x7C00", "0xFC00", "0x7E00"},
                               {DType::BF16, "0x7F80", "0xFF80", "0x7FC0"}};
  for (const Bits& b : kBits)
    if (b.dtype == d) return std::isnan(v) ? b.nan : (v > 0 ? b.posInf : b.negInf);
  return kBits[0].nan;
}

}  // namespace

std::string floatLiteral(double v, DType d) {
  if (!std::isfinite(v)) return nonFiniteBits(v, d);
  // Nine significant digits identify every f32 (and so every f16/bf16) value.
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.8e", double(float(v)));
  return buf;
}

std::string NameTable::fresh(const std::string& hint) {
  if (hint.empty()) {
    while (!claim("%" + std::to_string(nextNumber_))) ++nextNumber_;
    return "%" + std::to_string(nextNumber_++);
  }
  std::string base;
  for (char c : hint) base += std::isalnum(static_cast<unsigned char>(c)) || std::strchr("_$.-", c) ? c : '_';
  if (std::isdigit(static_cast<unsigned char>(base[0]))) base = "v" + base;
  if (claim("%" + base)) return "%" + base;
  for (unsigned& n = nextSuffix_[base];;)
    if (claim("%" + base + "_" + std::to_string(++n))) return "%" + base + "_" + std::to_string(n);
}

bool NameTable::claim(const std::string& name) { return used_.insert(name); }

}  // namespace tilec::pto
