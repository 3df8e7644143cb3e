// infer-memory-space: spaces per class of tiles, operand moves, kernel kinds,
// and every diagnostic with its code, location and note.
#include "backend/pto/PtoModel.h"
#include "test_support.h"

using namespace tilec;
using tilec::testing::Harness;
using tilec::testing::Lines;

namespace {

const char* kTwoInputs =
    "func @k(%a: tensor<f32, [16, 16]> in, %b: tensor<f32, [16, 16]> in, "
    "%c: tensor<f32, [16, 16]> out) ";

std::string fn(const std::string& kind, const std::string& body) {
  return kTwoInputs + kind + " {\n" + body + "}\n";
}

std::string infer(Harness& h) {
  h.run({"verify", "infer-memory-space"});
  return h.ir();
}

}  // namespace

TEST_CASE("infer-memory-space: vector work puts every tile in vec and makes the kernel aiv") {
  Harness h(fn("incore",
               "  %x = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
               "  %r = tile.row_sum %x : tile<f32, [16, 1]>\n"
               "  %y = tile.row_expand_div %x, %r : tile<f32, [16, 16]>\n"
               "  tile.store %y, %c {offsets = [0, 0]}\n"));
  CHECK(infer(h) ==
        fn("aiv",
           "  %x = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16], vec>\n"
           "  %r = tile.row_sum %x : tile<f32, [16, 1], vec>\n"
           "  %y = tile.row_expand_div %x, %r : tile<f32, [16, 16], vec>\n"
           "  tile.store %y, %c {offsets = [0, 0]}\n"));
  CHECK(h.diagnostics().empty());
  // The [16, 1] row result is a column vector: col_major by default.
  auto& ops = h.module->functions()[0]->body().ops();
  const ir::Type& r = std::next(ops.begin())->get()->result()->type();
  CHECK(r.layout().blayout == ir::BLayout::ColMajor);
}

TEST_CASE("infer-memory-space: matmul operands load into mat with one move per value and space") {
  Harness h(fn("incore",
               "  %ta = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
               "  %tb = tile.load %b {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
               "  %m = tile.matmul %ta, %tb : tile<f32, [16, 16]>\n"
               "  %sq = tile.matmul %tb, %tb : tile<f32, [16, 16]>\n"
               "  %n = tile.matmul %ta, %tb : tile<f32, [16, 16]>\n"
               "  tile.store %m, %c {offsets = [0, 0]}\n"
               "  tile.store %sq, %c {offsets = [0, 0]}\n"
               "  tile.store %n, %c {offsets = [0, 0]}\n"));
  CHECK(infer(h) ==
        fn("aic",
           "  %ta = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16], mat>\n"
           "  %ta_left = tile.move %ta : tile<f32, [16, 16], left>\n"
           "  %tb = tile.load %b {offsets = [0, 0]} : tile<f32, [16, 16], mat>\n"
           "  %tb_right = tile.move %tb : tile<f32, [16, 16], right>\n"
           "  %tb_left = tile.move %tb : tile<f32, [16, 16], left>\n"
           "  %m = tile.matmul %ta_left, %tb_right : tile<f32, [16, 16], acc>\n"
           "  %sq = tile.matmul %tb_left, %tb_right : tile<f32, [16, 16], acc>\n"
           "  %n = tile.matmul %ta_left, %tb_right : tile<f32, [16, 16], acc>\n"
           "  tile.store %m, %c {offsets = [0, 0]}\n"
           "  tile.store %sq, %c {offsets = [0, 0]}\n"
           "  tile.store %n, %c {offsets = [0, 0]}\n"));
  CHECK(h.diagnostics().empty());
}

TEST_CASE("infer-memory-space: a loop-carried accumulator is acc from create to result") {
  Harness h(
      "func @qk(%q: tensor<f32, [32, 128]> in, %k: tensor<f32, [128, 32]> in, %s: tensor<f32, [32, 32]> out) incore {\n"
      "  %acc = tile.create : tile<f32, [32, 32]>\n"
      "  %acc_1 = scf.for %i = 0 to 4 step 1 iter_args(%acc_2 = %acc) -> (tile<f32, [32, 32]>) {\n"
      "    %a = tile.load %q {offsets = [0, %i * 32]} : tile<f32, [32, 32]>\n"
      "    %b = tile.load %k {offsets = [%i * 32, 0]} : tile<f32, [32, 32]>\n"
      "    %m = tile.matmul_acc %acc_2, %a, %b {init = %i == 0} : tile<f32, [32, 32]>\n"
      "    scf.yield %m\n"
      "  }\n"
      "  tile.store %acc_1, %s {offsets = [0, 0]}\n"
      "}\n");
  CHECK(infer(h) ==
        "func @qk(%q: tensor<f32, [32, 128]> in, %k: tensor<f32, [128, 32]> in, %s: tensor<f32, [32, 32]> out) aic {\n"
        "  %acc = tile.create : tile<f32, [32, 32], acc>\n"
        "  %acc_1 = scf.for %i = 0 to 4 step 1 iter_args(%acc_2 = %acc) -> (tile<f32, [32, 32], acc>) {\n"
        "    %a = tile.load %q {offsets = [0, %i * 32]} : tile<f32, [32, 32], mat>\n"
        "    %a_left = tile.move %a : tile<f32, [32, 32], left>\n"
        "    %b = tile.load %k {offsets = [%i * 32, 0]} : tile<f32, [32, 32], mat>\n"
        "    %b_right = tile.move %b : tile<f32, [32, 32], right>\n"
        "    %m = tile.matmul_acc %acc_2, %a_left, %b_right {init = %i == 0} : tile<f32, [32, 32], acc>\n"
        "    scf.yield %m\n"
        "  }\n"
        "  tile.store %acc_1, %s {offsets = [0, 0]}\n"
        "}\n");
}

TEST_CASE("infer-memory-space: a branch merge shares one space, its move follows the scf.if") {
  Harness h(
      "func @k(%a: tensor<f32, [16, 16]> in, %b: tensor<f32, [16, 16]> in, %c: tensor<f32, [16, 16]> out, %n: index) incore {\n"
      "  %z = tile.create : tile<f32, [16, 16]>\n"
      "  %r = scf.if %n > 0 -> (tile<f32, [16, 16]>) {\n"
      "    scf.yield %z\n"
      "  } else {\n"
      "    %l = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
      "    scf.yield %l\n"
      "  }\n"
      "  %tb = tile.load %b {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
      "  %m = tile.matmul %r, %tb : tile<f32, [16, 16]>\n"
      "  tile.store %m, %c {offsets = [0, 0]}\n"
      "}\n");
  CHECK(infer(h) ==
        "func @k(%a: tensor<f32, [16, 16]> in, %b: tensor<f32, [16, 16]> in, %c: tensor<f32, [16, 16]> out, %n: index) aic {\n"
        "  %z = tile.create : tile<f32, [16, 16], mat>\n"
        "  %r = scf.if %n > 0 -> (tile<f32, [16, 16], mat>) {\n"
        "    scf.yield %z\n"
        "  } else {\n"
        "    %l = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16], mat>\n"
        "    scf.yield %l\n"
        "  }\n"
        "  %r_left = tile.move %r : tile<f32, [16, 16], left>\n"
        "  %tb = tile.load %b {offsets = [0, 0]} : tile<f32, [16, 16], mat>\n"
        "  %tb_right = tile.move %tb : tile<f32, [16, 16], right>\n"
        "  %m = tile.matmul %r_left, %tb_right : tile<f32, [16, 16], acc>\n"
        "  tile.store %m, %c {offsets = [0, 0]}\n"
        "}\n");
}

TEST_CASE("infer-memory-space: an explicit move to left makes its source mat") {
  Harness h(fn("incore",
               "  %x = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
               "  %l = tile.move %x : tile<f32, [16, 16], left>\n"));
  CHECK(infer(h) == fn("aic",
                       "  %x = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16], mat>\n"
                       "  %l = tile.move %x : tile<f32, [16, 16], left>\n"));
}

TEST_CASE("infer-memory-space: a kernel without tiles stays incore") {
  Harness h("func @k(%n: index) incore {\n  %m = arith.index {value = %n * 2} : index\n}\n");
  CHECK(h.run({"verify", "infer-memory-space"}));
  CHECK(h.module->functions()[0]->kind() == ir::KernelKind(pto::Kernel::Incore));
}

TEST_CASE("infer-memory-space: a declared space that conflicts with an accumulator use (E0402)") {
  Harness h(fn("incore",
               "  %acc = tile.create : tile<f32, [16, 16], vec>\n"
               "  %ta = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16], left>\n"
               "  %tb = tile.load %b {offsets = [0, 0]} : tile<f32, [16, 16], right>\n"
               "  %m = tile.matmul_acc %acc, %ta, %tb : tile<f32, [16, 16], vec>\n"));
  CHECK_FALSE(h.run({"infer-memory-space"}));
  CHECK(h.diagnostics() == Lines{
          "5:3: E0402: 'tile.matmul_acc' needs '%acc' in acc but it is declared in vec; declare it in acc or "
          "leave its space out",
          "  note 2:3: '%acc' is declared in vec here"});
}

TEST_CASE("infer-memory-space: two declared spaces joined by a view conflict (E0402)") {
  Harness h(fn("incore",
               "  %x = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16], mat>\n"
               "  %y = tile.reshape %x : tile<f32, [8, 32], vec>\n"));
  CHECK_FALSE(h.run({"infer-memory-space"}));
  CHECK(h.diagnostics() == Lines{
          "3:3: E0402: tiles that share storage need one memory space: '%y' is declared in vec but '%x' in "
          "mat; declare them in the same space",
          "  note 2:3: '%x' is declared in mat here"});
}

TEST_CASE("infer-memory-space: vector work on a tile loaded for a matmul (E0401)") {
  Harness h(fn("incore",
               "  %ta = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
               "  %tb = tile.load %b {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
               "  %e = tile.exp %ta : tile<f32, [16, 16]>\n"
               "  %m = tile.matmul %ta, %tb : tile<f32, [16, 16]>\n"));
  CHECK_FALSE(h.run({"verify", "infer-memory-space"}));
  CHECK(h.diagnostics() == Lines{
          "4:3: E0401: 'tile.exp' is vector work but '%ta' is in mat, for cube work, and a tile lives on one "
          "core; give the vector work a tile of its own (load the data again for it)",
          "  note 5:3: '%ta' is placed in mat because of 'tile.matmul'"});
}

const char* kVectorFeedsMatmul =
    "  %ta = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
    "  %tb = tile.load %b {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
    "  %e = tile.exp %ta : tile<f32, [16, 16]>\n"
    "  %m = tile.matmul %tb, %e : tile<f32, [16, 16]>\n";

TEST_CASE("infer-memory-space: a matmul operand computed by vector work crosses to the cube (mix)") {
  Harness h(fn("incore", kVectorFeedsMatmul));
  CHECK(h.run({"verify", "infer-memory-space"}));
  CHECK(h.ir() ==
        fn("mix",
           "  %ta = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16], vec>\n"
           "  %tb = tile.load %b {offsets = [0, 0]} : tile<f32, [16, 16], mat>\n"
           "  %tb_left = tile.move %tb : tile<f32, [16, 16], left>\n"
           "  %e = tile.exp %ta : tile<f32, [16, 16], vec>\n"
           "  %e_mat = tile.move %e : tile<f32, [16, 16], mat>\n"
           "  %e_mat_right = tile.move %e_mat : tile<f32, [16, 16], right>\n"
           "  %m = tile.matmul %tb_left, %e_mat_right : tile<f32, [16, 16], acc>\n"));
}

TEST_CASE("infer-memory-space: an aic kernel's matmul operand computed by vector work (E0401)") {
  Harness h(fn("aic", kVectorFeedsMatmul));
  CHECK_FALSE(h.run({"verify", "infer-memory-space"}));
  CHECK(h.diagnostics() == Lines{
          "5:3: E0401: 'tile.matmul' needs its rhs '%e' in right (loaded through mat) but it is computed by "
          "vector work in vec, which kernel 'k' (aic) does not run; compute it and do the matmul in an incore "
          "kernel, which runs its cube and vector work on both cores, passing tiles between them",
          "  note 4:3: '%e' is placed in vec because of 'tile.exp'"});
}

TEST_CASE("infer-memory-space: vector work writing an accumulator (E0401)") {
  Harness h(fn("incore",
               "  %x = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
               "  %acc = tile.exp %x : tile<f32, [16, 16]>\n"
               "  %ta = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
               "  %tb = tile.load %b {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
               "  %m = tile.matmul_acc %acc, %ta, %tb : tile<f32, [16, 16]>\n"));
  CHECK_FALSE(h.run({"verify", "infer-memory-space"}));
  CHECK(h.codes() == Lines{"3:3: E0401"});
  CHECK(h.diagnostics()[0] ==
          "3:3: E0401: 'tile.exp' is vector work but '%acc' is in acc, for cube work, and a tile lives on one "
          "core; give the vector work a tile of its own (load the data again for it)");
}

const char* kAccToVec =
    "  %ta = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
    "  %tb = tile.load %b {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
    "  %m = tile.matmul %ta, %tb : tile<f32, [16, 16]>\n"
    "  %e = tile.exp %m : tile<f32, [16, 16]>\n"
    "  %f = tile.add %e, %m : tile<f32, [16, 16]>\n"
    "  tile.store %f, %c {offsets = [0, 0]}\n";

TEST_CASE("infer-memory-space: an accumulator feeding vector work in an aic kernel on a2a3 (E0403)") {
  Harness h(fn("aic", kAccToVec));
  CHECK_FALSE(h.run({"verify", "infer-memory-space"}));
  CHECK(h.diagnostics() == Lines{
          "5:3: E0403: 'tile.exp' is vector work on the accumulator '%m', but a2a3 has no path from acc to vec "
          "inside one core and kernel 'k' is aic; make '%m' and do the vector work in an incore kernel, which "
          "runs its cube and vector work on both cores, passing tiles between them",
          "  note 4:3: '%m' is an accumulator because of 'tile.matmul'",
          "6:3: E0403: 'tile.add' is vector work on the accumulator '%m', but a2a3 has no path from acc to vec "
          "inside one core and kernel 'k' is aic; make '%m' and do the vector work in an incore kernel, which "
          "runs its cube and vector work on both cores, passing tiles between them",
          "  note 4:3: '%m' is an accumulator because of 'tile.matmul'"});
}

TEST_CASE("infer-memory-space: vector work reads an acc-to-vec move, crossing to the vector core (mix)") {
  for (pto::Arch arch : {pto::Arch::A2A3, pto::Arch::A5}) {
  Harness h(fn("incore", kAccToVec), pto::ptoModel(arch));
  CHECK(h.run({"verify", "infer-memory-space"}));
  CHECK(h.ir() ==
        fn("mix",
           "  %ta = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16], mat>\n"
           "  %ta_left = tile.move %ta : tile<f32, [16, 16], left>\n"
           "  %tb = tile.load %b {offsets = [0, 0]} : tile<f32, [16, 16], mat>\n"
           "  %tb_right = tile.move %tb : tile<f32, [16, 16], right>\n"
           "  %m = tile.matmul %ta_left, %tb_right : tile<f32, [16, 16], acc>\n"
           "  %m_vec = tile.move %m : tile<f32, [16, 16], vec>\n"
           "  %e = tile.exp %m_vec : tile<f32, [16, 16], vec>\n"
           "  %f = tile.add %e, %m_vec : tile<f32, [16, 16], vec>\n"
           "  tile.store %f, %c {offsets = [0, 0]}\n"));
  }
}

const char* kMixed =
    "  %ta = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
    "  %tb = tile.load %b {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
    "  %m = tile.matmul %ta, %tb : tile<f32, [16, 16]>\n"
    "  tile.store %m, %c {offsets = [0, 0]}\n"
    "  %v = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
    "  %e = tile.exp %v : tile<f32, [16, 16]>\n"
    "  tile.store %e, %c {offsets = [0, 0]}\n";

TEST_CASE("infer-memory-space: an incore kernel with cube and vector work becomes mix") {
  Harness h(fn("incore", kMixed));
  CHECK(h.run({"verify", "infer-memory-space"}));
  CHECK(h.ir().find(") mix {") != std::string::npos);
}

TEST_CASE("infer-memory-space: aic and aiv kernels doing the other core's work (E0405)") {
  Harness aic(fn("aic", kMixed));
  CHECK_FALSE(aic.run({"verify", "infer-memory-space"}));
  CHECK(aic.diagnostics() == Lines{
          "7:3: E0405: aic kernel 'k' does vector work ('tile.exp'); do that work in an aiv kernel, passing "
          "values between the two through tensors",
          "  note 1:1: 'k' is declared aic here"});
  Harness aiv(fn("aiv", kMixed));
  CHECK_FALSE(aiv.run({"verify", "infer-memory-space"}));
  CHECK(aiv.codes() == Lines{
          "4:3: E0405"});
}
