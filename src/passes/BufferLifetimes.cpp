#include "passes/BufferLifetimes.h"

#include <algorithm>
#include <map>

#include "passes/Liveness.h"
#include "passes/PassUtils.h"

namespace tilec::passes {
namespace {

using namespace ir;

int64_t aligned(int64_t bytes, int64_t alignment) {
  int64_t rem = bytes % alignment, out;
  return __builtin_add_overflow(bytes - rem, rem ? alignment : 0, &out) ? INT64_MAX : out;
}

void walk(const Block& b, const Liveness& live, bool listTiles, std::map<int64_t, LiveBuffer>& buffers,
          MemoryUse& use) {
  for (const auto& op : b.ops()) {
    use.opPoints.push_back(live.enterOf(op.get()).index);
    if (op->kind() == OpKind::For)
      use.loops.push_back({op.get(), live.enterOf(op.get()).index, live.exitOf(op.get()).index});
    const auto* ids = op->attr<std::vector<int64_t>>("buffers");
    for (unsigned i = 0; ids && i < ids->size() && i < op->numResults(); ++i) {
      Value* v = op->result(i);
      if ((*ids)[i] < 0 || !isTile(v)) continue;
      auto [it, fresh] = buffers.try_emplace((*ids)[i], LiveBuffer{(*ids)[i], INT32_MAX, 0, 0, 0, v, {}});
      LiveBuffer& buf = it->second;
      buf.start = std::min(buf.start, live.defOf(v).index);
      buf.end = std::max(buf.end, live.liveEnd(v));
      buf.bytes = std::max(buf.bytes, v->type().byteSize());
      if (listTiles) buf.tiles.push_back(v);
    }
    for (unsigned r = 0; r < op->numRegions(); ++r) walk(op->body(r), live, listTiles, buffers, use);
  }
}

void sweep(SpaceUse& use) {
  for (size_t i = 0; i < use.buffers.size(); ++i) {
    use.events.push_back({use.buffers[i].start, true, i, 0});
    use.events.push_back({use.buffers[i].end, false, i, 0});
  }
  std::sort(use.events.begin(), use.events.end(), [&](const SpaceUse::Event& a, const SpaceUse::Event& b) {
    return std::make_tuple(a.point, !a.opens, use.buffers[a.buffer].id) <
           std::make_tuple(b.point, !b.opens, use.buffers[b.buffer].id);
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

MemoryUse memoryUse(const Function& f, bool listTiles) {
  Liveness live(f);
  std::map<int64_t, LiveBuffer> buffers;  // by id: deterministic
  MemoryUse use;
  walk(f.body(), live, listTiles, buffers, use);
  use.lastPoint = live.lastPoint();
  const TargetModel& model = f.module().target();
  for (size_t s = 1; s < model.spaces.size(); ++s) use.spaces.push_back({SpaceId(s), {}, {}, 0, 0, {}});
  for (auto& [id, b] : buffers) {  // moved, in id order, to their spaces
    const size_t s = b.first->type().space();
    if (s == 0 || s >= model.spaces.size()) continue;
    b.alignedBytes = aligned(b.bytes, model.spaces[s].alignment);
    use.spaces[s - 1].buffers.push_back(std::move(b));
  }
  buffers.clear();
  for (SpaceUse& space : use.spaces) sweep(space);
  return use;
}

}  // namespace tilec::passes
