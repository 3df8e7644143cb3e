// The PTO emitter: module and function structure, the constant block, tensor
// views, allocs and their placement, every op form, control flow, names, and
// byte-identical output across runs.
#include "backend/pto/PtoModel.h"
#include "test_support.h"

#include <regex>

using namespace tilec;
using tilec::testing::Harness;

namespace {

const char* kVecF32_16x64 =
    "!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, "
    "slayout=none_box, fractal=512, pad=0>";

// Compiles through the default pipeline and returns the PTO text with the
// common 16x64 f32 vec type abbreviated to `T`.
std::string compile(const std::string& text, const ir::TargetModel& target = pto::ptoModel(pto::Arch::A2A3)) {
  Harness h(text, target);
  REQUIRE(h.runUpTo("pto-legality"));
  std::string out = h.pto();
  CHECK(h.diagnostics().empty());
  return std::regex_replace(out, std::regex(std::regex_replace(
                                     kVecF32_16x64, std::regex(R"([\[\]!<>.])"), R"(\$&)")),
                            "T");
}

bool has(const std::string& text, const std::string& part) {
  bool found = text.find(part) != std::string::npos;
  if (!found) MESSAGE("missing: " << part << "\nin:\n" << text);
  return found;
}

const char* kControl =
    "func @ctrl(%x: tensor<f32, [%B, %S, 64]> in, %y: tensor<f32, [%B, %S, 64]> out, %B: index, %S: index, %scale: f32) incore {\n"
    "  %neg = arith.const {value = -inf} : f32\n"
    "  %two = arith.const {value = 2.5} : f32\n"
    "  %zero = arith.index {value = 0} : index\n"
    "  %one = arith.index {value = 1} : index\n"
    "  %n, %m = scf.for %b = 0 to %B step 1 iter_args(%cnt = %zero, %acc = %one) -> (index, index) {\n"
    "    %t = tile.load %x {offsets = [%b, %S - 16, 0]} : tile<f32, [16, 64]>\n"
    "    %u = tile.muls %t, %scale : tile<f32, [16, 64]>\n"
    "    %v = tile.maxs %u, %neg : tile<f32, [16, 64]>\n"
    "    %w = tile.adds %v, %two : tile<f32, [16, 64]>\n"
    "    tile.store %w, %y {offsets = [%b, (%S - 16) % 16, %b / 2]}\n"
    "    %c2 = arith.index {value = %cnt + 1} : index\n"
    "    %a2 = arith.index {value = %acc * 2} : index\n"
    "    scf.yield %c2, %a2\n"
    "  }\n"
    "  %r = scf.if %n == 3 -> (index) {\n"
    "    scf.yield %m\n"
    "  } else {\n"
    "    scf.yield %zero\n"
    "  }\n"
    "}\n";

}  // namespace

TEST_CASE("pto emitter: constants, symbolic tensor views, index carries, scf.if results") {
  CHECK(compile(kControl) ==
        "module attributes {\"pto.target_arch\" = \"a3\"} {\n"
        "  func.func @ctrl(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: index, %arg3: index, %arg4: f32) attributes {pto.kernel_kind = #pto.kernel_kind<vector>, tilec.launch_blocks = 1 : i64} {\n"
        "    %c64 = arith.constant 64 : index\n"
        "    %c1 = arith.constant 1 : index\n"
        "    %cst = arith.constant 0xFF800000 : f32\n"
        "    %cst_1 = arith.constant 2.50000000e+00 : f32\n"
        "    %c0 = arith.constant 0 : index\n"
        "    %c16 = arith.constant 16 : index\n"
        "    %c2 = arith.constant 2 : index\n"
        "    %c3 = arith.constant 3 : index\n"
        "    %0 = arith.muli %arg3, %c64 : index\n"
        "    %x_view = pto.make_tensor_view %arg0, shape = [%arg2, %arg3, %c64], strides = [%0, %c64, %c1] : !pto.tensor_view<?x?x?xf32>\n"
        "    %y_view = pto.make_tensor_view %arg1, shape = [%arg2, %arg3, %c64], strides = [%0, %c64, %c1] : !pto.tensor_view<?x?x?xf32>\n"
        "    %n:2 = scf.for %b = %c0 to %arg2 step %c1 iter_args(%cnt = %c0, %acc = %c1) -> (index, index) {\n"
        "      %t = pto.alloc_tile : T\n"
        "      %1 = arith.subi %arg3, %c16 : index\n"
        "      %x_pview = pto.partition_view %x_view, offsets = [%b, %1, %c0], sizes = [%c1, %c16, %c64] : !pto.tensor_view<?x?x?xf32> -> !pto.partition_tensor_view<1x16x64xf32>\n"
        "      pto.tload ins(%x_pview : !pto.partition_tensor_view<1x16x64xf32>) outs(%t : T)\n"
        "      %u = pto.alloc_tile : T\n"
        "      pto.tmuls ins(%t, %arg4 : T, f32) outs(%u : T)\n"
        "      %v = pto.alloc_tile : T\n"
        "      pto.tmaxs ins(%u, %cst : T, f32) outs(%v : T)\n"
        "      %w = pto.alloc_tile : T\n"
        "      pto.tadds ins(%v, %cst_1 : T, f32) outs(%w : T)\n"
        "      %2 = arith.remsi %arg3, %c16 : index\n"
        "      %3 = arith.addi %2, %c16 : index\n"
        "      %4 = arith.remsi %3, %c16 : index\n"
        "      %5 = arith.floordivsi %b, %c2 : index\n"
        "      %y_pview = pto.partition_view %y_view, offsets = [%b, %4, %5], sizes = [%c1, %c16, %c64] : !pto.tensor_view<?x?x?xf32> -> !pto.partition_tensor_view<1x16x64xf32>\n"
        "      pto.tstore ins(%w : T) outs(%y_pview : !pto.partition_tensor_view<1x16x64xf32>)\n"
        "      %c2_1 = arith.addi %cnt, %c1 : index\n"
        "      %a2 = arith.muli %acc, %c2 : index\n"
        "      scf.yield %c2_1, %a2 : index, index\n"
        "    }\n"
        "    %6 = arith.cmpi eq, %n#0, %c3 : index\n"
        "    %r = scf.if %6 -> (index) {\n"
        "      scf.yield %n#1 : index\n"
        "    } else {\n"
        "      scf.yield %c0 : index\n"
        "    }\n"
        "    return\n"
        "  }\n"
        "}\n");
}

TEST_CASE("pto emitter: output is byte-identical across runs") {
  CHECK(compile(kControl) == compile(kControl));
}

TEST_CASE("pto emitter: views, assemble, set_valid_shape, tensor.view and tcvt") {
  std::string out = compile(
      "func @views(%x: tensor<f32, [2, 16, 64]> in, %y: tensor<f32, [16, 64]> out, %n: index) incore {\n"
      "  %flat = tensor.view %x : tensor<f32, [32, 64]>\n"
      "  %t = tile.load %flat {offsets = [16, 0]} : tile<f32, [16, 64]>\n"
      "  %r = tile.row_sum %t : tile<f32, [16, 1]>\n"
      "  %rr = tile.reshape %r : tile<f32, [1, 16]>\n"
      "  %s = tile.slice %t {offsets = [0, 32]} : tile<f32, [8, 32]>\n"
      "  %e = tile.exp %s : tile<f32, [8, 32]>\n"
      "  %big = tile.create : tile<f32, [16, 64]>\n"
      "  %a = tile.assemble %big, %e {offsets = [8, 32]} : tile<f32, [16, 64]>\n"
      "  %v = tile.set_valid_shape %a : tile<f32, [16, 64], valid=[min(%n, 16), 64]>\n"
      "  tile.store %v, %y {offsets = [0, 0]}\n"
      "  %c = tile.cast %rr {rmode = \"round\"} : tile<f16, [1, 16]>\n"
      "}\n");
  const std::string col = "!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=1, v_row=16, v_col=1, "
                          "blayout=col_major, slayout=none_box, fractal=512, pad=0>";
  const std::string row = "!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, v_row=1, v_col=16, "
                          "blayout=row_major, slayout=none_box, fractal=512, pad=0>";
  const std::string part = "!pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=32, v_row=8, v_col=32, "
                           "blayout=row_major, slayout=none_box, fractal=512, pad=0>";
  // PTOAS's set_validshape needs both valid extents of its tile dynamic.
  const std::string dyn = "!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=64, v_row=?, v_col=?, "
                          "blayout=row_major, slayout=none_box, fractal=512, pad=0>";
  CHECK(has(out, "    %flat_view = pto.make_tensor_view %arg0, shape = [%c32, %c64], strides = "
                 "[%c64, %c1] : !pto.tensor_view<?x?xf32>\n"));
  CHECK(has(out, "    pto.trowsum ins(%t, %tmp : T, T) outs(%r : " + col + ")\n"));
  CHECK(has(out, "    %rr = pto.treshape %r : " + col + " -> " + row + "\n"));
  CHECK(has(out, "    %s = pto.subview %t[%c0, %c32] sizes [8, 32] : T -> " + part + "\n"));
  // A column window on a2a3 is a tinsert (a tmov into a subview would fail PTOAS's pipeline).
  CHECK(has(out, "    %big = pto.alloc_tile valid_row = %c16 valid_col = %c64 : " + dyn + "\n"
                 "    pto.tinsert ins(%e, %c8, %c32 : " + part + ", index, index) outs(%big : " + dyn + ")\n"
                     "    %0 = arith.minsi %c16, %arg2 : index\n"
                     "    pto.set_validshape %big, %0, %c64 : " + dyn + "\n"));
  CHECK(has(out, "outs(%y_pview : !pto.partition_tensor_view<?x64xf32>)"));
  CHECK(has(out, "    pto.tcvt ins(%rr {rmode = #pto<round_mode ROUND>} : " + row + ") outs(%c : "));
}

TEST_CASE("pto emitter: allocs dominate every definition: before loops for carries, inside for locals") {
  std::string out = compile(
      "func @k(%x: tensor<f32, [64, 64]> in, %y: tensor<f32, [16, 64]> out, %S: index) incore {\n"
      "  %z = tile.create : tile<f32, [16, 64]>\n"
      "  %s = scf.for %i = 0 to %S step 16 iter_args(%acc = %z) -> (tile<f32, [16, 64]>) {\n"
      "    %t = tile.load %x {offsets = [%i, 0]} : tile<f32, [16, 64], valid=[min(16, %S - %i), 64]>\n"
      "    %u = tile.exp %t : tile<f32, [16, 64], valid=[min(16, %S - %i), 64]>\n"
      "    %a = tile.add %acc, %acc : tile<f32, [16, 64]>\n"
      "    scf.yield %a\n"
      "  }\n"
      "  tile.store %s, %y {offsets = [0, 0]}\n"
      "}\n");
  CHECK(has(out, "    %z = pto.alloc_tile : T\n    scf.for %i = %c0 to %arg2 step %c16 {\n"));
  CHECK(has(out, "      %0 = arith.subi %arg2, %i : index\n"
                 "      %1 = arith.minsi %c16, %0 : index\n"
                 "      %t = pto.alloc_tile valid_row = %1 : "));
  CHECK(has(out, "      pto.tadd ins(%z, %z : T, T) outs(%z : T)\n    }\n"));
  CHECK(has(out, "    pto.tstore ins(%z : T) outs("));
}

TEST_CASE("pto emitter: matmul_acc init: true starts, false/absent continues, runtime chooses") {
  std::string out = compile(
      "func @mm(%a: tensor<bf16, [16, 32]> in, %b: tensor<bf16, [32, 16]> in, %c: tensor<f32, [16, 16]> out) aic {\n"
      "  %x = tile.load %a {offsets = [0, 0]} : tile<bf16, [16, 32]>\n"
      "  %y = tile.load %b {offsets = [0, 0]} : tile<bf16, [32, 16]>\n"
      "  %acc = tile.create : tile<f32, [16, 16]>\n"
      "  %m1 = tile.matmul_acc %acc, %x, %y {init = 1 == 1} : tile<f32, [16, 16]>\n"
      "  %m2 = tile.matmul_acc %m1, %x, %y : tile<f32, [16, 16]>\n"
      "  %m3 = tile.matmul_acc %m2, %x, %y {init = 1 == 0} : tile<f32, [16, 16]>\n"
      "  %m5 = scf.for %i = 0 to 2 step 1 iter_args(%m = %m3) -> (tile<f32, [16, 16]>) {\n"
      "    %m4 = tile.matmul_acc %m, %x, %y {init = %i == 0} : tile<f32, [16, 16]>\n"
      "    scf.yield %m4\n"
      "  }\n"
      "  tile.store %m5, %c {offsets = [0, 0]}\n"
      "}\n");
  std::string strip = std::regex_replace(out, std::regex(" : !pto[^)\n]*"), "");
  CHECK(has(strip, "    pto.tmatmul ins(%x_left, %y_right) outs(%acc)\n"
                   "    pto.tmatmul.acc ins(%acc, %x_left, %y_right) outs(%acc)\n"
                   "    pto.tmatmul.acc ins(%acc, %x_left, %y_right) outs(%acc)\n"));
  CHECK(has(strip, "      scf.if %0 {\n"
                   "        pto.tmatmul ins(%x_left, %y_right) outs(%acc)\n"
                   "      } else {\n"
                   "        pto.tmatmul.acc ins(%acc, %x_left, %y_right) outs(%acc)\n"
                   "      }\n"));
  CHECK(has(out, "attributes {pto.kernel_kind = #pto.kernel_kind<cube>, tilec.launch_blocks = 1 : i64}"));
}

TEST_CASE("pto emitter: a5 modules and the a5 left layout") {
  std::string out = compile(
      "func @mm(%a: tensor<f16, [16, 16]> in, %b: tensor<f16, [16, 16]> in, %c: tensor<f32, [16, 16]> out) incore {\n"
      "  %x = tile.load %a {offsets = [0, 0]} : tile<f16, [16, 16]>\n"
      "  %y = tile.load %b {offsets = [0, 0]} : tile<f16, [16, 16]>\n"
      "  %m = tile.matmul %x, %y : tile<f32, [16, 16]>\n"
      "  tile.store %m, %c {offsets = [0, 0]}\n"
      "}\n",
      pto::ptoModel(pto::Arch::A5));
  CHECK(has(out, "module attributes {\"pto.target_arch\" = \"a5\"} {\n"));
  CHECK(has(out, "%x_left = pto.alloc_tile : !pto.tile_buf<loc=left, dtype=f16, rows=16, cols=16, "
                 "v_row=16, v_col=16, blayout=col_major, slayout=row_major, fractal=512, pad=0>\n"));
}

TEST_CASE("pto emitter: bool, mod, ceildiv, select and integer scalars") {
  std::string out = compile(
      "func @k(%x: tensor<f32, [64, 64]> in, %y: tensor<f32, [64, 64]> out, %n: i32, %S: index, %p: bool) incore {\n"
      "  %q = arith.index {value = ceildiv(%S, 16)} : index\n"
      "  %w = arith.index {value = select(%S > 8 && !%p, %S % 16, 0)} : index\n"
      "  %k = arith.index {value = %S * 2} : i32\n"
      "  %f = arith.index {value = %S < 3} : bool\n"
      "  scf.if %f {\n"
      "    %t = tile.load %x {offsets = [%n, 0]} : tile<f32, [16, 64]>\n"
      "    tile.store %t, %y {offsets = [%q, %w]}\n"
      "  }\n"
      "}\n");
  // ceildiv(a, b) is emitted as -floordiv(-a, b): PTOAS's own tests never use ceildivsi.
  CHECK(has(out, "    %0 = arith.subi %c0, %arg3 : index\n"
                 "    %1 = arith.floordivsi %0, %c16 : index\n"
                 "    %q = arith.subi %c0, %1 : index\n"));
  CHECK(has(out, "%2 = arith.cmpi sgt, %arg3, %c8 : index\n"));
  CHECK(has(out, "    %3 = arith.xori %arg4, %true : i1\n"
                 "    %4 = arith.andi %2, %3 : i1\n"
                 "    %5 = arith.remsi %arg3, %c16 : index\n"
                 "    %6 = arith.addi %5, %c16 : index\n"
                 "    %7 = arith.remsi %6, %c16 : index\n"
                 "    %w = arith.select %4, %7, %c0 : index\n"));
  CHECK(has(out, "    %k = arith.index_cast %8 : index to i32\n"));
  CHECK(has(out, "    %f = arith.cmpi slt, %arg3, %c3 : index\n    scf.if %f {\n"));
  CHECK(has(out, "      %9 = arith.index_cast %arg2 : i32 to index\n"));
  CHECK(has(out, "%true = arith.constant true\n"));
}

TEST_CASE("pto emitter: names are unique and derived from IR names") {
  std::string out = compile(
      "func @k(%x: tensor<f32, [16, 64]> in, %y: tensor<f32, [16, 64]> out) incore {\n"
      "  %t = tile.load %x {offsets = [0, 0]} : tile<f32, [16, 64]>\n"
      "  %t_1 = tile.exp %t : tile<f32, [16, 64]>\n"
      "  %x_view = tile.exp %t_1 : tile<f32, [16, 64]>\n"
      "  tile.store %x_view, %y {offsets = [0, 0]}\n"
      "  tile.store %t, %y {offsets = [0, 0]}\n"
      "}\n");
  CHECK(has(out, "    %x_view = pto.make_tensor_view %arg0"));
  CHECK(has(out, "    %x_view_1 = pto.alloc_tile : T\n"));
  CHECK(has(out, "    %y_pview = pto.partition_view"));
  CHECK(has(out, "    %y_pview_1 = pto.partition_view"));
}

TEST_CASE("pto emitter: buffer ids as the IR states them: sparse, huge, out of program order") {
  // Written by hand, not by assign-buffers: the allocs of buffers 9 and 3, defined in both
  // branches, go before the scf.if in ascending id order; ids need not be dense or small.
  Harness h("func @k(%x: tensor<f32, [16, 64]> in, %y: tensor<f32, [16, 64]> out, %n: index) incore {\n"
            "  %big = tile.load %x {buffers = [1000000000000], offsets = [0, 0]} : tile<f32, [16, 64], vec>\n"
            "  %p, %q = scf.if %n == 0 -> (tile<f32, [16, 64], vec>, tile<f32, [16, 64], vec>) {\n"
            "    %e = tile.exp %big {buffers = [9]} : tile<f32, [16, 64], vec>\n"
            "    %l = tile.neg %big {buffers = [3]} : tile<f32, [16, 64], vec>\n"
            "    scf.yield %e, %l\n"
            "  } else {\n"
            "    %f = tile.abs %big {buffers = [9]} : tile<f32, [16, 64], vec>\n"
            "    %g = tile.sqrt %big {buffers = [3]} : tile<f32, [16, 64], vec>\n"
            "    scf.yield %f, %g\n"
            "  } {buffers = [9, 3]}\n"
            "  %s = tile.add %p, %q {buffers = [-5]} : tile<f32, [16, 64], vec>\n"
            "  tile.store %s, %y {offsets = [0, 0]}\n"
            "}\n");
  OutputBuffer missing;
  CHECK_FALSE(pto::emitModule(*h.module, missing, h.diags, true));  // -5 is no id
  CHECK(h.diagnostics() == tilec::testing::Lines{
                               "12:3: E0524: the result of 'tile.add' has no buffer id; run the PTO pass pipeline first"});
  h.module->functions()[0]->body().ops().back()->operand(0)->definingOp()->set(ir::attr::buffers, std::vector<int64_t>{4});
  OutputBuffer os;
  REQUIRE(pto::emitModule(*h.module, os, h.diags, true));
  const std::string out = std::regex_replace(os.str(), std::regex(std::regex_replace(
                              kVecF32_16x64, std::regex(R"([\[\]!<>.])"), R"(\$&)")), "T");
  CHECK(has(out, "    %big = pto.alloc_tile : T\n    %x_pview = pto.partition_view"));
  CHECK(has(out, "    %l = pto.alloc_tile : T\n    %e = pto.alloc_tile : T\n"));
  CHECK(has(out, "scf.if %"));
  CHECK(has(out, "      pto.texp ins(%big : T) outs(%e : T)\n      pto.tneg ins(%big : T) outs(%l : T)\n"));
  CHECK(has(out, "      pto.tabs ins(%big : T) outs(%e : T)\n      pto.tsqrt ins(%big : T) outs(%l : T)\n"));
  CHECK(has(out, "    %s = pto.alloc_tile : T\n    pto.tadd ins(%e, %l : T, T) outs(%s : T)\n"));
}

TEST_CASE("pto emitter: IR without buffer ids is rejected (E0524)") {
  Harness h("func @k(%x: tensor<f32, [16, 64]> in) incore {\n"
            "  %t = tile.load %x {offsets = [0, 0]} : tile<f32, [16, 64], vec>\n"
            "}\n");
  OutputBuffer os;
  CHECK_FALSE(pto::emitModule(*h.module, os, h.diags, true));
  CHECK(os.str().find("func.func") == std::string::npos);  // stopped before the function
  CHECK(h.diagnostics() == tilec::testing::Lines{
                               "2:3: E0524: the result of 'tile.load' has no buffer id; run the PTO pass "
                               "pipeline first"});
}

TEST_CASE("pto emitter: transpose, column and row reductions, row expands, unary ops, bitcast") {
  std::string out = compile(
      "func @ops(%x: tensor<f32, [16, 16]> in, %z: tensor<f32, [1, 16]> out, %w: tensor<i32, [16, 16]> out) incore {\n"
      "  %t = tile.load %x {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
      "  %s = tile.create : tile<f32, [16, 16]>\n"
      "  %tt = tile.transpose %t, %s {axes = [0, 1]} : tile<f32, [16, 16]>\n"
      "  %c = tile.col_sum %tt : tile<f32, [1, 16]>\n"
      "  %r = tile.row_min %tt : tile<f32, [16, 1]>\n"
      "  %m = tile.row_expand_mul %tt, %r : tile<f32, [16, 16]>\n"
      "  %n = tile.neg %m : tile<f32, [16, 16]>\n"
      "  %q = tile.rsqrt %n : tile<f32, [16, 16]>\n"
      "  %i = tile.reinterpret_view %q : tile<i32, [16, 16]>\n"
      "  tile.store %c, %z {offsets = [0, 0]}\n"
      "  tile.store %i, %w {offsets = [0, 0]}\n"
      "}\n");
  std::string t = std::regex_replace(
      std::regex_replace(std::regex_replace(out, std::regex("!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, [^>]*>"), "T16"), std::regex("!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=16, [^>]*>"), "R"),
      std::regex("!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=1, [^>]*>"), "C");
  CHECK(has(t, "    pto.ttrans ins(%t, %s : T16, T16) outs(%tt : T16)\n"
               "    %c = pto.alloc_tile : R\n"
               "    pto.tcolsum ins(%tt : T16) outs(%c : R)\n"
               "    %tmp = pto.alloc_tile : T16\n"
               "    %r = pto.alloc_tile : C\n"
               "    pto.trowmin ins(%tt, %tmp : T16, T16) outs(%r : C)\n"
               "    %m = pto.alloc_tile : T16\n"
               "    pto.trowexpandmul ins(%tt, %r : T16, C) outs(%m : T16)\n"
               "    %n = pto.alloc_tile : T16\n"
               "    pto.tneg ins(%m : T16) outs(%n : T16)\n"
               "    %q = pto.alloc_tile : T16\n"
               "    pto.trsqrt ins(%n : T16) outs(%q : T16)\n"
               "    %i = pto.bitcast %q : T16 -> !pto.tile_buf<loc=vec, dtype=i32, rows=16, cols=16, "
               "v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>\n"));
}

TEST_CASE("pto emitter: an op PTO does not compile, or one a PTO pass lowers, has no PTO form (E0524)") {
  Harness h("func @k(%x: tensor<f32, [16, 64]> in) incore {\n"
            "  %t = tile.load %x {buffers = [0], offsets = [0, 0]} : tile<f32, [16, 64], vec>\n"
            "  %p = region.part %t {buffers = [0], grid = [2, 1], index = [0, 0]} : tile<f32, [8, 64], vec>\n"
            "  dma.wait {channel = [0, 0], drain = false}\n"
            "}\n");
  OutputBuffer os;
  CHECK_FALSE(pto::emitModule(*h.module, os, h.diags, true));
  CHECK(h.diagnostics() == tilec::testing::Lines{"3:3: E0524: 'region.part' has no PTO form; run the PTO pass pipeline first",
                                                 "4:3: E0524: 'dma.wait' has no PTO form; run the PTO pass pipeline first"});
}
