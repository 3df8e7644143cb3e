#include "target/Registry.h"

#include "backend/aie/AieCodec.h"
#include "backend/aie/AieTargets.h"
#include "backend/linx/LinxCodec.h"
#include "backend/linx/LinxTargets.h"
#include "backend/pto/PtoTargets.h"
#include "support/Wording.h"

namespace tilec::target {
namespace {

std::vector<const TargetDesc*>& registry() {
  static std::vector<const TargetDesc*> targets = [] {
    std::vector<const TargetDesc*> all = {&pto::a2a3Target(), &pto::a5Target()};
    const std::vector<const TargetDesc*>& npus = aie::npuTargets();
    all.insert(all.end(), npus.begin(), npus.begin() + 2);  // npu1, npu2
    all.push_back(&linx::linxTarget());
    all.insert(all.end(), npus.begin() + 2, npus.end());    // the partial-column devices last
    return all;
  }();
  return targets;
}

}  // namespace

const std::vector<const TargetDesc*>& allTargets() { return registry(); }

const TargetDesc* findTarget(std::string_view name) {
  for (const TargetDesc* t : registry())
    if (name == t->name) return t;
  return nullptr;
}

const TargetDesc& defaultTarget() { return *registry().front(); }

bool registerTarget(const TargetDesc& t) {
  if (findTarget(t.name)) return false;
  registry().push_back(&t);
  return true;
}

const std::vector<const BinaryCodec*>& allCodecs() {
  static const std::vector<const BinaryCodec*> kCodecs = {&aie::txnCodec(), &linx::linxCodec()};
  return kCodecs;
}

const BinaryCodec* findCodec(std::string_view name) {
  for (const BinaryCodec* c : allCodecs())
    if (name == c->name) return c;
  return nullptr;
}

std::string targetNames() {
  std::vector<std::string> names;
  for (const TargetDesc* t : registry()) names.push_back(t->name);
  return listText(names);
}

}  // namespace tilec::target
