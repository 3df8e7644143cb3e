#include "ir/TargetModel.h"

namespace tilec::ir {

std::optional<SpaceId> TargetModel::parseSpace(std::string_view name) const {
  for (size_t i = 0; i < spaces.size(); ++i)
    if (name == spaces[i].name) return SpaceId(i);
  return std::nullopt;
}

SpaceId TargetModel::spaceWithRole(SpaceRole r) const {
  for (size_t i = 1; i < spaces.size(); ++i)
    if (spaces[i].roles & r) return SpaceId(i);
  return kNoSpace;
}

std::vector<std::string> TargetModel::spaceNames() const {
  std::vector<std::string> names;
  for (size_t i = 1; i < spaces.size(); ++i) names.push_back(spaces[i].name);
  return names;
}

std::vector<std::string> TargetModel::kernelKindNames() const { return {kernelKinds.begin(), kernelKinds.end()}; }

std::optional<KernelKind> TargetModel::parseKernelKind(std::string_view name) const {
  for (size_t i = 0; i < kernelKinds.size(); ++i)
    if (name == kernelKinds[i]) return KernelKind(i);
  return std::nullopt;
}

const TargetModel& neutralModel() {
  static const TargetModel kNeutral{"neutral", {{"none", 0}}, {"kernel"}, nullptr};
  return kNeutral;
}

}  // namespace tilec::ir
