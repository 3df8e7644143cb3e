// Property test for the symbolic proof of a rolled slot-writing loop (passes/SlotRuns.h):
// for thousands of generated loops (grid, affine index a * j + b on each axis, bounds,
// step), the proof's verdict and run must agree with enumerating the iterations: it holds
// exactly when every iteration's slot is inside the grid and consecutive iterations write
// consecutive ordinals, and then its run lists the slots the iterations write, in order,
// each once. Also with a runtime lower bound s (a loop s + lb .. s + ub, the index over
// j - s), which the proof must see through.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "ir/Regions.h"
#include "passes/SlotRuns.h"
#include "test_rng.h"
#include "test_support.h"

using namespace tilec;
using namespace tilec::ir;

namespace {

struct Case {
  int64_t rows, cols, a0, b0, a1, b1, lb, ub, step;
  bool symbolic;  // bounds s + lb .. s + ub, the index over j - s

  std::string index(int64_t a, int64_t b) const {
    const std::string j = symbolic ? "(%j - %s)" : "%j";
    return std::to_string(a) + " * " + j + " + " + std::to_string(b);
  }
  std::string bound(int64_t v) const { return symbolic ? "%s + " + std::to_string(v) : std::to_string(v); }

  std::string text() const {
    const std::string parent = "tile<f32, [" + std::to_string(rows) + ", " + std::to_string(cols * 32) + "]>";
    const std::string grid = "[" + std::to_string(rows) + ", " + std::to_string(cols) + "]";
    return "func @k(%x: tensor<f32, [1, 32]> in, %s: index) incore {\n"
           "  %a = region.array {grid = " + grid + "} : " + parent + "\n"
           "  %r = scf.for %j = " + bound(lb) + " to " + bound(ub) + " step " + std::to_string(step) +
           " iter_args(%c = %a) -> (" + parent + ") {\n"
           "    %t = tile.load %x {offsets = [0, 0]} : tile<f32, [1, 32]>\n"
           "    %w = region.insert %c, %t {grid = " + grid + ", index = [" + index(a0, b0) + ", " + index(a1, b1) +
           "]} : " + parent + "\n"
           "    scf.yield %w\n"
           "  } {rolled = true}\n"
           "  %z = region.assembly %r {grid = " + grid + "} : " + parent + "\n"
           "}\n";
  }

  // The ordinals the iterations write, or nullopt when one is outside the grid.
  std::optional<std::vector<int64_t>> enumerate() const {
    std::vector<int64_t> ordinals;
    for (int64_t j = lb; j < ub; j += step) {
      const int64_t i = a0 * j + b0, k = a1 * j + b1;
      if (i < 0 || i >= rows || k < 0 || k >= cols) return std::nullopt;
      ordinals.push_back(i * cols + k);
    }
    return ordinals;
  }
};

Case generate(testing::Rng& rng) {
  Case c;
  c.rows = rng.in(1, 6);
  c.cols = rng.in(1, 6);
  c.a0 = rng.in(-2, 2);
  c.a1 = rng.in(-2, 2);
  c.b0 = rng.in(-3, 6);
  c.b1 = rng.in(-3, 6);
  c.lb = rng.in(-3, 3);
  c.step = rng.in(1, 3);
  c.ub = c.lb + rng.in(-2, 9);
  c.symbolic = rng.chance(30);
  return c;
}

}  // namespace

TEST_CASE("slot runs: the symbolic proof agrees with enumerating the iterations") {
  testing::Rng rng{20261205};
  int proven = 0, refused = 0;
  for (int n = 0; n < 3000; ++n) {
    const Case c = generate(rng);
    testing::ParsedTir parsed("t.tir", c.text());
    REQUIRE_MESSAGE(parsed.module, c.text());
    Function& f = *parsed.module->functions().front();
    Op* loop = nullptr;
    Op* write = nullptr;
    f.walk([&](Op& op) {
      if (op.kind() == OpKind::For) loop = &op;
      if (op.kind() == OpKind::RegionInsert) write = &op;
    });
    REQUIRE((loop && write));
    const std::optional<passes::SlotRun> run = passes::slotRun(*write, loop, nullptr);
    const std::optional<std::vector<int64_t>> ordinals = c.enumerate();
    const bool consecutive = ordinals && (ordinals->size() < 2 || std::abs((*ordinals)[1] - (*ordinals)[0]) == 1);
    INFO("case " << n << ":\n" << c.text());
    CHECK(run.has_value() == consecutive);
    if (!run || !consecutive) {
      refused += 1;
      continue;
    }
    proven += 1;
    REQUIRE(run->count == int64_t(ordinals->size()));
    std::set<int64_t> distinct;
    for (int64_t k = 0; k < run->count; ++k) {
      CHECK(run->first + run->stride * k == (*ordinals)[size_t(k)]);
      distinct.insert((*ordinals)[size_t(k)]);
    }
    CHECK(distinct.size() == ordinals->size());
    if (run->count > 0) CHECK(run->lowest() == *distinct.begin());
  }
  // Both verdicts are exercised, so the comparison can fail either way.
  CHECK(proven > 300);
  CHECK(refused > 300);
}

TEST_CASE("slot runs: the chain of an array runs through a rolled loop") {
  const Case c{8, 1, 1, 0, 0, 0, 1, 7, 1, false};
  testing::ParsedTir parsed("t.tir", c.text());
  REQUIRE(parsed.module);
  const Op* array = nullptr;
  parsed.module->functions().front()->walk([&](Op& op) {
    if (op.kind() == OpKind::RegionArray) array = &op;
  });
  REQUIRE(array);
  const ArrayChain chain = arrayChain(*array);
  REQUIRE(chain.assembly);
  REQUIRE(chain.writes.size() == 1);
  CHECK(rolledLoopOf(*chain.writes[0]) != nullptr);
}

TEST_CASE("slot runs: a coefficient times the step past 64 bits is no run") {
  // 67280421310721 * 274177 = 2^64 + 1: wrapped to 64 bits it would look like a stride of 1.
  const char* text =
      "func @k(%x: tensor<f32, [1, 32]> in) incore {\n"
      "  %a = region.array {grid = [2, 1]} : tile<f32, [2, 32]>\n"
      "  %r = scf.for %j = 0 to 548354 step 274177 iter_args(%c = %a) -> (tile<f32, [2, 32]>) {\n"
      "    %t = tile.load %x {offsets = [0, 0]} : tile<f32, [1, 32]>\n"
      "    %w = region.insert %c, %t {grid = [2, 1], index = [67280421310721 * %j, 0]} : tile<f32, [2, 32]>\n"
      "    scf.yield %w\n"
      "  } {rolled = true}\n"
      "  %z = region.assembly %r {grid = [2, 1]} : tile<f32, [2, 32]>\n"
      "}\n";
  testing::ParsedTir parsed("t.tir", text);
  REQUIRE(parsed.module);
  Op* loop = nullptr;
  Op* write = nullptr;
  parsed.module->functions().front()->walk([&](Op& op) {
    if (op.kind() == OpKind::For) loop = &op;
    if (op.kind() == OpKind::RegionInsert) write = &op;
  });
  REQUIRE((loop && write));
  CHECK_FALSE(passes::slotRun(*write, loop, nullptr).has_value());
  CHECK(parsed.diags.all().empty());
  CHECK_FALSE(passes::slotRun(*write, loop, &parsed.diags).has_value());
  REQUIRE(parsed.diags.all().size() == 1);
  CHECK(parsed.diags.all()[0].id == Diag::RegionIndex);
}
