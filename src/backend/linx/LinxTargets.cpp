#include "backend/linx/LinxTargets.h"

#include "backend/linx/LinxOps.h"
#include "backend/linx/LinxReport.h"

namespace tilec::linx {

const PropSet PropLinxRowsAligned = registerProperty("linx-rows-aligned");
const PropSet PropLinxLegal = registerProperty("linx-legal");
const PropSet PropLinxOffsets = registerProperty("linx-offsets");
const PropSet PropLinxHands = registerProperty("linx-hands");

namespace {

PassRegistry passes() {
  PassRegistry r;
  r.addAll(targetNeutralPasses());
  r.add("linx-peel", &createLinxPeelPass);
  r.add("linx-unroll", &createLinxUnrollPass);
  r.add("linx-align-rows", &createLinxAlignRowsPass);
  r.add("linx-pack-cells", &createLinxPackCellsPass);
  r.add("linx-legality", &createLinxLegalityPass);
  r.add("linx-offsets", &createLinxOffsetsPass);
  r.add("linx-hands", &createLinxHandsPass);
  return r;
}

const std::vector<std::string> kPipeline = {"verify",          "linx-peel",       "mark-resource-loops", "linx-unroll",
                                            "unroll-loops",    "derive-regions",  "linx-align-rows",     "linx-pack-cells",
                                            "linx-legality",   "linx-offsets",    "linx-hands"};

}  // namespace

const target::TargetDesc& linxTarget() {
  static const target::TargetDesc kLinx{
      "linx",
      "LinxISA tile blocks: B.IOT and B.IOS binders with B.SUBVIEW and B.ASSEMBLE region modifiers",
      &linxModel(),
      passes(),
      kPipeline,
      {{"linx-asm", "block headers as LinxISA assembly, each word followed by its encoding", ".s", PropLinxOffsets | PropLinxHands,
        /*oneKernel=*/true, &emitListing},
       {"linx-bin", "the header words, little-endian 32-bit", ".bin", PropLinxOffsets | PropLinxHands, /*oneKernel=*/true,
        &emitBinary}},
      {{kAssembleRevA,
        "B.ASSEMBLE field 5 is the parent's SizeCode on INIT and 0 after it, and every writer's binder has a "
        "destination of the writer's SizeCode (PTO 0.58.4)",
        false},
       {kPseudoHeaders,
        "the listing also has each block's B.DIM lines and a TLOAD/TSTORE's B.IOR, pseudo-instructions with no "
        "public encoding (not in the binary; --encode refuses them)",
        false}},
      {{"linx-regions", "Linx regions", &writeRegionsSection}},
      ir::groupBit(ir::OpGroup::Core) | ir::groupBit(ir::OpGroup::Tile) | ir::groupBit(ir::OpGroup::Region),
      [](ir::OpKind k) { return findLinxOp(k) != nullptr; }};
  return kLinx;
}

}  // namespace tilec::linx
