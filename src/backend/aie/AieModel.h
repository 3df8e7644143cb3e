// The AIE targets' IR model and device facts: npu1 (AIE2: Phoenix, Hawk Point; 4 columns)
// and npu2 (AIE2P: Strix, Krackan; 8 columns), whole or as partial-column devices. A sequence kernel runs on the host side of
// the NPU and moves data through the shim DMA of each column: two channels each way.
// The encoder's own constants (descriptors per column, field limits) are in TxnRuntime.h,
// which generated builders carry; the numbers here are the rest the backend uses.
#pragma once
#include <type_traits>
#include <vector>

#include "backend/aie/TxnRuntime.h"
#include "ir/TargetModel.h"

namespace tilec::aie {

enum class Npu { Npu1, Npu2 };

// A device: a generation and how many of its columns the kernel may use. 0 columns is the
// whole device (npu1: 4, npu2: 8); 1 to 3 (npu1) or 1 to 7 (npu2) is mlir-aie's
// partial-column device `npu1_Ncol` / `npu2_Ncol`, which the stream's header names.
struct NpuDevice {
  Npu gen;
  int columns = 0;
};
constexpr int kWholeColumns(Npu n) { return n == Npu::Npu2 ? 8 : 4; }
// Every device, whole ones first: the targets the registry lists.
const std::vector<NpuDevice>& npuDevices();

const char* npuName(NpuDevice d);  // "npu1", "npu2_3col"
const ir::TargetModel& npuModel(NpuDevice d);
// The device a module was compiled for; an internal error (std::logic_error) for a model
// that is no NPU's, which no AIE pass or writer can be given.
NpuDevice npuOf(const ir::TargetModel& m);
tilec_txn::Device npuDevice(NpuDevice d);

constexpr int64_t kShimChannels = 2;     // per column and direction
constexpr size_t kShimQueueDepth = tilec_txn::kQueueDepth;
constexpr int64_t kDmaWordBits = 32;     // the shim DMA moves whole words
constexpr int64_t kDmaWordBytes = kDmaWordBits / 8;
// The (size, stride) pairs a descriptor walks: three dimensions and the iteration.
constexpr size_t kDescriptorDims = std::extent_v<decltype(tilec_txn::Transfer::sizes)>;

}  // namespace tilec::aie
