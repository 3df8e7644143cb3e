// pto-legality: each PTO rule with a passing and a failing case (code,
// location, message). Modules run through the default pipeline up to
// pto-legality unless a rule is unreachable from verified IR; those cases skip
// the earlier passes or edit types through the API.
#include <algorithm>

#include "backend/pto/PtoModel.h"
#include "test_support.h"

using namespace tilec;
using tilec::testing::Harness;
using tilec::testing::Lines;

namespace {

Lines legality(const std::string& text, const ir::TargetModel& t = pto::ptoModel(pto::Arch::A2A3)) {
  Harness h(text, t);
  h.runUpTo("pto-legality");
  return h.diagnostics();
}

Lines codes(const std::string& text, const ir::TargetModel& t = pto::ptoModel(pto::Arch::A2A3)) {
  Harness h(text, t);
  h.runUpTo("pto-legality");
  return h.codes();
}

// Runs only the passes that need no verified IR.
Lines unverified(Harness& h) {
  h.run({"assign-buffers", "pto-legality"});
  return h.diagnostics();
}

ir::Op& opAt(Harness& h, size_t index) {
  auto it = h.module->functions()[0]->body().ops().begin();
  std::advance(it, index);
  return **it;
}


const char* kMatmul =
    "func @k(%a: tensor<f16, [16, 32]> in, %b: tensor<f16, [32, 16]> in, %c: tensor<f32, [16, 16]> out) aic {\n"
    "  %x = tile.load %a {offsets = [0, 0]} : tile<f16, [16, 32], mat>\n"
    "  %l = tile.move %x : tile<f16, [16, 32], left>\n"
    "  %y = tile.load %b {offsets = [0, 0]} : tile<f16, [32, 16], mat>\n"
    "  %r = tile.move %y : tile<f16, [32, 16], right>\n"
    "  %m = tile.matmul %l, %r : tile<f32, [16, 16], acc>\n"
    "  tile.store %m, %c {offsets = [0, 0]}\n"
    "}\n";

}  // namespace

TEST_CASE("pto-legality: legal vector and cube kernels pass") {
  CHECK(legality("func @k(%a: tensor<f32, [16, 64]> in, %c: tensor<f32, [16, 1]> out) incore {\n"
                 "  %x = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 64]>\n"
                 "  %r = tile.row_max %x : tile<f32, [16, 1]>\n"
                 "  %e = tile.row_expand_sub %x, %r : tile<f32, [16, 64]>\n"
                 "  %s = tile.row_sum %e : tile<f32, [16, 1]>\n"
                 "  tile.store %s, %c {offsets = [0, 0]}\n"
                 "}\n")
            .empty());
  CHECK(legality(kMatmul).empty());
  CHECK(legality(kMatmul, pto::ptoModel(pto::Arch::A5)).empty());
}

TEST_CASE("pto-legality: per-op dtypes per target (E0501)") {
  const char* text =
      "func @k(%a: tensor<bf16, [16, 16]> in, %c: tensor<bf16, [16, 16]> out, %d: tensor<i32, [16, 16]> in, %e: tensor<i32, [16, 16]> out) incore {\n"
      "  %x = tile.load %a {offsets = [0, 0]} : tile<bf16, [16, 16]>\n"
      "  %y = tile.add %x, %x : tile<bf16, [16, 16]>\n"
      "  %z = tile.mul %y, %y : tile<bf16, [16, 16]>\n"
      "  tile.store %z, %c {offsets = [0, 0]}\n"
      "  %i = tile.load %d {offsets = [0, 0]} : tile<i32, [16, 16]>\n"
      "  %j = tile.relu %i : tile<i32, [16, 16]>\n"
      "  %k = tile.div %j, %j : tile<i32, [16, 16]>\n"
      "  tile.store %k, %e {offsets = [0, 0]}\n"
      "}\n";
  CHECK(legality(text) == Lines{
          "3:3: E0501: 'tile.add' does not support bf16 on a2a3; convert '%x' to f32 with cast<f32>(...) first",
          "4:3: E0501: 'tile.mul' does not support bf16 on a2a3; convert '%y' to f32 with cast<f32>(...) first",
          "8:3: E0501: 'tile.div' supports only f32, f16 on a2a3 but '%j' is i32; cast it to a supported dtype "
          "first"});
  CHECK(legality(text, pto::ptoModel(pto::Arch::A5)) == Lines{
          "4:3: E0501: 'tile.mul' does not support bf16 on a5; convert '%y' to f32 with cast<f32>(...) first"});
}

TEST_CASE("pto-legality: loads and stores move only the GM dtypes (E0501)") {
  CHECK(codes("func @k(%a: tensor<u16, [16, 16]> in, %c: tensor<u16, [16, 16]> out) incore {\n"
              "  %x = tile.load %a {offsets = [0, 0]} : tile<u16, [16, 16]>\n"
              "  tile.store %x, %c {offsets = [0, 0]}\n"
              "}\n") == Lines{"2:3: E0501", "3:3: E0501"});
}

TEST_CASE("pto-legality: matmul operand spaces (E0503)") {
  Harness h("func @k(%a: tensor<f32, [16, 16]> in) aic {\n"
            "  %x = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16], mat>\n"
            "  %y = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16], mat>\n"
            "  %r = tile.move %y : tile<f32, [16, 16], right>\n"
            "  %m = tile.matmul %x, %r : tile<f32, [16, 16], acc>\n"
            "}\n");
  CHECK(unverified(h) == Lines{
          "5:3: E0503: 'tile.matmul' needs lhs in left, rhs in right and the result in acc but they are in "
          "mat, right and acc; move the operands with move(..., space = left) and move(..., space = right)"});
}

TEST_CASE("pto-legality: matmul physical shapes and dtypes (E0504, E0505)") {
  Harness h(kMatmul);
  REQUIRE(h.run({"verify", "infer-memory-space", "assign-buffers"}));
  ir::Op& mm = opAt(h, 4);
  REQUIRE(mm.kind() == ir::OpKind::Matmul);
  mm.result()->setType(mm.result()->type().withShape({16, 32}, {}).withDType(ir::DType::F16));
  CHECK_FALSE(h.run({"pto-legality"}));
  CHECK(h.codes() == Lines{"6:3: E0504", "6:3: E0505", "7:3: E0509", "7:3: E0512"});
  CHECK(h.diagnostics()[0] ==
          "6:3: E0504: the physical shapes of 'tile.matmul' must chain as [M, K] x [K, N] = [M, N] but they "
          "are [16, 32] x [32, 16] = [16, 32]; make the tile shapes agree");
  CHECK(h.diagnostics()[1] ==
          "6:3: E0505: 'tile.matmul' supports (acc, lhs, rhs) dtypes (i32, i8, i8), (f32, f16, f16), (f32, "
          "bf16, bf16) and (f32, f32, f32) but got (f16, f16, f16); cast the operands with cast<...>(...)");
}

TEST_CASE("pto-legality: matmul valid m, k, n in [1, 4095] (E0506)") {
  auto found = codes(
      "func @k(%a: tensor<f16, [16, 4112]> in, %b: tensor<f16, [4112, 16]> in, %c: tensor<f32, [16, 16]> out) incore {\n"
      "  %x = tile.load %a {offsets = [0, 0]} : tile<f16, [16, 4112]>\n"
      "  %y = tile.load %b {offsets = [0, 0]} : tile<f16, [4112, 16]>\n"
      "  %m = tile.matmul %x, %y : tile<f32, [16, 16]>\n"
      "  tile.store %m, %c {offsets = [0, 0]}\n"
      "}\n");
  CHECK(std::count(found.begin(), found.end(), "4:3: E0506") == 1);
}

TEST_CASE("pto-legality: load and store spaces per target (E0507, E0508)") {
  Harness h("func @k(%a: tensor<f32, [16, 16]> in, %b: tensor<f32, [16, 16]> out) aic {\n"
            "  %x = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16], left>\n"
            "  %y = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16], mat>\n"
            "  tile.store %y, %b {offsets = [0, 0]}\n"
            "  tile.store %x, %b {offsets = [0, 0]}\n"
            "}\n",
            pto::ptoModel(pto::Arch::A5));
  CHECK(unverified(h) == Lines{
          "2:3: E0507: load can fill only vec or mat tiles but '%x' is in left; load it with space = mat and "
          "move it with move(..., space = left)",
          "4:3: E0508: store on a5 stores only vec or acc tiles but '%y' is in mat; store from a vec or acc "
          "tile instead",
          "5:3: E0508: store on a5 stores only vec or acc tiles but '%x' is in left; store from a vec or acc "
          "tile instead"});
}

TEST_CASE("pto-legality: accumulator stores read f32 or i32 (E0509)") {
  Harness h("func @k(%c: tensor<f16, [16, 16]> out) aic {\n"
            "  %acc = tile.create : tile<f16, [16, 16], acc>\n"
            "  tile.store %acc, %c {offsets = [0, 0]}\n"
            "}\n");
  CHECK(unverified(h) == Lines{
          "3:3: E0509: accumulator stores read f32 or i32 tiles and write f32, i32, f16 or bf16 tensors, but "
          "'%acc' is f16 and '%c' is f16; accumulate in f32 or i32"});
}

TEST_CASE("pto-legality: move pairs per target (E0510)") {
  const char* text =
      "func @k(%a: tensor<f32, [16, 16]> in) aic {\n"
      "  %x = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16], mat>\n"
      "  %l = tile.move %x : tile<f32, [16, 16], left>\n"
      "  %acc = tile.create : tile<f32, [16, 16], acc>\n"
      "  %bad = tile.move %acc : tile<f32, [16, 16], left>\n"
      "  %v = tile.move %acc : tile<f32, [16, 16], vec>\n"
      "}\n";
  Harness a2(text);
  CHECK(unverified(a2) == Lines{
          "5:3: E0510: 'tile.move' moves '%acc' from acc to left, which a2a3 does not support (supported: mat "
          "to left, right, bias or scaling; vec to vec; acc to mat); move it to mat first: move(move(..., "
          "space = mat), space = left)",
          "6:3: E0510: 'tile.move' moves '%acc' from acc to vec, which a2a3 does not support (supported: mat "
          "to left, right, bias or scaling; vec to vec; acc to mat); no kernel moves it there on a2a3: store "
          "it to a tensor in one kernel and load it in another (two kernels, each compiled with --kernel)"});
  Harness a5(text, pto::ptoModel(pto::Arch::A5));
  CHECK(a5.run({"assign-buffers", "pto-legality"}) == false);
  CHECK(a5.codes() == Lines{"5:3: E0510"});
}

TEST_CASE("pto-legality: a store window must hold the tile's valid elements (E0511)") {
  const char* text =
      "func @k(%a: tensor<f32, [2, 16, 16]> in, %c: tensor<f32, [2, 16, 16]> out) incore {\n"
      "  %x = tile.load %a {offsets = [0, 0, 0]} : tile<f32, [16, 16]>\n"
      "  tile.store %x, %c {offsets = [0, 0, 0], window = [1, 8, 16]}\n"
      "}\n";
  CHECK(legality(text) == Lines{
          "3:3: E0511: 'tile.store' writes a window of 128 elements but '%x' has 256 valid elements; make the "
          "window cover exactly the valid shape"});
}

TEST_CASE("pto-legality: windows stay inside static tensor dims, also at the last iteration (E0512)") {
  CHECK(legality(
            "func @k(%a: tensor<f32, [64, 64]> in, %b: tensor<f32, [64, 64]> out, %S: index) incore {\n"
            "  %x = tile.load %a {offsets = [56, 0]} : tile<f32, [16, 64], valid=[8, 64]>\n"
            "  tile.store %x, %b {offsets = [56, 0]}\n"
            "  scf.for %i = 0 to 5 step 1 {\n"
            "    %y = tile.load %a {offsets = [%i * 16, 0]} : tile<f32, [16, 64]>\n"
            "    tile.store %y, %b {offsets = [%i * 16, 0]}\n"
            "  }\n"
            "  scf.for %j = 0 to 64 step 16 {\n"
            "    %z = tile.load %a {offsets = [%j, 0]} : tile<f32, [16, 64]>\n"
            "    tile.store %z, %b {offsets = [%j, 0]}\n"
            "  }\n"
            "  scf.for %k = 0 to %S step 16 {\n"
            "    %w = tile.load %a {offsets = [%k, 0]} : tile<f32, [16, 64]>\n"
            "  }\n"
            "}\n") == Lines{
          "5:5: E0512: 'tile.load' runs past dim 0 of '%a' in the iteration i = 4: offset + size reaches 80 "
          "but the dim is 64; keep the window inside the tensor (give a partial tile a smaller valid shape)",
          "6:5: E0512: 'tile.store' runs past dim 0 of '%b' in the iteration i = 4: offset + size reaches 80 "
          "but the dim is 64; keep the window inside the tensor (give a partial tile a smaller valid shape)"});
}

TEST_CASE("pto-legality: vec rows and column vectors are 32-byte aligned (E0513)") {
  CHECK(legality("func @k(%a: tensor<f32, [16, 3]> in, %c: tensor<f32, [3, 1]> out) incore {\n"
                 "  %x = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 3]>\n"
                 "  %z = tile.create : tile<f32, [3, 1]>\n"
                 "  tile.store %z, %c {offsets = [0, 0]}\n"
                 "}\n") == Lines{
          "2:3: E0513: vec tile rows must be a multiple of 32 bytes but '%x' is [16, 3] of f32 (12 bytes per "
          "row); pad its columns to a multiple of 8 and keep the real extent in the valid shape",
          "3:3: E0513: vec column vectors must be a multiple of 32 bytes but '%z' is [3, 1] of f32 (12 bytes "
          "per column); pad its rows to a multiple of 8 and keep the real extent in the valid shape"});
}

TEST_CASE("pto-legality: boxed tiles are whole fractals (E0514)") {
  CHECK(legality("func @k(%a: tensor<f16, [20, 16]> in, %c: tensor<f32, [20, 20]> out) aic {\n"
                 "  %x = tile.load %a {offsets = [0, 0]} : tile<f16, [20, 16], mat>\n"
                 "  %r = tile.move %x : tile<f16, [20, 16], right>\n"
                 "  %t = tile.create : tile<f32, [20, 20], acc>\n"
                 "  tile.store %t, %c {offsets = [0, 0]}\n"
                 "}\n") == Lines{
          "2:3: E0514: mat tiles of f16 are stored in 16 x 16 fractals but '%x' is [20, 16]; pad its shape to "
          "whole fractals and keep the real extent in the valid shape",
          "3:3: E0514: right tiles of f16 are stored in 16 x 16 fractals but '%r' is [20, 16]; pad its shape "
          "to whole fractals and keep the real extent in the valid shape",
          "4:3: E0514: acc tiles of f32 are stored in 16 x 16 fractals but '%t' is [20, 20]; pad its shape to "
          "whole fractals and keep the real extent in the valid shape"});
}

TEST_CASE("pto-legality: constant valid extents in [1, 4095] (E0515)") {
  CHECK(legality("func @k(%h: tensor<f16, [1, 8192]> out) incore {\n"
                 "  %f = tile.create : tile<f16, [1, 8192]>\n"
                 "  tile.store %f, %h {offsets = [0, 0]}\n"
                 "}\n") == Lines{
          "2:3: E0515: valid extents of PTO tiles must be in [1, 4095] but dim 1 of '%f' is 8192; split the "
          "tile into smaller ones"});
}

// pto-legality requires nd-legalized, so the 2-D rules are checked once, by tile-ops-2d.
TEST_CASE("tile-ops-2d: N-D tiles, batched matmuls and scratch-less transposes (E0611)") {
  Harness h("func @k(%a: tensor<f32, [2, 16, 16]> in, %b: tensor<f32, [16, 16]> in) aic {\n"
            "  %x = tile.load %a {offsets = [0, 0, 0]} : tile<f32, [2, 16, 16], vec>\n"
            "  %y = tile.load %b {offsets = [0, 0]} : tile<f32, [16, 16], vec>\n"
            "  %t = tile.transpose %y {axes = [0, 1]} : tile<f32, [16, 16], vec>\n"
            "  %l = tile.load %a {offsets = [0, 0, 0]} : tile<f32, [2, 16, 16], left>\n"
            "  %r = tile.load %a {offsets = [0, 0, 0]} : tile<f32, [2, 16, 16], right>\n"
            "  %m = tile.batch_matmul %l, %r : tile<f32, [2, 16, 16], acc>\n"
            "}\n");
  CHECK(!h.run({"tile-ops-2d"}));
  CHECK(h.diagnostics() == Lines{
          "2:3: E0611: 'tile.load' produces a 3-D tile; run flatten-nd-to-2d before this point",
          "4:3: E0611: 'tile.transpose' has no scratch operand, which its lowering needs; run "
          "insert-transpose-scratch before this point",
          "5:3: E0611: 'tile.load' produces a 3-D tile; run flatten-nd-to-2d before this point",
          "6:3: E0611: 'tile.load' produces a 3-D tile; run flatten-nd-to-2d before this point",
          "7:3: E0611: 'tile.batch_matmul' has no 2-D form; run expand-batch-matmul before this point"});
}

// E0518 for seven 32 KiB tiles e0..e6 and the first sum s1, all live at once.
const char* const kSevenTilesAndASum =
    "1:1: E0518: vec tiles of kernel 'k' need 256 KiB at their peak but a2a3 has 184 KiB of UB; live there: "
    "'%e0' (32 KiB), '%e1' (32 KiB), '%e2' (32 KiB), '%e3' (32 KiB), '%e4' (32 KiB), '%e5' (32 KiB), "
    "'%e6' (32 KiB) and '%s1' (32 KiB); use smaller tiles, or end a tile's use before the next one is made";

TEST_CASE("check-capacity: the tiles live at one point must fit, not the sum of all (E0518)") {
  // A chain of seven 32 KiB tiles: two live at a time, 64 KiB at the peak.
  std::string chain;
  for (int i = 1; i <= 6; ++i)
    chain += "  %e" + std::to_string(i) + " = tile.exp %e" + std::to_string(i - 1) + " : tile<f32, [64, 128]>\n";
  const std::string head = "func @k(%a: tensor<f32, [64, 128]> in, %c: tensor<f32, [64, 128]> out) incore {\n"
                           "  %e0 = tile.load %a {offsets = [0, 0]} : tile<f32, [64, 128]>\n";
  Harness h(head + chain + "  tile.store %e6, %c {offsets = [0, 0]}\n}\n");
  CHECK(h.runUpTo("check-capacity"));
  CHECK(h.diagnostics().empty());
  // Every tile read at the end: all seven, and the sum, live at once.
  std::string sums = "  %s1 = tile.add %e0, %e1 : tile<f32, [64, 128]>\n";
  for (int i = 2; i <= 6; ++i)
    sums += "  %s" + std::to_string(i) + " = tile.add %s" + std::to_string(i - 1) + ", %e" + std::to_string(i) +
            " : tile<f32, [64, 128]>\n";
  Harness wide(head + chain + sums + "  tile.store %s6, %c {offsets = [0, 0]}\n}\n");
  CHECK_FALSE(wide.runUpTo("check-capacity"));
  REQUIRE(!wide.diagnostics().empty());
  CHECK(wide.diagnostics()[0] == kSevenTilesAndASum);
  // Inside a loop, a tile read in every iteration lives through the whole loop.
  Harness loop("func @k(%a: tensor<f32, [64, 128]> in, %c: tensor<f32, [64, 128]> out) incore {\n"
               "  %keep = tile.load %a {offsets = [0, 0]} : tile<f32, [64, 128]>\n"
               "  scf.for %i = 0 to 4 step 1 {\n"
               "    %t = tile.load %a {offsets = [0, 0]} : tile<f32, [64, 128]>\n"
               "    %u = tile.add %t, %keep : tile<f32, [64, 128]>\n"
               "    tile.store %u, %c {offsets = [0, 0]}\n"
               "  }\n"
               "}\n");
  CHECK(loop.runUpTo("check-capacity"));
  CHECK(loop.diagnostics().empty());
}

TEST_CASE("check-capacity: tiles dead before the peak are not listed as live there (E0518)") {
  // Two small tiles (of their own size, so no 64x128 tile shares their buffer) live and
  // die first; then seven 32 KiB tiles and a sum are all live at once.
  std::string body = "  %d0 = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 128]>\n"
                     "  %d1 = tile.exp %d0 : tile<f32, [16, 128]>\n"
                     "  tile.store %d1, %c {offsets = [0, 0]}\n"
                     "  %e0 = tile.load %a {offsets = [0, 0]} : tile<f32, [64, 128]>\n";
  for (int i = 1; i <= 6; ++i)
    body += "  %e" + std::to_string(i) + " = tile.exp %e" + std::to_string(i - 1) + " : tile<f32, [64, 128]>\n";
  body += "  %s1 = tile.add %e0, %e1 : tile<f32, [64, 128]>\n";
  for (int i = 2; i <= 6; ++i)
    body += "  %s" + std::to_string(i) + " = tile.add %s" + std::to_string(i - 1) + ", %e" + std::to_string(i) +
            " : tile<f32, [64, 128]>\n";
  Harness h("func @k(%a: tensor<f32, [64, 128]> in, %c: tensor<f32, [64, 128]> out) incore {\n" + body +
            "  tile.store %s6, %c {offsets = [0, 0]}\n}\n");
  CHECK_FALSE(h.runUpTo("check-capacity"));
  REQUIRE(!h.diagnostics().empty());
  CHECK(h.diagnostics()[0] == kSevenTilesAndASum);
}

TEST_CASE("pto-legality: vector ops need row-major tiles, not column vectors (E0519)") {
  // Pointwise ops on columns run on their row views (columns-as-rows); a column reduction
  // of a column has no row view to run on.
  CHECK(codes("func @k(%a: tensor<f32, [16, 64]> in, %c: tensor<f32, [1, 16]> out, %f: f32) incore {\n"
              "  %x = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 64]>\n"
              "  %r = tile.row_max %x : tile<f32, [16, 1]>\n"
              "  %m = tile.max %r, %r : tile<f32, [16, 1]>\n"
              "  %s = tile.muls %m, %f : tile<f32, [16, 1]>\n"
              "  %v = tile.reshape %s : tile<f32, [1, 16]>\n"
              "  tile.store %v, %c {offsets = [0, 0]}\n"
              "}\n")
            .empty());
  const Lines columnOfColumn = codes("func @k(%a: tensor<f32, [16, 64]> in, %c: tensor<f32, [1, 8]> out) incore {\n"
                                     "  %x = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 64]>\n"
                                     "  %r = tile.row_max %x : tile<f32, [16, 1]>\n"
                                     "  %m = tile.col_max %r : tile<f32, [1, 1]>\n"
                                     "  tile.store %m, %c {offsets = [0, 0]}\n"
                                     "}\n");
  CHECK(std::count(columnOfColumn.begin(), columnOfColumn.end(), "4:3: E0519") == 1);
}

TEST_CASE("pto-legality: transpose views of vec tiles have no PTO form (E0520)") {
  CHECK(codes("func @k(%a: tensor<f32, [16, 16]> in, %c: tensor<f32, [16, 16]> out) incore {\n"
              "  %x = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
              "  %v = tile.transpose_view %x {axes = [0, 1]} : tile<f32, [16, 16], layout=col_major/none_box/512/pad0>\n"
              "  tile.store %v, %c {offsets = [0, 0]}\n"
              "}\n") == Lines{"3:3: E0520"});
}

TEST_CASE("pto-legality: tile.full fills vec or mat tiles with a value of their dtype (E0521, E0522)") {
  CHECK(legality("func @k(%c: tensor<f32, [16, 16]> out) incore {\n"
                 "  %z = arith.const {value = 0.0} : f32\n"
                 "  %acc = tile.full %z : tile<f32, [16, 16], acc>\n"
                 "  tile.store %acc, %c {offsets = [0, 0]}\n"
                 "}\n") == Lines{
          "3:3: E0521: full can fill only vec or mat tiles but '%acc' is in acc; start the accumulation with "
          "matmul (or matmul_acc with init) instead of filling the accumulator"});
  CHECK(legality("func @k(%c: tensor<f16, [16, 16]> out, %s: f32) incore {\n"
                 "  %f = tile.full %s : tile<f16, [16, 16]>\n"
                 "  tile.store %f, %c {offsets = [0, 0]}\n"
                 "}\n") == Lines{
          "2:3: E0522: the fill value of full must have the tile's dtype f16 but '%s' is f32; give the value "
          "the tile's dtype"});
}

TEST_CASE("pto-legality: tensors of rank above 5 cannot be partitioned (E0523)") {
  CHECK(codes("func @k(%s: tensor<f32, [2, 3, 4, 5, 6, 8]> in) incore {\n"
              "  %w = tile.load %s {offsets = [0, 0, 0, 0, 0, 0]} : tile<f32, [6, 8]>\n"
              "}\n") == Lines{"2:3: E0523"});
}

TEST_CASE("pto-legality: ops of a group PTO does not compile, and regions left unlowered (E0528)") {
  Harness h("func @k(%a: tensor<f32, [16, 16]> in) incore {\n"
            "  %x = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16], vec>\n"
            "  %p = region.part %x {grid = [2, 1], index = [0, 0]} : tile<f32, [8, 16], vec>\n"
            "  dma.wait {channel = [0, 0], drain = false}\n"
            "}\n");
  CHECK(unverified(h) ==
        Lines{"3:3: E0528: 'region.part' reached PTO legality unlowered; run lower-regions before it, which writes "
              "partition views and tile arrays as slices and assembles",
              "4:3: E0528: 'dma.wait' moves data for a runtime sequence, which PTO targets do not run; compile the "
              "sequence for a target that has sequence kernels (tilec --list-targets)"});
}
