// verify: the IR verifier as a pass, so pipelines can start (or be checked)
// with it (plus the check of plan-addresses' addresses, which needs the buffers' live
// ranges). Establishes PropSSA for IR that did not come from the frontend.
#include "ir/IRText.h"
#include "passes/BufferLifetimes.h"
#include "passes/Pass.h"

namespace tilec {
namespace {

class Verify final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"verify", "check SSA structure and every op's typing rules", 0,
                                PropSSA, 0};
    return kInfo;
  }

  bool run(ir::Module& m, PassContext& ctx) override {
    return ir::verifyModule(m, ctx.diags) && passes::verifyAddresses(m, ctx.diags);
  }
};

}  // namespace

std::unique_ptr<Pass> createVerifyPass() { return std::make_unique<Verify>(); }

}  // namespace tilec
