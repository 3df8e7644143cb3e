// check-capacity: the bytes of the buffers live at the same time, per memory space, against
// the target's capacity (PTOAS's PlanMemory reuses a buffer once its tiles are dead, so the
// peak is what has to fit, not the sum). The live ranges and the peak are
// passes/BufferLifetimes.h's, which the report draws. Over the capacity is an error naming
// the space, the peak, the capacity and the tiles live at the peak. A split kernel's pipes
// (split-cube-vector) reserve their slots in the consumer's memory (vec for tiles sent to
// the vector core, mat for the cube's) for the whole kernel, on top of the peak of the
// other tiles (a popped tile lives in a slot).
#include <map>

#include "backend/pto/PtoTargets.h"
#include "ir/Describe.h"
#include "passes/BufferLifetimes.h"
#include "passes/PassUtils.h"
#include "support/Wording.h"

namespace tilec::pto {
namespace {

using namespace ir;

std::string bytesText(int64_t bytes) {
  if (bytes == INT64_MAX) return "more than 8 EiB";
  return bytes % 1024 == 0 ? std::to_string(bytes / 1024) + " KiB" : std::to_string(bytes) + " bytes";
}

class FunctionCapacity {
 public:
  FunctionCapacity(Function& f, const ir::TargetModel&, DiagnosticEngine& diags) : f_(f), diags_(diags) {}

  void run() {
    const ir::TargetModel& model = f_.module().target();
    const std::map<SpaceId, int64_t> slots = pipeSlots();
    for (const passes::SpaceUse& use : passes::memoryUse(f_).spaces) {
      auto it = slots.find(use.space);
      check(model.spaces[use.space], use, it == slots.end() ? 0 : it->second);
    }
  }

 private:
  // The bytes each space reserves for the slots of the pipes it receives.
  std::map<SpaceId, int64_t> pipeSlots() const {
    std::map<int64_t, SpaceId> consumer;
    for (const auto& op : f_.body().ops())
      if (op->numRegions() == 1) findPops(op->body(), consumer);
    std::map<SpaceId, int64_t> bytes;
    for (const auto& op : f_.body().ops())
      if (op->kind() == OpKind::PipeInit && consumer.count(op->get(attr::pipe)))
        bytes[consumer.at(op->get(attr::pipe))] += op->get(attr::slots) * op->get(attr::slot_bytes);
    return bytes;
  }

  static void findPops(const Block& b, std::map<int64_t, SpaceId>& consumer) {
    for (const auto& op : b.ops()) {
      if (op->kind() == OpKind::PipePop) consumer[op->get(attr::pipe)] = op->result()->type().space();
      for (unsigned r = 0; r < op->numRegions(); ++r) findPops(op->body(r), consumer);
    }
  }

  void check(const ir::SpaceDesc& s, const passes::SpaceUse& use, int64_t slotBytes) {
    if (use.peakBytes + slotBytes <= s.capacityBytes) return;
    // The tiles live at the peak, each with a note where it is made, as many as a list
    // in a message shows.
    std::vector<std::string> tiles;
    std::vector<const ir::Value*> named;
    for (size_t b : use.liveAtPeak) {
      if (named.size() == kListedItems) break;
      named.push_back(use.buffers[b].first);
      tiles.push_back(describe(named.back(), diags_.sources()) + " (" + bytesText(use.buffers[b].bytes) + ")");
    }
    Diagnostic& d = diags_.report(
        Diag::PtoCapacity, f_.loc(),
        std::string(s.name) + " tiles of kernel '" + f_.name() + "' need " + bytesText(use.peakBytes) +
            " at their peak" + (slotBytes ? " besides " + bytesText(slotBytes) + " of pipe slots" : std::string()) + " but " + f_.module().target().name + " has " + bytesText(s.capacityBytes) + " of " +
            s.memory + "; live there: " + listText(tiles, "and", use.liveAtPeak.size()) +
            "; use smaller tiles, or end a tile's use before the next one is made" +
            (slotBytes ? std::string(" (a pipe holds 2 slots of the largest tile it carries)") : std::string()));
    for (const ir::Value* v : named)
      passes::addNote(d, passes::definitionLoc(v), describe(v, diags_.sources()) + " is made here");
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

}  // namespace tilec::pto
