#include "backend/pto/PtoTargets.h"

#include "backend/pto/PtoEmitter.h"

namespace tilec::pto {
namespace {

constexpr int64_t KiB = 1024;
using ir::MemSpace;

// PTOAS PlanMemory's per-function sizes and alignments (pto-assembly.md, 3.6); on a2a3
// the top 8 KiB of the 192 KiB UB are reserved.
std::vector<target::MemorySpace> spaces(bool a5) {
  return {
      {MemSpace::Vec, "UB", (a5 ? 248 : 184) * KiB, 32},
      {MemSpace::Mat, "L1", 512 * KiB, 32},
      {MemSpace::Left, "L0A", 64 * KiB, 512},
      {MemSpace::Right, "L0B", 64 * KiB, 512},
      {MemSpace::Acc, "L0C", (a5 ? 256 : 128) * KiB, 512},
      {MemSpace::Bias, "bias table", (a5 ? 4 : 1) * KiB, 32},
      {MemSpace::Scaling, "fixpipe buffer", (a5 ? 4 : 2) * KiB, 32},
  };
}

PassRegistry passes() {
  PassRegistry r;
  r.addAll(targetNeutralPasses());
  r.add("infer-memory-space", &createInferMemorySpacePass);
  r.add("insert-reduction-scratch", &createInsertReductionScratchPass);
  r.add("assign-buffers", &createAssignBuffersPass);
  r.add("pto-legality", &createPtoLegalityPass);
  r.add("check-capacity", &createCheckCapacityPass);
  return r;
}

const std::vector<std::string> kPipeline = {
    "verify",           "expand-batch-matmul", "store-partition",    "flatten-nd-to-2d",         "fold-identity-reshape",
    "insert-transpose-scratch", "tile-ops-2d", "infer-memory-space", "insert-reduction-scratch",
    "assign-buffers",   "pto-legality",       "check-capacity"};

std::vector<target::OutputFormat> formats() {
  return {{"pto", "PTO assembly (MLIR pto dialect text) for PTOAS", ".pto", PropPtoLegal,
           /*oneKernel=*/true, &emitModule}};
}

target::TargetDesc describe(const char* name, const char* summary, ir::Target layouts) {
  return {name, summary, layouts, spaces(layouts == ir::Target::A5), passes(), kPipeline, formats()};
}

}  // namespace

const target::TargetDesc& a2a3Target() {
  static const target::TargetDesc kTarget =
      describe("a2a3", "Ascend A2/A3 (910B): PTO assembly", ir::Target::A2A3);
  return kTarget;
}

const target::TargetDesc& a5Target() {
  static const target::TargetDesc kTarget = describe("a5", "Ascend A5 (950): PTO assembly", ir::Target::A5);
  return kTarget;
}

const target::TargetDesc& ptoTarget(ir::Target layouts) {
  return layouts == ir::Target::A5 ? a5Target() : a2a3Target();
}

}  // namespace tilec::pto
