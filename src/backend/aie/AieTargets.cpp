#include "backend/aie/AieTargets.h"

#include "backend/aie/AieOps.h"
#include "backend/aie/AieReport.h"

namespace tilec::aie {

const PropSet PropAieLegal = registerProperty("aie-legal");
const PropSet PropBdsAssigned = registerProperty("bds");

namespace {

PassRegistry passes() {
  PassRegistry r;
  r.addAll(targetNeutralPasses());
  r.add("split-transfers", &createSplitTransfersPass);
  r.add("aie-legality", &createAieLegalityPass);
  r.add("assign-bds", &createAssignBdsPass);
  return r;
}

const std::vector<std::string> kPipeline = {"verify",          "mark-resource-loops", "unroll-loops",
                                            "split-transfers", "aie-legality",        "assign-bds"};

std::vector<target::OutputFormat> formats() {
  return {{"txn", "AIE transaction stream, little-endian words (mlir-aie's insts.bin)", ".bin", PropBdsAssigned,
           /*oneKernel=*/true, &emitTxn},
          {"txn-text", "AIE transaction stream, one %08X word per line (mlir-aie's insts.txt)", ".txt",
           PropBdsAssigned, /*oneKernel=*/true, &emitTxnText},
          {"txn-cpp", "C++17 header: a function per sequence that builds its stream from runtime sizes", ".h",
           PropBdsAssigned, /*oneKernel=*/false, &emitTxnCpp}};
}

target::TargetDesc describe(NpuDevice d, const char* summary) {
  return {npuName(d), summary, &npuModel(d), passes(), kPipeline, formats(),
          {{kDdrFold, "add the DDR aperture offset to address patches of argument 5 and above (xclbin runtime)", true},
           {kDmaTask, "write descriptors as mlir-aie's dma_configure_task path (IRON's rt.fill/drain) does: the byte "
                      "offset in word 1", false}},
          {{"transfers", "AIE transfers", &writeTransferSection}},
          ir::groupBit(ir::OpGroup::Core) | ir::groupBit(ir::OpGroup::Sequence),
          [](ir::OpKind k) { return findAieOp(k) != nullptr; }};
}

std::string summaryOf(NpuDevice d) {
  std::string s = d.gen == Npu::Npu2 ? "Ryzen AI NPU, AIE2P (Strix, Krackan)" : "Ryzen AI NPU, AIE2 (Phoenix, Hawk Point)";
  if (d.columns) s += ", " + std::to_string(d.columns) + " of its " + std::to_string(kWholeColumns(d.gen)) + " columns";
  return s + ": TXN streams";
}

}  // namespace

const std::vector<const target::TargetDesc*>& npuTargets() {
  static const std::vector<std::string> kSummaries = [] {
    std::vector<std::string> out;
    for (NpuDevice d : npuDevices()) out.push_back(summaryOf(d));
    return out;
  }();
  static const std::vector<target::TargetDesc> kTargets = [] {
    std::vector<target::TargetDesc> out;
    for (size_t i = 0; i < npuDevices().size(); ++i) out.push_back(describe(npuDevices()[i], kSummaries[i].c_str()));
    return out;
  }();
  static const std::vector<const target::TargetDesc*> kPointers = [] {
    std::vector<const target::TargetDesc*> out;
    for (const target::TargetDesc& t : kTargets) out.push_back(&t);
    return out;
  }();
  return kPointers;
}

}  // namespace tilec::aie
