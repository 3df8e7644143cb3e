#include "passes/PassManager.h"

namespace tilec {

namespace {

// Names a registered pass that produces `prop`, to suggest it in contract errors.
std::string producerOf(uint32_t prop) {
  for (const std::unique_ptr<Pass>& pass : allPasses())
    if (pass->info().produced & prop) return pass->info().arg;
  return {};
}

}  // namespace

PassManager::PassManager(PassContext& ctx, uint32_t initialProperties)
    : ctx_(ctx), properties_(initialProperties) {}

void PassManager::addPass(std::unique_ptr<Pass> pass) { passes_.push_back(std::move(pass)); }

void PassManager::addInstrumentation(std::unique_ptr<PassInstrumentation> instrumentation) {
  instrumentations_.push_back(std::move(instrumentation));
}

void PassManager::checkRequiredProperties(const Pass& pass) const {
  uint32_t missing = pass.info().required & ~properties_;
  if (!missing) return;
  uint32_t first = missing & (~missing + 1);  // lowest missing bit, to name one producer
  bool several = missing != first;
  std::string message = "pass '" + std::string(pass.info().arg) + "' requires " +
                        (several ? "properties '" : "property '") + propNames(missing) + "', which " +
                        (several ? "do" : "does") + " not hold at this point";
  std::string producer = producerOf(first);
  if (!producer.empty()) message += "; run '" + producer + "' before it";
  throw InternalError(message);
}

// "After" hooks run in reverse order, so instrumentations nest like scopes: the
// last one added (a timer, say) is innermost and measures only the pass.
template <class F>
void PassManager::forEachReversed(F&& hook) {
  for (auto it = instrumentations_.rbegin(); it != instrumentations_.rend(); ++it) hook(**it);
}

bool PassManager::run(ir::Module& m) {
  running_ = nullptr;
  for (auto& inst : instrumentations_) inst->runBeforePipeline(m);
  for (const std::unique_ptr<Pass>& pass : passes_) {
    // running_ stays set if anything below throws, so the driver can name the pass.
    running_ = pass.get();
    checkRequiredProperties(*pass);
    for (auto& inst : instrumentations_) inst->runBeforePass(*pass, m);
    unsigned errorsBefore = ctx_.diags.errorCount();
    bool ok = pass->run(m, ctx_);
    ctx_.diags.flush();
    if (!ok || ctx_.diags.errorCount() > errorsBefore) {
      forEachReversed([&](PassInstrumentation& inst) { inst.runAfterPassFailed(*pass, m); });
      running_ = nullptr;
      forEachReversed([&](PassInstrumentation& inst) { inst.runAfterPipeline(m); });
      return false;
    }
    const PassInfo& info = pass->info();
    properties_ = (properties_ & ~info.invalidated) | info.produced;
    forEachReversed([&](PassInstrumentation& inst) { inst.runAfterPass(*pass, m); });
  }
  running_ = nullptr;
  forEachReversed([&](PassInstrumentation& inst) { inst.runAfterPipeline(m); });
  return true;
}

}  // namespace tilec
