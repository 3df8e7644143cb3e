#include "passes/BufferLifetimes.h"

#include <algorithm>
#include <map>

#include "passes/BufferIds.h"
#include "passes/Liveness.h"
#include "passes/PassUtils.h"

namespace tilec::passes {
namespace {

using namespace ir;

// `buffers` holds one entry per buffer of `index`, in its order.
void walk(const Block& b, const Liveness& live, bool listTiles, const BufferIndex& index,
          std::vector<LiveBuffer>& buffers, MemoryUse& use) {
  for (const auto& op : b.ops()) {
    use.opPoints.push_back(live.enterOf(op.get()).index);
    if (op->kind() == OpKind::For)
      use.loops.push_back({op.get(), live.enterOf(op.get()).index, live.exitOf(op.get()).index});
    forEachTileBufferId(*op, [&](unsigned i, int64_t id) {
      // A popped tile lives in its pipe's slot, which the kernel reserves once (check-capacity).
      if (id < 0 || op->kind() == OpKind::PipePop) return;
      Value* v = op->result(i);
      LiveBuffer& buf = buffers[index.indexOf(id)];
      if (!buf.first) buf.first = v;
      buf.start = std::min(buf.start, live.defOf(v).index);
      buf.end = std::max(buf.end, live.liveEnd(v));
      buf.bytes = std::max(buf.bytes, v->type().byteSize());
      if (listTiles) buf.tiles.push_back(v);
    });
    for (unsigned r = 0; r < op->numRegions(); ++r) walk(op->body(r), live, listTiles, index, buffers, use);
  }
}

void sweep(SpaceUse& use) {
  use.events.reserve(2 * use.buffers.size());
  for (size_t i = 0; i < use.buffers.size(); ++i) {
    use.events.push_back({use.buffers[i].start, true, i, 0});
    use.events.push_back({use.buffers[i].end, false, i, 0});
  }
  std::sort(use.events.begin(), use.events.end(), [](const SpaceUse::Event& a, const SpaceUse::Event& b) {
    // Buffers are in id order, so their indices order them as their ids do.
    return std::make_tuple(a.point, !a.opens, a.buffer) < std::make_tuple(b.point, !b.opens, b.buffer);
  });
  int64_t live = 0;
  size_t peakEvent = 0;
  for (size_t e = 0; e < use.events.size(); ++e) {
    SpaceUse::Event& ev = use.events[e];
    const int64_t bytes = use.buffers[ev.buffer].alignedBytes;
    if (ev.opens) {
      if (__builtin_add_overflow(live, bytes, &live)) live = INT64_MAX;
      if (live > use.peakBytes) use.peakBytes = live, peakEvent = e, use.peakPoint = ev.point;
    } else {
      live = live == INT64_MAX ? INT64_MAX : live - bytes;
    }
    ev.liveAfter = live;
  }
  if (use.peakBytes == 0) return;
  // The buffers open at the peak: opened up to it and not closed by then.
  std::vector<char> closed(use.buffers.size(), 0);
  for (size_t e = 0; e <= peakEvent; ++e)
    if (!use.events[e].opens) closed[use.events[e].buffer] = 1;
  for (size_t e = 0; e <= peakEvent; ++e)
    if (use.events[e].opens && !closed[use.events[e].buffer]) use.liveAtPeak.push_back(use.events[e].buffer);
}

}  // namespace

int64_t alignedBytes(int64_t bytes, int64_t alignment) {
  int64_t rem = bytes % alignment, out;
  return __builtin_add_overflow(bytes - rem, rem ? alignment : 0, &out) ? INT64_MAX : out;
}

MemoryUse memoryUse(const Function& f, bool listTiles) {
  Liveness live(f);
  const BufferIndex index(f);  // buffers in a vector in id order: deterministic
  std::vector<LiveBuffer> buffers(index.size(), LiveBuffer{0, INT32_MAX, 0, 0, 0, nullptr, {}});
  for (size_t i = 0; i < index.size(); ++i) buffers[i].id = index.id(i);
  MemoryUse use;
  walk(f.body(), live, listTiles, index, buffers, use);
  use.lastPoint = live.lastPoint();
  const TargetModel& model = f.module().target();
  for (size_t s = 1; s < model.spaces.size(); ++s) use.spaces.push_back({SpaceId(s), {}, {}, 0, 0, {}});
  auto spaceOf = [&](const LiveBuffer& b) -> SpaceUse* {
    if (!b.first) return nullptr;  // a popped tile's: its slot is no buffer of the space
    const size_t s = b.first->type().space();
    return s == 0 || s >= model.spaces.size() ? nullptr : &use.spaces[s - 1];
  };
  std::vector<size_t> counts(use.spaces.size() + 1, 0);
  for (const LiveBuffer& b : buffers)
    if (SpaceUse* space = spaceOf(b)) ++counts[space->space];
  for (SpaceUse& space : use.spaces) space.buffers.reserve(counts[space.space]);
  for (LiveBuffer& b : buffers) {  // moved, in id order, to their spaces
    SpaceUse* space = spaceOf(b);
    if (!space) continue;
    b.alignedBytes = alignedBytes(b.bytes, model.spaces[space->space].alignment);
    space->buffers.push_back(std::move(b));
  }
  buffers = {};
  for (SpaceUse& space : use.spaces) sweep(space);
  return use;
}

namespace {

class AddressCheck {
 public:
  AddressCheck(const Function& f, DiagnosticEngine& diags) : f_(f), diags_(diags) {}

  bool run() {
    collect(f_.body());
    if (addressOf_.empty() || !ok_) return ok_;
    const TargetModel& model = f_.module().target();
    for (const SpaceUse& use : memoryUse(f_).spaces) checkSpace(use, model.spaces[use.space]);
    return ok_;
  }

 private:
  void collect(const Block& b) {
    for (const auto& op : b.ops()) {
      const auto* addrs = op->find(attr::addrs);
      forEachTileBufferId(*op, [&](unsigned i, int64_t id) {
        if (!addrs || i >= addrs->size() || (*addrs)[i] < 0 || id < 0) return;
        auto [it, fresh] = addressOf_.emplace(id, (*addrs)[i]);
        if (!fresh && it->second != (*addrs)[i])
          fail(op->loc(), "buffer " + std::to_string(id) + " is at address " + std::to_string(it->second) +
                              " and at " + std::to_string((*addrs)[i]) + "; give every tile of a buffer one address");
      });
      for (unsigned r = 0; r < op->numRegions(); ++r) collect(op->body(r));
    }
  }

  void checkSpace(const SpaceUse& use, const SpaceDesc& space) {
    std::vector<size_t> live;
    for (const SpaceUse::Event& ev : use.events) {
      if (!ev.opens) {
        live.erase(std::find(live.begin(), live.end(), ev.buffer));
        continue;
      }
      const LiveBuffer& b = use.buffers[ev.buffer];
      auto it = addressOf_.find(b.id);
      if (it == addressOf_.end()) continue;
      const int64_t at = it->second;
      const SourceRange where = b.first && b.first->definingOp() ? b.first->definingOp()->loc() : f_.loc();
      if (at % space.alignment != 0 || at > space.capacityBytes - b.alignedBytes)
        fail(where, "buffer " + std::to_string(b.id) + " at " + std::to_string(at) + " is not a " +
                           std::to_string(space.alignment) + "-byte aligned place inside " + space.memory);
      for (size_t other : live) {
        const LiveBuffer& o = use.buffers[other];
        const int64_t oAt = addressOf_.at(o.id);
        if (at < oAt + o.alignedBytes && oAt < at + b.alignedBytes)
          fail(where, "buffers " + std::to_string(o.id) + " and " + std::to_string(b.id) + " of " +
                             space.memory + " overlap in bytes and are live at once; give them disjoint addresses");
      }
      live.push_back(ev.buffer);
    }
  }

  void fail(SourceRange loc, const std::string& message) {
    diags_.report(Diag::IRVerify, loc, "kernel '" + f_.name() + "': " + message);
    ok_ = false;
  }

  const Function& f_;
  DiagnosticEngine& diags_;
  std::map<int64_t, int64_t> addressOf_;  // buffer id -> address
  bool ok_ = true;
};

}  // namespace

bool verifyAddresses(const Module& m, DiagnosticEngine& diags) {
  bool ok = true;
  for (const auto& f : m.functions()) ok &= AddressCheck(*f, diags).run();
  return ok;
}

}  // namespace tilec::passes
