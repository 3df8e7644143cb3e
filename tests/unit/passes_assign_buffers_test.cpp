// assign-buffers: buffer ids per class in program order, the copies that
// repair in-place updates of vec tiles, and the errors for other spaces.
#include "backend/pto/PtoModel.h"
#include "test_support.h"

using namespace tilec;
using tilec::testing::Harness;
using tilec::testing::Lines;

namespace {

std::string assign(Harness& h) {
  CHECK(h.run({"verify", "infer-memory-space", "assign-buffers", "verify"}));
  return h.ir();
}

const char* kAB = "func @k(%a: tensor<f32, [16, 16]> in, %b: tensor<f32, [16, 16]> in, %c: tensor<f32, [16, 16]> out) ";

std::string fn(const std::string& kind, const std::string& body) {
  return kAB + kind + " {\n" + body + "}\n";
}

}  // namespace

TEST_CASE("assign-buffers: ids in program order, views share, carries share, scalars get -1") {
  Harness h(
      "func @k(%a: tensor<f32, [16, 16]> in, %c: tensor<f32, [16, 16]> out, %d: tensor<f32, [8, 32]> out, %n: index) incore {\n"
      "  %o = arith.index {value = %n * 2} : index\n"
      "  %x = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
      "  %y = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
      "  %r = tile.reshape %y : tile<f32, [8, 32]>\n"
      "  %s, %k = scf.for %i = 0 to 4 step 1 iter_args(%acc = %x, %cnt = %o) -> (tile<f32, [16, 16]>, index) {\n"
      "    %t = tile.add %acc, %acc : tile<f32, [16, 16]>\n"
      "    %cnt_1 = arith.index {value = %cnt + 1} : index\n"
      "    scf.yield %t, %cnt_1\n"
      "  }\n"
      "  tile.store %s, %c {offsets = [0, 0]}\n"
      "  tile.store %r, %d {offsets = [0, 0]}\n"
      "}\n");
  CHECK(assign(h) ==
        "func @k(%a: tensor<f32, [16, 16]> in, %c: tensor<f32, [16, 16]> out, %d: tensor<f32, [8, 32]> out, %n: index) aiv {\n"
        "  %o = arith.index {buffers = [-1], value = %n * 2} : index\n"
        "  %x = tile.load %a {buffers = [0], offsets = [0, 0]} : tile<f32, [16, 16], vec>\n"
        "  %y = tile.load %a {buffers = [1], offsets = [0, 0]} : tile<f32, [16, 16], vec>\n"
        "  %r = tile.reshape %y {buffers = [1]} : tile<f32, [8, 32], vec>\n"
        "  %s, %k = scf.for %i = 0 to 4 step 1 iter_args(%acc = %x, %cnt = %o) -> (tile<f32, [16, 16], vec>, index) {\n"
        "    %t = tile.add %acc, %acc {buffers = [0]} : tile<f32, [16, 16], vec>\n"
        "    %cnt_1 = arith.index {buffers = [-1], value = %cnt + 1} : index\n"
        "    scf.yield %t, %cnt_1\n"
        "  } {buffers = [0, -1]}\n"
        "  tile.store %s, %c {offsets = [0, 0]}\n"
        "  tile.store %r, %d {offsets = [0, 0]}\n"
        "}\n");
}

TEST_CASE("assign-buffers: a loop-carried accumulator is one buffer") {
  Harness h(fn("incore",
               "  %acc = tile.create : tile<f32, [16, 16]>\n"
               "  %r = scf.for %i = 0 to 4 step 1 iter_args(%x = %acc) -> (tile<f32, [16, 16]>) {\n"
               "    %ta = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
               "    %tb = tile.load %b {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
               "    %m = tile.matmul_acc %x, %ta, %tb {init = %i == 0} : tile<f32, [16, 16]>\n"
               "    scf.yield %m\n"
               "  }\n"
               "  tile.store %r, %c {offsets = [0, 0]}\n"));
  std::string ir = assign(h);
  CHECK(ir.find("%acc = tile.create {buffers = [0]}") != std::string::npos);
  CHECK(ir.find("%m = tile.matmul_acc %x, %ta_left, %tb_right {buffers = [0], init") != std::string::npos);
  CHECK(ir.find("} {buffers = [0]}") != std::string::npos);
  CHECK(ir.find("copy") == std::string::npos);
}

TEST_CASE("assign-buffers: a carried value read after its update is computed into a copy") {
  Harness h(
      "func @k(%x: tensor<f32, [64, 16]> in, %y: tensor<f32, [1, 16]> out) incore {\n"
      "  %m0 = tile.create : tile<f32, [1, 16]>\n"
      "  %m = scf.for %i = 0 to 4 step 1 iter_args(%mo = %m0) -> (tile<f32, [1, 16]>) {\n"
      "    %t = tile.load %x {offsets = [%i * 16, 0]} : tile<f32, [1, 16]>\n"
      "    %mn = tile.max %mo, %t : tile<f32, [1, 16]>\n"
      "    %d = tile.sub %mo, %mn : tile<f32, [1, 16]>\n"
      "    tile.store %d, %y {offsets = [0, 0]}\n"
      "    scf.yield %mn\n"
      "  }\n"
      "  tile.store %m, %y {offsets = [0, 0]}\n"
      "}\n");
  CHECK(assign(h) ==
        "func @k(%x: tensor<f32, [64, 16]> in, %y: tensor<f32, [1, 16]> out) aiv {\n"
        "  %m0 = tile.create {buffers = [0]} : tile<f32, [1, 16], vec>\n"
        "  %m = scf.for %i = 0 to 4 step 1 iter_args(%mo = %m0) -> (tile<f32, [1, 16], vec>) {\n"
        "    %t = tile.load %x {buffers = [1], offsets = [%i * 16, 0]} : tile<f32, [1, 16], vec>\n"
        "    %mn = tile.max %mo, %t {buffers = [2]} : tile<f32, [1, 16], vec>\n"
        "    %d = tile.sub %mo, %mn {buffers = [3]} : tile<f32, [1, 16], vec>\n"
        "    tile.store %d, %y {offsets = [0, 0]}\n"
        "    %mn_copy = tile.move %mn {buffers = [0]} : tile<f32, [1, 16], vec>\n"
        "    scf.yield %mn_copy\n"
        "  } {buffers = [0]}\n"
        "  tile.store %m, %y {offsets = [0, 0]}\n"
        "}\n");
}

TEST_CASE("assign-buffers: tied and loop-init updates of vec tiles still read later get copies") {
  Harness h(
      "func @k(%a: tensor<f32, [16, 16]> in, %c: tensor<f32, [16, 16]> out) incore {\n"
      "  %x = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
      "  %p = tile.load %a {offsets = [0, 0]} : tile<f32, [8, 16]>\n"
      "  %y = tile.assemble %x, %p {offsets = [8, 0]} : tile<f32, [16, 16]>\n"
      "  %s = scf.for %i = 0 to 4 step 1 iter_args(%acc = %y) -> (tile<f32, [16, 16]>) {\n"
      "    %r = tile.recip %acc : tile<f32, [16, 16]>\n"
      "    scf.yield %r\n"
      "  }\n"
      "  tile.store %x, %c {offsets = [0, 0]}\n"
      "  tile.store %y, %c {offsets = [0, 0]}\n"
      "  tile.store %s, %c {offsets = [0, 0]}\n"
      "}\n");
  CHECK(assign(h) ==
        "func @k(%a: tensor<f32, [16, 16]> in, %c: tensor<f32, [16, 16]> out) aiv {\n"
        "  %x = tile.load %a {buffers = [0], offsets = [0, 0]} : tile<f32, [16, 16], vec>\n"
        "  %p = tile.load %a {buffers = [1], offsets = [0, 0]} : tile<f32, [8, 16], vec>\n"
        "  %x_copy = tile.move %x {buffers = [2]} : tile<f32, [16, 16], vec>\n"
        "  %y = tile.assemble %x_copy, %p {buffers = [2], offsets = [8, 0]} : tile<f32, [16, 16], vec>\n"
        "  %y_copy = tile.move %y {buffers = [3]} : tile<f32, [16, 16], vec>\n"
        "  %s = scf.for %i = 0 to 4 step 1 iter_args(%acc = %y_copy) -> (tile<f32, [16, 16], vec>) {\n"
        "    %r = tile.recip %acc {buffers = [4]} : tile<f32, [16, 16], vec>\n"
        "    %r_copy = tile.move %r {buffers = [3]} : tile<f32, [16, 16], vec>\n"
        "    scf.yield %r_copy\n"
        "  } {buffers = [3]}\n"
        "  tile.store %x, %c {offsets = [0, 0]}\n"
        "  tile.store %y, %c {offsets = [0, 0]}\n"
        "  tile.store %s, %c {offsets = [0, 0]}\n"
        "}\n");
}

TEST_CASE("assign-buffers: trecip may write its source on a5, so no copy there") {
  Harness h(fn("incore",
               "  %x = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
               "  %s = scf.for %i = 0 to 4 step 1 iter_args(%acc = %x) -> (tile<f32, [16, 16]>) {\n"
               "    %r = tile.recip %acc : tile<f32, [16, 16]>\n"
               "    scf.yield %r\n"
               "  }\n"
               "  tile.store %s, %c {offsets = [0, 0]}\n"),
            pto::ptoModel(pto::Arch::A5));
  std::string ir = assign(h);
  CHECK(ir.find("copy") == std::string::npos);
  CHECK(ir.find("%r = tile.recip %acc {buffers = [0]}") != std::string::npos);
}

TEST_CASE("assign-buffers: a value passed through a branch and read after it is copied there") {
  Harness h(
      "func @k(%x: tensor<f32, [16, 16]> in, %y: tensor<f32, [16, 16]> out, %n: index) incore {\n"
      "  %a = tile.load %x {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
      "  %r = scf.if %n > 3 -> (tile<f32, [16, 16]>) {\n"
      "    scf.yield %a\n"
      "  } else {\n"
      "    %e = tile.exp %a : tile<f32, [16, 16]>\n"
      "    scf.yield %e\n"
      "  }\n"
      "  %s = tile.add %r, %a : tile<f32, [16, 16]>\n"
      "  tile.store %s, %y {offsets = [0, 0]}\n"
      "}\n");
  CHECK(assign(h) ==
        "func @k(%x: tensor<f32, [16, 16]> in, %y: tensor<f32, [16, 16]> out, %n: index) aiv {\n"
        "  %a = tile.load %x {buffers = [0], offsets = [0, 0]} : tile<f32, [16, 16], vec>\n"
        "  %r = scf.if %n > 3 -> (tile<f32, [16, 16], vec>) {\n"
        "    %a_copy = tile.move %a {buffers = [1]} : tile<f32, [16, 16], vec>\n"
        "    scf.yield %a_copy\n"
        "  } else {\n"
        "    %e = tile.exp %a {buffers = [1]} : tile<f32, [16, 16], vec>\n"
        "    scf.yield %e\n"
        "  } {buffers = [1]}\n"
        "  %s = tile.add %r, %a {buffers = [2]} : tile<f32, [16, 16], vec>\n"
        "  tile.store %s, %y {offsets = [0, 0]}\n"
        "}\n");
}

TEST_CASE("assign-buffers: a branch computing in place when the old value is dead shares one buffer") {
  Harness h(
      "func @k(%x: tensor<f32, [16, 16]> in, %y: tensor<f32, [16, 16]> out, %n: index) incore {\n"
      "  %a = tile.load %x {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
      "  %r = scf.if %n > 3 -> (tile<f32, [16, 16]>) {\n"
      "    scf.yield %a\n"
      "  } else {\n"
      "    %e = tile.exp %a : tile<f32, [16, 16]>\n"
      "    scf.yield %e\n"
      "  }\n"
      "  tile.store %r, %y {offsets = [0, 0]}\n"
      "}\n");
  std::string ir = assign(h);
  CHECK(ir.find("copy") == std::string::npos);
  CHECK(ir.find("%e = tile.exp %a {buffers = [0]}") != std::string::npos);
}

TEST_CASE("assign-buffers: a yielded view of a differently shaped tile is copied into the carry") {
  Harness h(
      "func @k(%a: tensor<f32, [16, 16]> in, %c: tensor<f32, [1, 16]> out) incore {\n"
      "  %a0 = tile.create : tile<f32, [1, 16]>\n"
      "  %s = scf.for %i = 0 to 4 step 1 iter_args(%acc = %a0) -> (tile<f32, [1, 16]>) {\n"
      "    %t = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 1]>\n"
      "    %r = tile.reshape %t : tile<f32, [1, 16]>\n"
      "    scf.yield %r\n"
      "  }\n"
      "  tile.store %s, %c {offsets = [0, 0]}\n"
      "}\n");
  std::string ir = assign(h);
  CHECK(ir.find("    %r = tile.reshape %t {buffers = [1]} : tile<f32, [1, 16], vec>\n"
                "    %r_copy = tile.move %r {buffers = [0]} : tile<f32, [1, 16], vec>\n"
                "    scf.yield %r_copy\n") != std::string::npos);
}

TEST_CASE("assign-buffers: an accumulator read after matmul_acc updated it (E0406)") {
  Harness h(fn("incore",
               "  %ta = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
               "  %tb = tile.load %b {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
               "  %acc = tile.matmul %ta, %tb : tile<f32, [16, 16]>\n"
               "  %acc2 = tile.matmul_acc %acc, %ta, %tb : tile<f32, [16, 16]>\n"
               "  tile.store %acc, %c {offsets = [0, 0]}\n"
               "  tile.store %acc2, %c {offsets = [0, 0]}\n"));
  CHECK_FALSE(h.run({"verify", "infer-memory-space", "assign-buffers"}));
  CHECK(h.diagnostics() ==
        Lines{
            "5:3: E0406: accumulator '%acc' is updated in place by 'tile.matmul_acc' but its old "
            "value is read afterwards; read the updated value instead, or start a separate "
            "accumulator with matmul",
            "  note 6:3: the old value of '%acc' is read here"});
}

TEST_CASE("assign-buffers: accumulators clobbered across loop iterations or by a loop (E0406)") {
  Harness h(fn("incore",
               "  %ta = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
               "  %tb = tile.load %b {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
               "  %acc = tile.matmul %ta, %tb : tile<f32, [16, 16]>\n"
               "  scf.for %i = 0 to 4 step 1 {\n"
               "    %acc2 = tile.matmul_acc %acc, %ta, %tb : tile<f32, [16, 16]>\n"
               "    tile.store %acc2, %c {offsets = [0, 0]}\n"
               "  }\n"
               "  %r = scf.for %j = 0 to 4 step 1 iter_args(%x = %acc) -> (tile<f32, [16, 16]>) {\n"
               "    %y = tile.matmul_acc %x, %ta, %tb : tile<f32, [16, 16]>\n"
               "    scf.yield %y\n"
               "  }\n"
               "  tile.store %acc, %c {offsets = [0, 0]}\n"
               "  tile.store %r, %c {offsets = [0, 0]}\n"));
  CHECK_FALSE(h.run({"verify", "infer-memory-space", "assign-buffers"}));
  CHECK(h.diagnostics() ==
        Lines{
            "6:5: E0406: accumulator '%acc' is updated in place by 'tile.matmul_acc' but its old "
            "value is read afterwards; read the updated value instead, or start a separate "
            "accumulator with matmul",
            "  note 6:5: the old value of '%acc' is read here again in the next iteration of the "
            "loop",
            "9:3: E0406: accumulator '%acc' starts a loop-carried value that the loop updates in "
            "place, but its value from before the loop is read afterwards; finish reading it "
            "before the loop, or carry a separate tile",
            "  note 13:3: the old value of '%acc' is read here"});
}

TEST_CASE("assign-buffers: a carried accumulator overwritten while still read (E0406)") {
  Harness h(fn("incore",
               "  %ta = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
               "  %tb = tile.load %b {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
               "  %acc = tile.matmul %ta, %tb : tile<f32, [16, 16]>\n"
               "  %r = scf.for %j = 0 to 4 step 1 iter_args(%x = %acc) -> (tile<f32, [16, 16]>) {\n"
               "    %y = tile.matmul %ta, %tb : tile<f32, [16, 16]>\n"
               "    tile.store %x, %c {offsets = [0, 0]}\n"
               "    scf.yield %y\n"
               "  }\n"
               "  tile.store %r, %c {offsets = [0, 0]}\n"));
  CHECK_FALSE(h.run({"verify", "infer-memory-space", "assign-buffers"}));
  CHECK(h.diagnostics() ==
        Lines{
            "5:3: E0406: '%y' becomes the next iteration's value in the buffer of accumulator "
            "'%x', but '%x' is read after '%y' is computed; finish reading '%x' first",
            "  note 7:5: the old value of '%x' is read here"});
}

TEST_CASE("assign-buffers: swapped loop carries cannot share buffers (E0407)") {
  Harness h(fn("incore",
               "  %ta = tile.load %a {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
               "  %tb = tile.exp %ta : tile<f32, [16, 16]>\n"
               "  %r, %s = scf.for %i = 0 to 4 step 1 iter_args(%x = %ta, %y = %tb) -> (tile<f32, [16, 16]>, tile<f32, [16, 16]>) {\n"
               "    scf.yield %y, %x\n"
               "  }\n"
               "  tile.store %r, %c {offsets = [0, 0]}\n"
               "  tile.store %s, %c {offsets = [0, 0]}\n"));
  CHECK_FALSE(h.run({"verify", "infer-memory-space", "assign-buffers"}));
  CHECK(h.diagnostics() ==
        Lines{
            "4:3: E0407: '%x' and '%y' must share one buffer through 'scf.for' but '%x' is "
            "read after '%y' is written; compute the merged values into fresh tiles instead "
            "of reusing them",
            "  note 5:5: the old value of '%x' is read here"});
}
