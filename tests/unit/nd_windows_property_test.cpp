// Property test for the N-D windows: thousands of generated load/store kernels
// (tensor ranks 1 to 5, every tile rank up to the tensor's, small dims, constant and
// symbolic offsets and valid extents) run through store-partition and flatten-nd-to-2d,
// which makes every tile 2-D (a 1-D tile one row, moved through its tensor's row view).
// The IR they leave is then executed the way PTO moves data: a load reads its window
// box and packs it row after row into the 2-D tile, a store unpacks the tile's rows
// into its window box. That must move exactly the elements the N-D source names,
// each from the element the source names, checked against a direct N-D reference at
// several values of every runtime symbol. Kernels the reference says run off a tensor
// must be rejected (when that is decidable at compile time).
#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "test_rng.h"
#include "test_support.h"

using namespace tilec;
using namespace tilec::ir;
using testing::Harness;

namespace {

using Index = std::vector<int64_t>;

using testing::Rng;

// One extent or offset: a constant, or `min(cap, %S - shift)` / `%o + shift` over a symbol.
struct Term {
  enum Kind { Const, ValidOfS, OffsetO } kind = Const;
  int64_t a = 0, b = 0;  // Const: a; ValidOfS: min(a, S - b); OffsetO: o + a
  std::string text() const {
    if (kind == Const) return std::to_string(a);
    if (kind == ValidOfS) return "min(" + std::to_string(a) + ", %S - " + std::to_string(b) + ")";
    return a ? "%o + " + std::to_string(a) : "%o";
  }
  int64_t at(int64_t S, int64_t o) const {
    if (kind == Const) return a;
    if (kind == ValidOfS) return std::min(a, S - b);
    return o + a;
  }
};

struct Case {
  Index xDims, yDims;
  Index tile;                 // physical tile shape
  std::vector<Term> valid;    // one per tile axis
  std::vector<Term> loadAt, storeAt;
  bool rowSum = false;        // store row_sum(t) (y's last dim is 1) instead of exp(t)
  bool rowsRunOn = false;     // 2-D tile from a 2-D x whose rows run on into y's outer axes
};

std::string list(const Index& xs) {
  std::string s = "[";
  for (size_t i = 0; i < xs.size(); ++i) s += (i ? ", " : "") + std::to_string(xs[i]);
  return s + "]";
}
std::string list(const std::vector<Term>& ts) {
  std::string s = "[";
  for (size_t i = 0; i < ts.size(); ++i) s += (i ? ", " : "") + ts[i].text();
  return s + "]";
}

std::string tirOf(const Case& c) {
  std::string resultShape = list(c.tile), validText = list(c.valid);
  std::string s = "func @k(%x: tensor<f32, " + list(c.xDims) + "> in, %y: tensor<f32, " + list(c.yDims) +
                  "> out, %S: index, %o: index) incore {\n";
  s += "  %t = tile.load %x {offsets = " + list(c.loadAt) + "} : tile<f32, " + resultShape +
       ", valid=" + validText + ">\n";
  if (c.rowSum) {
    Index shape = c.tile;
    shape.back() = 1;
    std::vector<Term> valid = c.valid;
    valid.back() = Term{};
    valid.back().a = 1;
    s += "  %u = tile.row_sum %t : tile<f32, " + list(shape) + ", valid=" + list(valid) + ">\n";
  } else {
    s += "  %u = tile.exp %t : tile<f32, " + resultShape + ", valid=" + validText + ">\n";
  }
  s += "  tile.store %u, %y {offsets = " + list(c.storeAt) + "}\n}\n";
  return s;
}

bool inside(const Index& at, const Index& dims) {
  for (size_t i = 0; i < dims.size(); ++i)
    if (at[i] < 0 || at[i] >= dims[i]) return false;
  return true;
}

// Every index of a box, in row-major order.
std::vector<Index> boxIndices(const Index& extents) {
  std::vector<Index> out;
  for (int64_t e : extents)
    if (e <= 0) return out;
  Index i(extents.size(), 0);
  while (true) {
    out.push_back(i);
    size_t a = extents.size();
    while (a > 0 && ++i[a - 1] == extents[a - 1]) i[--a] = 0;
    if (a == 0) return out;
  }
}

// What a run moves: y index -> the x index it gets (for row sums: y index -> x row).
using Moves = std::map<Index, Index>;
struct Outcome {
  Moves moves;
  bool inBounds = true;
};

Index added(Index base, const Index& delta) {  // delta aligned to base's trailing axes
  size_t pad = base.size() - delta.size();
  for (size_t i = 0; i < delta.size(); ++i) base[pad + i] += delta[i];
  return base;
}

Index rowOf(Index i) {  // an x index with its column dropped to 0: the row a row sum reads
  i.back() = 0;
  return i;
}

// The N-D source's meaning: tile element i (within valid) comes from x at loadAt + i and
// goes to y at storeAt + i (axes aligned to the trailing tensor axes). A 2-D tile whose
// rows run on into y's outer axes writes consecutive row-major rows of y instead.
Outcome reference(const Case& c, const Index& validV, const Index& loadAt, const Index& storeAt) {
  Outcome out;
  for (const Index& i : boxIndices(validV)) {
    Index from = added(loadAt, i);
    Index to;
    if (c.rowsRunOn) {
      // y viewed as [rows, cols]: the row-major row of storeAt, then i[0] rows further.
      int64_t row = 0;
      for (size_t a = 0; a + 1 < c.yDims.size(); ++a) row = row * c.yDims[a] + storeAt[a];
      row += i[0];
      to.assign(c.yDims.size(), 0);
      to.back() = storeAt.back() + i[1];
      for (size_t a = c.yDims.size() - 1; a-- > 0;) {
        to[a] = row % c.yDims[a];
        row /= c.yDims[a];
      }
      if (row != 0) out.inBounds = false;
    } else {
      to = added(storeAt, i);
    }
    out.inBounds = out.inBounds && inside(from, c.xDims);
    if (c.rowSum) {
      to.back() = storeAt.back();
      from = rowOf(from);
    }
    out.inBounds = out.inBounds && inside(to, c.yDims);
    out.moves[to] = from;
  }
  return out;
}

// Evaluates an IR expression with %S and %o bound.
int64_t eval(const Expr& e, const Function& f, int64_t S, int64_t o) {
  Expr bound = e.substitute([&](const Value* v) -> Expr {
    if (v == f.param(2)) return Expr::constant(S);
    if (v == f.param(3)) return Expr::constant(o);
    return Expr();
  });
  auto c = bound.asConst();
  REQUIRE_MESSAGE(c, "expression does not fold to a constant");
  return *c;
}

Index evalAll(const std::vector<Expr>& es, const Function& f, int64_t S, int64_t o) {
  Index out;
  for (const Expr& e : es) out.push_back(eval(e, f, S, o));
  return out;
}

// The window a transfer op moves: its `window`, or the tile's valid extents padded.
Index windowOf(const Op& op, const Type& tile, size_t rank, const Function& f, int64_t S, int64_t o) {
  if (const auto* w = op.find(attr::window)) return evalAll(*w, f, S, o);
  Index w(rank - tile.rank(), 1);
  for (int64_t v : evalAll(tile.valid(), f, S, o)) w.push_back(v);
  return w;
}

// An index of a tensor.view (the same memory with other dims, row-major) as an index of
// the tensor it views: a 1-D tensor is moved through its [1, N] row view.
Index throughView(const Index& at, const Index& viewDims, const Index& dims) {
  int64_t linear = 0;
  for (size_t a = 0; a < at.size(); ++a) linear = linear * viewDims[a] + at[a];
  Index out(dims.size(), 0);
  for (size_t a = dims.size(); a-- > 0;) {
    out[a] = linear % dims[a];
    linear /= dims[a];
  }
  return out;
}

// The flattened IR run the PTO way: the load packs its window box row after row into
// the 2-D tile; the store unpacks the tile's rows into its window box (of the tensor's
// view, when the op moves it through one).
Outcome compiled(const Case& c, const Function& f, int64_t S, int64_t o) {
  std::vector<const Op*> ops;
  for (const auto& op : f.body().ops())
    if (op->kind() != OpKind::TensorView) ops.push_back(op.get());
  REQUIRE(ops.size() == 3);
  const Op& load = *ops[0];
  const Op& store = *ops[2];
  const Type& loaded = load.result()->type();
  const Type& stored = store.operand(0)->type();
  REQUIRE(loaded.rank() == 2);
  REQUIRE(stored.rank() == 2);
  const Index xView = evalAll(load.operand(0)->type().dims(), f, S, o);
  const Index yView = evalAll(store.operand(1)->type().dims(), f, S, o);

  Index wl = windowOf(load, loaded, xView.size(), f, S, o);
  Index ws = windowOf(store, stored, yView.size(), f, S, o);
  Index tileValid = evalAll(loaded.valid(), f, S, o);
  int64_t rows = tileValid.size() == 2 ? tileValid[0] : 1, cols = tileValid.back();
  auto rowsOf = [](const Index& w) {
    int64_t r = 1;
    for (size_t a = 0; a + 1 < w.size(); ++a) r *= w[a];
    return r;
  };
  // The 2-D tile holds exactly the window's elements, packed.
  CHECK(rowsOf(wl) == rows);
  CHECK(wl.back() == cols);
  CHECK(rowsOf(ws) == rows);
  CHECK(ws.back() == (c.rowSum ? 1 : cols));

  Index loadAt = evalAll(load.get(attr::offsets), f, S, o);
  Index storeAt = evalAll(store.get(attr::offsets), f, S, o);
  std::vector<Index> reads = boxIndices(wl), writes = boxIndices(ws);
  Outcome out;
  for (const Index& r : reads) out.inBounds = out.inBounds && inside(added(loadAt, r), xView);
  // Row r of the tile is box row r of both windows.
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t col = 0; col < (c.rowSum ? 1 : cols); ++col) {
      Index from = throughView(added(loadAt, reads[size_t(r * cols + col)]), xView, c.xDims);
      const Index toView = added(storeAt, writes[size_t(r * ws.back() + col)]);
      const Index to = throughView(toView, yView, c.yDims);
      if (c.rowSum) from = rowOf(from);
      out.inBounds = out.inBounds && inside(toView, yView);
      CHECK_MESSAGE(!out.moves.count(to), "two tile elements written to one tensor element");
      out.moves[to] = from;
    }
  }
  return out;
}

Case generate(Rng& rng) {
  Case c;
  size_t n = size_t(rng.in(1, 5));
  for (size_t a = 0; a < n; ++a) c.xDims.push_back(rng.in(1, a + 1 == n ? 5 : 4));
  c.rowsRunOn = n >= 3 && rng.chance(15);
  if (c.rowsRunOn) {
    // A 2-D tile from a 2-D x into N-D y, with more rows than y's row axis.
    c.yDims = c.xDims;
    int64_t outerRows = 1;
    for (size_t a = 0; a + 1 < n; ++a) outerRows *= c.yDims[a];
    c.yDims[n - 2] = std::max<int64_t>(1, c.yDims[n - 2]);
    int64_t rows = rng.in(c.yDims[n - 2] + 1, std::max(c.yDims[n - 2] + 1, outerRows + 1));
    c.tile = {rows, rng.in(1, c.yDims.back())};
    c.xDims = {rows + rng.in(0, 2), c.tile[1] + rng.in(0, 2)};
  } else {
    size_t k = size_t(rng.in(1, int64_t(n)));
    for (size_t j = 0; j < k; ++j) {
      int64_t dim = c.xDims[n - k + j];
      c.tile.push_back(rng.chance(8) ? dim + 1 : rng.in(1, dim));  // sometimes too big
    }
    c.yDims = c.xDims;
    for (size_t a = 0; a + k < n; ++a)
      if (rng.chance(30)) c.yDims[a] = rng.in(1, 4);
    c.rowSum = k >= 2 && rng.chance(25);
    if (c.rowSum) c.yDims.back() = 1;
  }
  // Valid extents: full, constant partial, or min(tile, S - shift).
  for (int64_t t : c.tile) {
    Term v;
    v.a = t;
    int mode = int(rng.below(10));
    if (mode >= 6 && mode < 8) v.a = rng.in(1, t);
    if (mode >= 8) v = Term{Term::ValidOfS, t, rng.in(0, 2)};
    c.valid.push_back(v);
  }
  if (c.rowsRunOn) c.valid[0] = Term{Term::Const, c.tile[0], 0};  // the rows rule is static
  // Offsets: constant (sometimes past the end), or %o on one axis.
  auto offsets = [&](const Index& dims, size_t tileRank, bool allowO) {
    std::vector<Term> at;
    for (size_t a = 0; a < dims.size(); ++a) {
      size_t j = a + tileRank - dims.size();  // the tile axis on this tensor axis, if any
      int64_t extent = a + tileRank >= dims.size() ? c.tile[j] : 1;
      Term t;
      t.a = rng.in(0, std::max<int64_t>(0, dims[a] - extent) + (rng.chance(5) ? 1 : 0));
      if (allowO && rng.chance(10)) t = Term{Term::OffsetO, 0, 0};
      at.push_back(t);
    }
    return at;
  };
  c.loadAt = offsets(c.xDims, c.tile.size(), true);
  c.storeAt = offsets(c.yDims, c.tile.size(), !c.rowsRunOn);
  if (c.rowsRunOn)
    for (size_t a = 0; a + 2 < n; ++a) c.storeAt[a].a = rng.chance(70) ? 0 : c.storeAt[a].a;
  if (c.rowSum) c.storeAt.back() = Term{};
  return c;
}

Index constants(const std::vector<Term>& ts) {
  Index out;
  for (const Term& t : ts) out.push_back(t.at(0, 0));
  return out;
}

// True when the written y indices are exactly a box (their bounding box, no holes).
bool isBox(const Outcome& run) {
  if (run.moves.empty()) return true;
  Index lo = run.moves.begin()->first, hi = lo;
  for (const auto& [to, from] : run.moves)
    for (size_t a = 0; a < to.size(); ++a) lo[a] = std::min(lo[a], to[a]), hi[a] = std::max(hi[a], to[a]);
  int64_t volume = 1;
  for (size_t a = 0; a < lo.size(); ++a) volume *= hi[a] - lo[a] + 1;
  return volume == int64_t(run.moves.size());
}

bool usesSymbols(const Case& c) {
  for (const auto* ts : {&c.valid, &c.loadAt, &c.storeAt})
    for (const Term& t : *ts)
      if (t.kind != Term::Const) return true;
  return false;
}

}  // namespace

TEST_CASE("nd windows: flattened loads and stores move exactly the N-D source's elements") {
  Rng rng{20261130};
  int compiledCases = 0, rejectedCases = 0, evaluations = 0;
  for (int n = 0; n < 6000; ++n) {
    Case c = generate(rng);
    std::string text = tirOf(c);
    CAPTURE(text);
    Harness h(text);
    bool accepted = h.run({"verify", "store-partition", "flatten-nd-to-2d"});
    const Function& f = *h.module->functions()[0];
    bool symbolic = usesSymbols(c);
    bool everyRunInBounds = true;
    for (int64_t S = 1; S <= (symbolic ? 7 : 1); S += 2) {
      for (int64_t o = 0; o <= (symbolic ? 2 : 0); ++o) {
        Index validV, loadAt, storeAt;
        bool validPositive = true;
        for (const Term& t : c.valid) {
          validV.push_back(t.at(S, o));
          validPositive = validPositive && validV.back() >= 1;
        }
        if (!validPositive) continue;  // a valid extent below 1 is no run at all
        for (const Term& t : c.loadAt) loadAt.push_back(t.at(S, o));
        for (const Term& t : c.storeAt) storeAt.push_back(t.at(S, o));
        Outcome want = reference(c, validV, loadAt, storeAt);
        everyRunInBounds = everyRunInBounds && want.inBounds;
        if (!accepted || !want.inBounds) continue;
        CAPTURE(S);
        CAPTURE(o);
        Outcome got = compiled(c, f, S, o);
        CHECK(got.inBounds);
        CHECK(got.moves == want.moves);
        ++evaluations;
      }
    }
    if (accepted) {
      ++compiledCases;
      // Statically out of bounds must not compile.
      if (!symbolic) CHECK_MESSAGE(everyRunInBounds, "accepted a kernel that runs off a tensor");
    } else {
      ++rejectedCases;
      // Only a run off a tensor, or a 2-D tile whose rows fill no box, is rejected.
      if (!c.rowsRunOn || (!symbolic && isBox(reference(c, constants(c.valid), constants(c.loadAt),
                                                         constants(c.storeAt)))))
        CHECK_MESSAGE(!everyRunInBounds, h.diagnostics());
    }
  }
  MESSAGE("nd windows: " << compiledCases << " kernels compiled, " << rejectedCases << " rejected, "
                         << evaluations << " runs compared");
  CHECK(compiledCases > 3000);
  CHECK(evaluations > 5000);
}
