// check-capacity: the bytes of the buffers live at the same time, per memory space, against
// the target's capacity (PTOAS's PlanMemory reuses a buffer once its tiles are dead, so the
// peak is what has to fit, not the sum). A buffer lives from the first definition of any of
// its tiles to the last point one of them is needed (passes/Liveness.h: reads through views,
// and whole loops for values read again in later iterations). Over the capacity is an error
// naming the space, the peak, the capacity and the tiles live at the peak. Linear in the ops
// plus a sort of the buffers' start and end points.
#include <algorithm>
#include <map>
#include <set>

#include "backend/pto/PtoTargets.h"
#include "passes/Liveness.h"
#include "passes/PassUtils.h"

namespace tilec {
namespace {

using namespace pto;
using namespace ir;

struct Buffer {
  int start = INT32_MAX, end = 0;
  int64_t bytes = 0;
  const Value* first = nullptr;  // the tile that names it in messages
};

std::string bytesText(int64_t bytes) {
  if (bytes == INT64_MAX) return "more than 8 EiB";
  return bytes % 1024 == 0 ? std::to_string(bytes / 1024) + " KiB" : std::to_string(bytes) + " bytes";
}

class FunctionCapacity {
 public:
  FunctionCapacity(Function& f, const ir::TargetModel&, DiagnosticEngine& diags) : f_(f), diags_(diags) {}

  void run() {
    passes::Liveness live(f_);
    std::map<int64_t, Buffer> buffers;  // by id: deterministic
    for (Op* op : passes::preorder(f_)) {
      const auto* ids = op->attr<std::vector<int64_t>>("buffers");
      for (unsigned i = 0; ids && i < ids->size() && i < op->numResults(); ++i) {
        Value* v = op->result(i);
        if ((*ids)[i] < 0 || !passes::isTile(v)) continue;
        Buffer& b = buffers[(*ids)[i]];
        b.start = std::min(b.start, live.defOf(v).index);
        b.end = std::max(b.end, live.liveEnd(v));
        b.bytes = std::max(b.bytes, v->type().byteSize());
        if (!b.first) b.first = v;
      }
    }
    const ir::TargetModel& model = f_.module().target();
    for (size_t s = 1; s < model.spaces.size(); ++s) check(ir::SpaceId(s), model.spaces[s], buffers);
  }

 private:
  static int64_t aligned(int64_t bytes, int64_t alignment) {
    int64_t rem = bytes % alignment, out;
    return __builtin_add_overflow(bytes - rem, rem ? alignment : 0, &out) ? INT64_MAX : out;
  }

  void check(ir::SpaceId space, const ir::SpaceDesc& s, const std::map<int64_t, Buffer>& buffers) {
    // Sweep the start and end points in order; ends come after starts at the same point.
    std::vector<std::pair<int, int64_t>> events;  // (point * 2 + isEnd, buffer id)
    for (const auto& [id, b] : buffers)
      if (b.first->type().space() == space) {
        events.push_back({b.start * 2, id});
        events.push_back({b.end * 2 + 1, id});
      }
    std::sort(events.begin(), events.end());
    int64_t live = 0, peak = 0;
    size_t peakEvent = 0;
    for (size_t e = 0; e < events.size(); ++e) {
      const int64_t bytes = aligned(buffers.at(events[e].second).bytes, s.alignment);
      if (events[e].first % 2 == 0) {
        if (__builtin_add_overflow(live, bytes, &live)) live = INT64_MAX;
        if (live > peak) peak = live, peakEvent = e;
      } else {
        live = live == INT64_MAX ? INT64_MAX : live - bytes;
      }
    }
    if (peak <= s.capacityBytes) return;
    // The buffers open at the peak, in the order they opened.
    std::vector<int64_t> atPeak;
    std::set<int64_t> closed;
    for (size_t e = 0; e <= peakEvent; ++e) {
      if (events[e].first % 2 == 0) atPeak.push_back(events[e].second);
      else closed.insert(events[e].second);
    }
    atPeak.erase(std::remove_if(atPeak.begin(), atPeak.end(), [&](int64_t id) { return closed.count(id) != 0; }),
                 atPeak.end());
    std::string tiles;
    for (int64_t id : atPeak)
      tiles += (tiles.empty() ? "" : ", ") + passes::describe(buffers.at(id).first) + " (" +
               bytesText(buffers.at(id).bytes) + ")";
    Diagnostic& d = diags_.report(
        Diag::PtoCapacity, f_.loc(),
        std::string(s.name) + " tiles of kernel '" + f_.name() + "' need " + bytesText(peak) +
            " at their peak but " + f_.module().target().name + " has " + bytesText(s.capacityBytes) + " of " +
            s.memory + "; live there: " + tiles +
            "; use smaller tiles, or end a tile's use before the next one is made");
    for (int64_t id : atPeak)
      passes::addNote(d, passes::definitionLoc(buffers.at(id).first),
                      passes::describe(buffers.at(id).first) + " is made here");
  }

  Function& f_;
  DiagnosticEngine& diags_;
};

class CheckCapacity final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"check-capacity",
                                "check the peak bytes of live tiles per memory space against the target",
                                PropSSA | PropBuffersAssigned, 0, 0};
    return kInfo;
  }

  bool run(Module& m, PassContext& ctx) override {
    return passes::runOnFunctions<FunctionCapacity>(m, ctx.diags);
  }
};

}  // namespace

std::unique_ptr<Pass> createCheckCapacityPass() { return std::make_unique<CheckCapacity>(); }

}  // namespace tilec
