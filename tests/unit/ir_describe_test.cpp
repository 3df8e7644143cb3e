// How IR is shown to people (ir/Describe.h): one spelling of lists, numbers, types and
// value names, whichever message, hover, report or IR text shows them.
#include <doctest/doctest.h>

#include <cstdlib>

#include "ir/Describe.h"
#include "ir/IRText.h"
#include "test_support.h"

using namespace tilec;
using namespace tilec::ir;

namespace {

const char* kRows = R"(func @rows(%x: tensor<f32, [%S, 64]> in, %S: index) incore {
  %t = tile.load %x {offsets = [0, 0]} : tile<f32, [16, 64], valid=[min(16, %S), 64]>
}
)";

}  // namespace

TEST_CASE("describe: a list of numbers or expressions is bracketed, comma-separated") {
  CHECK(shapeText(std::vector<int64_t>{16, 32}) == "[16, 32]");
  CHECK(shapeText(std::vector<int64_t>{}) == "[]");
  CHECK(shapeText(std::vector<Expr>{Expr::constant(2), Expr::constant(-1)}) == "[2, -1]");
}

TEST_CASE("describe: a value by its author's name in messages, by the printer's in IR text") {
  testing::ParsedTir p("rows.tir", kRows);
  REQUIRE(p.module);
  const Function& f = *p.module->functions().front();
  const Value* x = f.param(0);
  const Value* tile = f.body().ops().front()->result();
  const ValueNames names(f);
  CHECK(shapeText(x->type().dims()) == "[S, 64]");
  CHECK(shapeText(x->type().dims(), [&](const Value* v) { return irName(v, names); }) == "[%S, 64]");
  CHECK(describeByName(f.param(1)) == "'S'");
  CHECK(irName(tile, names) == "%t");
  CHECK(annotationText(x->type()) == "f32[S, 64]");
  CHECK(annotationText(tile->type()) == "tile<f32, [16, 64], valid = [min(16, S), 64]>");
}

TEST_CASE("describe: a float is the shortest decimal that reads back exactly") {
  CHECK(numberText(0.1) == "0.1");
  CHECK(numberText(3.0) == "3");
  CHECK(numberText(1e30) == "1e+30");
  CHECK(numberText(-0.75) == "-0.75");
  CHECK(numberText(1.0 / 3) == "0.3333333333333333");
  for (double d : {1.0 / 3, 2.0 / 7, 6.02214076e23, 5e-324, 1.7976931348623157e308})
    CHECK(std::strtod(numberText(d).c_str(), nullptr) == d);
}
