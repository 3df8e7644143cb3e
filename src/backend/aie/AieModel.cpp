#include "backend/aie/AieModel.h"

#include <stdexcept>
#include <string>

namespace tilec::aie {
namespace {

using namespace ir;

TargetModel makeModel(NpuDevice d) {
  TargetModel m{npuName(d), {{"none", 0}}, {"sequence"},
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

const std::vector<NpuDevice>& npuDevices() {
  static const std::vector<NpuDevice> kAll = [] {
    std::vector<NpuDevice> all = {{Npu::Npu1, 0}, {Npu::Npu2, 0}};
    for (Npu gen : {Npu::Npu1, Npu::Npu2})
      for (int c = 1; c < kWholeColumns(gen); ++c) all.push_back({gen, c});
    return all;
  }();
  return kAll;
}

namespace {

size_t indexOf(NpuDevice d) {
  const std::vector<NpuDevice>& all = npuDevices();
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i].gen == d.gen && all[i].columns == d.columns) return i;
  throw std::logic_error("no NPU device has " + std::to_string(d.columns) + " columns");
}

}  // namespace

const char* npuName(NpuDevice d) {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (NpuDevice dev : npuDevices())
      names.push_back(std::string(dev.gen == Npu::Npu2 ? "npu2" : "npu1") +
                      (dev.columns ? "_" + std::to_string(dev.columns) + "col" : ""));
    return names;
  }();
  return kNames[indexOf(d)].c_str();
}

const TargetModel& npuModel(NpuDevice d) {
  static const std::vector<TargetModel> kModels = [] {
    std::vector<TargetModel> models;
    for (NpuDevice dev : npuDevices()) models.push_back(makeModel(dev));
    return models;
  }();
  return kModels[indexOf(d)];
}

tilec_txn::Device npuDevice(NpuDevice d) {
  // Generation 3 is AIE2 as the firmware numbers it, 4 is AIE2P; six rows (shim, mem
  // tiles, four core rows) of which one is mem tiles.
  const int columns = d.columns ? d.columns : kWholeColumns(d.gen);
  return tilec_txn::Device{uint8_t(d.gen == Npu::Npu2 ? 4 : 3), 6, uint8_t(columns), 1};
}

NpuDevice npuOf(const TargetModel& m) {
  for (NpuDevice d : npuDevices())
    if (&m == &npuModel(d)) return d;
  throw std::logic_error(std::string("a module compiled for ") + m.name +
                         " reached the AIE backend, which compiles for npu1 and npu2 devices");
}

}  // namespace tilec::aie
