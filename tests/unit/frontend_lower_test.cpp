// Checking and SSA lowering of .tile into the tile IR: full printed IR for
// positive cases, code + position + message for errors.
#include <doctest/doctest.h>

#include "backend/pto/PtoModel.h"
#include "frontend/Ast.h"
#include "frontend/Frontend.h"
#include "frontend/Lowering.h"
#include "ir/OpDefs.h"
#include "ir/IRText.h"

using namespace tilec;

namespace {

// Parses and lowers `src`; keeps the printed IR (empty on errors) and the
// diagnostics as "line:col Ecode message" lines, notes indented below them.
struct Lowered {
  explicit Lowered(const std::string& src) : diags(sm) {
    FileId file = sm.addBuffer("t.tile", src);
    std::unique_ptr<ast::Module> ast = frontend::parse(sm, file, diags);
    REQUIRE(ast);
    std::unique_ptr<ir::Module> m = frontend::lower(*ast, diags, pto::ptoModel(pto::Arch::A2A3));
    if (!m) return;
    ir = ir::printToString(*m);
    verified = ir::verifyModule(*m, diags);
  }
  std::string at(SourceRange r) const {
    LineCol lc = sm.lineCol(r.file, r.begin);
    return std::to_string(lc.line) + ":" + std::to_string(lc.column);
  }
  std::string errors() const {
    std::string out;
    for (const Diagnostic& d : diags.all()) {
      out += at(d.range) + " " + diagCode(d.id) + " " + d.message + "\n";
      for (const DiagNote& n : d.notes) out += "  " + at(n.range) + " note: " + n.message + "\n";
    }
    return out;
  }
  // Only "line:col Ecode" per diagnostic: for rules whose wording the op table owns.
  std::string codes() const {
    std::string out;
    for (const Diagnostic& d : diags.all()) out += at(d.range) + " " + diagCode(d.id) + "\n";
    return out;
  }
  SourceManager sm;
  DiagnosticEngine diags;
  std::string ir;
  bool verified = false;
};

}  // namespace

TEST_CASE("frontend lower: the issue examples: cast_rows and qk") {
  Lowered l(
      "const CHUNK = 16;\n"
      "\n"
      "kernel cast_rows(x: in bf16[S, 512], y: out f32[S, 512]) where S: dyn {\n"
      "  for c in 0 .. S step CHUNK {\n"
      "    let t = load(x, [c, 0], [CHUNK, 512], valid = [min(CHUNK, S - c), 512]);\n"
      "    store(y, [c, 0], cast<f32>(t));\n"
      "  }\n"
      "}\n"
      "\n"
      "kernel qk(q: in f32[32, 128], k: in f32[128, 32], s: out f32[32, 32]) {\n"
      "  var acc = create<f32>([32, 32], space = acc);\n"
      "  for i in 0 .. 4 {\n"
      "    acc = matmul_acc(acc, load(q, [0, i * 32], [32, 32]), load(k, [i * 32, 0], [32, 32]), init = i == 0);\n"
      "  }\n"
      "  store(s, [0, 0], acc);\n"
      "}\n");
  CHECK(l.errors() == "");
  CHECK(l.verified);
  CHECK(l.ir ==
      "func @cast_rows(%x: tensor<bf16, [%S, 512]> in, %y: tensor<f32, [%S, 512]> out, %S: index) incore {\n"
      "  scf.for %c = 0 to %S step 16 {\n"
      "    %t = tile.load %x {offsets = [%c, 0]} : tile<bf16, [16, 512], valid=[min(16, %S - %c), 512]>\n"
      "    %0 = tile.cast %t {rmode = \"cast_rint\"} : tile<f32, [16, 512], valid=[min(16, %S - %c), 512]>\n"
      "    tile.store %0, %y {offsets = [%c, 0]}\n"
      "  }\n"
      "}\n"
      "\n"
      "func @qk(%q: tensor<f32, [32, 128]> in, %k: tensor<f32, [128, 32]> in, %s: tensor<f32, [32, 32]> out) incore {\n"
      "  %acc = tile.create : tile<f32, [32, 32], acc>\n"
      "  %acc_1 = scf.for %i = 0 to 4 step 1 iter_args(%acc_2 = %acc) -> (tile<f32, [32, 32], acc>) {\n"
      "    %0 = tile.load %q {offsets = [0, %i * 32]} : tile<f32, [32, 32]>\n"
      "    %1 = tile.load %k {offsets = [%i * 32, 0]} : tile<f32, [32, 32]>\n"
      "    %acc_3 = tile.matmul_acc %acc_2, %0, %1 {init = %i == 0} : tile<f32, [32, 32], acc>\n"
      "    scf.yield %acc_3\n"
      "  }\n"
      "  tile.store %acc_1, %s {offsets = [0, 0]}\n"
      "}\n");
}

TEST_CASE("frontend lower: SSA: a var tile and a loop-carried index var in one loop") {
  Lowered l(
      "kernel k(x: in f32[64, 16], y: out f32[16, 16]) {\n"
      "  var sum = full<f32>([16, 16], 0.0);\n"
      "  var off = 0;\n"
      "  for i in 0 .. 4 {\n"
      "    sum = sum + load(x, [off, 0], [16, 16]);\n"
      "    off = off + 16;\n"
      "  }\n"
      "  store(y, [0, 0], sum);\n"
      "}\n");
  CHECK(l.errors() == "");
  CHECK(l.verified);
  CHECK(l.ir ==
      "func @k(%x: tensor<f32, [64, 16]> in, %y: tensor<f32, [16, 16]> out) incore {\n"
      "  %0 = arith.const {value = 0.0} : f32\n"
      "  %sum = tile.full %0 : tile<f32, [16, 16]>\n"
      "  %1 = arith.index {value = 0} : index\n"
      "  %sum_1, %off = scf.for %i = 0 to 4 step 1 iter_args(%sum_2 = %sum, %off_1 = %1) -> (tile<f32, [16, 16]>, index) {\n"
      "    %2 = tile.load %x {offsets = [%off_1, 0]} : tile<f32, [16, 16]>\n"
      "    %sum_3 = tile.add %sum_2, %2 : tile<f32, [16, 16]>\n"
      "    %3 = arith.index {value = %off_1 + 16} : index\n"
      "    scf.yield %sum_3, %3\n"
      "  }\n"
      "  tile.store %sum_1, %y {offsets = [0, 0]}\n"
      "}\n");
}

TEST_CASE("frontend lower: SSA: nested loops carry a tile through both") {
  Lowered l(
      "kernel k(x: in f32[64, 64], y: out f32[16, 16]) {\n"
      "  var acc = full<f32>([16, 16], 0.0);\n"
      "  for i in 0 .. 4 {\n"
      "    for j in 0 .. 4 {\n"
      "      acc = acc + load(x, [i * 16, j * 16], [16, 16]);\n"
      "    }\n"
      "  }\n"
      "  store(y, [0, 0], acc);\n"
      "}\n");
  CHECK(l.errors() == "");
  CHECK(l.verified);
  CHECK(l.ir ==
      "func @k(%x: tensor<f32, [64, 64]> in, %y: tensor<f32, [16, 16]> out) incore {\n"
      "  %0 = arith.const {value = 0.0} : f32\n"
      "  %acc = tile.full %0 : tile<f32, [16, 16]>\n"
      "  %acc_1 = scf.for %i = 0 to 4 step 1 iter_args(%acc_2 = %acc) -> (tile<f32, [16, 16]>) {\n"
      "    %acc_3 = scf.for %j = 0 to 4 step 1 iter_args(%acc_4 = %acc_2) -> (tile<f32, [16, 16]>) {\n"
      "      %1 = tile.load %x {offsets = [%i * 16, %j * 16]} : tile<f32, [16, 16]>\n"
      "      %acc_5 = tile.add %acc_4, %1 : tile<f32, [16, 16]>\n"
      "      scf.yield %acc_5\n"
      "    }\n"
      "    scf.yield %acc_3\n"
      "  }\n"
      "  tile.store %acc_1, %y {offsets = [0, 0]}\n"
      "}\n");
}

TEST_CASE("frontend lower: SSA: if/else merges, and a var assigned in only one branch") {
  Lowered l(
      "kernel k(x: in f32[16, 16], y: out f32[16, 16], n: i32) {\n"
      "  var t = load(x, [0, 0], [16, 16]);\n"
      "  var row = 0;\n"
      "  if n > 0 {\n"
      "    t = exp(t);\n"
      "    row = 8;\n"
      "  } else {\n"
      "    t = t * 2;\n"
      "  }\n"
      "  if n == 3 {\n"
      "    t = relu(t);\n"
      "  }\n"
      "  store(y, [row, 0], t);\n"
      "}\n");
  CHECK(l.errors() == "");
  CHECK(l.verified);
  CHECK(l.ir ==
      "func @k(%x: tensor<f32, [16, 16]> in, %y: tensor<f32, [16, 16]> out, %n: i32) incore {\n"
      "  %t = tile.load %x {offsets = [0, 0]} : tile<f32, [16, 16]>\n"
      "  %t_1, %row = scf.if %n > 0 -> (tile<f32, [16, 16]>, index) {\n"
      "    %t_2 = tile.exp %t : tile<f32, [16, 16]>\n"
      "    %0 = arith.index {value = 8} : index\n"
      "    scf.yield %t_2, %0\n"
      "  } else {\n"
      "    %1 = arith.const {value = 2.0} : f32\n"
      "    %t_3 = tile.muls %t, %1 : tile<f32, [16, 16]>\n"
      "    %2 = arith.index {value = 0} : index\n"
      "    scf.yield %t_3, %2\n"
      "  }\n"
      "  %t_4 = scf.if %n == 3 -> (tile<f32, [16, 16]>) {\n"
      "    %t_5 = tile.relu %t_1 : tile<f32, [16, 16]>\n"
      "    scf.yield %t_5\n"
      "  } else {\n"
      "    scf.yield %t_1\n"
      "  }\n"
      "  tile.store %t_4, %y {offsets = [%row, 0]}\n"
      "}\n");
}

TEST_CASE("frontend lower: SSA: loop-local vars are not carried, integers with integer tiles") {
  Lowered l(
      "kernel k(x: in i32[16, 16], y: out i32[16, 16], n: i32) where S: dyn {\n"
      "  var t = load(x, [0, 0], [16, 16]);\n"
      "  for i in 0 .. S {\n"
      "    let u = t + i;\n"
      "    var local = u * n;\n"
      "    local = local - 1;\n"
      "    t = max(local, 0);\n"
      "  }\n"
      "  store(y, [0, 0], t);\n"
      "}\n");
  CHECK(l.errors() == "");
  CHECK(l.verified);
  CHECK(l.ir ==
      "func @k(%x: tensor<i32, [16, 16]> in, %y: tensor<i32, [16, 16]> out, %n: i32, %S: index) incore {\n"
      "  %t = tile.load %x {offsets = [0, 0]} : tile<i32, [16, 16]>\n"
      "  %t_1 = scf.for %i = 0 to %S step 1 iter_args(%t_2 = %t) -> (tile<i32, [16, 16]>) {\n"
      "    %0 = arith.index {value = %i} : i32\n"
      "    %u = tile.adds %t_2, %0 : tile<i32, [16, 16]>\n"
      "    %local = tile.muls %u, %n : tile<i32, [16, 16]>\n"
      "    %1 = arith.const {value = 1} : i32\n"
      "    %local_1 = tile.subs %local, %1 : tile<i32, [16, 16]>\n"
      "    %2 = arith.const {value = 0} : i32\n"
      "    %t_3 = tile.maxs %local_1, %2 : tile<i32, [16, 16]>\n"
      "    scf.yield %t_3\n"
      "  }\n"
      "  tile.store %t_1, %y {offsets = [0, 0]}\n"
      "}\n");
}
TEST_CASE("frontend lower errors: unknown names suggest a close spelling") {
  Lowered l(
      "kernel k(x: in f32[16], y: out f32[16]) {\n"
      "  let tile = load(x, [0], [16]);\n"
      "  store(y, [0], tiel);\n"
      "}\n");
  CHECK(l.ir.empty());
  CHECK(l.errors() ==
        "3:17 E0701 unknown name 'tiel'\n"
        "  2:7 note: did you mean 'tile'?\n");
}

TEST_CASE("frontend lower errors: redefinition and assignment to let") {
  Lowered l(
      "kernel k(x: in f32[16]) {\n"
      "  let a = 1;\n"
      "  let a = 2;\n"
      "  a = 3;\n"
      "}\n");
  CHECK(l.ir.empty());
  CHECK(l.errors() ==
        "3:7 E0702 'a' is already defined in this scope; choose another name\n"
        "  2:7 note: 'a' first defined here\n"
        "4:3 E0703 cannot assign to let binding 'a'; declare it with var to reassign it\n"
        "  3:7 note: 'a' declared here\n");
}

TEST_CASE("frontend lower errors: parameters, sizes and loop variables are immutable") {
  Lowered l(
      "kernel k(x: in f32[16], n: i32) where S: dyn {\n"
      "  x = 1;\n"
      "  n = 2;\n"
      "  S = 3;\n"
      "  for i in 0 .. 4 { i = 1; }\n"
      "}\n");
  CHECK(l.ir.empty());
  CHECK(l.errors() ==
        "2:3 E0704 cannot assign to tensor parameter 'x'; write tensors with store(...)\n"
        "  1:10 note: 'x' declared here\n"
        "3:3 E0704 cannot assign to parameter 'n'; copy it into a var first: var x = n;\n"
        "  1:25 note: 'n' declared here\n"
        "4:3 E0704 cannot assign to size 'S'; copy it into a var first: var x = S;\n"
        "  1:39 note: 'S' declared here\n"
        "5:21 E0703 cannot assign to loop variable 'i'; use a var declared with another name\n"
        "  5:7 note: 'i' declared here\n");
}

TEST_CASE("frontend lower errors: tile shapes must be static, positive and small enough") {
  Lowered l(
      "kernel k(x: in f32[16], y: out f32[16]) where S: dyn {\n"
      "  let t = load(x, [0], [S]);\n"
      "  let u = create<f32>([0]);\n"
      "  let v = create<f32>([4611686018427387904, 4]);\n"
      "}\n");
  CHECK(l.ir.empty());
  CHECK(l.errors() ==
        "2:25 E0709 tile shapes must be static (a tile is a fixed on-chip buffer), but 'S' is only known at run time; chunk that dimension with a loop (a static chunk size here, the run-time extent in valid = [...]), or reshape the tensor to 2-D before the kernel so that the run-time extent becomes a loop bound\n"
        "3:24 E0713 every entry of the tile shape must be positive, but this one is 0; use a positive number\n"
        "4:23 E0708 the tile shape [4611686018427387904, 4] has more elements than fit in 64 bits; use a smaller shape\n");
}

TEST_CASE("frontend lower errors: constants: overflow, division by zero, kinds") {
  Lowered l(
      "const BIG = 4611686018427387904;\n"
      "const OVER = BIG * 2;\n"
      "const Z = BIG / 0;\n"
      "const NC = true;\n");
  CHECK(l.ir.empty());
  CHECK(l.errors() ==
        "2:14 E0708 integer overflow: 4611686018427387904 * 2 does not fit in 64 bits; use smaller values\n"
        "3:11 E0714 division by zero in 'BIG / 0'; use a non-zero divisor\n"
        "4:12 E0710 constant 'NC' must be an integer or a float, but this is a boolean; use let for other values\n");
}

TEST_CASE("frontend lower errors: built-in arity, keywords and type arguments") {
  Lowered l(
      "kernel k(x: in f32[16], y: out f32[16]) {\n"
      "  let t = load(x, [0], [16], spaec = vec, valid = [16], valid = [8]);\n"
      "  let u = load(x, [0]);\n"
      "  let v = exp(t, t);\n"
      "  let w = frob(t);\n"
      "  let z = cast(t);\n"
      "}\n");
  CHECK(l.ir.empty());
  CHECK(l.errors() ==
        "2:30 E0706 'load' has no keyword argument 'spaec'; it accepts valid, space and layout\n"
        "2:57 E0706 keyword argument 'valid' is given twice; remove one\n"
        "3:11 E0705 'load' takes 3 positional arguments but 2 were given; call it as load(tensor, [offsets], [shape], valid = [...], space = ..., layout = ...)\n"
        "4:18 E0705 'exp' takes 1 positional argument but 2 were given; call it as exp(tile)\n"
        "5:11 E0711 unknown function 'frob'; docs/language.md lists the built-in functions\n"
        "6:11 E0705 'cast' needs an element type; call it as cast<dtype>(tile, rmode = ...)\n");
}

TEST_CASE("frontend lower errors: errors do not cascade through poisoned values") {
  Lowered l(
      "kernel k(x: in f32[16], y: out f32[16]) {\n"
      "  let t = load(x, [0], [16]);\n"
      "  let u = undefined + t;\n"
      "  let v = u * 2;\n"
      "  store(y, [0], v);\n"
      "  let w = load(x, [missing], [16]);\n"
      "}\n");
  CHECK(l.ir.empty());
  CHECK(l.errors() ==
        "3:11 E0701 unknown name 'undefined'; declare it before using it\n"
        "6:20 E0701 unknown name 'missing'; declare it before using it\n");
}

TEST_CASE("frontend lower errors: tiles used as integers or conditions") {
  Lowered l(
      "kernel k(x: in f32[16], y: out f32[16]) {\n"
      "  let t = load(x, [0], [16]);\n"
      "  for i in 0 .. t { }\n"
      "  if t { }\n"
      "  let n = t % 2;\n"
      "  let m = 4 + x;\n"
      "}\n");
  CHECK(l.ir.empty());
  CHECK(l.errors() ==
        "3:17 E0710 the loop end must be an integer, but this is a tile; tile data is not an integer, use an index expression here\n"
        "4:6 E0710 the if condition must be a boolean, but this is a tile; use a comparison\n"
        "5:13 E0710 '%' is not defined for tiles (their floor modulo is not built); for the remainder with the "
        "dividend's sign write fmod(t, 2)\n"
        "6:15 E0710 '+' cannot take a tensor here; arithmetic works on integers, float constants and tiles\n");
}

TEST_CASE("frontend lower errors: a loop-carried tile must keep its type") {
  Lowered l(
      "kernel k(x: in f32[16], y: out f32[16]) {\n"
      "  var t = load(x, [0], [16]);\n"
      "  for i in 0 .. 4 {\n"
      "    t = load(x, [0], [16], space = vec);\n"
      "  }\n"
      "}\n");
  CHECK(l.ir.empty());
  CHECK(l.errors() ==
        "4:5 E0712 't' is tile<f32, [16]> when the loop starts but tile<f32, [16], vec> at the end of an iteration; give it the same type on every path (cast, move or set_valid_shape)\n"
        "  2:7 note: 't' declared here\n");
}

TEST_CASE("frontend lower errors: parallel loops and float vars cannot carry values") {
  Lowered l(
      "kernel k(x: in f32[16], y: out f32[16]) {\n"
      "  var f = 1.5;\n"
      "  var s = 0;\n"
      "  parallel for i in 0 .. 4 {\n"
      "    s = s + i;\n"
      "  }\n"
      "  for i in 0 .. 4 {\n"
      "    f = 2.5;\n"
      "  }\n"
      "}\n");
  CHECK(l.ir.empty());
  CHECK(l.errors() ==
        "5:5 E0722 a parallel loop cannot reassign 's', which is declared outside it; use a serial loop or declare it inside the loop\n"
        "8:5 E0712 'f' holds a float constant, which cannot change inside a loop or branch; assign it outside, or declare a new let inside\n"
        "  2:7 note: 'f' declared here\n");
}

TEST_CASE("frontend lower errors: scalar operands, annotations and stores to inputs") {
  Lowered l(
      "kernel k(x: in f32[16], y: out f32[16]) {\n"
      "  let t = load(x, [0], [16]);\n"
      "  let u = 2.0 - t;\n"
      "  let v: tile<f16, [16]> = t;\n"
      "  let w: i32 = t;\n"
      "  store(x, [0], t);\n"
      "}\n");
  CHECK(l.ir.empty());
  CHECK(l.errors() ==
        "3:11 E0721 a scalar cannot be the left operand of '-' with a tile; write -t + s instead\n"
        "4:28 E0719 the value is tile<f32, [16]>, which does not match the annotation 'tile<f16, [16]>'; fix the annotation or convert the value\n"
        "5:16 E0719 the value is a tile, which does not match the annotation 'i32'; fix the annotation or convert the value\n"
        "6:9 E0716 'x' is an input tensor and cannot be stored to; declare it out or inout\n"
        "  1:10 note: 'x' declared here\n");
}

TEST_CASE("frontend lower errors: kernel and parameter declarations") {
  Lowered l(
      "kernel k(x: in f32[16]) { }\n"
      "kernel k(y: in f32[16]) { }\n"
      "kernel j(y: f32[16], z: out f32) { }\n");
  CHECK(l.ir.empty());
  CHECK(l.errors() ==
        "2:8 E0702 kernel 'k' is defined twice; rename one of them\n"
        "  1:8 note: 'k' first defined here\n"
        "3:10 E0717 tensor parameter 'y' has no direction; write 'y: in f32[...]' (in, out or inout)\n"
        "3:22 E0717 scalar parameter 'z' cannot have a direction; remove 'out' or give it dims to make it a tensor\n");
}

TEST_CASE("frontend lower errors: unused results, void values and bad loop steps") {
  Lowered l(
      "kernel k(x: in f32[16], y: out f32[16]) {\n"
      "  let t = load(x, [0], [16]);\n"
      "  exp(t);\n"
      "  let s = store(y, [0], t);\n"
      "  for i in 0 .. 4 step 0 { }\n"
      "  unroll for i in 0 .. ceildiv(16, 0) { }\n"
      "}\n");
  CHECK(l.ir.empty());
  CHECK(l.errors() ==
        "3:3 E0723 the result of 'exp' is discarded; bind it: let t2 = exp(t);\n"
        "4:11 E0710 store(...) has no result to bind; call it as a statement\n"
        "5:24 E0720 the loop step must be positive, but it is 0; count upwards with a positive step\n"
        "6:36 E0714 division by zero in 'ceildiv(16, 0)'; use a non-zero divisor\n");
}

TEST_CASE("frontend lower errors: op-table rules point at the offending argument") {
  Lowered l(
      "kernel k(a: in f16[16, 32], b: in f16[16, 16], h: in f32[16, 16], c: out f32[16, 16]) {\n"
      "  let l = load(a, [0, 0], [16, 32]);\n"
      "  let r = load(b, [0, 0], [16, 16]);\n"
      "  store(c, [0, 0], matmul(l, r));\n"
      "  let s = r + load(h, [0, 0], [16, 16]);\n"
      "  let e = exp(load(h, [0, 0], [16, 16], valid = [32, 16]));\n"
      "}\n");
  CHECK(l.ir.empty());
  CHECK(l.codes() ==
        "4:30 E0211\n"
        "5:15 E0201\n"
        "6:15 E0210\n");
}

TEST_CASE("frontend lower: a warning alone still produces IR") {
  Lowered l(
      "kernel k(x: in f32[16], y: out f32[16]) {\n"
      "  let t = load(x, [0], [16]);\n"
      "  exp(t);\n"
      "  store(y, [0], t);\n"
      "}\n");
  CHECK(l.errors() == "3:3 E0723 the result of 'exp' is discarded; bind it: let t2 = exp(t);\n");
  CHECK(l.verified);
  CHECK(l.ir ==
        "func @k(%x: tensor<f32, [16]> in, %y: tensor<f32, [16]> out) incore {\n"
        "  %t = tile.load %x {offsets = [0]} : tile<f32, [16]>\n"
        "  %0 = tile.exp %t : tile<f32, [16]>\n"
        "  tile.store %t, %y {offsets = [0]}\n"
        "}\n");
}

TEST_CASE("frontend lower: constants, compound assignment and integer folding") {
  Lowered l(
      "const A = 3;\n"
      "const B = A * 4 - 2;\n"
      "const HALF = 1.0 / 2;\n"
      "kernel k(x: in f32[B, 16], y: out f32[B, 16]) where S: dyn {\n"
      "  var off = 0;\n"
      "  off += ceildiv(S, 4) * 2 + B % 4 + max(A, 7) - min(A, 7);\n"
      "  var t = load(x, [off, 0], [2, 16]);\n"
      "  t *= HALF;\n"
      "  t -= 1;\n"
      "  store(y, [off / 2, 0], t);\n"
      "}\n");
  CHECK(l.errors() == "");
  CHECK(l.verified);
  CHECK(l.ir ==
        "func @k(%x: tensor<f32, [10, 16]> in, %y: tensor<f32, [10, 16]> out, %S: index) incore {\n"
        "  %t = tile.load %x {offsets = [ceildiv(%S, 4) * 2 + 6, 0]} : tile<f32, [2, 16]>\n"
        "  %0 = arith.const {value = 0.5} : f32\n"
        "  %t_1 = tile.muls %t, %0 : tile<f32, [2, 16]>\n"
        "  %1 = arith.const {value = 1.0} : f32\n"
        "  %t_2 = tile.subs %t_1, %1 : tile<f32, [2, 16]>\n"
        "  tile.store %t_2, %y {offsets = [ceildiv(%S, 4) + 3, 0]}\n"
        "}\n");
}

// A tile op needs no row in LowerBuiltins.cpp when it takes one or two tiles and nothing
// else: its Ops.def spelling is its built-in. Every tile op a .tile author calls by name has
// one, and a plain one calls exactly its op.
TEST_CASE("frontend lower: every tile op spelled as a call is a built-in, plain ones without a row of their own") {
  for (const ir::OpInfo& info : ir::allOps()) {
    const std::string spelling = info.spelling;
    const bool callName = !spelling.empty() && spelling.find_first_not_of("abcdefghijklmnopqrstuvwxyz_0123456789") == std::string::npos;
    if (info.group != ir::OpGroup::Tile || !callName) continue;
    INFO(info.name);
    const frontend::BuiltinSig* sig = frontend::findBuiltin(spelling);
    REQUIRE(sig);
    const bool plainUnary = info.numOperands == 1 && sig->kind == info.kind && sig->maxArgs == 1 &&
                            sig->keywords.empty() && !sig->takesDType;
    if (plainUnary) CHECK(sig->usage == spelling + "(tile)");
  }
  Lowered recip("kernel k(x: in f32[16, 16], y: out f32[16, 16]) {\n"
                "  store(y, [0, 0], recip(load(x, [0, 0], [16, 16])));\n}\n");
  CHECK(recip.errors().empty());
  CHECK(recip.ir.find("tile.recip") != std::string::npos);
  Lowered wrong("kernel k(x: in f32[16, 16], y: out f32[16, 16]) {\n"
                "  let t = load(x, [0, 0], [16, 16]);\n  store(y, [0, 0], row_sum(t, t));\n}\n");
  CHECK(wrong.errors().find("call it as row_sum(tile)") != std::string::npos);
}
