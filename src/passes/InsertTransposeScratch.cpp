// insert-transpose-scratch: PTO's ttrans needs a scratch tile shaped like its
// source. Every 2-D transpose that has none gets a fresh one, in the source's
// memory space, as its second operand. (N-D transposes were unrolled by
// flatten-nd-to-2d with scratch pages of one pool.) Linear in the number of ops.
#include "passes/Pass.h"
#include "passes/PassUtils.h"

namespace tilec {
namespace {
using namespace ir;

class InsertTransposeScratch final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"insert-transpose-scratch",
                                "give every 2-D transpose the scratch tile ttrans needs",
                                PropSSA | PropTileOps2D, 0, 0};
    return kInfo;
  }

  bool run(Module& m, PassContext&) override {
    for (auto& f : m.functions())
      for (Op* op : passes::opsOfKind(*f, {OpKind::Transpose})) {
        if (op->numOperands() != 1) continue;
        Value* src = op->operand(0);
        std::string name = (src->name().empty() ? std::string("transpose") : src->name()) + "_scratch";
        passes::appendScratch(*op, src->type().withFullValid(), name);
      }
    return true;
  }
};

}  // namespace

std::unique_ptr<Pass> createInsertTransposeScratchPass() {
  return std::make_unique<InsertTransposeScratch>();
}

}  // namespace tilec
