// Runs a pipeline of passes over a module: enforces each pass's property contract
// (Pass.h) and calls instrumentation hooks around every pass, which is where IR
// printing, IR tree dumps, --verify-each, timing and crash snapshots live.
#pragma once
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "passes/Pass.h"

namespace tilec {

// A broken compiler invariant, as opposed to a problem in the user's program.
// The driver reports it as an internal compiler error (exit code 4).
class InternalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Hooks called around each pass: "before" hooks in the order the instrumentations
// were added, "after" hooks in reverse order. Hooks may throw InternalError.
class PassInstrumentation {
 public:
  virtual ~PassInstrumentation() = default;
  virtual void runBeforePipeline(const ir::Module& m) {}
  virtual void runBeforePass(const Pass& pass, const ir::Module& m) {}
  virtual void runAfterPass(const Pass& pass, const ir::Module& m) {}
  // The pass returned failure (or reported errors); the pipeline stops after this.
  virtual void runAfterPassFailed(const Pass& pass, const ir::Module& m) {}
  // Called once run() finishes without throwing, whether or not every pass succeeded.
  virtual void runAfterPipeline(const ir::Module& m) {}
};

class PassManager {
 public:
  // `initialProperties` are the properties the input module already has; `known` is where
  // contract errors look for a pass that produces a missing property.
  PassManager(PassContext& ctx, PropSet initialProperties, const PassRegistry& known);

  void addPass(std::unique_ptr<Pass> pass);
  // Adds the passes of `known` with these names, in order: a target's pipeline (its
  // default, or --passes), as the driver and the language server both run it.
  void addPasses(const std::vector<std::string>& names);
  void addInstrumentation(std::unique_ptr<PassInstrumentation> instrumentation);

  // Why the pipeline cannot run from the initial properties (a pass whose required
  // properties would not hold, or `finalRequired` missing at the end), naming the
  // pass to add; empty when it can. Properties are static, so this is decided
  // before any pass runs.
  std::string pipelineProblem(PropSet finalRequired, const std::string& consumer) const;

  // Runs the passes in order. Returns false as soon as a pass fails or reports an
  // error. Throws InternalError when a pass's required properties do not hold
  // (pipelineProblem() finds that first).
  bool run(ir::Module& m);

  PropSet properties() const { return properties_; }
  // The pass that was executing when run() last threw; null if it did not throw.
  const Pass* runningPass() const { return running_; }
  size_t numPasses() const { return passes_.size(); }
  const Pass* pass(size_t i) const { return passes_[i].get(); }

 private:
  std::string missingMessage(const std::string& who, PropSet missing) const;
  template <class F>
  void forEachReversed(F&& hook);

  PassContext& ctx_;
  const PassRegistry& known_;
  PropSet properties_;
  std::vector<std::unique_ptr<Pass>> passes_;
  std::vector<std::unique_ptr<PassInstrumentation>> instrumentations_;
  const Pass* running_ = nullptr;
};

}  // namespace tilec
