#include "backend/pto/PtoTargets.h"

#include "backend/pto/PtoEmitter.h"
#include "backend/pto/PtoOps.h"
#include "backend/pto/PtoReport.h"

namespace tilec::pto {

const PropSet PropMemSpacesInferred = registerProperty("mem-spaces");
const PropSet PropBuffersAssigned = registerProperty("buffers");
const PropSet PropPtoLegal = registerProperty("pto-legal");
const PropSet PropTileOps2D = registerProperty("tile-ops-2d");
const PropSet PropNdLegalized = registerProperty("nd-legalized");
const PropSet PropStoreWindows = registerProperty("store-windows");
const PropSet PropAccumulatorsPacked = registerProperty("acc-packed");
const PropSet PropRegionsLowered = registerProperty("regions-lowered");
const PropSet PropCoresSplit = registerProperty("cores-split");

namespace {

using namespace ir;

PassRegistry passes() {
  PassRegistry r;
  r.addAll(targetNeutralPasses());
  r.add("lower-regions", &createLowerRegionsPass);
  r.add("pack-accumulators", &createPackAccumulatorsPass);
  r.add("expand-batch-matmul", &createExpandBatchMatmulPass);
  r.add("lower-scans", &createLowerScansPass);
  r.add("store-partition", &createStorePartitionPass);
  r.add("flatten-nd-to-2d", &createFlattenNdTo2DPass);
  r.add("fold-identity-reshape", &createFoldIdentityReshapePass);
  r.add("insert-transpose-scratch", &createInsertTransposeScratchPass);
  r.add("lower-gather", &createLowerGatherPass);
  r.add("tile-ops-2d", &createTileOps2DPass);
  r.add("infer-memory-space", &createInferMemorySpacePass);
  r.add("multi-buffer", &createMultiBufferPass);
  r.add("split-cube-vector", &createSplitCubeVectorPass);
  r.add("columns-as-rows", &createColumnsAsRowsPass);
  r.add("pad-short-rows", &createPadShortRowsPass);
  r.add("insert-reduction-scratch", &createInsertReductionScratchPass);
  r.add("assign-buffers", &createAssignBuffersPass);
  r.add("pto-legality", &createPtoLegalityPass);
  r.add("check-capacity", &createCheckCapacityPass);
  r.add("plan-addresses", &createPlanAddressesPass);
  return r;
}

const std::vector<std::string> kPipeline = {
    "verify",           "mark-resource-loops", "unroll-loops", "derive-regions", "lower-regions", "pack-accumulators", "expand-batch-matmul", "lower-scans", "store-partition",    "flatten-nd-to-2d",         "fold-identity-reshape",
    "insert-transpose-scratch", "lower-gather", "tile-ops-2d", "infer-memory-space", "distribute-blocks", "multi-buffer", "split-cube-vector", "columns-as-rows", "pad-short-rows", "insert-reduction-scratch",
    "assign-buffers",   "pto-legality",       "check-capacity",     "plan-addresses"};

std::vector<target::OutputFormat> formats() {
  return {{"pto", "PTO assembly (MLIR pto dialect text) for PTOAS", ".pto", PropPtoLegal,
           /*oneKernel=*/true,
           [](const Module& m, OutputBuffer& os, DiagnosticEngine& diags, const target::FlagValues& flags) {
             return emitModule(m, os, diags, flags.at("fixed-addresses"));
           }}};
}

target::TargetDesc describe(Arch arch, const char* summary) {
  target::TargetDesc t{archName(arch), summary, &ptoModel(arch), passes(), kPipeline, formats()};
  t.flags = {{"fixed-addresses",
              "pto.alloc_tile carries the address plan-addresses chose (assemble with ptoas "
              "--pto-level=level3); false leaves the addresses to PTOAS's PlanMemory (its default level2)",
              true}};
  t.groups = kPtoGroups;
  t.reportSections = {{"cores", "cube and vector cores", &writeCoresSection},
                      {"timeline", "pipe timeline", &writeTimelineSection}};
  t.hasOpRow = [](ir::OpKind k) { return ptoOp(k) != nullptr; };
  return t;
}

}  // namespace

const target::TargetDesc& a2a3Target() {
  static const target::TargetDesc kTarget = describe(Arch::A2A3, "Ascend A2/A3 (910B): PTO assembly");
  return kTarget;
}

const target::TargetDesc& a5Target() {
  static const target::TargetDesc kTarget = describe(Arch::A5, "Ascend A5 (950): PTO assembly");
  return kTarget;
}

const target::TargetDesc& ptoTarget(Arch a) { return *perArch(a, &a2a3Target(), &a5Target()); }

}  // namespace tilec::pto
