// store-partition: a store into a tensor of rank > 2 writes through a partition
// view, which can only describe a box inside the tensor. This pass decides that
// box (the `window` attribute) while the stored tile still has its N-D shape, so
// that flatten-nd-to-2d can drop the shape: the tile's valid extents aligned to the
// tensor's trailing axes, or, for a 2-D tile with more rows than the tensor's row
// axis, whole axes consumed from the innermost outward. Stores with no such box are
// errors. Linear in the number of ops times the tensor rank.
#include "backend/pto/PtoTargets.h"
#include "ir/NdShape.h"
#include "passes/Pass.h"

namespace tilec::pto {
namespace {
using namespace ir;

class StorePartition final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"store-partition",
                                "give each store into a >2D tensor the partition box it writes",
                                PropSSA, PropStoreWindows, 0};
    return kInfo;
  }

  bool run(Module& m, PassContext& ctx) override {
    bool ok = true;
    for (auto& f : m.functions())
      f->walk([&](Op& op) {
        if (op.kind() != OpKind::Store || op.has(attr::window)) return;
        const Type& tensor = op.operand(1)->type();
        if (tensor.rank() <= 2) return;
        const auto* offsets = op.find(attr::offsets);
        if (!offsets || offsets->size() != tensor.rank()) return;  // the verifier reports it
        nd::StoreWindow w = nd::storeWindow(op.operand(0)->type().valid(), tensor.dims(), *offsets);
        if (w.failure != nd::StoreWindow::Failure::None) {
          ctx.diags.report(w.diag(), op.loc(), w.message);
          ok = false;
          return;
        }
        op.set(attr::window, w.window);
      });
    return ok;
  }
};

}  // namespace

std::unique_ptr<Pass> createStorePartitionPass() { return std::make_unique<StorePartition>(); }

}  // namespace tilec::pto
