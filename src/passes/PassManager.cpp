#include "passes/PassManager.h"

namespace tilec {

namespace {

// Names a known pass that produces `prop`, to suggest it in contract errors.
std::string producerOf(PropSet prop, const PassRegistry& known) {
  for (const std::unique_ptr<Pass>& pass : known.all())
    if (pass->info().produced & prop) return pass->info().arg;
  return {};
}

}  // namespace

PassManager::PassManager(PassContext& ctx, PropSet initialProperties, const PassRegistry& known)
    : ctx_(ctx), known_(known), properties_(initialProperties) {}

void PassManager::addPass(std::unique_ptr<Pass> pass) { passes_.push_back(std::move(pass)); }

void PassManager::addPasses(const std::vector<std::string>& names) {
  for (const std::string& name : names) addPass(known_.create(name));
}

void PassManager::addInstrumentation(std::unique_ptr<PassInstrumentation> instrumentation) {
  instrumentations_.push_back(std::move(instrumentation));
}

std::string PassManager::missingMessage(const std::string& who, PropSet missing) const {
  PropSet first = missing & (~missing + 1);  // lowest missing bit, to name one producer
  bool several = missing != first;
  std::string message = who + " requires " + (several ? "properties '" : "property '") +
                        propNames(missing) + "', which " + (several ? "do" : "does") +
                        " not hold at this point";
  std::string producer = producerOf(first, known_);
  if (!producer.empty()) message += "; run '" + producer + "' before it";
  return message;
}

std::string PassManager::pipelineProblem(PropSet finalRequired, const std::string& consumer) const {
  PropSet props = properties_;
  for (const std::unique_ptr<Pass>& pass : passes_) {
    const PassInfo& info = pass->info();
    if (PropSet missing = info.required & ~props)
      return missingMessage("pass '" + std::string(info.arg) + "'", missing);
    props = (props & ~info.invalidated) | info.produced;
  }
  if (PropSet missing = finalRequired & ~props) return missingMessage(consumer, missing);
  return {};
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
    if (PropSet missing = pass->info().required & ~properties_)
      throw InternalError(missingMessage("pass '" + std::string(pass->info().arg) + "'", missing));
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
