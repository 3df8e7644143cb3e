// insert-reduction-scratch: each row reduction without a scratch operand gets a
// fresh tile.create of its source's type right before it; others are untouched.
#include "test_support.h"

using namespace tilec;
using tilec::testing::Harness;

namespace {

const char* kHeader =
    "func @k(%a: tensor<f32, [16, 64]> in, %c: tensor<f32, [16, 1]> out, %d: tensor<f32, [1, 64]> out) ";

}  // namespace

TEST_CASE("insert-reduction-scratch: row reductions get a scratch tile, others are untouched") {
  Harness h(std::string(kHeader) +
            "incore {\n"
            "  %x = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 64]>\n"
            "  %mx = tile.row_max %x : tile<f32, [16, 1]>\n"
            "  %s = tile.create : tile<f32, [16, 64]>\n"
            "  %sm = tile.row_sum %x, %s : tile<f32, [16, 1]>\n"
            "  %mn = tile.row_min %x : tile<f32, [16, 1]>\n"
            "  %cm = tile.col_max %x : tile<f32, [1, 64]>\n"
            "  tile.store %mx, %c {offsets = [0, 0]}\n"
            "  tile.store %sm, %c {offsets = [0, 0]}\n"
            "  tile.store %mn, %c {offsets = [0, 0]}\n"
            "  tile.store %cm, %d {offsets = [0, 0]}\n"
            "}\n");
  CHECK(h.run({"verify", "infer-memory-space", "insert-reduction-scratch", "verify"}));
  CHECK(h.ir() == std::string(kHeader) +
                      "aiv {\n"
                      "  %x = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 64], vec>\n"
                      "  %tmp = tile.create : tile<f32, [16, 64], vec>\n"
                      "  %mx = tile.row_max %x, %tmp : tile<f32, [16, 1], vec>\n"
                      "  %s = tile.create : tile<f32, [16, 64], vec>\n"
                      "  %sm = tile.row_sum %x, %s : tile<f32, [16, 1], vec>\n"
                      "  %tmp_1 = tile.create : tile<f32, [16, 64], vec>\n"
                      "  %mn = tile.row_min %x, %tmp_1 : tile<f32, [16, 1], vec>\n"
                      "  %cm = tile.col_max %x : tile<f32, [1, 64], vec>\n"
                      "  tile.store %mx, %c {offsets = [0, 0]}\n"
                      "  tile.store %sm, %c {offsets = [0, 0]}\n"
                      "  tile.store %mn, %c {offsets = [0, 0]}\n"
                      "  tile.store %cm, %d {offsets = [0, 0]}\n"
                      "}\n");
}

TEST_CASE("insert-reduction-scratch: the scratch keeps a dynamic valid shape inside its loop") {
  Harness h(
      "func @k(%a: tensor<f32, [%S, 64]> in, %c: tensor<f32, [%S, 1]> out, %S: index) incore {\n"
      "  scf.for %i = 0 to %S step 16 {\n"
      "    %x = tile.load %a {offsets = [%i, 0]} : tile<f32, [16, 64], valid=[min(16, %S - %i), 64]>\n"
      "    %m = tile.row_max %x : tile<f32, [16, 1], valid=[min(16, %S - %i), 1]>\n"
      "    tile.store %m, %c {offsets = [%i, 0]}\n"
      "  }\n"
      "}\n");
  CHECK(h.run({"verify", "infer-memory-space", "insert-reduction-scratch", "verify"}));
  CHECK(h.ir().find("    %tmp = tile.create : tile<f32, [16, 64], valid=[min(16, %S - %i), 64], vec>\n"
                    "    %m = tile.row_max %x, %tmp") != std::string::npos);
}
