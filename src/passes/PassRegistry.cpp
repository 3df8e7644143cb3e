// The target-neutral pass registry (Passes.def), and property names for
// --list-passes and contract errors.
#include <utility>

#include "passes/Pass.h"

namespace tilec {
namespace {

const std::pair<Prop, const char*> kPropNames[] = {
    {PropSSA, "ssa"},
    {PropMemSpacesInferred, "mem-spaces"},
    {PropBuffersAssigned, "buffers"},
    {PropPtoLegal, "pto-legal"},
    {PropTileOps2D, "tile-ops-2d"},
    {PropNdLegalized, "nd-legalized"},
    {PropStoreWindows, "store-windows"},
    {PropAccumulatorsPacked, "acc-packed"},
    {PropUnrolled, "unrolled"},
    {PropResourceLoops, "resource-loops"},
    {PropAieLegal, "aie-legal"},
    {PropBdsAssigned, "bds"},
    {PropRegionsDerived, "regions-derived"},
    {PropRegionsLowered, "regions-lowered"},
    {PropLinxLegal, "linx-legal"},
    {PropLinxOffsets, "linx-offsets"},
    {PropLinxHands, "linx-hands"},
    {PropLinxRowsAligned, "linx-rows-aligned"},
};

}  // namespace

std::string propNames(uint32_t props) {
  std::string out;
  for (const auto& [prop, name] : kPropNames) {
    if (!(props & prop)) continue;
    if (!out.empty()) out += ",";
    out += name;
  }
  return out;
}

std::unique_ptr<Pass> PassRegistry::create(const std::string& arg) const {
  for (const auto& [name, factory] : entries_)
    if (arg == name) return factory();
  return nullptr;
}

std::vector<std::unique_ptr<Pass>> PassRegistry::all() const {
  std::vector<std::unique_ptr<Pass>> out;
  for (const auto& entry : entries_) out.push_back(entry.second());
  return out;
}

const PassRegistry& targetNeutralPasses() {
  static const PassRegistry kPasses = [] {
    PassRegistry r;
#define TILEC_PASS(ARG, FACTORY) r.add(ARG, &FACTORY);
#include "passes/Passes.def"
#undef TILEC_PASS
    return r;
  }();
  return kPasses;
}

}  // namespace tilec
