// lower-regions: tile regions as the plain tile IR every target has. A partition-view slot
// is a slice of its parent at [i * h, j * w]; a tile array is a created tile, each slot
// write an assemble into it at the slot's offsets, and the assembly is the tile itself.
// Targets with region hardware (linx) keep the region ops and do not run this; PTO runs
// it and writes the slices and assembles as it always has. Linear in the function.
#include <string>
#include <vector>

#include "backend/pto/PtoTargets.h"
#include "ir/Builder.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"

namespace tilec::pto {
namespace {
using namespace ir;

// The element offsets of a slot: its index times the slot's extents.
std::vector<Expr> slotOffsets(const Op& op, const std::vector<int64_t>& slot) {
  const auto& index = op.get(attr::index);
  return {index[0] * Expr::constant(slot[0]), index[1] * Expr::constant(slot[1])};
}

// The plain IR for a region op, built before it; null for any other op.
Value* lowered(Op& op) {
  OpBuilder b = OpBuilder::before(op);
  const Type& type = op.numResults() ? op.result()->type() : Type();
  if (op.kind() == OpKind::RegionPart)
    return b.createValue(OpKind::Slice, {op.operand(0)}, {attr::offsets(slotOffsets(op, type.shape()))}, type);
  if (op.kind() == OpKind::RegionArray) return b.createValue(OpKind::Create, {}, {}, type);
  if (op.kind() == OpKind::RegionInsert)
    return b.createValue(OpKind::Assemble, {op.operand(0), op.operand(1)},
                         {attr::offsets(slotOffsets(op, op.operand(1)->type().shape()))});
  if (op.kind() == OpKind::RegionAssembly) return op.operand(0);
  return nullptr;
}

void lowerOp(Op& op) {
  Value* replacement = lowered(op);
  if (!replacement) return;
  if (replacement->name().empty()) passes::madeFrom(replacement, op.result())->setName(op.result()->name());
  op.result()->replaceAllUsesWith(replacement);
  op.parentBlock()->erase(&op);
}

class LowerRegions final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"lower-regions", "write partition views as slices and tile arrays as assembles",
                                PropRegionsDerived, PropRegionsLowered, 0};
    return kInfo;
  }

  bool run(Module& m, PassContext&) override {
    for (auto& f : m.functions()) {
      for (Op* op : passes::opsOfKind(
               *f, {OpKind::RegionPart, OpKind::RegionArray, OpKind::RegionInsert, OpKind::RegionAssembly}))
        lowerOp(*op);
    }
    return true;
  }
};

}  // namespace

std::unique_ptr<Pass> createLowerRegionsPass() { return std::make_unique<LowerRegions>(); }

}  // namespace tilec::pto
