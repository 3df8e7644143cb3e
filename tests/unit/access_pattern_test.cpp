// The tilers against taplib's acceptance cases (offsets, sizes, strides, access order and
// count, errors), and the same tilers over a runtime tensor size: one pattern with the step
// index in it, runtime guards for what a constant would have checked, and the constant
// values back when the size is substituted.
#include <doctest/doctest.h>

#include <ostream>

#include "ir/AccessPattern.h"
#include "ir/IR.h"

using namespace tilec::ir;

namespace {

struct Tap {
  int64_t offset;
  std::vector<int64_t> sizes, strides;
  bool operator==(const Tap& o) const { return offset == o.offset && sizes == o.sizes && strides == o.strides; }
};
std::ostream& operator<<(std::ostream& os, const Tap& t) {
  os << t.offset << " / [";
  for (int64_t s : t.sizes) os << s << ",";
  os << "] / [";
  for (int64_t s : t.strides) os << s << ",";
  return os << "]";
}

Tap constTap(const AccessPattern& p) {
  Tap t{p.offset.constValue(), {}, {}};
  for (const Expr& e : p.sizes) t.sizes.push_back(e.constValue());
  for (const Expr& e : p.strides) t.strides.push_back(e.constValue());
  return t;
}

TilerSpec spec(std::vector<int64_t> dims, std::vector<int64_t> tile, std::vector<int64_t> repeats = {1, 1},
               std::vector<int64_t> steps = {1, 1}) {
  TilerSpec s;
  s.tensorDims = constExprs(dims);
  s.tileDims = std::move(tile);
  s.groupRepeats = std::move(repeats);
  s.groupSteps = std::move(steps);
  return s;
}

std::vector<Tap> taps(const TilerSpec& s) {
  std::string error;
  std::optional<Tiler> t = Tiler::make(s, error);
  INFO(error);
  REQUIRE(t);
  std::vector<Tap> out;
  for (int64_t k = 0; k < t->count().constValue(); ++k) {
    std::optional<TileStep> step = t->at(Expr::constant(k), error);
    INFO(error);
    REQUIRE(step);
    CHECK_FALSE(step->shapeVaries);
    out.push_back(constTap(step->pattern));
  }
  return out;
}

std::string makeError(const TilerSpec& s) {
  std::string error;
  std::optional<Tiler> t = Tiler::make(s, error);
  if (t) t->at(Expr::constant(0), error);
  return error;
}

std::vector<int64_t> offsets(const std::vector<Tap>& ts) {
  std::vector<int64_t> out;
  for (const Tap& t : ts) out.push_back(t.offset);
  return out;
}

// taplib's access_count and access_order over the whole sequence.
std::pair<std::vector<int64_t>, std::vector<int64_t>> countAndOrder(const std::vector<Tap>& ts, int64_t elements) {
  std::vector<int64_t> count(size_t(elements), 0), order(size_t(elements), -1);
  int64_t n = 0;
  for (const Tap& t : ts) {
    AccessPattern p{Expr::constant(t.offset), constExprs(t.sizes), constExprs(t.strides)};
    const std::optional<std::vector<int64_t>> visited = accesses(p, elements);
    REQUIRE(visited);
    for (int64_t i : *visited) {
      ++count[size_t(i)];
      order[size_t(i)] = n++;
    }
  }
  return {count, order};
}

}  // namespace

TEST_CASE("tiler T1: the whole tensor is one tile") {
  TilerSpec s;
  s.tensorDims = constExprs({3, 5});
  CHECK(taps(s) == std::vector<Tap>{{0, {1, 1, 3, 5}, {0, 0, 5, 1}}});
}

TEST_CASE("tiler T2-T5: simple tiles, by rows or columns, repeated") {
  std::vector<Tap> t2 = taps(spec({9, 4}, {3, 2}));
  CHECK(offsets(t2) == std::vector<int64_t>{0, 2, 12, 14, 24, 26});
  for (const Tap& t : t2) CHECK(t == Tap{t.offset, {1, 1, 3, 2}, {0, 0, 4, 1}});
  CHECK(countAndOrder(t2, 36).first == std::vector<int64_t>(36, 1));

  TilerSpec s3 = spec({9, 4}, {3, 2});
  s3.iterColMajor = true;
  CHECK(offsets(taps(s3)) == std::vector<int64_t>{0, 12, 24, 2, 14, 26});

  TilerSpec s4 = spec({9, 4}, {3, 2});
  s4.tileColMajor = true;
  std::vector<Tap> t4 = taps(s4);
  CHECK(offsets(t4) == std::vector<int64_t>{0, 2, 12, 14, 24, 26});
  CHECK(t4[0] == Tap{0, {1, 1, 2, 3}, {0, 0, 1, 4}});
  const std::vector<int64_t> order4 = countAndOrder(t4, 36).second;
  CHECK(std::vector<int64_t>(order4.begin(), order4.begin() + 4) == std::vector<int64_t>{0, 3, 6, 9});

  TilerSpec s5 = spec({9, 4}, {3, 2});
  s5.patternRepeat = 5;
  std::vector<Tap> t5 = taps(s5);
  CHECK(t5[0] == Tap{0, {5, 1, 3, 2}, {0, 0, 4, 1}});
  auto [count5, order5] = countAndOrder(t5, 36);
  CHECK(count5 == std::vector<int64_t>(36, 5));
  CHECK(std::vector<int64_t>(order5.begin(), order5.begin() + 4) == std::vector<int64_t>{24, 25, 54, 55});
}

TEST_CASE("tiler T6-T9: groups of tiles in every walk order") {
  std::vector<Tap> t6 = taps(spec({45, 28}, {3, 2}, {5, 7}));
  CHECK(offsets(t6) == std::vector<int64_t>{0, 14, 420, 434, 840, 854});
  for (const Tap& t : t6) CHECK(t == Tap{t.offset, {5, 7, 3, 2}, {84, 2, 28, 1}});
  struct Case {
    bool tileCol, groupCol;
    Tap first;
  } cases[] = {{true, false, {0, {1, 5, 14, 3}, {0, 84, 1, 28}}},
               {false, true, {0, {1, 7, 15, 2}, {0, 2, 28, 1}}},
               {true, true, {0, {7, 5, 2, 3}, {2, 84, 1, 28}}}};
  for (const Case& c : cases) {
    TilerSpec s = spec({45, 28}, {3, 2}, {5, 7});
    s.tileColMajor = c.tileCol;
    s.groupColMajor = c.groupCol;
    std::vector<Tap> t = taps(s);
    CHECK(offsets(t) == std::vector<int64_t>{0, 14, 420, 434, 840, 854});
    CHECK(t[0] == c.first);
    CHECK(countAndOrder(t, 45 * 28).first == std::vector<int64_t>(45 * 28, 1));
  }
}

TEST_CASE("tiler T10: partial groups at the right edge hold fewer tiles") {
  TilerSpec s = spec({45, 24}, {3, 2}, {5, 7});
  s.allowPartial = true;
  CHECK(taps(s) == std::vector<Tap>{{0, {5, 7, 3, 2}, {72, 2, 24, 1}},
                                    {14, {5, 5, 3, 2}, {72, 2, 24, 1}},
                                    {360, {5, 7, 3, 2}, {72, 2, 24, 1}},
                                    {374, {5, 5, 3, 2}, {72, 2, 24, 1}},
                                    {720, {5, 7, 3, 2}, {72, 2, 24, 1}},
                                    {734, {5, 5, 3, 2}, {72, 2, 24, 1}}});
}

TEST_CASE("tiler T11-T14: stepped groups and the matmul A feed") {
  struct Case {
    std::vector<int64_t> steps;
    std::vector<int64_t> strides;
    int64_t offsets[4];  // of taps 0, 1, 26 (or 2 and 44 below) and 63
  };
  std::vector<Tap> t11 = taps(spec({32, 32}, {2, 2}, {2, 2}, {2, 1}));
  REQUIRE(t11.size() == 64);
  CHECK(t11[0] == Tap{0, {2, 2, 2, 2}, {128, 2, 32, 1}});
  CHECK(std::vector<int64_t>{t11[1].offset, t11[26].offset, t11[63].offset} == std::vector<int64_t>{4, 328, 860});
  std::vector<Tap> t12 = taps(spec({32, 32}, {2, 2}, {2, 2}, {1, 2}));
  CHECK(t12[0] == Tap{0, {2, 2, 2, 2}, {64, 4, 32, 1}});
  CHECK(std::vector<int64_t>{t12[1].offset, t12[26].offset, t12[63].offset} == std::vector<int64_t>{2, 392, 922});
  std::vector<Tap> t13 = taps(spec({32, 32}, {2, 2}, {2, 2}, {2, 2}));
  CHECK(t13[0] == Tap{0, {2, 2, 2, 2}, {128, 4, 32, 1}});
  CHECK(std::vector<int64_t>{t13[1].offset, t13[26].offset, t13[63].offset} == std::vector<int64_t>{2, 328, 858});
  for (const auto& t : {t11, t12, t13}) CHECK(countAndOrder(t, 1024).first == std::vector<int64_t>(1024, 1));
  CHECK(taps(spec({64, 64}, {16, 8}, {1, 8})) == std::vector<Tap>{{0, {1, 8, 16, 8}, {0, 8, 64, 1}},
                                                                    {1024, {1, 8, 16, 8}, {0, 8, 64, 1}},
                                                                    {2048, {1, 8, 16, 8}, {0, 8, 64, 1}},
                                                                    {3072, {1, 8, 16, 8}, {0, 8, 64, 1}}});
}

TEST_CASE("tiler E1-E5: what a tiler refuses, and the repeat that fits") {
  CHECK(makeError(spec({45, 24}, {3, 2}, {5, 7})) ==
        "the tensor's 24 columns are not whole groups of 14 (tile 2 x repeat 7 x step 1); allow partial groups, or "
        "choose groups that divide the tensor");
  CHECK(makeError(spec({9, 4}, {2, 2})) == "the tensor's 9 rows are not a whole number of tiles of 2");
  TilerSpec e3 = spec({45, 28}, {3, 2}, {5, 7});
  e3.patternRepeat = 2;
  CHECK(makeError(e3) == "a pattern repeat needs a free outer dimension, but all four are in use (sizes [5, 7, 3, "
                         "2], strides [84, 2, 28, 1])");
  e3.tileColMajor = true;
  std::vector<Tap> e4 = taps(e3);
  CHECK(e4[0] == Tap{0, {2, 5, 14, 3}, {0, 84, 1, 28}});
  CHECK(countAndOrder(e4, 45 * 28).first == std::vector<int64_t>(45 * 28, 2));
  CHECK(makeError(spec({10, 9, 4}, {3, 2})) == "a tiler cuts a 1-D or 2-D tensor, not one of 3 dims");
  CHECK(makeError(spec({9, 4}, {3, -1})) == "tile dims must be positive, but one is -1");
  CHECK(makeError(spec({9, 4}, {1, 1, 1})) == "tile dims are 1 or 2 numbers, not 3");
}

TEST_CASE("tiler: edge groups of another shape give a symbolic step a pattern that folds to each step's") {
  Module m;
  Function& f = m.addFunction("k");
  const Value* k = f.addParam(Type::index(), "i", ParamDir::None);
  // 7 x 5 tiles in groups of 3 x 2 (and 2 x 2 tiles apart): the last group row holds one
  // row of tiles, the last group column one column, so the group's shape changes at the
  // edges, in every walk order and with groups merged into larger tiles.
  int varying = 0;
  for (int flags = 0; flags < 16; ++flags) {
    for (const std::vector<int64_t>& steps : {std::vector<int64_t>{1, 1}, std::vector<int64_t>{2, 2}}) {
      TilerSpec s = spec({28, 30}, {4, 6}, {3, 2}, steps);
      s.allowPartial = true;
      s.tileColMajor = flags & 1;
      s.groupColMajor = flags & 2;
      s.iterColMajor = flags & 4;
      s.pruneSteps = flags & 8;
      CAPTURE(flags);
      CAPTURE(steps[0]);
      std::string error;
      std::optional<Tiler> t = Tiler::make(s, error);
      REQUIRE(t);
      std::optional<TileStep> symbolic = t->at(Expr::var(k), error);
      REQUIRE(symbolic);
      varying += symbolic->shapeVaries;
      const std::vector<Tap> expected = taps(s);
      for (int64_t step = 0; step < int64_t(expected.size()); ++step) {
        auto at = [&](const Expr& e) {
          return e.substitute([&](const Value* v) { return v == k ? Expr::constant(step) : Expr(); });
        };
        AccessPattern folded{at(symbolic->pattern.offset), {}, {}};
        for (const Expr& e : symbolic->pattern.sizes) folded.sizes.push_back(at(e));
        for (const Expr& e : symbolic->pattern.strides) folded.strides.push_back(at(e));
        cleanUnitDims(folded);
        CAPTURE(step);
        CHECK(constTap(folded) == expected[size_t(step)]);
      }
    }
  }
  CHECK(varying == 32);
  TilerSpec repeated = spec({28, 30}, {4, 6}, {3, 2});
  repeated.allowPartial = true;
  repeated.patternRepeat = 2;
  std::string error;
  std::optional<Tiler> t = Tiler::make(repeated, error);
  REQUIRE(t);
  CHECK_FALSE(t->at(Expr::var(k), error));
  CHECK(error == "a pattern repeat needs a free outer dimension, but the steps whose group is both taller and wider "
                 "than a tile use all four");
}

TEST_CASE("tiler: a runtime row count gives one pattern of the step index, with a guard") {
  Module m;
  Function& f = m.addFunction("k");
  const Value* rows = f.addParam(Type::index(), "M", ParamDir::None);
  const Value* k = f.addParam(Type::index(), "i", ParamDir::None);
  TilerSpec s;
  s.tensorDims = {Expr::var(rows), Expr::constant(64)};
  s.tileDims = {16, 8};
  s.groupRepeats = {1, 8};
  std::string error;
  std::optional<Tiler> t = Tiler::make(s, error);
  REQUIRE(t);
  auto name = [](const Value* v) { return v->name(); };
  CHECK(t->count().str(name) == "M / 16");
  REQUIRE(t->guards().size() == 1);
  CHECK(t->guards()[0].message == "the tensor's rows must be a positive multiple of 16 (tile 16 x repeat 1 x step 1)");
  std::optional<TileStep> step = t->at(Expr::var(k), error);
  REQUIRE(step);
  CHECK_FALSE(step->shapeVaries);
  const AccessPattern* p = &step->pattern;
  CHECK(p->offset.str(name) == "i * 1024");
  // At M = 64 the pattern of step 2 is T14's third tap.
  auto atM64 = [&](const Expr& e) {
    return e.substitute([&](const Value* v) { return v == rows ? Expr::constant(64) : v == k ? Expr::constant(2) : Expr(); });
  };
  CHECK(atM64(p->offset).constValue() == 2048);
  CHECK(atM64(t->count()).constValue() == 4);
  CHECK(atM64(t->guards()[0].holds).constValue() == 1);
  s.allowPartial = true;
  CHECK(makeError(s) == "partial groups need constant tensor sizes; the rows are a runtime value");
}
