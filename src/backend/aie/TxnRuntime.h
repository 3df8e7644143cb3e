// The AIE transaction-stream encoder, written once. tilec compiles this header into its
// static TXN writer, and copies it verbatim into every generated builder (--emit=txn-cpp),
// where the same functions run at dispatch time on runtime sizes: the two cannot drift.
// It depends on the C++17 standard library only. Layouts follow the TXN 0.1 format that
// mlir-aie emits (docs/aie.md has the words and their sources).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace tilec_txn {

enum Opcode : uint32_t {
  kWrite = 0x00, kBlockWrite = 0x01, kBlockSet = 0x02, kMaskWrite = 0x03, kMaskPoll = 0x04,
  kNoop = 0x05, kPreempt = 0x06, kMaskPollBusy = 0x07, kLoadPdi = 0x08, kLoadPmStart = 0x09,
  kCreateScratchpad = 0x0A, kUpdateStateTable = 0x0B, kUpdateReg = 0x0C, kUpdateScratch = 0x0D,
  kConfigShimDmaBd = 0x0E, kConfigShimDmaDmabufBd = 0x0F,
  kTct = 0x80, kDdrPatch = 0x81, kReadRegs = 0x82, kRecordTimer = 0x83, kMergeSync = 0x84, kNext = 0x85,
};

// What the stream header says about the device: generation 3 is npu1 (AIE2), 4 is npu2 (AIE2P).
struct Device {
  uint8_t devGen, numRows, numCols, numMemTileRows;
};

// A stream under construction: four header words, then the ops.
struct Stream {
  std::vector<uint32_t> words = std::vector<uint32_t>(4, 0u);
  uint32_t ops = 0;
};

// Fills the header: version 0.1, the device, the op count and the size in bytes.
inline void finish(Stream& s, const Device& d) {
  s.words[0] = uint32_t(d.numRows) << 24 | uint32_t(d.devGen) << 16 | 1u << 8;
  s.words[1] = uint32_t(d.numMemTileRows) << 8 | d.numCols;
  s.words[2] = s.ops;
  s.words[3] = uint32_t(s.words.size() * 4);
}

// The absolute address of a tile register (AIE2 and AIE2P: column at bit 25, row at 20).
inline uint32_t tileAddress(uint32_t col, uint32_t row, uint32_t offset) {
  return (col & 0xFF) << 25 | (row & 0xFF) << 20 | (offset & 0xFFFFF);
}

inline void append(Stream& s, std::initializer_list<uint32_t> words) {
  s.words.insert(s.words.end(), words);
  ++s.ops;
}

inline void write32(Stream& s, uint32_t addr, uint32_t value) { append(s, {kWrite, 0, addr, 0, value, 24}); }

inline void maskWrite32(Stream& s, uint32_t addr, uint32_t value, uint32_t mask) {
  append(s, {kMaskWrite, 0, addr, 0, value, mask, 28});
}

// Waits until (register & mask) == value.
inline void maskPoll32(Stream& s, uint32_t addr, uint32_t value, uint32_t mask) {
  append(s, {kMaskPoll, 0, addr, 0, value, mask, 28});
}

// `colRow` is col | row << 8 when the source named the tile, else 0.
inline void blockWrite(Stream& s, uint32_t addr, const uint32_t* data, size_t n, uint32_t colRow) {
  append(s, {kBlockWrite, colRow, addr, uint32_t((4 + n) * 4)});
  s.words.insert(s.words.end(), data, data + n);
}

// Waits for the task-completion token of a channel; direction 0 is S2MM, 1 is MM2S.
inline void sync(Stream& s, uint32_t col, uint32_t row, uint32_t dir, uint32_t chan, uint32_t ncol,
                 uint32_t nrow) {
  append(s, {kTct, 16, (dir & 0xFF) | (row & 0xFF) << 8 | (col & 0xFF) << 16,
             (nrow & 0xFF) << 8 | (ncol & 0xFF) << 16 | (chan & 0xFF) << 24});
}

// The firmware adds host buffer `argIdx`'s device address to `argPlus` and writes it to
// `addr`. It translates host addresses only for arguments 0..4; with `fold`, a larger index
// gets the DDR aperture offset 0x80000000 added, as the xclbin runtime expects.
inline void addressPatch(Stream& s, uint32_t addr, uint32_t argIdx, uint64_t argPlus, bool fold) {
  if (fold && argIdx >= 5) argPlus += 0x80000000u;
  append(s, {kDdrPatch, 48, 0, 0, 0, 0, addr, 0, argIdx, 0, uint32_t(argPlus), uint32_t(argPlus >> 32)});
}

inline void loadPdi(Stream& s, uint32_t id, uint32_t size, uint64_t address) {
  append(s, {kLoadPdi | (id & 0xFFFF) << 16, size, uint32_t(address), uint32_t(address >> 32)});
}

inline void preempt(Stream& s, uint32_t level) { append(s, {kPreempt | (level & 0xFF) << 8}); }

// ---- shim DMA (the NOC tile in row 0 of every column) ----

enum Direction : uint32_t { kS2MM = 0, kMM2S = 1 };

constexpr uint32_t kShimBdBase = 0x1D000, kShimBdStride = 0x20, kShimBds = 16;
constexpr uint32_t kShimChannelCtrl = 0x1D200;
constexpr int64_t kWrapMax = 1023, kStepMax = 1 << 20, kIterMax = 64, kRepeatMax = 255;
constexpr int64_t kRunsPerPush = kRepeatMax + 1;  // a queue push runs its task at most 256 times
constexpr int64_t kQueueDepth = 4;  // tasks a shim channel holds; a fifth push would be dropped

inline uint32_t shimBdAddress(uint32_t col, uint32_t bd) {
  return tileAddress(col, 0, kShimBdBase + bd * kShimBdStride);
}

// The channel's task queue: a write pushes a task (start BD, repeat count, token request).
inline uint32_t shimQueueAddress(uint32_t col, uint32_t dir, uint32_t chan) {
  return tileAddress(col, 0, kShimChannelCtrl + 8 * chan + (dir == kMM2S ? 0x10 : 0) + 4);
}

inline uint32_t queueWord(uint32_t bd, uint32_t repeat, bool token) {
  return (bd & 0xF) | (repeat & 0xFF) << 16 | (token ? 0x80000000u : 0);
}

// One descriptor's walk over a host buffer, in elements, dimension 0 fastest: element
// offset + i0*strides[0] + i1*strides[1] + i2*strides[2], repeated sizes[3] times with
// strides[3] between repeats (0: the same data again). A repeat of more runs than one
// queue push holds takes several pushes of the same descriptor; `pushes` is how many the
// compiler let it have (assign-bds counted them against the channel's queue).
struct Transfer {
  int64_t offset = 0;
  int64_t sizes[4] = {1, 1, 1, 1};
  int64_t strides[4] = {1, 0, 0, 0};
  int64_t elemBits = 32;
  int64_t pushes = 1;
};

// What the hardware fields hold: wraps in 32-bit words, steps minus one, and the
// iteration wrap minus one, or (linear) one run of bufferLength words.
struct ShimBdFields {
  bool linear = false;
  int64_t bufferLength = 0, d0Wrap = 0, d0Step = 0, d1Wrap = 0, d1Step = 0, d2Step = 0;
  int64_t iterWrap = 0, iterStep = 0, repeat = 0, byteOffset = 0;
};

inline std::string num(int64_t v) { return std::to_string(v); }

// Why a transfer of elements narrower than a word cannot step `stride` elements innermost:
// the DMA steps whole 4-byte words, so a d0 step of 2 bf16 elements would still move every
// element (0, 1, 2, 3, ... instead of 0, 2, 4, ...), and a step of 3 is no word at all.
inline std::string subWordStrideRule(int64_t elemBits, const std::string& stride) {
  return "the innermost stride is " + stride + " elements of " + num(elemBits) +
         " bits, but the DMA steps whole 4-byte words, so elements narrower than a word must be contiguous "
         "innermost (stride 1); move contiguous whole-word blocks and rearrange the elements in the core";
}

// The fields of `t`, or the rule it breaks (message set, fields unspecified). Elements
// must be at most 32 bits, and contiguous innermost when narrower; every extent and outer
// step a whole number of 4-byte words.
inline ShimBdFields shimBdFields(const Transfer& t, std::string& error) {
  ShimBdFields f;
  const int64_t w = t.elemBits;
  const int64_t* s = t.sizes;
  const int64_t* st = t.strides;
  auto fail = [&](std::string m) {
    if (error.empty()) error = std::move(m);
    return f;
  };
  if (w > 32) return fail("elements of " + num(w) + " bits are wider than the 32 bits a DMA word holds");
  // Far above every field, and small enough that the products below cannot overflow.
  constexpr int64_t kHuge = int64_t(1) << 40;
  for (int i = 0; i < 4; ++i)
    if (s[i] > kHuge || st[i] > kHuge || st[i] < -kHuge)
      return fail("d" + num(i) + " (size " + num(s[i]) + ", stride " + num(st[i]) + ") is beyond any descriptor");
  if (t.offset > kHuge * 64 || t.offset < -kHuge) return fail("offset " + num(t.offset) + " is beyond any host buffer");
  for (int i = 0; i < 4; ++i)
    if (s[i] < 1) return fail("size " + num(s[i]) + " of d" + num(i) + " is not positive (d0 is the fastest)");
  if (s[0] * w % 32 != 0)
    return fail("the innermost run of " + num(s[0]) + " elements is " + num(s[0] * w / 8) +
                " bytes, not a whole number of 4-byte words");
  for (int i = 0; i < 4; ++i)
    if (st[i] < 0 || (i < 3 && s[i] > 1 && st[i] < 1))
      return fail("stride " + num(st[i]) + " of d" + num(i) + " is not positive (d0 is the fastest)");
  if (w < 32 && st[0] != 1) return fail(subWordStrideRule(w, num(st[0])));
  for (int i = 1; i < 4; ++i)
    if (st[i] * w % 32 != 0)
      return fail("stride " + num(st[i]) + " of d" + num(i) + " is " + num(st[i] * w / 8) +
                  " bytes, not a whole number of 4-byte words (d0 is the fastest)");
  if (t.offset < 0 || t.offset * w % 32 != 0)
    return fail("offset " + num(t.offset) + " elements is not a non-negative whole number of 4-byte words");
  auto words = [&](int64_t elems) { return elems * w / 32; };
  const bool contiguous = st[0] == 1 && (s[1] <= 1 || st[1] == s[0]) && (s[2] <= 1 || st[2] == s[0] * s[1]);
  f.linear = contiguous;
  f.bufferLength = words(s[0]) * s[1] * s[2];
  f.byteOffset = t.offset * w / 8;
  if (!f.linear) {
    f.d0Wrap = words(s[0]);
    f.d0Step = w < 32 ? 0 : st[0] - 1;  // sub-word elements run contiguously: one word a step
    f.d1Wrap = s[1];
    f.d1Step = s[1] > 1 ? words(st[1]) - 1 : 0;
    f.d2Step = s[2] > 1 ? words(st[2]) - 1 : 0;
    if (f.d0Wrap > kWrapMax)
      return fail("the innermost run is " + num(f.d0Wrap) + " words; a strided descriptor holds at most " +
                  num(kWrapMax));
    if (f.d1Wrap > kWrapMax)
      return fail("d1 (the second fastest) has " + num(f.d1Wrap) + " steps; a descriptor holds at most " + num(kWrapMax));
    const int64_t steps[3] = {f.d0Step, f.d1Step, f.d2Step};
    for (int i = 0; i < 3; ++i)
      if (steps[i] + 1 > kStepMax)
        return fail("the stride of d" + num(i) + " is " + num(steps[i] + 1) +
                    " words; a descriptor steps at most " + num(kStepMax) + " (d0 is the fastest)");
  }
  if (s[3] > kIterMax && st[3] > 0)
    return fail("d3 (the outermost, the iteration) runs " + num(s[3]) + " times; a descriptor iterates at most " + num(kIterMax));
  if (s[3] > kRunsPerPush * t.pushes)
    return fail("d3 repeats the walk " + num(s[3]) + " times; a queue push runs a task at most " + num(kRunsPerPush) +
                " times, and this transfer has " + num(t.pushes) + (t.pushes == 1 ? " push" : " pushes") +
                " (a repeat count known only at run time gets one, or the n that split = n reserves)");
  if (s[3] > 1 && st[3] > 0) {
    f.iterWrap = s[3] - 1;
    f.iterStep = words(st[3]) - 1;
    if (f.iterStep + 1 > kStepMax)
      return fail("the stride of d3 (the iteration) is " + num(f.iterStep + 1) + " words; a descriptor steps at most " +
                  num(kStepMax));
  }
  f.repeat = s[3] - 1;
  if (f.bufferLength > int64_t(0xFFFFFFFF))
    return fail("the transfer moves " + num(f.bufferLength) + " words; a descriptor moves at most 4294967295");
  return f;
}

// Empty when the walk of `t` stays inside a host buffer of `elements` elements, else why not.
inline std::string outsideBuffer(const Transfer& t, int64_t elements) {
  int64_t last = t.offset;
  for (int i = 0; i < 4; ++i) {
    const int64_t span = (t.sizes[i] - 1) * t.strides[i];  // fields were checked: no overflow
    last = span > INT64_MAX - last ? INT64_MAX : last + span;
  }
  if (t.offset >= 0 && last < elements) return {};
  return "the walk reaches elements " + num(t.offset) + " to " + num(last) + " of a buffer of " + num(elements);
}

// ---- laying a walk out in descriptors: re-laid in one, or split over several ----

// A walk over a host buffer in elements with any number of dimensions, outermost first
// (as the IR writes patterns; Transfer has the encoder's order).
struct Walk {
  int64_t offset = 0;
  std::vector<int64_t> sizes, strides;
  int64_t elemBits = 32;
};

inline Walk walkOf(const Transfer& t) {
  Walk w;
  w.offset = t.offset;
  w.elemBits = t.elemBits;
  for (int i = 3; i >= 0; --i) {
    w.sizes.push_back(t.sizes[i]);
    w.strides.push_back(t.strides[i]);
  }
  return w;
}

// The same walk with the fewest dimensions: none of size 1, and none that continues the
// next inner one (outer stride = inner size x inner stride: the two are one longer run).
// Left as it is when a size is not positive or the numbers are beyond any descriptor.
inline Walk mergedWalk(const Walk& w) {
  constexpr int64_t kHuge = int64_t(1) << 40;
  for (size_t i = 0; i < w.sizes.size(); ++i)
    if (w.sizes[i] < 1 || w.sizes[i] > kHuge || w.strides[i] > kHuge || w.strides[i] < -kHuge) return w;
  Walk out{w.offset, {}, {}, w.elemBits};
  for (size_t i = 0; i < w.sizes.size(); ++i) {
    if (w.sizes[i] == 1) continue;
    const int64_t n = w.sizes[i], s = w.strides[i];
    if (!out.sizes.empty() && out.strides.back() == n * s && out.sizes.back() <= kHuge / n) {
      out.sizes.back() *= n;
      out.strides.back() = s;
    } else {
      out.sizes.push_back(n);
      out.strides.push_back(s);
    }
  }
  return out;
}

// Lays a merged walk into a descriptor's four slots (d0, d1, d2, the iteration), each
// dimension cut into factors over consecutive slots, innermost first: a depth-first
// search that tries the longest piece each slot holds first (d0 and d1 at most 1023, d2
// any length: the shim has no d2 wrap, buffer_length implies it; the iteration at most 64
// and the only place for a stride-0 repeat), and takes the first layout shimBdFields
// accepts. A state (dimension, slot, what is left of it) that failed is not searched
// again, so the search visits at most 4 x 4 x (divisors of a size) states of up to 1023
// candidates each, and is cut off after kBudget of them (then: no layout) to keep a
// builder's dispatch bounded; patterns of real kernels need a handful.
class ShimLayout {
 public:
  ShimLayout(const Walk& w, int64_t maxPushes) : w_(w), maxPushes_(maxPushes) {
    t_.offset = w.offset;
    t_.elemBits = w.elemBits;
  }

  bool find(Transfer& out) {
    const int last = int(w_.sizes.size()) - 1;
    if (last > 3 || w_.elemBits > 32 || w_.elemBits < 1) return false;
    if (last < 0) return done(0, out);
    if (linear(out)) return true;
    if (!place(last, 0, w_.sizes[size_t(last)], w_.strides[size_t(last)])) return false;
    out = t_;
    return true;
  }

 private:
  static constexpr int kBudget = 1 << 14;

  // A contiguous innermost run with at most one dimension around it: the descriptor runs
  // linearly (no wrap limits) and iterates over the outer one.
  bool linear(Transfer& out) {
    const size_t n = w_.sizes.size();
    if (n > 2 || w_.strides[n - 1] != 1) return false;
    set(0, w_.sizes[n - 1], 1);
    set(1, 1, 0);
    set(2, 1, 0);
    if (n == 2) set(3, w_.sizes[0], w_.strides[0]);
    return done(n == 2 ? 4 : 1, out);
  }

  void set(int slot, int64_t size, int64_t stride) {
    t_.sizes[slot] = size;
    t_.strides[slot] = stride;
  }

  // Units in the slots from `slot` on, and the fields' verdict.
  bool done(int slot, Transfer& out) {
    for (int k = slot; k < 4; ++k) set(k, 1, k == 0 ? 1 : 0);
    const int64_t pushes = (t_.sizes[3] + kRunsPerPush - 1) / kRunsPerPush;
    t_.pushes = t_.strides[3] == 0 ? std::min(pushes, maxPushes_) : 1;
    std::string error;
    shimBdFields(t_, error);
    if (error.empty()) out = t_;
    return error.empty();
  }

  // A stride a slot's step field holds: whole words up to 2^20 of them (the iteration may
  // repeat with 0), contiguous innermost for elements narrower than a word.
  bool fits(int slot, int64_t stride) const {
    const int64_t bits = stride * w_.elemBits;
    if (slot == 0 && w_.elemBits < 32) return stride == 1;
    return stride >= (slot == 3 ? 0 : 1) && bits % 32 == 0 && bits / 32 <= kStepMax;
  }

  // The longest piece of `rest` a slot holds is tried first; 1 (a unit slot) last.
  bool place(int dim, int slot, int64_t rest, int64_t stride) {
    if (dim < 0) {
      Transfer unused;
      return done(slot, unused);
    }
    // Every dimension still to place needs a slot of its own; a state that failed once
    // fails again (what fills the slots below it is legal on its own: fits()).
    if (slot + dim > 3 || ++steps_ > kBudget || failed_.count({dim, slot, rest})) return false;
    if (search(dim, slot, rest, stride)) return true;
    failed_.insert({dim, slot, rest});
    return false;
  }

  bool search(int dim, int slot, int64_t rest, int64_t stride) {
    // The iteration: 64 steps, or a repeat of up to maxPushes_ pushes (done() counts them).
    if (slot == 3) return rest <= (stride == 0 ? kRunsPerPush * maxPushes_ : kIterMax) && piece(dim, slot, rest, rest, stride);
    if (stride == 0) return piece(dim, slot, rest, 1, stride);  // a repeat goes to the iteration
    if (slot == 2) {  // any length: what stays for the iteration is at most 64
      for (int64_t g = 1; g <= kIterMax && g <= rest; ++g)
        if (rest % g == 0 && piece(dim, slot, rest, rest / g, stride)) return true;
      return false;
    }
    const int64_t perWord = slot == 0 && w_.elemBits < 32 ? 32 / w_.elemBits : 1;
    for (int64_t f = rest < kWrapMax * perWord ? rest : kWrapMax * perWord; f >= 1; --f)
      if (rest % f == 0 && f % perWord == 0 && piece(dim, slot, rest, f, stride)) return true;
    return false;
  }

  // Slot `slot` takes `f` of dimension `dim`'s remaining `rest`; the search goes on outward.
  bool piece(int dim, int slot, int64_t rest, int64_t f, int64_t stride) {
    if (f > 1 && !fits(slot, stride)) return false;
    set(slot, f, f > 1 ? stride : slot == 0 ? 1 : 0);  // a unit slot: the fields' neutral stride
    if (f == rest)
      return dim == 0 ? place(-1, slot + 1, 1, 0)
                      : place(dim - 1, slot + 1, w_.sizes[size_t(dim - 1)], w_.strides[size_t(dim - 1)]);
    return place(dim, slot + 1, rest / f, stride * f);
  }

  const Walk& w_;
  const int64_t maxPushes_;
  Transfer t_;
  int steps_ = 0;
  std::set<std::tuple<int, int, int64_t>> failed_;  // (dimension, slot, rest)
};

// One descriptor that walks the elements of `w` in its order, if there is one.
// `maxPushes`: the queue pushes a repeat may take (a queue's worth where the compiler counts
// them; at dispatch, the ones the compiler planned for the transfer).
inline bool layOut(const Walk& w, Transfer& out, int64_t maxPushes = kQueueDepth) {
  return ShimLayout(mergedWalk(w), maxPushes).find(out);
}

// The walk from step `first` of the outermost dimension, `count` steps of it.
inline Walk outerChunk(const Walk& w, int64_t first, int64_t count) {
  Walk c = w;
  c.offset += first * w.strides[0];
  c.sizes[0] = count;
  return c;
}

// A walk no descriptor holds, cut into consecutive pieces of its order that each fit one:
// the outermost dimension in chunks as long as fit (all of it, 1023, 64 or 1 steps, the
// last chunk shorter), or, when one step does not fit, each step's inner walk cut the same
// way. Returns the number of pieces (0: none fits, even one element; saturates at
// INT64_MAX) and appends them to `pieces` when there are at most `maxPieces`. At most
// four layout searches a dimension, plus the pieces written.
inline int64_t splitWalk(const Walk& walk, int64_t maxPieces, std::vector<Walk>* pieces) {
  const Walk w = mergedWalk(walk);
  Transfer unused;
  for (int64_t n : w.sizes)
    if (n < 1) return 0;
  if (w.sizes.empty()) {
    if (!layOut(w, unused)) return 0;
    if (pieces && maxPieces >= 1) pieces->push_back(w);
    return 1;
  }
  const int64_t n = w.sizes[0], stride = w.strides[0];
  // Every chunk starts on a whole word: a multiple of `c` steps from the walk's start.
  auto wordSteps = [&](int64_t c) { return c * stride * w.elemBits % 32 == 0; };
  const int64_t chunks[4] = {n, n - 1 < kWrapMax ? n - 1 : kWrapMax, n - 1 < kIterMax ? n - 1 : kIterMax, 1};
  for (int64_t c : chunks) {
    if (c < 1 || !wordSteps(c) || !layOut(outerChunk(w, 0, c), unused) ||
        (n % c && !layOut(outerChunk(w, 0, n % c), unused)))
      continue;
    const int64_t count = (n + c - 1) / c;
    if (pieces && count <= maxPieces)
      for (int64_t first = 0; first < n; first += c)
        pieces->push_back(mergedWalk(outerChunk(w, first, n - first < c ? n - first : c)));
    return count;
  }
  if (!wordSteps(1)) return 0;
  Walk inner = w;  // one step of the outermost dimension, cut further
  inner.sizes.erase(inner.sizes.begin());
  inner.strides.erase(inner.strides.begin());
  const int64_t each = splitWalk(inner, 0, nullptr);
  if (each == 0) return 0;
  const int64_t count = each > INT64_MAX / n ? INT64_MAX : each * n;
  if (!pieces || count > maxPieces) return count;
  std::vector<Walk> once;
  splitWalk(inner, each, &once);
  for (int64_t i = 0; i < n; ++i)
    for (Walk p : once) {
      p.offset += i * stride;
      pieces->push_back(p);
    }
  return count;
}

// Why `w` needs several descriptors, with the smallest split tilec finds, for a refusal.
inline std::string splitAdvice(const Walk& w) {
  const int64_t pieces = splitWalk(w, 0, nullptr);
  if (pieces == 0) return "; no split over descriptors walks it either";
  if (pieces == 1) return {};  // one descriptor holds it, with more queue pushes than the transfer has
  return "; no layout in one descriptor walks it, and the smallest split tilec finds takes " + num(pieces) +
         " descriptors issued in turn";
}

// The fields of `t`, re-laid into another layout of one descriptor when its own does not
// fit (then `t` is that layout: the same elements in the same order); else the rule its
// own layout breaks and the split it would need.
inline ShimBdFields reLaidShimBdFields(Transfer& t, std::string& error) {
  std::string own;
  ShimBdFields f = shimBdFields(t, own);
  if (own.empty()) return f;
  Transfer other;
  if (t.elemBits <= 32 && layOut(walkOf(t), other, t.pushes)) {
    t = other;
    return shimBdFields(t, error);
  }
  error = t.elemBits > 32 ? own : own + splitAdvice(walkOf(t));
  return f;
}

// Shim burst lengths in bytes, by encoding: AIE2 (npu1) has 64, 128 and 256, AIE2P (npu2)
// 512 too. 0 asks for the largest the device has.
inline int64_t maxBurstBytes(const Device& d) { return d.devGen >= 4 ? 512 : 256; }
inline bool burstSupported(const Device& d, int64_t bytes) {
  return bytes == 0 || ((bytes == 64 || bytes == 128 || bytes == 256 || bytes == 512) && bytes <= maxBurstBytes(d));
}
inline uint32_t burstCode(const Device& d, int64_t bytes) {
  if (bytes == 0) bytes = maxBurstBytes(d);
  return bytes == 64 ? 0 : bytes == 128 ? 1 : bytes == 256 ? 2 : 3;
}

// A packet header for packet-switched streams: BD word 2 holds 5 bits of id, 3 of type.
constexpr int64_t kPacketIdMax = 31, kPacketTypeMax = 7;
struct Packet {
  bool enable = false;
  uint32_t id = 0, type = 0;
};

// `task`: the descriptor is written as mlir-aie's dma_configure_task path writes it (IRON's
// rt.fill/drain), with the byte offset in word 1; dma_memcpy_nd writes 0 there. The address
// patch overwrites the word with the buffer's address plus the same offset either way.
inline void shimBdWords(const ShimBdFields& f, uint32_t burst, const Packet& p, bool task, uint32_t out[8]) {
  out[0] = uint32_t(f.bufferLength);
  out[1] = task ? uint32_t(f.byteOffset) : 0;
  out[2] = (p.enable ? 1u : 0u) << 30 | (p.id & 0x1F) << 19 | (p.type & 0x7) << 16;
  out[3] = uint32_t(f.d0Wrap & 0x3FF) << 20 | uint32_t(f.d0Step & 0xFFFFF);
  out[4] = (burst & 0x3) << 30 | uint32_t(f.d1Wrap & 0x3FF) << 20 | uint32_t(f.d1Step & 0xFFFFF);
  out[5] = 2u << 24 | uint32_t(f.d2Step & 0xFFFFF);  // AxCACHE 2: lets the NoC upsize
  out[6] = uint32_t(f.iterWrap & 0x3F) << 20 | uint32_t(f.iterStep & 0xFFFFF);
  out[7] = 1u << 25;  // valid
}

// Where a shim transfer runs: the column's channel, the descriptor it uses, the host buffer.
struct ShimTask {
  uint32_t col = 0, dir = kMM2S, chan = 0, bd = 0, argIdx = 0;
  int64_t burstBytes = 0;
  Packet packet;
  bool token = false;    // S2MM always asks for one, but for a leading piece
  bool task = false;     // written as mlir-aie's dma_configure_task path writes it (shimBdWords)
  bool leading = false;  // a piece of a split before its last, which reports for all of them
  std::vector<uint32_t> spareBds;  // the descriptors a split at dispatch uses after `bd`
};

// The queue pushes a transfer of `f` takes: one per 256 runs.
inline int64_t shimPushes(const ShimBdFields& f) { return f.repeat / kRunsPerPush + 1; }

// Descriptor, address patch and queue pushes: three ops, 30 words, and a write32 more for
// each further push. A repeat longer than a push holds is pushed as mlir-aie's
// aie-split-long-repeats does: 256 runs a push, the rest in the last one, and only the
// last asks for the token, so a wait on the transfer ends after its last run.
inline void shimTransfer(Stream& s, const Device& d, const ShimTask& task, const ShimBdFields& f, bool fold) {
  uint32_t bd[8];
  shimBdWords(f, burstCode(d, task.burstBytes), task.packet, task.task, bd);
  const uint32_t base = shimBdAddress(task.col, task.bd);
  blockWrite(s, base, bd, 8, 0);
  addressPatch(s, base + 4, task.argIdx, uint64_t(f.byteOffset), fold);
  const uint32_t queue = shimQueueAddress(task.col, task.dir, task.chan);
  int64_t runs = f.repeat + 1;
  for (; runs > kRunsPerPush; runs -= kRunsPerPush) write32(s, queue, queueWord(task.bd, uint32_t(kRepeatMax), false));
  write32(s, queue, queueWord(task.bd, uint32_t(runs - 1), !task.leading && (task.token || task.dir == kS2MM)));
}

// A transfer at dispatch: in one descriptor (re-laid when its own layout does not fit),
// else split into consecutive pieces (splitWalk, as split-transfers splits constant walks)
// over the descriptors the compiler reserved for it (task.bd, then task.spareBds: the
// source's split =), issued in turn on its channel. Only the last piece reports
// completion: a channel's tasks complete in order, so a wait for the transfer ends after
// all of it, and no piece waits for another (a wait there could stall a drain whose data
// comes from a fill later in the sequence). The pieces' pushes fit the queue entries the
// compiler planned (t.pushes). The reason it refuses, and then nothing is appended.
inline std::string dispatchTransfer(Stream& s, const Device& d, const ShimTask& task, Transfer t, int64_t elements,
                                    bool fold) {
  std::string error;
  const ShimBdFields whole = reLaidShimBdFields(t, error);
  if (error.empty()) {
    error = outsideBuffer(t, elements);
    if (error.empty()) shimTransfer(s, d, task, whole, fold);
    return error;
  }
  const int64_t reserved = 1 + int64_t(task.spareBds.size());
  std::vector<Walk> pieces;
  const int64_t count = t.elemBits > 32 ? 0 : splitWalk(walkOf(t), reserved, &pieces);
  if (count <= 1) return error;  // a split does not help (a repeat past its pushes)
  if (count > reserved) {
    if (count > kQueueDepth) return error + " (tilec splits a walk it knows when it compiles: give its sizes with -D)";
    if (reserved == 1)
      return error + "; give the transfer split = " + num(count) +
             " to split it at dispatch, or its sizes with -D to split it when it compiles";
    return error + ", and split = " + num(reserved) + " reserves " + num(reserved);
  }
  std::vector<ShimBdFields> fields;
  int64_t pushes = 0;
  for (const Walk& piece : pieces) {
    Transfer laid;
    layOut(piece, laid);  // splitWalk's pieces fit
    std::string wrong;
    fields.push_back(shimBdFields(laid, wrong));
    if (wrong.empty()) wrong = outsideBuffer(laid, elements);
    if (!wrong.empty()) return wrong;
    pushes += shimPushes(fields.back());
  }
  if (pushes > t.pushes)
    return "the walk is split into " + num(count) + " descriptors that take " + num(pushes) +
           " queue pushes, and the transfer has " + num(t.pushes) + " queue entries (split = " + num(reserved) + ")";
  for (size_t i = 0; i < fields.size(); ++i) {
    ShimTask piece = task;
    piece.bd = i == 0 ? task.bd : task.spareBds[i - 1];
    piece.leading = i + 1 < fields.size();
    shimTransfer(s, d, piece, fields[i], fold);
  }
  return {};
}

// ---- register-level operations, as a sequence names them (seq.raw) ----

// Appends the op `name` with its arguments (in the order of the AIE model's table:
// docs/aie.md) and data words; the reason when the arguments do not fit, and then nothing
// is appended. Addresses with a column and row are tile-relative.
inline std::string appendRaw(Stream& s, const std::string& name, const std::vector<int64_t>& a,
                             const std::vector<uint32_t>& data, bool fold) {
  for (size_t i = 0; i < a.size(); ++i) {
    const bool wide = (name == "load_pdi" && i == 2) || (name == "address_patch" && i == 2);
    if (a[i] < 0 || (!wide && a[i] > int64_t(0xFFFFFFFF)))
      return name + ": argument " + num(int64_t(i) + 1) + " is " + num(a[i]) + ", not a " +
             (wide ? "non-negative 64-bit" : "32-bit unsigned") + " value";
  }
  auto u = [&](size_t i) { return uint32_t(a[i]); };
  // The address, made absolute when a column and a row follow it at `at`.
  auto address = [&](size_t at) { return a.size() > at ? tileAddress(u(at), u(at + 1), u(0)) : u(0); };
  auto tilePair = [&](size_t at) { return a.size() == at || a.size() == at + 2; };
  if (name == "write32" || name == "maskwrite32") {
    const size_t at = name == "write32" ? 2 : 3;
    if (!tilePair(at)) return name + " takes a column and a row together, or neither";
    if (name == "write32") write32(s, address(at), u(1));
    else maskWrite32(s, address(at), u(1), u(2));
  } else if (name == "maskpoll32") {
    maskPoll32(s, u(0), u(1), u(2));
  } else if (name == "blockwrite") {
    if (!tilePair(1)) return "blockwrite takes a column and a row together, or neither";
    if (data.empty()) return "blockwrite writes at least one word";
    blockWrite(s, address(1), data.data(), data.size(), a.size() > 1 ? (u(1) & 0xFF) | (u(2) & 0xFF) << 8 : 0);
  } else if (name == "sync") {
    if (a[2] > 1) return "sync: direction " + num(a[2]) + " is neither 0 (S2MM) nor 1 (MM2S)";
    sync(s, u(0), u(1), u(2), u(3), u(4), u(5));
  } else if (name == "address_patch") {
    addressPatch(s, u(0), u(1), uint64_t(a[2]), fold);
  } else if (name == "load_pdi") {
    if (a[0] > 0xFFFF) return "load_pdi: id " + num(a[0]) + " does not fit in 16 bits";
    loadPdi(s, u(0), u(1), uint64_t(a[2]));
  } else if (name == "preempt") {
    if (a[0] > 3) return "preempt: level " + num(a[0]) + " is not 0 to 3 (noop, mem tile, AIE tile, AIE registers)";
    preempt(s, u(0));
  } else {
    return "'" + name + "' is no register operation of this target";
  }
  return {};
}

// ---- arithmetic of runtime sizes, for the generated builders ----

// Integer arithmetic that notices overflow and division by zero (then `failed` is set and
// the result is 0), with the compiler's rounding: division and modulus round toward
// minus infinity, as in the IR.
struct Arith {
  bool failed = false;

  int64_t fail() {
    failed = true;
    return 0;
  }
  int64_t add(int64_t a, int64_t b) {
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) return fail();
    return a + b;
  }
  int64_t mul(int64_t a, int64_t b) {
    if (a == 0 || b == 0) return 0;
    if ((a == -1 && b == INT64_MIN) || (b == -1 && a == INT64_MIN)) return fail();
    const int64_t r = int64_t(uint64_t(a) * uint64_t(b));
    if (r / b != a) return fail();
    return r;
  }
  int64_t floorDiv(int64_t a, int64_t b) {
    if (b == 0 || (a == INT64_MIN && b == -1)) return fail();
    const int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
  }
  int64_t floorMod(int64_t a, int64_t b) {
    if (b == 0) return fail();
    if (b == -1) return 0;
    const int64_t r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
  }
  int64_t ceilDiv(int64_t a, int64_t b) {
    const int64_t q = floorDiv(a, b);
    return failed || q * b == a ? q : q + 1;
  }
  static int64_t min(int64_t a, int64_t b) { return a < b ? a : b; }
  static int64_t max(int64_t a, int64_t b) { return a > b ? a : b; }
};

}  // namespace tilec_txn
