// The .tir printer and parser: exact round trips over modules that use every op,
// control flow with carries, dynamic valid shapes, symbolic dims, layouts,
// value-name collisions and locations; parser errors with code, line and column.
#include <doctest/doctest.h>

#include <dirent.h>

#include <fstream>
#include <set>
#include <sstream>

#include "backend/pto/PtoModel.h"
#include "ir/IRText.h"
#include "ir/OpDefs.h"
#include "test_support.h"

using namespace tilec;
using namespace tilec::ir;

namespace {

using Parsed = testing::ParsedTir;

std::unique_ptr<Parsed> parse(const std::string& text, const TargetModel& target = pto::ptoModel(pto::Arch::A2A3)) {
  return std::make_unique<Parsed>("test.tir", text, target);
}

// print(parse(text)) must be `text` itself, and reparsing the print must print it again.
void checkRoundTrip(const std::string& text, const TargetModel& target = pto::ptoModel(pto::Arch::A2A3)) {
  auto p = parse(text, target);
  for (const std::string& e : p->diagnostics(false)) MESSAGE(e);
  REQUIRE(p->module);
  CHECK(p->diagnostics(false).empty());
  std::string printed = printToString(*p->module);
  CHECK(printed == text);
  auto again = parse(printed, target);
  REQUIRE(again->module);
  CHECK(printToString(*again->module) == printed);
}

const char* kCastRows = R"(func @cast_rows(%x: tensor<bf16, [%S, 512]> in, %y: tensor<f32, [%S, 512]> out, %S: index) incore {
  scf.for %c = 0 to %S step 16 {
    %t = tile.load %x {offsets = [%c, 0]} : tile<bf16, [16, 512], valid=[min(16, %S - %c), 512]>
    %t_1 = tile.cast %t {rmode = "cast_rint"} : tile<f32, [16, 512], valid=[min(16, %S - %c), 512]>
    tile.store %t_1, %y {offsets = [%c, 0]}
  }
}
)";

const char* kQk = R"(func @qk(%q: tensor<f32, [32, 128]> in, %k: tensor<f32, [128, 32]> in, %s: tensor<f32, [32, 32]> out) incore {
  %acc = tile.create : tile<f32, [32, 32], acc>
  %acc_1 = scf.for %i = 0 to 4 step 1 iter_args(%acc_2 = %acc) -> (tile<f32, [32, 32], acc>) {
    %a = tile.load %q {offsets = [0, %i * 32]} : tile<f32, [32, 32], mat>
    %b = tile.load %k {offsets = [%i * 32, 0]} : tile<f32, [32, 32], mat>
    %a_1 = tile.move %a : tile<f32, [32, 32], left>
    %b_1 = tile.move %b : tile<f32, [32, 32], right>
    %m = tile.matmul_acc %acc_2, %a_1, %b_1 {init = %i == 0} : tile<f32, [32, 32], acc>
    scf.yield %m
  }
  tile.store %acc_1, %s {offsets = [0, 0]}
}
)";

const char* kVector = R"(func @vector(%x: tensor<f32, [16, 128]> in, %y: tensor<f32, [16, 128]> out, %alpha: f32, %n: i32) aiv {
  %t = tile.load %x {offsets = [0, 0]} : tile<f32, [16, 128], vec>
  %s = tile.muls %t, %alpha : tile<f32, [16, 128], vec>
  %m = tile.row_max %s : tile<f32, [16, 1], vec>
  %d = tile.row_expand_sub %s, %m : tile<f32, [16, 128], vec>
  %e = tile.exp %d : tile<f32, [16, 128], vec>
  %tmp = tile.create : tile<f32, [16, 128], vec>
  %sum = tile.row_sum %e, %tmp : tile<f32, [16, 1], vec>
  %mn = tile.row_min %e : tile<f32, [16, 1], vec>
  %r = tile.row_expand_div %e, %sum : tile<f32, [16, 128], vec>
  %r_1 = tile.row_expand_add %r, %mn : tile<f32, [16, 128], vec>
  %r_2 = tile.row_expand_mul %r_1, %mn : tile<f32, [16, 128], vec>
  %one = arith.const {value = 1.0} : f32
  %half = arith.const {value = -0.5} : f32
  %tiny = arith.const {value = 1e-05} : f32
  %ninf = arith.const {value = -inf} : f32
  %three = arith.const {value = 3} : i32
  %a = tile.adds %r_2, %one : tile<f32, [16, 128], vec>
  %b = tile.subs %a, %half : tile<f32, [16, 128], vec>
  %c = tile.divs %b, %tiny : tile<f32, [16, 128], vec>
  %c_1 = tile.maxs %c, %ninf : tile<f32, [16, 128], vec>
  %c_2 = tile.mins %c_1, %one : tile<f32, [16, 128], vec>
  %u = tile.add %c_2, %t : tile<f32, [16, 128], vec>
  %u_1 = tile.sub %u, %t : tile<f32, [16, 128], vec>
  %u_2 = tile.mul %u_1, %t : tile<f32, [16, 128], vec>
  %u_3 = tile.div %u_2, %t : tile<f32, [16, 128], vec>
  %u_4 = tile.max %u_3, %t : tile<f32, [16, 128], vec>
  %u_5 = tile.min %u_4, %t : tile<f32, [16, 128], vec>
  %cs = tile.col_sum %u_5 : tile<f32, [1, 128], vec>
  %w = tile.col_expand_mul %u_5, %cs : tile<f32, [16, 128], vec>
  %w_1 = tile.col_expand_add %w, %cs : tile<f32, [16, 128], vec>
  %w_2 = tile.col_expand_sub %w_1, %cs : tile<f32, [16, 128], vec>
  %w_3 = tile.col_expand_div %w_2, %cs : tile<f32, [16, 128], vec>
  %w_4 = tile.col_expand_max %w_3, %cs : tile<f32, [16, 128], vec>
  %w_5 = tile.col_expand_min %w_4, %cs : tile<f32, [16, 128], vec>
  %v = tile.log %w_5 : tile<f32, [16, 128], vec>
  %v_1 = tile.neg %v : tile<f32, [16, 128], vec>
  %v_2 = tile.sqrt %v_1 : tile<f32, [16, 128], vec>
  %v_3 = tile.rsqrt %v_2 : tile<f32, [16, 128], vec>
  %v_4 = tile.recip %v_3 : tile<f32, [16, 128], vec>
  %v_5 = tile.abs %v_4 : tile<f32, [16, 128], vec>
  %v_6 = tile.relu %v_5 : tile<f32, [16, 128], vec>
  %i = tile.cast %v_6 {rmode = "round"} : tile<i32, [16, 128], vec>
  %i_1 = tile.adds %i, %three : tile<i32, [16, 128], vec>
  %f = tile.full %n : tile<i32, [16, 128], vec>
  %g = tile.add %i_1, %f : tile<i32, [16, 128], vec>
  %h = tile.cast %g {rmode = "none"} : tile<f32, [16, 128], vec>
  %ids = tile.iota %three {descending = true} : tile<i32, [1, 16], vec>
  %am = tile.row_argmax %e : tile<i32, [16, 1], vec>
  %an = tile.row_argmin %e, %tmp : tile<i32, [16, 1], vec>
  %cm = tile.col_argmax %e, %e : tile<i32, [1, 128], vec>
  %cn = tile.col_argmin %e : tile<i32, [1, 128], vec>
  %sv = tile.slice %e {offsets = [0, 32]} : tile<f32, [16, 32], vec>
  %si = tile.full %three : tile<i32, [16, 32], vec>
  %su = tile.reinterpret_view %si : tile<u32, [16, 32], vec>
  %sp = tile.sort32 %sv, %su : tile<f32, [16, 64], vec>
  %tv = tile.pair_values %sp : tile<f32, [16, 32], vec>
  %ti = tile.pair_indices %sp : tile<i32, [16, 32], vec>
  tile.store %h, %y {offsets = [0, 0]}
}
)";

const char* kControl = R"(func @control(%x: tensor<f32, [%M, %N]> in, %y: tensor<f32, [%M, %N]> inout, %M: index, %N: index, %on: bool) incore {
  %zero = arith.const {value = 0.0} : f32
  %z = tile.full %zero : tile<f32, [8, 64]>
  %count = arith.index {value = 0} : index
  %z_1, %count_1 = scf.for %r = 0 to %M step 8 iter_args(%acc = %z, %k = %count) -> (tile<f32, [8, 64]>, index) {
    scf.for unroll %c = 0 to ceildiv(%N, 64) step 1 {
      %t = tile.load %x {offsets = [%r, %c * 64]} : tile<f32, [8, 64], valid=[min(8, %M - %r), min(64, %N - %c * 64)]>
      tile.store %t, %y {offsets = [%r, %c * 64]}
    }
    %big = scf.if %r % 16 == 0 && %on -> (tile<f32, [8, 64]>) {
      %u = tile.add %acc, %acc : tile<f32, [8, 64]>
      scf.yield %u
    } else {
      scf.yield %acc
    }
    scf.if %k > 3 {
      tile.store %big, %y {offsets = [0, 0]}
    }
    scf.if !%on {
      tile.store %acc, %y {offsets = [8, 0]}
    } else {
      tile.store %big, %y {offsets = [8, 0]}
    }
    %k_1 = arith.index {value = %k + 1} : index
    scf.yield %big, %k_1
  }
  scf.for parallel %p = 0 to 2 step 1 {
  }
  %last = arith.index {value = select(%count_1 > 2, %count_1 - 1, 0)} : index
  tile.store %z_1, %y {offsets = [%last * 8, 0]}
}
)";

// A value read from a tensor names the offset of a later load.
const char* kGather = R"(func @gather(%ids: tensor<i32, [%n]> in, %table: tensor<f32, [%v, 64]> in, %out: tensor<f32, [%n, 64]> out, %n: index, %v: index) aiv {
  scf.for %t = 0 to %n step 1 {
    %id = tensor.read %ids {offsets = [%t]} : index
    %row = tile.load %table {offsets = [%id, 0]} : tile<f32, [1, 64], vec>
    tile.store %row, %out {offsets = [%t, 0]}
  }
}
)";

const char* kCube = R"(func @cube(%a: tensor<f16, [2, 16, 32]> in, %b: tensor<f16, [2, 32, 16]> in, %o: tensor<f32, [2, 16, 16]> out, %w: tensor<i8, [16, 32]> in, %v: index) aic {
  %x = tile.load %a {offsets = [0, 0, 0]} : tile<f16, [2, 16, 32]>
  %y = tile.load %b {offsets = [0, 0, 0]} : tile<f16, [1, 32, 16]>
  %p = tile.batch_matmul %x, %y : tile<f32, [2, 16, 16]>
  %acc = tile.create : tile<f32, [2, 16, 16]>
  %p_1 = tile.batch_matmul_acc %acc, %x, %y : tile<f32, [2, 16, 16]>
  %f = tile.reshape %p_1 : tile<f32, [32, 16]>
  %t = tile.transpose %f {axes = [0, 1]} : tile<f32, [16, 32]>
  %s = tile.create : tile<f32, [32, 16]>
  %t_1 = tile.transpose %f, %s {axes = [0, 1]} : tile<f32, [16, 32]>
  %tv = tile.transpose_view %f {axes = [1, 0]} : tile<f32, [16, 32]>
  %sl = tile.slice %f {offsets = [16, 0]} : tile<f32, [16, 16]>
  %as = tile.assemble %f, %sl {offsets = [0, 0]} : tile<f32, [32, 16]>
  %sv = tile.set_valid_shape %as : tile<f32, [32, 16], valid=[min(32, %v), 16]>
  %ri = tile.reinterpret_view %sv : tile<i32, [32, 16], valid=[min(32, %v), 16]>
  %cm = tile.col_max %f : tile<f32, [1, 16]>
  %cs = tile.col_sum %f : tile<f32, [1, 16]>
  %cn = tile.col_min %f : tile<f32, [1, 16]>
  %l = tile.load %w {offsets = [0, 0]} : tile<i8, [16, 32], mat>
  %l_1 = tile.move %l : tile<i8, [16, 32], left>
  %r = tile.load %w {offsets = [0, 0]} : tile<i8, [16, 32], mat, layout=row_major/none_box/512/pad1>
  %r_1 = tile.reshape %r : tile<i8, [32, 16], mat, layout=row_major/none_box/512/pad1>
  %r_2 = tile.move %r_1 : tile<i8, [32, 16], right>
  %mm = tile.matmul %l_1, %r_2 : tile<i32, [16, 16], acc>
  %o2 = tensor.view %o : tensor<f32, [32, 16]>
  tile.store %f, %o2 {offsets = [0, 0]}
  tile.store %t, %o {offsets = [0, 0, 0], window = [1, 16, 16]}
}
)";

const char* kAttrs = R"(func @attrs(%x: tensor<f32, [4, 16, 64]> in, %y: tensor<f32, [4, 16, 64]> out) aiv {
  %t = tile.load %x {buffers = [0], offsets = [0, 0, 0], window = [2, 16, 64]} : tile<f32, [32, 64], vec>
  %u = scf.for %i = 0 to 2 step 1 iter_args(%a = %t) -> (tile<f32, [32, 64], vec>) {
    %b = tile.exp %a {buffers = [0]} : tile<f32, [32, 64], vec>
    scf.yield %b
  } {buffers = [0]}
  %w = scf.if true -> (tile<f32, [32, 64], vec>) {
    scf.yield %u
  } else {
    scf.yield %t
  } {buffers = [0]}
  tile.store %w, %y {offsets = [0, 0, 0], window = [2, 16, 64]}
}

func @empty() incore {
}

func @scalars(%n: i32, %f: f16, %k: index) aic {
  %c = arith.const {value = -9223372036854775808} : i64
  %d = arith.index {value = %k * %k - 1} : index
  %e = arith.index {value = %k < 4} : bool
}

func @moves(%x: tensor<i32, [64]> inout, %n: index) aiv {
  dma.fill %x {bd = 2, channel = [0, %n], offset = 0, sizes = [64], strides = [1], token = true}
  dma.drain %x {channel = [1, 0], offset = %n, sizes = [2, 4], strides = [8, 1]}
  dma.wait {channel = [1, 0], drain = true}
  seq.require {cond = %n % 4 == 0, message = "n is a multiple of 4"}
  seq.raw {args = [4096, %n], data = [1, 2], op = "blockwrite"}
}

func @regions(%x: tensor<f32, [32, 64]> in, %y: tensor<f32, [32, 64]> out, %j: index) incore {
  %s = tile.load %x {offsets = [0, 0]} : tile<f32, [32, 64]>
  %p = region.part %s {grid = [1, 4], index = [0, %j]} : tile<f32, [32, 16]>
  %a = region.array {grid = [1, 2]} : tile<f32, [32, 32]>
  %a_1 = region.insert %a, %p {grid = [1, 2], index = [0, 0], phase = "init"} : tile<f32, [32, 32]>
  %a_2 = scf.for %i = 1 to 2 step 1 iter_args(%b = %a_1) -> (tile<f32, [32, 32]>) {
    %b_1 = region.insert %b, %p {grid = [1, 2], index = [0, %i]} : tile<f32, [32, 32]>
    scf.yield %b_1
  }
  %w = region.assembly %a_2 {grid = [1, 2]} : tile<f32, [32, 32]>
  tile.store %w, %y {offsets = [0, 0]}
}
)";

// Compare and select: masks (bool tiles) from tile-tile and tile-scalar comparisons, where
// with and without its scratch tile; lower and upper triangular tiles.
const char* kCompare = R"(func @compare(%x: tensor<f32, [16, 32]> in, %y: tensor<f32, [16, 32]> out) aiv {
  %t = tile.load %x {offsets = [0, 0]} : tile<f32, [16, 32], vec>
  %zero = arith.const {value = 0.0} : f32
  %m = tile.cmps %t, %zero {cmp = "ge"} : tile<bool, [16, 32], vec>
  %n = tile.cmp %t, %t {cmp = "ne"} : tile<bool, [16, 32], vec>
  %a = tile.sel %m, %t, %t : tile<f32, [16, 32], vec>
  %tmp = tile.create : tile<u32, [1, 16], vec>
  %b = tile.sel %n, %a, %t, %tmp : tile<f32, [16, 32], vec>
  %d = arith.const {value = -2} : i32
  %l = tile.tri %d : tile<f32, [16, 32], vec>
  %u = tile.tri %d {upper = true} : tile<f32, [16, 32], vec>
  %c = tile.mul %l, %u : tile<f32, [16, 32], vec>
  %e = tile.add %b, %c : tile<f32, [16, 32], vec>
  tile.store %e, %y {offsets = [0, 0]}
}
)";

// Bitwise and shifts: every op, tile-tile and tile-scalar, xor and xors with and without
// their scratch tile.
const char* kBitwise = R"(func @bitwise(%x: tensor<i16, [16, 32]> in, %y: tensor<i16, [16, 32]> out) aiv {
  %t = tile.load %x {offsets = [0, 0]} : tile<i16, [16, 32], vec>
  %k = arith.const {value = 3} : i16
  %a = tile.and %t, %t : tile<i16, [16, 32], vec>
  %b = tile.or %a, %t : tile<i16, [16, 32], vec>
  %c = tile.xor %b, %t : tile<i16, [16, 32], vec>
  %tmp = tile.create : tile<i16, [16, 32], vec>
  %d = tile.xor %c, %t, %tmp : tile<i16, [16, 32], vec>
  %e = tile.shl %d, %t : tile<i16, [16, 32], vec>
  %f = tile.shr %e, %t : tile<i16, [16, 32], vec>
  %g = tile.not %f : tile<i16, [16, 32], vec>
  %h = tile.ands %g, %k : tile<i16, [16, 32], vec>
  %i = tile.ors %h, %k : tile<i16, [16, 32], vec>
  %j = tile.xors %i, %k : tile<i16, [16, 32], vec>
  %l = tile.xors %j, %k, %tmp : tile<i16, [16, 32], vec>
  %m = tile.shls %l, %k : tile<i16, [16, 32], vec>
  %n = tile.shrs %m, %k : tile<i16, [16, 32], vec>
  tile.store %n, %y {offsets = [0, 0]}
}
)";

// Remainder and leaky relu: fmod of two tiles and with a scalar (f32 and i32), lrelu with
// its f32 slope on an f16 tile.
const char* kRemainder = R"(func @remainder(%x: tensor<f32, [16, 32]> in, %n: tensor<i32, [16, 32]> in, %h: tensor<f16, [16, 32]> in, %y: tensor<f32, [16, 32]> out) aiv {
  %t = tile.load %x {offsets = [0, 0]} : tile<f32, [16, 32], vec>
  %k = arith.const {value = 2.5} : f32
  %a = tile.fmod %t, %t : tile<f32, [16, 32], vec>
  %b = tile.fmods %a, %k : tile<f32, [16, 32], vec>
  %i = tile.load %n {offsets = [0, 0]} : tile<i32, [16, 32], vec>
  %three = arith.const {value = 3} : i32
  %c = tile.fmods %i, %three : tile<i32, [16, 32], vec>
  %d = tile.fmod %c, %i : tile<i32, [16, 32], vec>
  %g = tile.load %h {offsets = [0, 0]} : tile<f16, [16, 32], vec>
  %s = arith.const {value = 0.125} : f32
  %e = tile.lrelu %g, %s : tile<f16, [16, 32], vec>
  tile.store %b, %y {offsets = [0, 0]}
}
)";

// Prefix scans: each kind along each axis, on floats and integers.
const char* kScan = R"(func @scan(%x: tensor<f32, [16, 32]> in, %y: tensor<f32, [16, 32]> out, %i: tensor<i32, [16, 32]> in, %j: tensor<i32, [16, 32]> out) aiv {
  %t = tile.load %x {offsets = [0, 0]} : tile<f32, [16, 32], vec>
  %a = tile.scan %t {axis = 1, kind = "add"} : tile<f32, [16, 32], vec>
  %b = tile.scan %a {axis = 0, kind = "max"} : tile<f32, [16, 32], vec>
  %c = tile.scan %b {axis = 1, kind = "min"} : tile<f32, [16, 32], vec>
  tile.store %c, %y {offsets = [0, 0]}
  %n = tile.load %i {offsets = [0, 0]} : tile<i32, [16, 32], vec>
  %s = tile.scan %n {axis = 0, kind = "add"} : tile<i32, [16, 32], vec>
  tile.store %s, %j {offsets = [0, 0]}
}
)";

// Gather by an index tile: a row gather, a one-row source for every index row, the flat
// form lower-gather writes (row_stride) with its scratch tile, and 1-D tiles.
const char* kTakeAlong = R"(func @take_along(%x: tensor<f32, [16, 64]> in, %i: tensor<i32, [16, 32]> in, %y: tensor<f32, [16, 32]> out, %v: tensor<f16, [64]> in, %w: tensor<i32, [8]> in, %z: tensor<f16, [8]> out) aiv {
  %t = tile.load %x {offsets = [0, 0]} : tile<f32, [16, 64], vec>
  %n = tile.load %i {offsets = [0, 0]} : tile<i32, [16, 32], vec>
  %a = tile.gather %t, %n : tile<f32, [16, 32], vec>
  %r = tile.load %x {offsets = [0, 0]} : tile<f32, [1, 64], vec>
  %b = tile.gather %r, %n : tile<f32, [16, 32], vec>
  %s = tile.create : tile<i32, [16, 32], vec>
  %c = tile.gather %t, %n, %s {row_stride = 64} : tile<f32, [16, 32], vec>
  %d = tile.add %a, %b : tile<f32, [16, 32], vec>
  %e = tile.add %d, %c : tile<f32, [16, 32], vec>
  tile.store %e, %y {offsets = [0, 0]}
  %h = tile.load %v {offsets = [0]} : tile<f16, [64], vec>
  %k = tile.load %w {offsets = [0]} : tile<i32, [8], vec>
  %g = tile.gather %h, %k : tile<f16, [8], vec>
  tile.store %g, %z {offsets = [0]}
}
)";

// A split kernel: its pipes, then a section per core passing tiles both ways in a loop.
const char* kSplit = R"(func @split(%a: tensor<f16, [16, 16]> in, %y: tensor<f32, [16, 16]> out) mix {
  pipe.init {pipe = 0, slot_bytes = 1024, slots = 2}
  pipe.init {pipe = 1, slot_bytes = 512, slots = 2}
  core.cube {
    %t = tile.load %a {offsets = [0, 0]} : tile<f16, [16, 16], mat>
    %l = tile.move %t : tile<f16, [16, 16], left>
    scf.for %i = 0 to 2 step 1 {
      %p = pipe.pop {pipe = 1} : tile<f16, [16, 16], mat>
      %r = tile.move %p : tile<f16, [16, 16], right>
      pipe.free {pipe = 1}
      %m = tile.matmul %l, %r : tile<f32, [16, 16], acc>
      pipe.push %m {pipe = 0}
    }
  }
  core.vector {
    %v = tile.load %a {offsets = [0, 0]} : tile<f16, [16, 16], vec>
    scf.for %i_1 = 0 to 2 step 1 {
      pipe.push %v {pipe = 1}
      %s = pipe.pop {pipe = 0} : tile<f32, [16, 16], vec>
      tile.store %s, %y {offsets = [0, 0]}
      pipe.free {pipe = 0}
    }
  }
}
)";

// A launch of 6 blocks of 2 sub-blocks: the queries, and a loop split over them cyclically.
const char* kLaunch = R"(func @rows(%x: tensor<f32, [%M, 64]> in, %y: tensor<f32, [%M, 64]> out, %M: index) aiv blocks(6, 2) {
  %b = core.block_idx : index
  %n = core.block_num : index
  %s = core.subblock_idx : index
  %c = core.subblock_num : index
  scf.for parallel_cyclic %r = %b * %c + %s to %M step %n * %c * 16 {
    %t = tile.load %x {offsets = [%r, 0]} : tile<f32, [16, 64], valid=[min(16, %M - %r), 64], vec>
    tile.store %t, %y {offsets = [%r, 0]}
  }
}
)";

}  // namespace

TEST_CASE("round trip: load, cast and store in a loop with a dynamic valid shape") { checkRoundTrip(kCastRows); }
TEST_CASE("round trip: a loop-carried accumulator with matmul_acc") { checkRoundTrip(kQk); }
TEST_CASE("round trip: every vector op") { checkRoundTrip(kVector); }
TEST_CASE("round trip: nested loops, ifs, index carries and loop modes") { checkRoundTrip(kControl); }
TEST_CASE("round trip: cube ops, views, layouts and tensor views") { checkRoundTrip(kCube); }
TEST_CASE("round trip: a tensor element as a load offset") { checkRoundTrip(kGather); }
TEST_CASE("round trip: buffers and window attributes, several functions, regions") { checkRoundTrip(kAttrs); }
TEST_CASE("round trip: comparisons and where") { checkRoundTrip(kCompare); }
TEST_CASE("round trip: bitwise and shift ops") { checkRoundTrip(kBitwise); }
TEST_CASE("round trip: fmod and lrelu") { checkRoundTrip(kRemainder); }
TEST_CASE("round trip: prefix scans") { checkRoundTrip(kScan); }
TEST_CASE("round trip: gather by an index tile") { checkRoundTrip(kTakeAlong); }
TEST_CASE("round trip: a kernel split between the cores") { checkRoundTrip(kSplit); }
TEST_CASE("round trip: the launch and a cyclic parallel loop") { checkRoundTrip(kLaunch); }

TEST_CASE("every op kind appears in a round-trip module") {
  // Counted from the parsed modules, so "tile.add" inside "tile.adds" does not count.
  std::set<OpKind> seen;
  for (const char* text :
       {kCastRows, kQk, kVector, kControl, kCube, kGather, kAttrs, kCompare, kBitwise, kRemainder, kScan, kTakeAlong, kSplit, kLaunch}) {
    auto p = parse(text);
    REQUIRE(p->module);
    for (const auto& f : p->module->functions()) f->walk([&](Op& op) { seen.insert(op.kind()); });
  }
  for (const OpInfo& info : allOps()) CHECK_MESSAGE(seen.count(info.kind), info.name);
}

TEST_CASE("layouts print only when they differ from the target's default") {
  const char* a5 = R"(func @k(%x: tensor<f16, [16, 16]> in) aic {
  %a = tile.load %x {offsets = [0, 0]} : tile<f16, [16, 16], mat>
  %l = tile.move %a : tile<f16, [16, 16], left>
  %l_1 = tile.move %a : tile<f16, [16, 16], left, layout=row_major/row_major/512/pad0>
}
)";
  checkRoundTrip(a5, pto::ptoModel(pto::Arch::A5));
  auto p = parse(a5, pto::ptoModel(pto::Arch::A5));
  REQUIRE(p->module);
  const auto& ops = p->module->functions()[0]->body().ops();
  const Type& left = (*std::next(ops.begin()))->result()->type();
  CHECK(left.layout() == defaultLayout(pto::Left, {16, 16}, &pto::ptoModel(pto::Arch::A5)));
  CHECK(left.layout().blayout == BLayout::ColMajor);
  // Parsed for a2a3, the row-major left layout is the default and prints implied.
  auto a2a3 = parse(a5, pto::ptoModel(pto::Arch::A2A3));
  REQUIRE(a2a3->module);
  std::string printed = printToString(*a2a3->module);
  CHECK(printed.find("%l = tile.move %a : tile<f16, [16, 16], left>") != std::string::npos);
  CHECK(printed.find("%l_1 = tile.move %a : tile<f16, [16, 16], left>") != std::string::npos);
}

TEST_CASE("value names: hints made unique in program order, numbers otherwise") {
  Module m(pto::ptoModel(pto::Arch::A2A3));
  Function& f = m.addFunction("names", ir::KernelKind(pto::Kernel::Aiv));
  Value* x = f.addParam(Type::tensor(DType::F32, {Expr::constant(16), Expr::constant(16)}), "x", ParamDir::In);
  Type t = Type::tile(DType::F32, {16, 16}, {}, pto::Vec, std::nullopt, &m.target());
  auto load = [&](const std::string& hint) {
    Op* op = f.body().create(OpKind::Load, {});
    op->addOperand(x);
    op->set(attr::offsets, std::vector<Expr>{Expr::constant(0), Expr::constant(0)});
    return op->addResult(t, hint);
  };
  load("acc");
  load("acc");
  load("acc_1");
  load("");
  load("7");
  load("a b");
  load("acc");
  ValueNames names(f);
  std::vector<std::string> got;
  for (const auto& op : f.body().ops()) got.push_back(names(op->result()));
  CHECK(got == std::vector<std::string>{"acc", "acc_1", "acc_1_1", "0", "1", "a_b", "acc_2"});
  CHECK(names(x) == "x");
  std::string text = printToString(m);
  auto p = parse(text);
  REQUIRE(p->module);
  CHECK(printToString(*p->module) == text);
  CHECK(text.find("%acc_1_1 = tile.load %x") != std::string::npos);
  CHECK(text.find("%0 = tile.load %x") != std::string::npos);
}

TEST_CASE("loop modes: keywords for the known ones, the attribute dictionary otherwise") {
  const char* text = "func @k() incore {\n  scf.for %i = 0 to 4 step 1 {\n  }\n}\n";
  auto p = parse(text);
  REQUIRE(p->module);
  Op& loop = *p->module->functions()[0]->body().ops().front();
  loop.set(attr::mode, LoopMode::Serial);
  CHECK(printToString(*p->module) == text);
  loop.set(attr::mode, LoopMode::Parallel);
  CHECK(printToString(*p->module) == "func @k() incore {\n  scf.for parallel %i = 0 to 4 step 1 {\n  }\n}\n");
  loop.attrs()["mode"] = std::string("zigzag");  // ill-typed on purpose
  std::string odd = printToString(*p->module);
  CHECK(odd == "func @k() incore {\n  scf.for %i = 0 to 4 step 1 {\n  } {mode = \"zigzag\"}\n}\n");
  checkRoundTrip(odd);
}

TEST_CASE("scf.if without results omits an empty else, an implicit yield is added") {
  auto p = parse(R"(func @k(%i: index) incore {
  scf.if %i == 0 {
  }
}
)");
  REQUIRE(p->module);
  const Op& op = *p->module->functions()[0]->body().ops().front();
  REQUIRE(op.numRegions() == 2);
  CHECK(op.body(0).terminator() != nullptr);
  CHECK(op.body(1).terminator() != nullptr);
}

TEST_CASE("locations print and parse back when the file is loaded") {
  SourceManager sm;
  std::string text = "func @k(%i: index) incore {\n  %a = arith.index {value = %i + 1} : index\n}\n";
  FileId f = sm.addBuffer("loc.tir", text);
  DiagnosticEngine diags(sm);
  auto m = parseModule(sm, f, diags, pto::ptoModel(pto::Arch::A2A3));
  REQUIRE(m);
  PrintOptions opts;
  opts.locations = true;
  opts.sources = &sm;
  std::string printed = printToString(*m, opts);
  CHECK(printed == "func @k(%i: index) incore {\n  %a = arith.index {value = %i + 1} : index loc(\"loc.tir\":2:3)\n}\n");
  FileId f2 = sm.addBuffer("loc2.tir", printed);
  auto m2 = parseModule(sm, f2, diags, pto::ptoModel(pto::Arch::A2A3));
  REQUIRE(m2);
  const Op& op = *m2->functions()[0]->body().ops().front();
  CHECK(op.loc().file == f);
  CHECK(printToString(*m2, opts) == printed);
}

TEST_CASE("parsed ops carry ranges into the .tir file") {
  auto p = parse(kCastRows);
  REQUIRE(p->module);
  const Op& loop = *p->module->functions()[0]->body().ops().front();
  LineCol lc = p->sources.lineCol(loop.loc().file, loop.loc().begin);
  CHECK(lc.line == 2);
  CHECK(lc.column == 3);
  const Op& load = *loop.body().ops().front();
  lc = p->sources.lineCol(load.loc().file, load.loc().begin);
  CHECK(lc.line == 3);
  CHECK(lc.column == 5);
  CHECK(p->sources.contents(load.loc().file).substr(load.loc().begin, load.loc().end - load.loc().begin) ==
        "%t = tile.load %x {offsets = [%c, 0]} : tile<bf16, [16, 512], valid=[min(16, %S - %c), 512]>");
}

// ---- errors ----

namespace {
std::vector<std::string> errorsOf(const std::string& text) {
  auto p = parse(text);
  CHECK(!p->module);
  return p->diagnostics(false);
}
}  // namespace

TEST_CASE("parse error: unknown op") {
  auto e = errorsOf("func @k() incore {\n  %a = tile.frobnicate : index\n}\n");
  REQUIRE(e.size() == 1);
  CHECK(e[0] == "2:8: E0301: unknown op 'tile.frobnicate'; see docs/ir.md for the op list");
}

TEST_CASE("parse error: undefined value, and recovery continues with the next op") {
  auto e = errorsOf(
      "func @k(%i: index) incore {\n  %a = arith.index {value = %j + 1} : index\n  %b = arith.index {value = %a} : index\n"
      "  %c = arith.index {value = %q} : index\n}\n");
  REQUIRE(e.size() == 2);
  CHECK(e[0] == "2:29: E0301: use of undefined value '%j'; define it before this use");
  CHECK(e[1] == "4:29: E0301: use of undefined value '%q'; define it before this use");
}

TEST_CASE("parse error: value defined in a finished region") {
  auto e = errorsOf(
      "func @k() incore {\n  scf.for %i = 0 to 4 step 1 {\n  }\n  %a = arith.index {value = %i} : index\n}\n");
  REQUIRE(e.size() == 1);
  CHECK(e[0] == "4:29: E0301: value '%i' is not visible here; it is defined inside a region that has ended");
}

TEST_CASE("parse error: iter_args type mismatch") {
  auto e = errorsOf(
      "func @k() incore {\n  %a = tile.create : tile<f32, [16, 16]>\n"
      "  %r = scf.for %i = 0 to 4 step 1 iter_args(%x = %a) -> (tile<f16, [16, 16]>) {\n    scf.yield %x\n  }\n}\n");
  REQUIRE(e.size() == 1);
  CHECK(e[0] == "3:50: E0301: initial value %a of iter_arg %x has type tile<f32, [16, 16]> but the loop carries "
                "tile<f16, [16, 16]>; make the types equal");
}

TEST_CASE("parse error: a failed header skips its region without cascading") {
  auto e = errorsOf(
      "func @k() incore {\n  %r = scf.for %i = 0 to 4 stride 1 {\n    %a = arith.index {value = %i} : index\n  }\n"
      "  %b = arith.index {value = %r} : index\n  %c = arith.index {value = 1 +} : index\n}\n");
  REQUIRE(e.size() == 2);
  CHECK(e[0] == "2:28: E0301: expected 'step' after the upper bound, found 'stride'");
  CHECK(e[1] == "6:32: E0301: expected an expression, found '}'");
}

TEST_CASE("parse errors: types, attributes, counts and literals") {
  struct Case {
    const char* body;
    const char* error;
  };
  const Case cases[] = {
      {"  %a = tile.create : tile<f99, [16]>", "2:27: E0301: expected a dtype (bool, i8, i16, i32, i64, u8, u16, u32, "
                                              "f16, bf16, f32, index), found 'f99'"},
      {"  %a = tile.create : tile<f32, [0, 16]>",
       "2:32: E0301: tile dimensions must be positive, but the shape is [0, 16]; put a runtime extent in valid=[...]"},
      {"  %a = tile.create : tile<f32, [16, 16], valid=[16]>",
       "2:42: E0301: valid shape has 1 extents but the tile has rank 2; give one extent per axis"},
      {"  %a = tile.create : tile<f32, [16, 16], purple>",
       "2:42: E0301: expected valid=[...], a memory space or layout=... in the tile type, found 'purple'"},
      {"  %a = tile.create {color = 1} : tile<f32, [16, 16]>",
       "2:21: E0301: tile.create has no attribute 'color'; remove it (see docs/ir.md)"},
      {"  %a = arith.index {value = 1, value = 2} : index",
       "2:32: E0301: attribute 'value' is given twice; keep one"},
      {"  %a = arith.index {value = 99999999999999999999} : index",
       "2:29: E0301: integer 99999999999999999999 does not fit in 64 bits; use a smaller value"},
      {"  %a = arith.index {value = 1 < 2 < 3} : index", "2:35: E0301: comparisons do not chain; parenthesize one of them"},
      {"  %a = arith.index {value = foo(1)} : index",
       "2:29: E0301: unknown expression function 'foo'; use min, max, ceildiv or select"},
      {"  %a = arith.index {value = min(1)} : index", "2:29: E0301: min takes at least 2 arguments but has 1; fix the call"},
      {"  %a = tile.create : tile<f32, [16, 16]>\n  %b = tile.add %a : tile<f32, [16, 16]>",
       "3:8: E0301: tile.add takes 2 operand(s) but has 1; pass exactly that many"},
      {"  %a = tile.create", "2:8: E0301: tile.create names 1 result(s) but gives 0 type(s); give one type per result after ':'"},
      {"  tile.create : tile<f32, [16, 16]>", "2:3: E0301: tile.create produces 1 result(s) but 0 are named; name exactly that many"},
      {"  %a = tile.create : tile<f32, [16, 16]>\n  %e = arith.index {value = %a + 1} : index",
       "3:29: E0301: '%a' is tile<f32, [16, 16]>, but only index, integer and bool values can appear in an expression; "
       "use an integer value"},
      {"  %a = arith.index {value = 1} : index %a", "2:40: E0301: expected the end of the op, found '%a'; put each op on its own line"},
      {"  %a = arith.index {value = 1} : index ~", "2:40: E0301: unexpected character '~' in IR text; remove it"},
      {"  %a = arith.const {value = \"x} : index", "2:29: E0301: string is not closed; end it with '\"'"},
      {"  %a = tile.create : tile<f32, [16, 16], layout=diagonal/none_box/512/pad0>",
       "2:49: E0301: expected row_major or col_major, found 'diagonal'"},
  };
  for (const Case& c : cases) {
    auto e = errorsOf(std::string("func @k() incore {\n") + c.body + "\n}\n");
    CAPTURE(c.body);
    REQUIRE(!e.empty());
    CHECK(e[0] == c.error);
  }
}

TEST_CASE("parse error: redefinition points at the first definition") {
  auto p = parse("func @k() incore {\n  %a = arith.index {value = 1} : index\n  %a = arith.index {value = 2} : index\n}\n");
  CHECK(!p->module);
  REQUIRE(p->diags.all().size() == 1);
  const Diagnostic& d = p->diags.all()[0];
  CHECK(p->diagnostics(false)[0] == "3:3: E0301: value '%a' is defined twice; give it another name");
  REQUIRE(d.notes.size() == 1);
  CHECK(p->sources.lineCol(d.notes[0].range.file, d.notes[0].range.begin).line == 2);
}

TEST_CASE("parse errors: function structure") {
  CHECK(errorsOf("kernel @k() incore {\n}\n")[0] ==
        "1:1: E0301: expected 'func' to start a function, found 'kernel'; a .tir file is a list of functions");
  CHECK(errorsOf("func @k() vector {\n}\n")[0] ==
        "1:11: E0301: expected the function kind (incore, aic, aiv or mix), found 'vector'");
  CHECK(errorsOf("func @k() incore {\n\nfunc @j() incore {\n}\n")[0] ==
        "3:1: E0301: expected '}' to close the function body, found 'func'");
  CHECK(errorsOf("func @k() incore {\n}\nfunc @k() incore {\n}\n")[0] ==
        "3:6: E0301: function '@k' is defined twice; rename one");
  CHECK(errorsOf("func @k(%x: tensor<f32, [16]> sideways) incore {\n}\n")[0] ==
        "1:31: E0301: expected in, out, inout or the end of the parameter, found 'sideways'");
  // Two broken functions: both reported.
  auto e = errorsOf("func @a() incore {\n  %x = bogus.op : index\n}\nfunc @b() incore {\n  %y = bogus.op : index\n}\n");
  CHECK(e.size() == 2);
}

// Every .tir file under tests/lit parses and round-trips exactly (when it parses at all:
// negative parser tests are expected to fail).
TEST_CASE("lit .tir files round trip") {
  std::vector<std::string> files;
  std::string self = __FILE__;  // <source>/tests/unit/ir_text_test.cpp
  std::vector<std::string> dirs{self.substr(0, self.rfind("/unit/")) + "/lit"};
  while (!dirs.empty()) {
    std::string dir = dirs.back();
    dirs.pop_back();
    DIR* d = opendir(dir.c_str());
    if (!d) continue;
    while (dirent* ent = readdir(d)) {
      std::string n = ent->d_name;
      if (n == "." || n == "..") continue;
      std::string path = dir + "/" + n;
      if (ent->d_type == DT_DIR)
        dirs.push_back(path);
      else if (n.size() > 4 && n.substr(n.size() - 4) == ".tir")
        files.push_back(path);
    }
    closedir(d);
  }
  for (const std::string& path : files) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    auto p = parse(ss.str());
    if (!p->module) continue;
    std::string printed = printToString(*p->module);
    auto again = parse(printed);
    CAPTURE(path);
    REQUIRE(again->module);
    CHECK(printToString(*again->module) == printed);
  }
}
