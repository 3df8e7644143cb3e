#include <doctest/doctest.h>

#include "lsp/Calls.h"

using namespace tilec::lsp;

namespace {

// The call at the `|` of `marked`, which is removed.
std::optional<CallSite> at(std::string marked) {
  const size_t cursor = marked.find('|');
  marked.erase(cursor, 1);
  return callAt(marked, uint32_t(cursor));
}

}  // namespace

TEST_CASE("lsp calls: the innermost open call, its argument and keyword") {
  CHECK(at("let t = load(x, [0, |")->callee == "load");
  CHECK(at("let t = load(x, [0, |")->argument == 1);
  CHECK(at("store(y, [0, 0], exp(|t))")->callee == "exp");
  CHECK(at("store(y, [0, 0], exp(t)|)")->argument == 2);
  CHECK(at("cast<f16>(t, rmode = |")->callee == "cast");
  CHECK(at("cast<f16>(t, rmode = |")->keyword == "rmode");
  CHECK(at("f(a == |")->keyword.empty());
  CHECK(at("load(x, /* ( */ [0, 0], \"(\" |")->argument == 2);
  CHECK(!at("load(x);\n  let |"));
  CHECK(!at("load(x // (|\n"));
  CHECK(!at("for i in 0 .. 4 { |"));
  CHECK(!at("(|"));
}

TEST_CASE("lsp calls: a usage line's parameters and the one an argument fills") {
  const std::vector<UsageParameter> p = usageParameters("cast<dtype>(tile, rmode = ...)");
  REQUIRE(p.size() == 2);
  CHECK(p[0].text == "tile");
  CHECK(p[0].begin == 12);
  CHECK(p[1].text == "rmode = ...");
  CHECK(usageParameters("block_idx()").empty());
  CHECK(usageParameters("assemble(target, source, [offsets])").back().text == "[offsets]");
  CHECK(activeParameter(p, {"cast", 0, "rmode"}) == std::optional<unsigned>(1));
  CHECK(activeParameter(p, {"cast", 5, ""}) == std::optional<unsigned>(1));
  CHECK(!activeParameter(p, {"cast", 0, "nothing"}));
}
