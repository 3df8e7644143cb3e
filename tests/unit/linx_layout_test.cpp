// The linx layout formulas (src/backend/linx/LinxLayout.h): every named layout places a
// tile's elements at distinct bytes inside its storage, and the partition proof agrees
// with the worked examples of the reference notes (pto-spec, TileOP API).
#include <doctest/doctest.h>

#include <set>

#include "backend/linx/LinxLayout.h"
#include "backend/linx/LinxModel.h"

using namespace tilec;
using namespace tilec::ir;

namespace {

Type tile(DType d, int64_t rows, int64_t cols, const char* layout) {
  return Type::tile(d, {rows, cols}, {}, kNoSpace, namedLayout(layout), &linx::linxModel());
}

std::optional<linx::SlotRanges> prove(const Type& t, std::vector<int64_t> grid) {
  std::string why;
  return linx::proveSlots(t, grid, why);
}

}  // namespace

TEST_CASE("linx layouts: every element has its own bytes inside the tile's storage") {
  const char* layouts[] = {"row_major", "col_major", "nz", "zn", "acc", "cube_m16", "cube_m32", "cube_n8"};
  const DType dtypes[] = {DType::F32, DType::BF16, DType::I8};
  int checked = 0;
  for (const char* name : layouts)
    for (DType d : dtypes)
      for (int64_t rows : {8, 16, 32, 64})
        for (int64_t cols : {8, 16, 32, 64, 128}) {
          const Type t = tile(d, rows, cols, name);
          std::string why;
          std::optional<int64_t> storage = linx::storageBytes(t, why);
          if (!storage) continue;
          std::set<int64_t> seen;
          bool inside = true;
          for (int64_t r = 0; r < rows; ++r)
            for (int64_t c = 0; c < cols; ++c) {
              const int64_t at = linx::byteOffset(t, r, c);
              inside = inside && at % dtypeBytes(d) == 0 && at >= 0 && at + dtypeBytes(d) <= *storage;
              seen.insert(at);
            }
          CHECK_MESSAGE(inside, name << " " << rows << "x" << cols);
          CHECK_MESSAGE(int64_t(seen.size()) == rows * cols, name << " " << rows << "x" << cols);
          ++checked;
        }
  CHECK(checked > 200);
}

TEST_CASE("linx layouts: the cell formulas of the reference") {
  // cube_m16, fp16: cells of 16 rows x 4 columns, ordered along the columns.
  const Type m16 = tile(DType::F16, 16, 32, "cube_m16");
  CHECK(linx::byteOffset(m16, 0, 8) == 2 * 128);
  CHECK(linx::byteOffset(m16, 3, 5) == (1 * 64 + 3 * 4 + 1) * 2);
  // cube_n8, fp32: cells of 4 K-rows x 8 columns, K-major.
  const Type n8 = tile(DType::F32, 8, 16, "cube_n8");
  CHECK(linx::byteOffset(n8, 5, 9) == (((9 / 8) * 2 + 5 / 4) * 32 + (9 % 8) * 4 + 5 % 4) * 4);
  // nz (TileLeft), bf16: 16 x 16 boxes in column blocks of 16 columns.
  const Type nz = tile(DType::BF16, 32, 64, "nz");
  CHECK(linx::byteOffset(nz, 17, 18) == ((18 / 16) * 32 * 16 + (17 / 16) * 256 + (17 % 16) * 16 + 18 % 16) * 2);
}

TEST_CASE("linx partitions: the worked examples") {
  // pto-spec B.SUBVIEW example: a 16 x 32 fp16 cube_m16 parent is 8 cells; 2-cell slots.
  auto a = prove(tile(DType::F16, 16, 32, "cube_m16"), {1, 4});
  REQUIRE(a);
  CHECK(a->slotBytes == 256);
  CHECK(a->parentBytes == 1024);
  // TileOP TPARTVIEW: TileLeft<bf16, 32, 64> as 4 x TileLeft<bf16, 32, 16>, 1 KiB each.
  auto b = prove(tile(DType::BF16, 32, 64, "nz"), {1, 4});
  REQUIRE(b);
  CHECK(b->slotCells == 8);
  // The FlashAttention scores: 32 x 64 fp32 as four 2 KiB cube_m32 column bands.
  auto c = prove(tile(DType::F32, 32, 64, "cube_m32"), {1, 4});
  REQUIRE(c);
  CHECK(c->slotBytes == 2048);
  // Row bands of a row_major tile (rowsum_subview): 8 x 32 fp32 = 1 KiB = 8 cells.
  auto d = prove(tile(DType::F32, 32, 32, "row_major"), {4, 1});
  REQUIRE(d);
  CHECK(d->slotCells == 8);
  // zn admits row splits, acc column splits of 16 columns.
  CHECK(prove(tile(DType::BF16, 64, 32, "zn"), {4, 1}));
  CHECK(prove(tile(DType::F32, 32, 64, "acc"), {1, 4}));
  CHECK(prove(tile(DType::F32, 8, 16, "cube_n8"), {1, 2}));
  // A 16-row cube_m32 tile pads every CELL to 32 rows: its column bands own whole padded
  // CELLs, 16 x 16 f32 = 16 CELLs each, at CELLs 0, 16, 32, 48 of 64.
  auto e = prove(tile(DType::F32, 16, 64, "cube_m32"), {1, 4});
  REQUIRE(e);
  CHECK(e->slotCells == 16);
  CHECK(e->parentBytes == 8192);
}

TEST_CASE("linx partitions: refusals name the rule") {
  std::string why;
  CHECK_FALSE(linx::proveSlots(tile(DType::F32, 32, 64, "row_major"), {1, 4}, why));
  CHECK(why.find("admits only row splits") != std::string::npos);
  CHECK_FALSE(linx::proveSlots(tile(DType::F32, 32, 64, "acc"), {2, 1}, why));
  CHECK(why.find("admits only column splits") != std::string::npos);
  CHECK_FALSE(linx::proveSlots(tile(DType::F32, 8, 16, "cube_n8"), {2, 2}, why));
  CHECK(why.find("not at 128 where its ordinal 1 puts it") != std::string::npos);
  CHECK_FALSE(linx::storageBytes(tile(DType::F32, 64, 16, "cube_m32"), why));
  CHECK(why.find("at most 32 rows") != std::string::npos);
  CHECK(linx::capacityCode(64) == 1);
  CHECK(linx::capacityCode(129) == 2);
  CHECK(linx::capacityCode(65536) == 10);
  CHECK(linx::capacityCode(300000) == 0);
}
