// Property test of the shim descriptor encoder against the hardware's walk: for random
// access patterns over every element type, TxnRuntime.h's shimBdFields either refuses the
// pattern, or the descriptor it encodes, run by the TXN executor (which steps whole 4-byte
// words, as the shim DMA does), moves exactly the bytes of the elements the pattern names,
// in the pattern's order. 12 element types x 400 patterns = 4800 cases, from a fixed seed.
// Repeats run up to 1100 times, past the 256 a queue push holds (several pushes, as
// aie-legality's `pushes` allows), and half the streams are written as mlir-aie's
// dma_configure_task path writes them (the byte offset in word 1), with random packet
// headers and bursts, none of which may change the walk.
// Splits at dispatch (dispatchTransfer, split = 4) are checked the same way, with the
// descriptors and tokens of their queue pushes.
// The executor's source buffer holds each byte's own position (one byte of it per run,
// two runs), so every moved byte says where it came from.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "backend/aie/AieModel.h"
#include "backend/aie/TxnExecutor.h"
#include "backend/aie/TxnRuntime.h"
#include "ir/Type.h"
#include "test_rng.h"

using namespace tilec;

namespace {

using testing::Rng;

constexpr int kCasesPerType = 400;
constexpr int kPlanes = 2;  // bytes of a source position: the patterns stay inside 64 KiB

// A pattern as taplib writes it: an element offset and (size, stride) pairs, outermost
// first, the last the fastest. Mostly word-shaped (that is what the hardware takes), with
// odd strides, runs and offsets, stride-0 repeats and oversized iterations mixed in.
struct Pattern {
  int64_t offset = 0;
  std::vector<int64_t> sizes, strides;
};

Pattern randomPattern(Rng& rng, int64_t elemBytes) {
  const int64_t perWord = elemBytes >= 4 ? 1 : 4 / elemBytes;  // elements per 4-byte word
  auto wordish = [&](int64_t words) { return rng.chance(85) ? words * perWord : rng.in(0, words * perWord + 3); };
  Pattern p;
  const int dims = int(rng.in(1, 4));
  for (int i = 0; i < dims; ++i) {
    const bool innermost = i == dims - 1;
    const bool iteration = i == 0 && dims == 4;
    int64_t size = innermost ? wordish(rng.in(1, 8)) : rng.in(1, 5);
    if (iteration && rng.chance(3)) size = 65;  // past the 64 iterations a descriptor runs
    int64_t stride;
    if (innermost) stride = rng.chance(60) ? 1 : rng.in(0, 5);
    else if (i == 0 && rng.chance(20)) stride = 0;  // a repeat
    else stride = wordish(rng.in(1, 40));
    if (!innermost && stride == 0 && rng.chance(40)) size = rng.in(60, 1100);  // past one push's 256 runs
    p.sizes.push_back(std::max<int64_t>(size, 1));
    p.strides.push_back(stride);
  }
  p.offset = wordish(rng.in(0, 16));
  return p;
}

std::string text(const Pattern& p) {
  std::string sizes, strides;
  for (size_t i = 0; i < p.sizes.size(); ++i) {
    sizes += (i ? ", " : "") + std::to_string(p.sizes[i]);
    strides += (i ? ", " : "") + std::to_string(p.strides[i]);
  }
  return std::to_string(p.offset) + " / [" + sizes + "] / [" + strides + "]";
}

// The encoder's dimension 0 is the fastest; an outer repeat goes to dimension 3, as
// ShimPattern puts it, with the pushes aie-legality gives it (one in ten gets one push
// only, which refuses more than 256 runs).
tilec_txn::Transfer transferOf(const Pattern& p, int64_t elemBits, Rng& rng) {
  tilec_txn::Transfer t;
  t.elemBits = elemBits;
  t.offset = p.offset;
  const size_t n = p.sizes.size();
  const bool repeat = n > 1 && p.strides[0] == 0;
  for (size_t i = 0; i < 4; ++i) {
    const size_t from = repeat && i == 3 ? 0 : n - 1 - i;
    const bool used = repeat && i == 3 ? true : i < n - (repeat ? 1 : 0);
    t.sizes[i] = used ? p.sizes[from] : 1;
    t.strides[i] = used ? p.strides[from] : 0;
  }
  if (repeat && rng.chance(90)) t.pushes = (t.sizes[3] + tilec_txn::kRunsPerPush - 1) / tilec_txn::kRunsPerPush;
  return t;
}

// The source byte positions the pattern names, in order: each element's bytes, the
// elements at offset + sum(index * stride), the outermost index slowest.
std::vector<int64_t> expectedBytes(const Pattern& p, int64_t elemBytes) {
  std::vector<int64_t> out;
  std::vector<int64_t> index(p.sizes.size(), 0);
  while (true) {
    int64_t element = p.offset;
    for (size_t i = 0; i < index.size(); ++i) element += index[i] * p.strides[i];
    for (int64_t b = 0; b < elemBytes; ++b) out.push_back(element * elemBytes + b);
    size_t d = index.size();
    while (d > 0 && ++index[d - 1] == p.sizes[d - 1]) index[--d] = 0;
    if (d == 0) return out;
  }
}

// Ends a stream with an S2MM of one word more than expected into argument 1 (the loopback
// hands it what the MM2S sent).
std::vector<uint32_t> drainAndFinish(tilec_txn::Stream& s, const tilec_txn::Device& device, size_t expectedBytes) {
  tilec_txn::Transfer drain;
  drain.sizes[0] = int64_t(expectedBytes / 4) + 1;
  std::string error;
  const tilec_txn::ShimBdFields sink = tilec_txn::shimBdFields(drain, error);
  REQUIRE(error.empty());
  tilec_txn::ShimTask task;
  task.dir = tilec_txn::kS2MM;
  task.bd = 1;
  task.argIdx = 1;
  tilec_txn::shimTransfer(s, device, task, sink, true);
  tilec_txn::finish(s, device);
  return s.words;
}

// A random device of the two generations.
tilec_txn::Device randomDevice(Rng& rng) {
  return aie::npuDevice({rng.chance(50) ? aie::Npu::Npu1 : aie::Npu::Npu2, 0});
}

// The stream: the pattern's MM2S from argument 0, then the S2MM (drainAndFinish).
// Several sources are pushed in turn on the same channel, each with its own descriptor
// (the executor runs a transfer when it is pushed, so 15 descriptors go round), all with
// one random choice of device, path, token, burst and packet header.
std::vector<uint32_t> streamOf(const std::vector<tilec_txn::ShimBdFields>& sources, size_t expectedBytes, Rng& rng) {
  const tilec_txn::Device device = randomDevice(rng);
  tilec_txn::Stream s;
  tilec_txn::ShimTask fill;
  fill.task = rng.chance(50);
  fill.token = rng.chance(50);
  fill.burstBytes = int64_t(64) << rng.in(0, 2);
  if (rng.chance(30)) fill.packet = {true, uint32_t(rng.in(0, 31)), uint32_t(rng.in(0, 7))};
  for (size_t i = 0; i < sources.size(); ++i) {
    fill.bd = (uint32_t(i % 15) + 2) % 16;
    tilec_txn::shimTransfer(s, device, fill, sources[i], true);
  }
  return drainAndFinish(s, device, expectedBytes);
}

// Runs the stream once per byte plane of the source positions and reassembles, for every
// byte the S2MM received, the position it came from. The extra word must find the channel
// empty: the MM2S sent no more than expected.
std::vector<int64_t> movedBytes(const std::vector<uint32_t>& words, int64_t sourceBytes, size_t expectedBytes,
                                int planes = kPlanes) {
  aie::TxnError decodeError;
  const std::optional<aie::TxnStream> stream = aie::decodeTxn(words, decodeError);
  REQUIRE(stream);
  std::vector<int64_t> positions(expectedBytes, 0);
  for (int plane = 0; plane < planes; ++plane) {
    std::vector<std::vector<uint8_t>> buffers(2);
    for (int64_t b = 0; b < sourceBytes; ++b) buffers[0].push_back(uint8_t(b >> (8 * plane)));
    buffers[1].assign(expectedBytes + 4, 0);
    const std::string why = aie::executeTxn(*stream, buffers);
    REQUIRE(why == "an S2MM transfer takes more data than was sent to its channel");
    for (size_t i = 0; i < expectedBytes; ++i) positions[i] |= int64_t(buffers[1][i]) << (8 * plane);
  }
  return positions;
}

}  // namespace

TEST_CASE("aie shim descriptors: every accepted pattern moves the bytes it names, for every element type") {
  Rng rng{0x5eed0a1e};
  for (uint8_t d = 0; d <= uint8_t(ir::DType::Index); ++d) {
    const ir::DType dtype = ir::DType(d);
    const int64_t elemBytes = ir::dtypeBytes(dtype);
    const std::string name = ir::dtypeName(dtype);
    CAPTURE(name);
    int accepted = 0, longRepeats = 0;
    for (int c = 0; c < kCasesPerType; ++c) {
      const Pattern p = randomPattern(rng, elemBytes);
      const tilec_txn::Transfer t = transferOf(p, elemBytes * 8, rng);
      CAPTURE(c);
      CAPTURE(text(p));
      std::string refused;
      const tilec_txn::ShimBdFields fields = tilec_txn::shimBdFields(t, refused);
      if (elemBytes > 4) REQUIRE(!refused.empty());
      if (!refused.empty()) continue;
      ++accepted;
      const std::vector<int64_t> expected = expectedBytes(p, elemBytes);
      const int64_t sourceBytes = (*std::max_element(expected.begin(), expected.end()) / 4 + 1 + rng.in(0, 3)) * 4;
      REQUIRE(sourceBytes < (int64_t(1) << (8 * kPlanes)));
      REQUIRE(tilec_txn::outsideBuffer(t, sourceBytes / elemBytes).empty());
      if (t.sizes[3] > tilec_txn::kRunsPerPush) ++longRepeats;
      CHECK(movedBytes(streamOf({fields}, expected.size(), rng), sourceBytes, expected.size()) == expected);
    }
    // Not vacuous: a good share of the patterns of each type a word holds is accepted.
    if (elemBytes <= 4) CHECK(accepted >= kCasesPerType / 5);
    if (elemBytes <= 4) CHECK(longRepeats >= 3);
  }
}

namespace {

// Patterns past one descriptor's plain layout: a dimension of 1024 or more steps, an
// iteration past 64, a long contiguous run, up to five dimensions; small strides keep
// them inside 16 MiB (three bytes of a source position).
Pattern longPattern(Rng& rng, int64_t elemBytes) {
  const int64_t perWord = elemBytes >= 4 ? 1 : 4 / elemBytes;
  Pattern p;
  const bool rows = rng.chance(50);  // else iterations, and maybe a long innermost run
  const int dims = int(rng.in(2, rows ? 3 : 5));
  const int longDim = int(rng.in(0, dims - 1));
  for (int i = 0; i < dims; ++i) {
    const bool innermost = i == dims - 1;
    int64_t size = i == longDim ? (rows ? rng.in(1020, 1040) : rng.in(60, 70)) : rng.in(2, 3);
    if (innermost) size = !rows && rng.chance(40) ? rng.in(1, 5) * 1009 * perWord : size * perWord;
    const int64_t stride = innermost ? (rng.chance(70) ? 1 : rng.in(1, 3)) : rng.in(1, 3) * perWord;
    p.sizes.push_back(size);
    p.strides.push_back(i == 0 && rng.chance(10) ? 0 : stride);
  }
  p.offset = rng.in(0, 4) * perWord;
  int64_t bytes = elemBytes;
  for (int64_t n : p.sizes) bytes *= n;
  return bytes > 200000 ? longPattern(rng, elemBytes) : p;  // the executor runs it three times
}

// A prime run of words (past d0's 1023) inside two strided dimensions: no layout holds it,
// and it splits into a piece per step of the outer one (2 to 5 of them).
Pattern splitPattern(Rng& rng, int64_t elemBytes) {
  const int64_t perWord = elemBytes >= 4 ? 1 : 4 / elemBytes;
  const int64_t primes[3] = {1031, 1033, 2003};
  const int64_t run = primes[rng.in(0, 2)] * perWord, rows = rng.in(2, 3);
  const int64_t rowStride = run + rng.in(1, 3) * perWord;
  Pattern p;
  p.sizes = {rng.in(2, 5), rows, run};
  p.strides = {rows * rowStride + rng.in(1, 3) * perWord, rowStride, 1};
  p.offset = rng.in(0, 4) * perWord;
  return p;
}

tilec_txn::Walk walkOf(const Pattern& p, int64_t elemBits) {
  return {p.offset, p.sizes, p.strides, elemBits};
}

}  // namespace

TEST_CASE("aie shim descriptors: re-laid and split walks move the bytes the pattern names, in its order") {
  Rng rng{0x5eed5b17};
  int relaid = 0, split = 0;
  for (ir::DType dtype : {ir::DType::I32, ir::DType::F32, ir::DType::I16, ir::DType::BF16, ir::DType::I8}) {
    const int64_t elemBytes = ir::dtypeBytes(dtype);
    CAPTURE(ir::dtypeName(dtype));
    for (int c = 0; c < 50; ++c) {
      const Pattern p = longPattern(rng, elemBytes);
      CAPTURE(c);
      CAPTURE(text(p));
      const tilec_txn::Walk walk = walkOf(p, elemBytes * 8);
      std::vector<tilec_txn::ShimBdFields> fields;
      tilec_txn::Transfer laid;
      std::string error;
      if (tilec_txn::layOut(walk, laid)) {
        fields.push_back(tilec_txn::shimBdFields(laid, error));
        ++relaid;
      } else {
        std::vector<tilec_txn::Walk> pieces;
        const int64_t count = tilec_txn::splitWalk(walk, 256, &pieces);
        if (count == 0 || count > 256) continue;
        REQUIRE(int64_t(pieces.size()) == count);
        for (const tilec_txn::Walk& piece : pieces) {
          REQUIRE(tilec_txn::layOut(piece, laid));
          fields.push_back(tilec_txn::shimBdFields(laid, error));
        }
        split += count > 1;
      }
      REQUIRE(error.empty());
      const std::vector<int64_t> expected = expectedBytes(p, elemBytes);
      const int64_t sourceBytes = (*std::max_element(expected.begin(), expected.end()) / 4 + 1) * 4;
      REQUIRE(sourceBytes < (int64_t(1) << 24));
      CHECK(movedBytes(streamOf(fields, expected.size(), rng), sourceBytes, expected.size(), 3) == expected);
    }
  }
  // Not vacuous: both ways are taken often.
  CHECK(relaid >= 50);
  CHECK(split >= 10);  // fewer than re-laid: a repeat of up to 1024 runs fits one descriptor's pushes
  MESSAGE("re-laid in one descriptor: " << relaid << ", split: " << split);
}

TEST_CASE("aie shim descriptors: a split at dispatch moves the bytes the pattern names, and only its last piece reports") {
  // dispatchTransfer with split = 4's descriptors (bd 2, then 5, 9, 12) and queue entries:
  // a walk one descriptor holds is one push of bd 2; one that needs up to 4 pieces is a
  // push per piece, the reserved descriptors in order, the token on the last alone; more
  // pieces are refused with nothing written.
  Rng rng{0x5eedd15b};
  int whole = 0, split = 0, refused = 0;
  for (ir::DType dtype : {ir::DType::I32, ir::DType::I16, ir::DType::I8}) {
    const int64_t elemBytes = ir::dtypeBytes(dtype);
    CAPTURE(ir::dtypeName(dtype));
    for (int c = 0; c < 80; ++c) {
      const Pattern p = c % 2 ? splitPattern(rng, elemBytes) : longPattern(rng, elemBytes);
      if (p.sizes.size() > 4) continue;
      CAPTURE(c);
      CAPTURE(text(p));
      tilec_txn::Transfer t = transferOf(p, elemBytes * 8, rng);
      t.pushes = 4;
      tilec_txn::ShimTask task;
      task.bd = 2;
      task.spareBds = {5, 9, 12};
      task.token = true;
      const std::vector<int64_t> expected = expectedBytes(p, elemBytes);
      const int64_t sourceBytes = (*std::max_element(expected.begin(), expected.end()) / 4 + 1) * 4;
      const tilec_txn::Device device = randomDevice(rng);
      tilec_txn::Stream s;
      const std::string error = tilec_txn::dispatchTransfer(s, device, task, t, sourceBytes / elemBytes, true);
      if (!error.empty()) {
        CHECK(s.ops == 0);  // nothing appended
        ++refused;
        continue;
      }
      const std::vector<uint32_t> words = drainAndFinish(s, device, expected.size());
      CHECK(movedBytes(words, sourceBytes, expected.size(), 3) == expected);
      aie::TxnError decodeError;
      const std::optional<aie::TxnStream> stream = aie::decodeTxn(words, decodeError);
      REQUIRE(stream);
      std::vector<uint32_t> pushes;  // the MM2S 0 queue words
      for (const aie::TxnOp& op : stream->ops)
        if (op.words.size() == 6 && op.words[0] == 0 && op.words[2] == tilec_txn::shimQueueAddress(0, tilec_txn::kMM2S, 0))
          pushes.push_back(op.words[4]);
      REQUIRE(!pushes.empty());
      const std::vector<uint32_t> bds = {2, 5, 9, 12};
      uint32_t piece = 0;
      for (size_t i = 0; i < pushes.size(); ++i) {
        CHECK((pushes[i] >> 31) == (i + 1 == pushes.size() ? 1u : 0u));
        piece += i > 0 && (pushes[i] & 0xF) != (pushes[i - 1] & 0xF);
        CHECK((pushes[i] & 0xF) == bds[piece]);
      }
      (piece > 0 ? split : whole) += 1;
    }
  }
  // Not vacuous: every way is taken.
  CHECK(whole >= 40);
  CHECK(split >= 40);
  CHECK(refused >= 10);
  MESSAGE("one descriptor: " << whole << ", split: " << split << ", refused: " << refused);
}

TEST_CASE("aie shim descriptors: a long repeat is pushed as mlir-aie's aie-split-long-repeats pushes it") {
  // 301 runs of a 256-word linear descriptor (repeat-split-const-operand.mlir): 256 runs
  // without a token, then 45 with the transfer's token; 1024 runs are four full pushes.
  tilec_txn::Transfer t;
  t.sizes[0] = 256;
  t.sizes[3] = 301;
  t.strides[3] = 0;
  std::string error;
  tilec_txn::shimBdFields(t, error);
  CHECK(error == "d3 repeats the walk 301 times; a queue push runs a task at most 256 times, and this transfer has 1 "
                 "push (a repeat count known only at run time gets one, or the n that split = n reserves)");
  error.clear();
  t.pushes = 2;
  const tilec_txn::ShimBdFields f = tilec_txn::shimBdFields(t, error);
  REQUIRE(error.empty());
  CHECK(tilec_txn::shimPushes(f) == 2);
  tilec_txn::Stream s;
  tilec_txn::ShimTask task;
  task.token = true;
  tilec_txn::shimTransfer(s, aie::npuDevice({aie::Npu::Npu2, 0}), task, f, true);
  const std::vector<uint32_t> pushes(s.words.end() - 12, s.words.end());
  CHECK(pushes == std::vector<uint32_t>{0, 0, 0x1D214, 0, 0x00FF0000, 24, 0, 0, 0x1D214, 0, 0x802C0000, 24});
  t.sizes[3] = 1024;
  t.pushes = 4;
  error.clear();
  CHECK(tilec_txn::shimPushes(tilec_txn::shimBdFields(t, error)) == 4);
  CHECK(error.empty());
}
