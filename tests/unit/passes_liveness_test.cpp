// The liveness analysis shared by buffer assignment and the capacity and packing
// decisions: reads through views, later iterations, exclusive branches.
#include <doctest/doctest.h>

#include "passes/Liveness.h"
#include "test_support.h"

using namespace tilec;
using namespace tilec::ir;
using testing::ParsedTir;

using testing::nth;

TEST_CASE("liveness: later reads, reads through views, next iterations and branches") {
  ParsedTir p("l.tir", R"(func @k(%x: tensor<f32, [16, 64]> in, %y: tensor<f32, [16, 64]> out, %n: index) incore {
  %a = tile.load %x {offsets = [0, 0]} : tile<f32, [16, 64]>
  %b = tile.exp %a : tile<f32, [16, 64]>
  %v = tile.reshape %a : tile<f32, [32, 32]>
  %w = tile.reshape %v : tile<f32, [16, 64]>
  tile.store %w, %y {offsets = [0, 0]}
  scf.for %i = 0 to 4 step 1 {
    %c = tile.exp %b : tile<f32, [16, 64]>
    tile.store %c, %y {offsets = [0, 0]}
  }
  scf.if %n == 0 {
    %d = tile.exp %b : tile<f32, [16, 64]>
    tile.store %d, %y {offsets = [0, 0]}
  } else {
    %e = tile.neg %b : tile<f32, [16, 64]>
    tile.store %e, %y {offsets = [0, 0]}
  }
}
)");
  REQUIRE(p.module);
  Function& f = *p.module->functions()[0];
  passes::Liveness live(f);
  Value* a = nth(f.body(), 0).result();
  Value* b = nth(f.body(), 1).result();
  Value* w = nth(f.body(), 3).result();
  Op& store = nth(f.body(), 4);
  Op& loop = nth(f.body(), 5);
  Op& branch = nth(f.body(), 6);

  CHECK(passes::Liveness::dataRoot(w) == a);
  std::vector<const Op*> reads;
  passes::Liveness::collectReads(a, reads);
  CHECK(reads.size() == 2);  // exp, and the store through two views

  // After %b is defined, %a is still read by the store through its views.
  auto later = live.readAfter(a, live.defOf(b));
  REQUIRE(later);
  CHECK(later->read == &store);
  CHECK(!later->nextIteration);
  CHECK(!live.readAfter(a, live.exitOf(&store)));  // nothing reads %a after the store

  // Inside the loop, %b is read again in the next iteration, even after its last read.
  Op& inLoopStore = nth(loop.body(), 1);
  auto again = live.readAfter(b, live.exitOf(&inLoopStore));
  REQUIRE(again);
  CHECK(again->nextIteration);

  // The two branches of the if exclude each other.
  passes::Point inThen = live.enterOf(&nth(branch.body(0), 0));
  passes::Point inElse = live.enterOf(&nth(branch.body(1), 0));
  CHECK(live.exclusive(inThen, inElse));
  CHECK(!live.exclusive(inThen, live.enterOf(&loop)));
  CHECK(live.inside(inThen, &branch));
  CHECK(!live.inside(inThen, &loop));
}
