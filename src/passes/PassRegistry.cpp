// The pass registry: name -> factory from Passes.def, the default PTO pipeline,
// and property names for --list-passes and contract errors.
#include <utility>

#include "passes/Pass.h"

namespace tilec {
namespace {

struct PassEntry {
  const char* arg;
  std::unique_ptr<Pass> (*factory)();
};

const PassEntry kPasses[] = {
#define TILEC_PASS(ARG, FACTORY) {ARG, &FACTORY},
#include "passes/Passes.def"
#undef TILEC_PASS
};

const std::pair<Prop, const char*> kPropNames[] = {
    {PropSSA, "ssa"},
    {PropMemSpacesInferred, "mem-spaces"},
    {PropBuffersAssigned, "buffers"},
    {PropPtoLegal, "pto-legal"},
    {PropTileOps2D, "tile-ops-2d"},
    {PropNdLegalized, "nd-legalized"},
    {PropStoreWindows, "store-windows"},
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

std::vector<std::unique_ptr<Pass>> allPasses() {
  std::vector<std::unique_ptr<Pass>> out;
  for (const PassEntry& e : kPasses) out.push_back(e.factory());
  return out;
}

std::unique_ptr<Pass> createPassByName(const std::string& arg) {
  for (const PassEntry& e : kPasses)
    if (arg == e.arg) return e.factory();
  return nullptr;
}

std::vector<std::string> defaultPtoPipeline() {
  return {"verify",
          "store-partition",
          "flatten-nd-to-2d",
          "fold-identity-reshape",
          "insert-transpose-scratch",
          "tile-ops-2d",
          "infer-memory-space",
          "insert-reduction-scratch",
          "assign-buffers",
          "pto-legality"};
}

}  // namespace tilec
