// The target-neutral pass registry (Passes.def), and property names for
// --list-passes and contract errors.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "passes/Pass.h"

namespace tilec {
namespace {

// Every registered property's name, its bit the position. The target-neutral ones come
// first, in the order of their constants in Pass.h.
std::vector<std::string>& propertyNames() {
  static std::vector<std::string> names = {"ssa", "unrolled", "resource-loops", "regions-derived"};
  return names;
}

}  // namespace

PropSet registerProperty(const char* name) {
  std::vector<std::string>& names = propertyNames();
  auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) {
    if (names.size() == 64) throw std::logic_error(std::string("no bit is left for property '") + name + "'");
    it = names.insert(names.end(), name);
  }
  return PropSet(1) << (it - names.begin());
}

std::string propNames(PropSet props) {
  std::string out;
  const std::vector<std::string>& names = propertyNames();
  for (size_t i = 0; i < names.size(); ++i) {
    if (!(props >> i & 1)) continue;
    if (!out.empty()) out += ",";
    out += names[i];
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
