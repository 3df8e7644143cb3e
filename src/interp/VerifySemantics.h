// --verify-semantics: runs every kernel of the module on the reference interpreter with
// deterministic random inputs before the pipeline, then again after every pass, and
// compares every output tensor element for element (exactly: each pass must leave the
// computation itself unchanged, so even transcendental results are bit-identical). The
// first pass that changes a result, or makes the kernel fault, is an internal error that
// names the pass, the tensor and the element.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "interp/Interpreter.h"
#include "passes/PassManager.h"

namespace tilec::interp {

// The inputs of one kernel run: an argument per parameter (tensors hold their initial
// contents), chosen so that the original kernel runs without a fault.
struct KernelInputs {
  std::vector<RtValue> args;
  std::vector<int64_t> sizes;  // the values of the size parameters, for messages
};

// Picks sizes and fills inputs from `seed` (pseudo-random, the same on every machine);
// tries a few size choices and returns the first on which `f` runs, or nullopt with the
// last fault in `why`. Parameters in `given` (by index) keep the value given there.
std::optional<KernelInputs> chooseInputs(const ir::Function& f, uint64_t seed, std::string& why, const RunLimits& limits,
                                         const std::map<unsigned, RtValue>& given = {});
// The inputs at the given values of the free size parameters (in parameter order), without
// running anything; nullopt (with the reason) when the tensors would be too large.
std::optional<KernelInputs> makeInputs(const ir::Function& f, const std::vector<int64_t>& freeSizes, uint64_t seed,
                                       std::string& why, const std::map<unsigned, RtValue>& given = {});
// A deep copy (tensors get memory of their own).
std::vector<RtValue> copyArgs(const std::vector<RtValue>& args);

class SemanticsInstrumentation final : public PassInstrumentation {
 public:
  SemanticsInstrumentation(uint64_t seed, DiagnosticEngine& diags, RunLimits limits = {})
      : seed_(seed), diags_(diags), limits_(limits) {}
  void runBeforePipeline(const ir::Module& m) override;
  void runAfterPass(const Pass& pass, const ir::Module& m) override;
  void runAfterPipeline(const ir::Module& m) override;  // logs what was compared (--log-level=info)

  int kernelsChecked() const { return int(baselines_.size()); }
  int64_t outputsCompared() const { return compared_; }

 private:
  // The runs of the original kernels; taken on the first IR that verifies (before the
  // pipeline for .tile input, after `verify` for .tir text, which may be malformed).
  void takeBaselines(const ir::Module& m);

  struct Baseline {
    std::string kernel;
    KernelInputs inputs;
    std::vector<RtValue> outputs;  // the args after the original run
    int64_t blocks, subblocks;     // the launch it ran as
    bool readsLaunch;              // it asks for its block: its result may depend on the launch
  };
  bool checkRun(const std::string& who, const Baseline& b, const ir::Function& f);

  uint64_t seed_;
  DiagnosticEngine& diags_;
  RunLimits limits_;
  std::vector<Baseline> baselines_;
  bool pending_ = true;
  int64_t compared_ = 0;
  int passesChecked_ = 0;
};

}  // namespace tilec::interp
