// The AIE backend's targets: npu1 and npu2, their passes and their outputs.
#pragma once
#include <memory>

#include "backend/aie/AieModel.h"
#include "passes/Pass.h"
#include "target/Target.h"

namespace tilec::aie {

// The AIE-only passes (one file each in this directory).
std::unique_ptr<Pass> createSplitTransfersPass();
std::unique_ptr<Pass> createAieLegalityPass();
std::unique_ptr<Pass> createAssignBdsPass();

// The AIE passes' IR properties (passes/Pass.h).
extern const PropSet PropAieLegal;     // AIE rules hold; transfers have descriptor-shaped patterns
extern const PropSet PropBdsAssigned;  // every transfer has its descriptor and token (assign-bds)

// One target per device of npuDevices(), in its order (npu1, npu2, then the partial-column ones).
const std::vector<const target::TargetDesc*>& npuTargets();

// The formats' flag: with `ddr-fold` (the default, for the xclbin runtime) an address patch of
// argument 5 or above adds the DDR aperture offset 0x80000000, as the firmware needs.
inline constexpr const char* kDdrFold = "ddr-fold";
// The formats' flag: with `dma-task` each descriptor is written as mlir-aie's
// dma_configure_task path (IRON's rt.fill/drain) writes it, its byte offset in word 1;
// without it (the default) as dma_memcpy_nd writes it, 0 there. The transfers, their
// descriptors, pushes and waits are the same on both paths.
inline constexpr const char* kDmaTask = "dma-task";
// A flag's value; false when the caller's map lacks it (maps made before the flag existed).
inline bool flagSet(const target::FlagValues& flags, const char* name) {
  const auto it = flags.find(name);
  return it != flags.end() && it->second;
}

// Writes the module's sequence as a TXN stream: binary words, or one %08X word per line.
bool emitTxn(const ir::Module& m, OutputBuffer& os, DiagnosticEngine& diags, const target::FlagValues& flags);
bool emitTxnText(const ir::Module& m, OutputBuffer& os, DiagnosticEngine& diags, const target::FlagValues& flags);
// Writes a C++17 header with a builder per sequence that makes the stream from runtime sizes.
bool emitTxnCpp(const ir::Module& m, OutputBuffer& os, DiagnosticEngine& diags, const target::FlagValues& flags);

}  // namespace tilec::aie
