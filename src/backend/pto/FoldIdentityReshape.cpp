// fold-identity-reshape: a reshape or reinterpret_view whose result type equals its
// operand's is a no-op; its uses read the operand instead and the op goes away.
// flatten-nd-to-2d turns reshapes between N-D and 2-D tiles into such identities.
// Linear in the number of ops.
#include "backend/pto/PtoTargets.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"

namespace tilec::pto {
namespace {
using namespace ir;

class FoldIdentityReshape final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"fold-identity-reshape",
                                "remove reshapes and reinterpret_views that change nothing",
                                PropSSA, 0, 0};
    return kInfo;
  }

  bool run(Module& m, PassContext&) override {
    for (auto& f : m.functions()) foldIdentityReshapes(*f);
    return true;
  }
};

}  // namespace

void foldIdentityReshapes(Function& f) {
  for (Op* op : passes::opsOfKind(f, {OpKind::Reshape, OpKind::ReinterpretView})) {
    if (op->result()->type() != op->operand(0)->type()) continue;
    op->result()->replaceAllUsesWith(op->operand(0));
    op->parentBlock()->erase(op);
  }
}

std::unique_ptr<Pass> createFoldIdentityReshapePass() {
  return std::make_unique<FoldIdentityReshape>();
}

}  // namespace tilec::pto
