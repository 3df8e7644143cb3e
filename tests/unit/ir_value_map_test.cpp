// ir::ValueMap: a table per function indexed by value id.
#include <doctest/doctest.h>

#include "ir/Builder.h"
#include "ir/ValueMap.h"
#include "test_support.h"

using namespace tilec;
using namespace tilec::ir;
using testing::ParsedTir;

TEST_CASE("value map: entries by value, absent until set, kept across growth") {
  ParsedTir p("m.tir", R"(func @k(%x: tensor<f32, [16, 64]> in, %n: index) incore {
  %t = tile.load %x {offsets = [0, 0]} : tile<f32, [16, 64]>
  %e = tile.exp %t : tile<f32, [16, 64]>
}
)");
  REQUIRE(p.module);
  Function& f = *p.module->functions()[0];
  Value* x = f.param(0);
  Value* n = f.param(1);
  Value* t = testing::nth(f.body(), 0).result();
  Value* e = testing::nth(f.body(), 1).result();
  ValueMap<int> map;
  CHECK_FALSE(map.contains(e));
  CHECK(map.find(t) == nullptr);
  CHECK_THROWS_AS(map.at(t), std::out_of_range);
  map[e] = 4;  // the highest id first: one growth
  map[x] = 1;
  CHECK(map[t] == 0);  // value-initialised
  CHECK(map.contains(t));
  CHECK_FALSE(map.contains(n));
  CHECK(map.at(e) == 4);
  CHECK(*map.find(x) == 1);
  // Values made later have higher ids; the table grows and keeps what it held.
  OpBuilder b(f.body());
  Value* late = b.createValue(OpKind::Exp, {e}, {}, {}, "late");
  CHECK(late->id() > e->id());
  map[late] = 9;
  CHECK(map.at(e) == 4);
  CHECK(map.at(x) == 1);
  CHECK(map.at(late) == 9);
}
