// plan-addresses: the byte address of every on-chip buffer in its memory space, recorded as
// an `addrs` attribute beside `buffers` (the PTO writer then gives each pto.alloc_tile its
// `addr`, for PTOAS's --pto-level=level3). Two buffers overlap in memory only when their
// live ranges (passes/BufferLifetimes.h, the ranges check-capacity holds against the
// capacity) are disjoint.
//
// Why tilec chooses: PTOAS's PlanMemory packs each new buffer at the lowest free address, so
// a tile made right after another one died lands on the same bytes, and the hardware must
// finish every use of the old tile before the new one is written. Buffers placed here rotate
// through the free space instead (next fit: each buffer at the first gap at or after the end
// of the one placed before it, wrapping to the start), so consecutive tiles of one pipe
// (the operands of successive matmuls, successive accumulators) sit in different bytes and
// one pipe can fill the next while another still reads the last: double buffering across
// loop bodies and output tiles without copies. Within a loop body the addresses are the
// same every iteration; multi-buffer's copies are live together and so get their own.
//
// When next fit fails to place a buffer (fragmentation: the live bytes fit, the gaps do
// not), the space is planned again by first fit; if that fails too, the kernel keeps no
// addresses and a warning says PTOAS will plan its memory. A kernel with pipes between its
// cube and vector sections is left to PTOAS as well: the pipes' slots are reserved by
// PTOAS itself. Time: the sweep over the buffers' start and end points, times the buffers
// live at once for each placement.
#include <map>

#include "backend/pto/PtoTargets.h"
#include "ir/OpDefs.h"
#include "passes/BufferIds.h"
#include "passes/BufferLifetimes.h"
#include "passes/PassUtils.h"

namespace tilec::pto {
namespace {

using namespace ir;

// The live buffers of one space by address: [address, address + bytes).
class SpaceMap {
 public:
  explicit SpaceMap(int64_t capacity) : capacity_(capacity) {}

  // The first gap of `bytes` at or after `from`, else the first one from 0; -1 when none.
  int64_t place(int64_t bytes, int64_t from) const {
    const int64_t found = gapFrom(bytes, from);
    return found >= 0 || from == 0 ? found : gapFrom(bytes, 0);
  }
  void take(int64_t address, int64_t bytes) { used_[address] = bytes; }
  void release(int64_t address) { used_.erase(address); }

 private:
  int64_t gapFrom(int64_t bytes, int64_t from) const {
    int64_t start = from;
    auto it = used_.upper_bound(from);
    if (it != used_.begin()) {
      auto before = std::prev(it);
      start = std::max(start, before->first + before->second);
    }
    for (; it != used_.end(); ++it) {
      if (it->first - start >= bytes) return start;
      start = std::max(start, it->first + it->second);
    }
    return capacity_ - start >= bytes ? start : -1;
  }

  int64_t capacity_;
  std::map<int64_t, int64_t> used_;
};

// Addresses of one space's buffers (indexed as `use.buffers`), or false when a buffer finds
// no gap. `nextFit` starts each search after the buffer placed before.
bool placeSpace(const passes::SpaceUse& use, int64_t capacity, bool nextFit, std::vector<int64_t>& out) {
  out.assign(use.buffers.size(), -1);
  SpaceMap map(capacity);
  int64_t cursor = 0;
  for (const passes::SpaceUse::Event& ev : use.events) {
    const int64_t bytes = use.buffers[ev.buffer].alignedBytes;
    if (!ev.opens) {
      map.release(out[ev.buffer]);
      continue;
    }
    const int64_t address = map.place(bytes, nextFit ? cursor : 0);
    if (address < 0) return false;
    map.take(address, bytes);
    out[ev.buffer] = address;
    cursor = address + bytes < capacity ? address + bytes : 0;
  }
  return true;
}

// split-cube-vector puts its pipes' pipe.init at the top of the function.
bool hasPipes(const Function& f) {
  for (const auto& op : f.body().ops())
    if (op->kind() == OpKind::PipeInit) return true;
  return false;
}

class FunctionAddresses {
 public:
  FunctionAddresses(Function& f, const ir::TargetModel& model, DiagnosticEngine& diags)
      : f_(f), model_(model), diags_(diags) {}

  void run() {
    if (hasPipes(f_)) return;
    std::map<int64_t, int64_t> addressOf;  // buffer id -> address
    for (const passes::SpaceUse& use : passes::memoryUse(f_).spaces) {
      std::vector<int64_t> addresses;
      const int64_t capacity = model_.spaces[use.space].capacityBytes;
      if (!placeSpace(use, capacity, true, addresses) && !placeSpace(use, capacity, false, addresses)) {
        diags_.report(Diag::PtoAddressPlan, f_.loc(),
                      std::string(model_.spaces[use.space].name) + " tiles of kernel '" + f_.name() +
                          "' fit " + model_.spaces[use.space].memory +
                          " by their live bytes but not at fixed addresses; the kernel's tiles are left to "
                          "PTOAS's PlanMemory (assemble without --pto-level=level3), which reuses a dead "
                          "tile's bytes at once; use tiles of one size in this space to keep the rotation");
        return;
      }
      for (size_t i = 0; i < use.buffers.size(); ++i) addressOf[use.buffers[i].id] = addresses[i];
    }
    record(f_.body(), addressOf);
  }

 private:
  static void record(Block& b, const std::map<int64_t, int64_t>& addressOf) {
    for (auto& op : b.ops()) {
      std::vector<int64_t> addrs(op->numResults(), -1);
      bool placed = false;
      passes::forEachTileBufferId(*op, [&](unsigned i, int64_t id) {
        auto it = addressOf.find(id);
        if (it != addressOf.end()) addrs[i] = it->second, placed = true;
      });
      if (placed) op->set(attr::addrs, addrs);
      for (unsigned r = 0; r < op->numRegions(); ++r) record(op->body(r), addressOf);
    }
  }

  Function& f_;
  const ir::TargetModel& model_;
  DiagnosticEngine& diags_;
};

class PlanAddresses final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"plan-addresses",
                                "give every on-chip buffer its address, rotating through each memory space",
                                PropSSA | PropBuffersAssigned, 0, 0};
    return kInfo;
  }

  bool run(Module& m, PassContext& ctx) override {
    return passes::runOnFunctions<FunctionAddresses>(m, ctx.diags);
  }
};

}  // namespace

std::unique_ptr<Pass> createPlanAddressesPass() { return std::make_unique<PlanAddresses>(); }

}  // namespace tilec::pto
