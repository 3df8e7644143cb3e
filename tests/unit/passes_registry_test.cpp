// The pass registries: every pass is found by its unique name, and each target's default
// pipeline uses only its own passes, with contracts that chain from an empty start.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "backend/pto/PtoTargets.h"
#include "passes/Pass.h"
#include "target/Registry.h"

using namespace tilec;

TEST_CASE("registry: every pass of every target is found by its unique name") {
  for (const target::TargetDesc* t : target::allTargets()) {
    CAPTURE(t->name);
    std::vector<std::string> names;
    for (const auto& p : t->passes.all()) names.push_back(p->info().arg);
    CHECK(std::set<std::string>(names.begin(), names.end()).size() == names.size());
    for (const std::string& n : names) {
      auto p = t->passes.create(n);
      REQUIRE(p);
      CHECK(std::string(p->info().arg) == n);
      CHECK(std::string(p->info().summary).size() > 10);
    }
    CHECK(t->passes.create("no-such-pass") == nullptr);
    // The target-neutral passes are every target's.
    for (const auto& p : targetNeutralPasses().all())
      CHECK(std::find(names.begin(), names.end(), std::string(p->info().arg)) != names.end());
  }
}

TEST_CASE("registry: each default pipeline's required properties are produced in order") {
  for (const target::TargetDesc* t : target::allTargets()) {
    CAPTURE(t->name);
    PropSet props = 0;
    for (const std::string& n : t->pipeline) {
      auto p = t->passes.create(n);
      REQUIRE_MESSAGE(p, n);
      const PassInfo& info = p->info();
      std::string missing = propNames(info.required & ~props);
      CHECK_MESSAGE(missing.empty(), (n + " needs " + missing));
      props = (props & ~info.invalidated) | info.produced;
    }
    for (const target::OutputFormat& f : t->formats)
      CHECK_MESSAGE((props & f.requiredProps) == f.requiredProps, f.name);
  }
}

TEST_CASE("registry: targets by name, names are unique") {
  CHECK(target::findTarget("a2a3") == &target::defaultTarget());
  REQUIRE(target::findTarget("a5"));
  CHECK(target::findTarget("a5")->model == &pto::ptoModel(pto::Arch::A5));
  CHECK(target::findTarget("nope") == nullptr);
  CHECK_FALSE(target::registerTarget(*target::findTarget("a5")));  // taken
  CHECK(target::targetNames().rfind("a2a3, a5", 0) == 0);
}

TEST_CASE("registry: property names") {
  CHECK(propNames(0).empty());
  CHECK(propNames(PropSSA | pto::PropMemSpacesInferred) == "ssa,mem-spaces");
  CHECK(propNames(pto::PropBuffersAssigned | pto::PropPtoLegal | pto::PropTileOps2D | pto::PropNdLegalized) ==
        "buffers,pto-legal,tile-ops-2d,nd-legalized");
  CHECK(propNames(pto::PropRegionsLowered | pto::PropAccumulatorsPacked | pto::PropStoreWindows | PropUnrolled) ==
        "unrolled,store-windows,acc-packed,regions-lowered");
}

TEST_CASE("registry: a pass only the PTO pipeline runs is the PTO targets' alone") {
  const std::vector<std::string> ptoOnly = {"lower-regions", "pack-accumulators", "expand-batch-matmul",
                                            "store-partition", "flatten-nd-to-2d", "fold-identity-reshape",
                                            "insert-transpose-scratch", "tile-ops-2d", "insert-reduction-scratch"};
  for (const std::string& name : ptoOnly) {
    CAPTURE(name);
    CHECK(targetNeutralPasses().create(name) == nullptr);
    for (const target::TargetDesc* t : target::allTargets()) {
      const bool pto = t == &pto::a2a3Target() || t == &pto::a5Target();
      CHECK_MESSAGE((t->passes.create(name) != nullptr) == pto, t->name);
    }
  }
}
