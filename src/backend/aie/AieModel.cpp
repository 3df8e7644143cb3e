#include "backend/aie/AieModel.h"

#include <stdexcept>
#include <string>

namespace tilec::aie {
namespace {

using namespace ir;

TargetModel makeModel(Npu n) {
  TargetModel m{npuName(n), {{"none", 0}}, {"sequence"},
                [](SpaceId, const std::vector<int64_t>& shape) { return defaultLayout(kNoSpace, shape, nullptr); }, 0};
  m.sequenceKind = KernelKind(0);
  m.rawOps = {{"write32", {"address", "value", "column", "row"}, 2},
              {"maskwrite32", {"address", "value", "mask", "column", "row"}, 3},
              {"maskpoll32", {"address", "value", "mask"}, 3},
              {"blockwrite", {"address", "column", "row"}, 1, /*data=*/true},
              {"sync", {"column", "row", "direction", "channel", "column_num", "row_num"}, 6},
              {"address_patch", {"address", "arg_idx", "arg_plus"}, 3},
              {"load_pdi", {"id", "size", "address"}, 3},
              {"preempt", {"level"}, 1}};
  return m;
}

}  // namespace

const char* npuName(Npu n) { return n == Npu::Npu2 ? "npu2" : "npu1"; }

const TargetModel& npuModel(Npu n) {
  static const TargetModel kNpu1 = makeModel(Npu::Npu1), kNpu2 = makeModel(Npu::Npu2);
  return n == Npu::Npu2 ? kNpu2 : kNpu1;
}

tilec_txn::Device npuDevice(Npu n) {
  // Generation 3 is AIE2 as the firmware numbers it, 4 is AIE2P; six rows (shim, mem
  // tiles, four core rows) of which one is mem tiles.
  return n == Npu::Npu2 ? tilec_txn::Device{4, 6, 8, 1} : tilec_txn::Device{3, 6, 4, 1};
}

Npu npuOf(const TargetModel& m) {
  if (&m == &npuModel(Npu::Npu1)) return Npu::Npu1;
  if (&m == &npuModel(Npu::Npu2)) return Npu::Npu2;
  throw std::logic_error(std::string("a module compiled for ") + m.name + " reached the AIE backend, which compiles for npu1 and npu2");
}

}  // namespace tilec::aie
