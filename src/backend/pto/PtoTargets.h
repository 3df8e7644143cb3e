// The PTO backend's targets: Ascend A2/A3 (910B) and A5 (950), their passes and the
// properties those passes produce.
#pragma once
#include <memory>

#include "backend/pto/PtoModel.h"
#include "passes/Pass.h"
#include "target/Target.h"

namespace tilec::pto {

// The PTO-only passes (one file each in this directory; insert-transpose-scratch and
// insert-reduction-scratch share InsertScratch.cpp).
std::unique_ptr<Pass> createLowerRegionsPass();
std::unique_ptr<Pass> createPackAccumulatorsPass();
std::unique_ptr<Pass> createExpandBatchMatmulPass();
std::unique_ptr<Pass> createLowerScansPass();
std::unique_ptr<Pass> createLowerGatherPass();
std::unique_ptr<Pass> createStorePartitionPass();
std::unique_ptr<Pass> createFlattenNdTo2DPass();
std::unique_ptr<Pass> createFoldIdentityReshapePass();
// fold-identity-reshape's rewrite of one function, for passes that make such reshapes
// (pad-short-rows): uses of a reshape or reinterpret_view that changes nothing read its
// operand, and the op goes away.
void foldIdentityReshapes(ir::Function& f);
std::unique_ptr<Pass> createInsertTransposeScratchPass();
std::unique_ptr<Pass> createTileOps2DPass();
std::unique_ptr<Pass> createInferMemorySpacePass();
std::unique_ptr<Pass> createSplitCubeVectorPass();
std::unique_ptr<Pass> createMultiBufferPass();
// Whether `f` is split already: its body holds pipes and sections (split-cube-vector's, or
// written so in IR text).
bool isSplitKernel(const ir::Function& f);
std::unique_ptr<Pass> createColumnsAsRowsPass();
std::unique_ptr<Pass> createPadShortRowsPass();
std::unique_ptr<Pass> createInsertReductionScratchPass();
std::unique_ptr<Pass> createAssignBuffersPass();
std::unique_ptr<Pass> createPtoLegalityPass();
std::unique_ptr<Pass> createCheckCapacityPass();
std::unique_ptr<Pass> createPlanAddressesPass();

// The PTO passes' IR properties (passes/Pass.h), registered in this order.
extern const PropSet PropMemSpacesInferred;   // every tile has a memory space; moves inserted
extern const PropSet PropBuffersAssigned;     // every tile result has a `buffer` attribute
extern const PropSet PropPtoLegal;            // PTO target rules hold (ready to emit)
extern const PropSet PropTileOps2D;           // no op but load/store/reshape sees a >2D tile
extern const PropSet PropNdLegalized;         // tile-ops-2d verified: 2-D forms only, scratch present
extern const PropSet PropStoreWindows;        // every store into a >2D tensor has its N-D `window`
extern const PropSet PropAccumulatorsPacked;  // every batched accumulator has its layout (pack-accumulators)
extern const PropSet PropRegionsLowered;      // no region op is left (lower-regions)
extern const PropSet PropCoresSplit;          // no mix kernel is left unsplit (split-cube-vector)

const target::TargetDesc& ptoTarget(Arch a);
const target::TargetDesc& a2a3Target();
const target::TargetDesc& a5Target();

}  // namespace tilec::pto
