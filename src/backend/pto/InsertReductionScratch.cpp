// insert-reduction-scratch: PTO's row reductions (trowmax/trowsum/trowmin) take
// a scratch tile shaped like their source (required by PTOAS before v0.60 and by
// pto-isa on a2a3). Every row reduction without one gets a fresh `tile.create`
// of the source's type, right before it, as operand 1. Linear in the number of ops.
#include "ir/OpDefs.h"
#include "backend/pto/PtoTargets.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"

namespace tilec {
namespace {

using namespace pto;
using namespace ir;

class InsertReductionScratch final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"insert-reduction-scratch",
                                "give every row reduction the scratch tile trow* needs",
                                PropSSA | PropMemSpacesInferred, 0, 0};
    return kInfo;
  }

  bool run(Module& m, PassContext&) override {
    for (auto& f : m.functions())
      for (Op* op : passes::opsWithTrait(*f, RowReduce))
        if (op->numOperands() == 1) passes::appendScratch(*op, op->operand(0)->type(), "tmp");
    return true;
  }
};

}  // namespace

std::unique_ptr<Pass> createInsertReductionScratchPass() {
  return std::make_unique<InsertReductionScratch>();
}

}  // namespace tilec
