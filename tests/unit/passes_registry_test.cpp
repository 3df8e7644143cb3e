// The pass registry: every Passes.def entry is reachable by name, and the
// default PTO pipeline's property contracts chain from an empty start.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "passes/Pass.h"

using namespace tilec;

TEST_CASE("registry: every pass is found by its unique name; the default pipeline uses only registered passes") {
  std::vector<std::string> names;
  for (const auto& p : allPasses()) names.push_back(p->info().arg);
  CHECK(std::set<std::string>(names.begin(), names.end()).size() == names.size());
  for (const std::string& n : defaultPtoPipeline())
    CHECK_MESSAGE(std::find(names.begin(), names.end(), n) != names.end(), n);
  for (const std::string& n : names) {
    auto p = createPassByName(n);
    REQUIRE(p);
    CHECK(std::string(p->info().arg) == n);
    CHECK(std::string(p->info().summary).size() > 10);
  }
  CHECK(createPassByName("no-such-pass") == nullptr);
}

TEST_CASE("registry: the default pipeline's required properties are produced in order") {
  uint32_t props = 0;
  for (const std::string& n : defaultPtoPipeline()) {
    auto p = createPassByName(n);
    REQUIRE_MESSAGE(p, n);
    const PassInfo& info = p->info();
    std::string missing = propNames(info.required & ~props);
    CHECK_MESSAGE(missing.empty(), (n + " needs " + missing));
    props = (props & ~info.invalidated) | info.produced;
  }
  CHECK((props & PropPtoLegal) != 0);
  CHECK(defaultPtoPipeline().back() == "pto-legality");
}

TEST_CASE("registry: property names") {
  CHECK(propNames(0).empty());
  CHECK(propNames(PropSSA | PropMemSpacesInferred) == "ssa,mem-spaces");
  CHECK(propNames(PropBuffersAssigned | PropPtoLegal | PropTileOps2D | PropNdLegalized) ==
        "buffers,pto-legal,tile-ops-2d,nd-legalized");
}
