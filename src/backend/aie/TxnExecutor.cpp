#include "backend/aie/TxnExecutor.h"

#include <array>
#include <deque>
#include <map>

#include "backend/aie/AieModel.h"
#include "backend/aie/TxnRuntime.h"

namespace tilec::aie {
namespace {

struct Descriptor {
  std::array<uint32_t, 8> words{};
  bool written = false;
  int64_t arg = -1;
  uint64_t byteOffset = 0;
};

class Executor {
 public:
  Executor(std::vector<std::vector<uint8_t>>& buffers, uint64_t maxBytesMoved)
      : buffers_(buffers), limit_(maxBytesMoved), bytesLeft_(maxBytesMoved) {}

  std::string run(const TxnStream& s, size_t* failedOp) {
    // The legacy format's ops have other layouts (a 3-word write32), which this does not read.
    if (failedOp) *failedOp = 0;
    if (s.major != 0 || s.minor != 1)
      return "the executor runs TXN 0.1 streams (what tilec and mlir-aie write); this one is " +
             std::to_string(s.major) + "." + std::to_string(s.minor);
    for (size_t i = 0; i < s.ops.size(); ++i) {
      const TxnOp& op = s.ops[i];
      const std::string name = txnOpName(op);
      std::string error;
      if (name == "blockwrite") error = blockWrite(op);
      else if (name == "address_patch") error = patch(op);
      else if (name == "write32") error = write(op);
      if (error.empty()) continue;
      if (failedOp) *failedOp = i;
      return error;
    }
    return {};
  }

 private:
  static uint32_t column(uint32_t addr) { return addr >> 25 & 0x7F; }
  static uint32_t offsetOf(uint32_t addr) { return addr & 0xFFFFF; }

  Descriptor* descriptorAt(uint32_t addr) {
    const uint32_t off = offsetOf(addr), row = addr >> 20 & 0x1F;
    if (row != 0 || off < tilec_txn::kShimBdBase ||
        off >= tilec_txn::kShimBdBase + tilec_txn::kShimBds * tilec_txn::kShimBdStride)
      return nullptr;
    return &bds_[{column(addr), (off - tilec_txn::kShimBdBase) / tilec_txn::kShimBdStride}];
  }

  std::string blockWrite(const TxnOp& op) {
    const uint32_t addr = op.words[2];
    Descriptor* d = descriptorAt(addr);
    if (!d || offsetOf(addr) % tilec_txn::kShimBdStride != 0 || op.words.size() != 12) return {};
    for (int i = 0; i < 8; ++i) d->words[size_t(i)] = op.words[size_t(4 + i)];
    d->written = true;
    return {};
  }

  std::string patch(const TxnOp& op) {
    const uint32_t addr = op.words[6];
    Descriptor* d = descriptorAt(addr - 4);
    if (!d) return "an address patch targets no shim descriptor";
    d->arg = int64_t(op.words[8]);
    uint64_t plus = uint64_t(op.words[10]) | uint64_t(op.words[11]) << 32;
    if (d->arg >= 5 && plus >= 0x80000000u) plus -= 0x80000000u;  // the DDR aperture fold
    d->byteOffset = plus;
    return {};
  }

  std::string write(const TxnOp& op) {
    const uint32_t addr = op.words[2], value = op.words[4];
    const uint32_t off = offsetOf(addr);
    if (off < tilec_txn::kShimChannelCtrl || off >= tilec_txn::kShimChannelCtrl + 0x20 || off % 8 != 4) return {};
    const uint32_t slot = (off - tilec_txn::kShimChannelCtrl) / 8;  // S2MM 0, S2MM 1, MM2S 0, MM2S 1
    const bool mm2s = slot >= kShimChannels;
    const uint32_t chan = slot % kShimChannels, bdId = value & 0xF, repeat = value >> 16 & 0xFF;
    auto it = bds_.find({column(addr), bdId});
    if (it == bds_.end() || !it->second.written || it->second.arg < 0)
      return "a queue push starts descriptor " + std::to_string(bdId) + " of column " + std::to_string(column(addr)) +
             ", which was not written and patched";
    std::deque<uint8_t>& fifo = fifos_[{column(addr), chan}];
    for (uint32_t k = 0; k <= repeat; ++k) {
      std::string error = walk(it->second, k, mm2s, fifo);
      if (!error.empty()) return error;
    }
    return {};
  }

  // One run of a descriptor: its words in hardware order, moved one 4-byte word at a time.
  std::string walk(const Descriptor& d, uint32_t run, bool mm2s, std::deque<uint8_t>& fifo) {
    const uint32_t* w = d.words.data();
    const int64_t length = w[0], wrap0 = w[3] >> 20 & 0x3FF, wrap1 = w[4] >> 20 & 0x3FF;
    const int64_t step0 = (w[3] & 0xFFFFF) + 1, step1 = (w[4] & 0xFFFFF) + 1, step2 = (w[5] & 0xFFFFF) + 1;
    const int64_t iterWrap = (w[6] >> 20 & 0x3F) + 1, iterStep = (w[6] & 0xFFFFF) + 1;
    const int64_t base = int64_t(run % uint32_t(iterWrap)) * iterStep;  // the iteration dimension
    if (size_t(d.arg) >= buffers_.size()) return "a descriptor reads argument " + std::to_string(d.arg) + ", which is not given";
    std::vector<uint8_t>& buffer = buffers_[size_t(d.arg)];
    const bool linear = wrap0 == 0 && wrap1 == 0;
    if (!linear && (wrap0 == 0 || wrap1 == 0))
      return "a descriptor has a zero wrap in one of d0 and d1 but not the other, which walks nothing";
    for (int64_t n = 0; n < length; ++n) {
      int64_t word = base;
      if (linear) {
        word += n;
      } else {
        const int64_t i0 = n % wrap0, i1 = n / wrap0 % wrap1, i2 = n / (wrap0 * wrap1);
        word += i0 * step0 + i1 * step1 + i2 * step2;
      }
      if (bytesLeft_ < 4) return "the stream moves more than " + std::to_string(limit_) + " bytes, the most a host run moves";
      bytesLeft_ -= 4;
      // A patch may give any 64-bit offset: compared without the sum, which could wrap.
      const uint64_t rel = uint64_t(word) * 4, size = buffer.size();
      if (d.byteOffset > size || rel > size - d.byteOffset || size - d.byteOffset - rel < 4)
        return "a descriptor reaches byte " + std::to_string(d.byteOffset > size ? d.byteOffset : d.byteOffset + rel) +
               " of argument " + std::to_string(d.arg) + ", which has " + std::to_string(size);
      const uint64_t at = d.byteOffset + rel;
      for (uint64_t b = at; b < at + 4; ++b) {
        if (mm2s) {
          fifo.push_back(buffer[b]);
        } else {
          if (fifo.empty()) return "an S2MM transfer takes more data than was sent to its channel";
          buffer[b] = fifo.front();
          fifo.pop_front();
        }
      }
    }
    return {};
  }

  std::vector<std::vector<uint8_t>>& buffers_;
  const uint64_t limit_;
  uint64_t bytesLeft_;
  std::map<std::pair<uint32_t, uint32_t>, Descriptor> bds_;
  std::map<std::pair<uint32_t, uint32_t>, std::deque<uint8_t>> fifos_;
};

}  // namespace

std::string executeTxn(const TxnStream& stream, std::vector<std::vector<uint8_t>>& buffers, uint64_t maxBytesMoved,
                       size_t* failedOp) {
  return Executor(buffers, maxBytesMoved).run(stream, failedOp);
}

}  // namespace tilec::aie
