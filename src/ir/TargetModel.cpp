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

namespace {
template <class T, class Name>
std::string joinNames(const std::vector<T>& xs, size_t from, Name name) {
  std::string s;
  for (size_t i = from; i < xs.size(); ++i)
    s += std::string(i == from ? "" : i + 1 == xs.size() ? " or " : ", ") + name(xs[i]);
  return s;
}
}  // namespace

std::string TargetModel::spaceList() const {
  return joinNames(spaces, 1, [](const SpaceDesc& d) { return d.name; });
}

std::string TargetModel::kernelKindList() const {
  return joinNames(kernelKinds, 0, [](const char* k) { return k; });
}

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
