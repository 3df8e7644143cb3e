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
  r.add("aie-legality", &createAieLegalityPass);
  r.add("assign-bds", &createAssignBdsPass);
  return r;
}

const std::vector<std::string> kPipeline = {"verify", "mark-resource-loops", "unroll-loops", "aie-legality",
                                            "assign-bds"};

std::vector<target::OutputFormat> formats() {
  return {{"txn", "AIE transaction stream, little-endian words (mlir-aie's insts.bin)", ".bin", PropBdsAssigned,
           /*oneKernel=*/true, &emitTxn},
          {"txn-text", "AIE transaction stream, one %08X word per line (mlir-aie's insts.txt)", ".txt",
           PropBdsAssigned, /*oneKernel=*/true, &emitTxnText},
          {"txn-cpp", "C++17 header: a function per sequence that builds its stream from runtime sizes", ".h",
           PropBdsAssigned, /*oneKernel=*/false, &emitTxnCpp}};
}

target::TargetDesc describe(Npu n, const char* summary) {
  return {npuName(n), summary, &npuModel(n), passes(), kPipeline, formats(),
          {{kDdrFold, "add the DDR aperture offset to address patches of argument 5 and above (xclbin runtime)", true}},
          {{"transfers", "AIE transfers", &writeTransferSection}},
          ir::groupBit(ir::OpGroup::Core) | ir::groupBit(ir::OpGroup::Sequence),
          [](ir::OpKind k) { return findAieOp(k) != nullptr; }};
}

}  // namespace

const target::TargetDesc& npuTarget(Npu n) {
  static const target::TargetDesc kNpu1 = describe(Npu::Npu1, "Ryzen AI NPU, AIE2 (Phoenix, Hawk Point): TXN streams");
  static const target::TargetDesc kNpu2 = describe(Npu::Npu2, "Ryzen AI NPU, AIE2P (Strix, Krackan): TXN streams");
  return n == Npu::Npu2 ? kNpu2 : kNpu1;
}

}  // namespace tilec::aie
