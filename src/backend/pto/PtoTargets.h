// The PTO backend's targets: Ascend A2/A3 (910B) and A5 (950), and its own passes.
#pragma once
#include <memory>

#include "backend/pto/PtoModel.h"
#include "passes/Pass.h"
#include "target/Target.h"

namespace tilec {

// The PTO-only passes (one file each in this directory).
std::unique_ptr<Pass> createInferMemorySpacePass();
std::unique_ptr<Pass> createInsertReductionScratchPass();
std::unique_ptr<Pass> createAssignBuffersPass();
std::unique_ptr<Pass> createPtoLegalityPass();
std::unique_ptr<Pass> createCheckCapacityPass();

namespace pto {

const target::TargetDesc& ptoTarget(Arch a);
const target::TargetDesc& a2a3Target();
const target::TargetDesc& a5Target();

}  // namespace pto
}  // namespace tilec
