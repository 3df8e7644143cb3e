// The AIE targets' IR model and device facts: npu1 (AIE2: Phoenix, Hawk Point; 4 columns)
// and npu2 (AIE2P: Strix, Krackan; 8 columns). A sequence kernel runs on the host side of
// the NPU and moves data through the shim DMA of each column: two channels each way.
#pragma once
#include "backend/aie/TxnRuntime.h"
#include "ir/TargetModel.h"

namespace tilec::aie {

enum class Npu { Npu1, Npu2 };

const char* npuName(Npu n);
const ir::TargetModel& npuModel(Npu n);
tilec_txn::Device npuDevice(Npu n);
std::optional<Npu> npuOf(const ir::TargetModel& m);  // nullopt for a model that is no NPU

constexpr int64_t kShimChannels = 2;  // per column and direction

}  // namespace tilec::aie
