// What a compiled runtime sequence does, checked twice: the interpreter runs the sequence's
// IR as the source wrote it, before any pass re-lays or splits a pattern (the device a
// loopback), and the TXN executor runs the stream the static writer made
// from it against byte buffers holding the same integer inputs (32, 16 and 8 bits); the
// outputs must agree byte for byte. This pins the meaning of the encoder's words (strides stored minus one, the
// iteration dimension, linear runs, offsets in the address patch), not just their values.
#include <doctest/doctest.h>

#include <sstream>

#include "backend/aie/AieTargets.h"
#include "backend/aie/TxnExecutor.h"
#include "backend/aie/TxnFormat.h"
#include "frontend/Ast.h"
#include "frontend/Frontend.h"
#include "interp/Interpreter.h"
#include "passes/PassManager.h"

using namespace tilec;

namespace {

// `v` as an element of the integer type `d`: its low bytes, sign-extended when signed.
int64_t asElement(ir::DType d, int64_t v) {
  const unsigned bits = 8 * ir::dtypeBytes(d);
  const uint64_t low = uint64_t(v) & ((uint64_t(1) << bits) - 1);
  const bool negative = ir::isSigned(d) && (low >> (bits - 1)) != 0;
  return negative ? int64_t(low) - (int64_t(1) << bits) : int64_t(low);
}

// Compiles `text` for npu1 and checks the stream against the interpreter on distinct
// inputs (outputs start as zeros). Tensors hold integers of at most 32 bits, stored
// little-endian in the executor's buffers, so sub-word elements share DMA words.
// `task`: the stream is written as mlir-aie's dma_configure_task path writes it.
void checkAgainstInterpreter(const std::string& text, bool task = false) {
  SourceManager sources;
  DiagnosticEngine diags(sources);
  auto ast = frontend::parse(sources, sources.addBuffer("seq.tile", text), diags);
  REQUIRE(ast);
  const target::TargetDesc& t = *aie::npuTargets().front();
  std::unique_ptr<ir::Module> m = frontend::lower(*ast, diags, *t.model);
  REQUIRE(m);
  // The interpreter runs the source's patterns, before any pass re-lays or splits them.
  std::unique_ptr<ir::Module> source = frontend::lower(*ast, diags, *t.model);
  REQUIRE(source);
  PassContext ctx{diags};
  PassManager pm(ctx, PropSSA, t.passes);
  for (const std::string& p : t.pipeline) pm.addPass(t.passes.create(p));
  REQUIRE(pm.run(*m));
  OutputBuffer binary;
  REQUIRE(aie::emitTxn(*m, binary, diags, {{aie::kDdrFold, true}, {aie::kDmaTask, task}}));
  const std::string bytes = binary.str();
  std::optional<std::vector<uint32_t>> words = aie::toWords(std::vector<uint8_t>(bytes.begin(), bytes.end()));
  aie::TxnError e;
  std::optional<aie::TxnStream> stream = aie::decodeTxn(*words, e);
  REQUIRE(stream);

  const ir::Function& f = *source->functions().front();
  std::vector<interp::RtValue> args;
  std::vector<std::vector<uint8_t>> buffers;
  for (unsigned i = 0; i < f.numParams(); ++i) {
    const ir::Type& type = f.param(i)->type();
    REQUIRE(ir::isInteger(type.dtype()));
    REQUIRE(ir::dtypeBytes(type.dtype()) <= 4);
    int64_t n = 1;
    for (const ir::Expr& d : type.dims()) n *= d.constValue();
    interp::Tensor tensor{std::make_shared<interp::TensorData>(), {n}};
    tensor.data->dtype = type.dtype();
    std::vector<uint8_t> buffer;
    for (int64_t k = 0; k < n; ++k) {
      const int64_t v = f.paramDir(i) == ir::ParamDir::Out ? 0 : asElement(type.dtype(), 1000 * (i + 1) + k * 37);
      interp::Num num;
      num.i = v;
      tensor.data->elems.push_back(num);
      for (unsigned b = 0; b < ir::dtypeBytes(type.dtype()); ++b) buffer.push_back(uint8_t(uint64_t(v) >> (8 * b)));
    }
    args.push_back(tensor);
    buffers.push_back(std::move(buffer));
  }
  interp::Interpreter(f).run(args);
  const std::string why = aie::executeTxn(*stream, buffers);
  INFO(why);
  REQUIRE(why.empty());
  for (unsigned i = 0; i < f.numParams(); ++i) {
    const ir::DType dtype = f.param(i)->type().dtype();
    const size_t bytes = ir::dtypeBytes(dtype);
    const auto& elems = std::get<interp::Tensor>(args[i]).data->elems;
    for (size_t k = 0; k < elems.size(); ++k) {
      uint64_t v = 0;
      for (size_t b = 0; b < bytes; ++b) v |= uint64_t(buffers[i][bytes * k + b]) << (8 * b);
      CAPTURE(i);
      CAPTURE(k);
      REQUIRE(asElement(dtype, int64_t(v)) == asElement(dtype, elems[k].i));
    }
  }
}

}  // namespace

TEST_CASE("aie executor: a passthrough moves every element") {
  checkAgainstInterpreter(R"(
sequence kernel k(x: in i32[1024], y: out i32[1024]) {
  fill(x, column = 0, channel = 0);
  drain(y, column = 0, channel = 0);
})");
}

TEST_CASE("aie executor: group tiles in every walk order land where the interpreter puts them") {
  for (const char* flags : {"", ", tile_col_major = true", ", group_col_major = true",
                            ", tile_col_major = true, group_col_major = true", ", iter_col_major = true"}) {
    CAPTURE(flags);
    checkAgainstInterpreter(std::string(R"(
sequence kernel k(x: in i32[48, 32], y: out i32[1536]) {
  let t = group_tiler(x, [4, 2], [3, 4])") + flags + R"();
  for i in 0 .. tile_count(t) {
    fill(tile_at(t, i), column = 1, channel = 1);
  }
  drain(y, column = 1, channel = 1);
})");
  }
}

TEST_CASE("aie executor: rows longer than a descriptor's 1023 words are split and still land in order") {
  checkAgainstInterpreter(R"(
sequence kernel k(x: in i32[4, 4096], y: out i32[3, 2048]) {
  fill(tap(x, 0, [3, 2048], [5000, 1]), column = 0, channel = 0);
  drain(y, column = 0, channel = 0);
})");
  checkAgainstInterpreter(R"(
sequence kernel k(x: in i32[2, 3000], y: out i32[4, 2, 1500]) {
  fill(tap(x, 0, [4, 2, 1500], [0, 3000, 1]), column = 1, channel = 0);
  drain(y, column = 1, channel = 0);
})");
}

TEST_CASE("aie executor: walks past one descriptor's plain layout, re-laid in one or split over several") {
  // 1024 rows: d1 holds 512 of them, d2 the 2 halves (one descriptor).
  checkAgainstInterpreter(R"(
sequence kernel k(x: in i32[1024, 128], y: out i32[1024, 64]) {
  fill(tap(x, 0, [1024, 64], [128, 1]), column = 0, channel = 0);
  drain(y, column = 0, channel = 0);
})");
  // A 5000-word run inside two strided dimensions: 5 runs of 1000 (one descriptor).
  checkAgainstInterpreter(R"(
sequence kernel k(x: in i32[40000], y: out i32[30000]) {
  fill(tap(x, 8, [2, 3, 5000], [20000, 6000, 1]), column = 0, channel = 1);
  drain(y, column = 0, channel = 1);
})");
  // A run of 5003 words (a prime) there: a descriptor per step of the outer dimension.
  checkAgainstInterpreter(R"(
sequence kernel k(x: in i32[40000], y: out i32[30018]) {
  fill(tap(x, 4, [2, 3, 5003], [20000, 6003, 1]), column = 1, channel = 0);
  drain(y, column = 1, channel = 0);
})");
  // 20000 rows of 2 words fit one descriptor (20 x 1000 rows); 100 x 1100 rows do not (the
  // iteration holds 64 at most): two descriptors, 64 and 36 steps, for the fill and for the
  // drain (whose pieces each report completion and are waited for).
  checkAgainstInterpreter(R"(
sequence kernel k(x: in i32[100, 2000, 4], y: out i32[10, 2000, 3], z: out i32[100, 1101, 3]) {
  fill(tap(x, 0, [10, 2000, 2], [8000, 4, 1]), column = 2, channel = 0);
  drain(tap(y, 0, [10, 2000, 2], [6000, 3, 1]), column = 2, channel = 0);
  fill(tap(x, 1, [100, 1100, 2], [8000, 4, 1]), column = 3, channel = 0);
  drain(tap(z, 3, [100, 1100, 2], [3303, 3, 1]), column = 3, channel = 0);
})");
  // Five dimensions that do not merge: a descriptor per step of the outermost.
  checkAgainstInterpreter(R"(
sequence kernel k(x: in i32[3000], y: out i32[720]) {
  fill(tap(x, 0, [2, 3, 4, 5, 6], [1000, 200, 40, 7, 1]), column = 0, channel = 0);
  drain(y, column = 0, channel = 0);
})");
}

TEST_CASE("aie executor: stepped groups, partial groups, repeats and strided slices") {
  checkAgainstInterpreter(R"(
sequence kernel k(x: in i32[32, 32], y: out i32[1024]) {
  let t = step_tiler(x, [2, 2], [2, 2], [2, 1]);
  unroll for i in 0 .. tile_count(t) {
    fill(tile_at(t, i), column = 0, channel = 0);
  }
  drain(y, column = 0, channel = 0);
})");
  checkAgainstInterpreter(R"(
sequence kernel k(x: in i32[45, 24], y: out i32[1080]) {
  let t = group_tiler(x, [3, 2], [5, 7], allow_partial = true);
  unroll for i in 0 .. tile_count(t) {
    fill(tile_at(t, i), column = 2, channel = 0);
  }
  drain(y, column = 2, channel = 0);
})");
  checkAgainstInterpreter(R"(
sequence kernel k(x: in i32[16, 8], y: out i32[160]) {
  fill(tile_at(simple_tiler(x, [4, 8], repeat = 5), 2), column = 0, channel = 1);
  drain(y, column = 0, channel = 1);
})");
  checkAgainstInterpreter(R"(
sequence kernel k(x: in i32[16, 16], y: out i32[4, 4], z: out i32[48]) {
  fill(slice(x, [1, 2], [4, 4], steps = [3, 2]), column = 3, channel = 0);
  drain(y, column = 3, channel = 0);
  fill(tap(x, 4, [3, 2, 8], [64, 16, 1]), column = 3, channel = 1);
  drain(z, column = 3, channel = 1);
})");
}

TEST_CASE("aie executor: repeats past a queue push's 256 runs, on both descriptor paths") {
  // 700 runs are three pushes, 300 two; a drain's repeat rewrites the same elements.
  for (bool task : {false, true}) {
    CAPTURE(task);
    checkAgainstInterpreter(R"(
sequence kernel k(x: in i32[8, 8], y: out i32[5600], z: out i32[4]) {
  fill(tap(x, 8, [700, 2, 4], [0, 8, 1]), column = 0, channel = 0);
  drain(y, column = 0, channel = 0);
  fill(tile_at(simple_tiler(x, [2, 2], repeat = 300), 5), column = 1, channel = 0);
  drain(tap(z, 0, [300, 4], [0, 1]), column = 1, channel = 0);
})",
                            task);
  }
}

TEST_CASE("aie executor: 8- and 16-bit elements move in whole words, contiguous innermost") {
  checkAgainstInterpreter(R"(
sequence kernel k(x: in i16[12, 16], y: out i16[192], z: out i16[4, 8]) {
  let t = group_tiler(x, [2, 4], [3, 2], group_col_major = true);
  for i in 0 .. tile_count(t) {
    fill(tile_at(t, i), column = 0, channel = 0);
  }
  drain(y, column = 0, channel = 0);
  fill(slice(x, [2, 4], [4, 8], steps = [3, 1]), column = 1, channel = 0);
  drain(z, column = 1, channel = 0);
})");
  checkAgainstInterpreter(R"(
sequence kernel k(x: in i16[14, 16], y: out i16[224]) {
  let t = group_tiler(x, [2, 4], [3, 2], allow_partial = true);
  unroll for i in 0 .. tile_count(t) {
    fill(tile_at(t, i), column = 0, channel = 0);
  }
  drain(y, column = 0, channel = 0);
})");
  checkAgainstInterpreter(R"(
sequence kernel k(x: in u8[8, 32], y: out u8[3, 2, 8]) {
  fill(tap(x, 4, [3, 2, 8], [0, 64, 1]), column = 0, channel = 1);
  drain(y, column = 0, channel = 1);
})");
}
