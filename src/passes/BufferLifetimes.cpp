#include "passes/BufferLifetimes.h"

#include <algorithm>

#include "passes/Liveness.h"
#include "passes/PassUtils.h"

namespace tilec::passes {
namespace {

using namespace ir;

int64_t aligned(int64_t bytes, int64_t alignment) {
  int64_t rem = bytes % alignment, out;
  return __builtin_add_overflow(bytes - rem, rem ? alignment : 0, &out) ? INT64_MAX : out;
}

// The buffer id of each tile result of `op` that has one.
template <class F> void forEachBufferedTile(const Op& op, F f) {
  const auto* ids = op.attr<std::vector<int64_t>>("buffers");
  for (unsigned i = 0; ids && i < ids->size() && i < op.numResults(); ++i)
    if ((*ids)[i] >= 0 && isTile(op.result(i))) f(op.result(i), (*ids)[i]);
}

void collectIds(const Block& b, std::vector<int64_t>& ids) {
  for (const auto& op : b.ops()) {
    forEachBufferedTile(*op, [&](const Value*, int64_t id) { ids.push_back(id); });
    for (unsigned r = 0; r < op->numRegions(); ++r) collectIds(op->body(r), ids);
  }
}

// `buffers` holds one entry per id in `ids` (sorted), in the same order.
void walk(const Block& b, const Liveness& live, bool listTiles, const std::vector<int64_t>& ids,
          std::vector<LiveBuffer>& buffers, MemoryUse& use) {
  for (const auto& op : b.ops()) {
    use.opPoints.push_back(live.enterOf(op.get()).index);
    if (op->kind() == OpKind::For)
      use.loops.push_back({op.get(), live.enterOf(op.get()).index, live.exitOf(op.get()).index});
    forEachBufferedTile(*op, [&](Value* v, int64_t id) {
      LiveBuffer& buf = buffers[size_t(std::lower_bound(ids.begin(), ids.end(), id) - ids.begin())];
      if (!buf.first) buf.first = v;
      buf.start = std::min(buf.start, live.defOf(v).index);
      buf.end = std::max(buf.end, live.liveEnd(v));
      buf.bytes = std::max(buf.bytes, v->type().byteSize());
      if (listTiles) buf.tiles.push_back(v);
    });
    for (unsigned r = 0; r < op->numRegions(); ++r) walk(op->body(r), live, listTiles, ids, buffers, use);
  }
}

void sweep(SpaceUse& use) {
  use.events.reserve(2 * use.buffers.size());
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
  // Buffers in a vector in id order (deterministic), found by binary search on the ids.
  std::vector<int64_t> ids;
  collectIds(f.body(), ids);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::vector<LiveBuffer> buffers(ids.size(), LiveBuffer{0, INT32_MAX, 0, 0, 0, nullptr, {}});
  for (size_t i = 0; i < ids.size(); ++i) buffers[i].id = ids[i];
  MemoryUse use;
  walk(f.body(), live, listTiles, ids, buffers, use);
  use.lastPoint = live.lastPoint();
  const TargetModel& model = f.module().target();
  for (size_t s = 1; s < model.spaces.size(); ++s) use.spaces.push_back({SpaceId(s), {}, {}, 0, 0, {}});
  auto spaceOf = [&](const LiveBuffer& b) -> SpaceUse* {
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
    b.alignedBytes = aligned(b.bytes, model.spaces[space->space].alignment);
    space->buffers.push_back(std::move(b));
  }
  buffers = {};
  for (SpaceUse& space : use.spaces) sweep(space);
  return use;
}

}  // namespace tilec::passes
