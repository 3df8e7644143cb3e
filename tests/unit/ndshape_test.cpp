// The ND shape rules shared by flatten-nd-to-2d, store-partition and store typing.
#include <doctest/doctest.h>

#include "backend/pto/PtoModel.h"
#include "ir/IR.h"
#include "ir/NdShape.h"

using namespace tilec;
using namespace tilec::ir;

namespace {

std::vector<Expr> ks(std::initializer_list<int64_t> xs) {
  std::vector<Expr> out;
  for (int64_t x : xs) out.push_back(Expr::constant(x));
  return out;
}

nd::StoreWindow::Failure failureOf(std::initializer_list<int64_t> valid,
                                   std::initializer_list<int64_t> dims,
                                   std::initializer_list<int64_t> offsets) {
  return nd::storeWindow(ks(valid), ks(dims), ks(offsets)).failure;
}

}  // namespace

TEST_CASE("collapse merges every leading dim into the rows") {
  CHECK(nd::collapseShape({2, 3, 4}) == std::vector<int64_t>{6, 4});
  CHECK(nd::collapseShape({2, 3, 4, 5}) == std::vector<int64_t>{24, 5});
  CHECK(nd::collapseShape({2, 2, 2, 2, 4}) == std::vector<int64_t>{16, 4});
  CHECK(nd::collapseShape({16, 4}) == std::vector<int64_t>{16, 4});
  CHECK(nd::collapseShape({64}) == std::vector<int64_t>{1, 64});  // a 1-D tile is one row
}

TEST_CASE("symbolic valid factors survive the collapse") {
  Module m;
  Function& f = m.addFunction("k");
  Expr S = Expr::var(f.addParam(Type::index(), "S", ParamDir::None));
  CHECK(nd::collapseExprs({Expr::constant(1), S, Expr::constant(512)}) ==
        std::vector<Expr>{S, Expr::constant(512)});
  CHECK(nd::collapseExprs({Expr::constant(2), S, Expr::constant(8)}) ==
        std::vector<Expr>{S * 2, Expr::constant(8)});
  CHECK(nd::collapseExprs({Expr::min(Expr::constant(64), S)}) ==
        std::vector<Expr>{Expr::constant(1), Expr::min(Expr::constant(64), S)});
}

TEST_CASE("collapsed tile types keep a default layout default") {
  Type t = Type::tile(DType::F32, {2, 3, 1}, {}, pto::Vec, std::nullopt, &pto::ptoModel(pto::Arch::A2A3));
  Type flat = nd::collapseTile(t);
  CHECK(flat.shape() == std::vector<int64_t>{6, 1});
  CHECK(flat.layout() == defaultLayout(pto::Vec, {6, 1}, &pto::ptoModel(pto::Arch::A2A3)));  // a column vector
}

TEST_CASE("offsets fold row-major over the dims") {
  CHECK(nd::foldOffsets(ks({2, 0, 0}), ks({4, 8, 16})) == ks({16, 0}));
  CHECK(nd::foldOffsets(ks({1, 2, 3}), ks({4, 8, 16})) == ks({10, 3}));
  CHECK(nd::foldOffsets(ks({1, 1, 1, 5}), ks({2, 3, 4, 8})) == ks({17, 5}));
  CHECK(nd::foldOffsets(ks({5}), ks({64})) == ks({0, 5}));  // a column of the one row
}

TEST_CASE("contiguity: leading ones, one partial dim, then full dims") {
  CHECK(nd::collapsesContiguously(ks({1, 16, 128}), ks({2, 16, 128})));
  CHECK(nd::collapsesContiguously(ks({2, 16, 128}), ks({4, 16, 128})));
  CHECK_FALSE(nd::collapsesContiguously(ks({2, 4, 16}), ks({4, 8, 16})));
  CHECK_FALSE(nd::collapsesContiguously(ks({2, 2, 5}), ks({2, 4, 5})));
  CHECK(nd::collapsesContiguously(ks({1, 1, 3, 7}), ks({2, 2, 4, 8})));  // columns not considered
}

TEST_CASE("store windows") {
  using F = nd::StoreWindow::Failure;
  CHECK(nd::storeWindow(ks({16, 64}), ks({2, 16, 64}), ks({1, 0, 0})).window == ks({1, 16, 64}));
  CHECK(nd::storeWindow(ks({6, 8}), ks({2, 3, 8}), ks({0, 0, 0})).window == ks({2, 3, 8}));
  CHECK(nd::storeWindow(ks({8, 8}), ks({2, 2, 4, 8}), ks({0, 0, 0, 0})).window == ks({1, 2, 4, 8}));
  CHECK(nd::storeWindow(ks({16, 8}), ks({2, 2, 4, 8}), ks({0, 0, 0, 0})).window == ks({2, 2, 4, 8}));
  CHECK(nd::storeWindow(ks({4, 8}), ks({2, 2, 4, 8}), ks({0, 0, 0, 0})).window == ks({1, 1, 4, 8}));
  CHECK(nd::storeWindow(ks({6, 8}), ks({4, 3, 8}), ks({2, 0, 0})).window == ks({2, 3, 8}));
  CHECK(failureOf({12, 8}, {2, 2, 4, 8}, {0, 0, 0, 0}) == F::FractionalAxis);
  CHECK(failureOf({6, 8}, {2, 3, 8}, {1, 0, 0}) == F::PastTensor);
  CHECK(failureOf({6, 8}, {4, 3, 8}, {0, 1, 0}) == F::NonZeroOffset);
  CHECK(failureOf({6, 8}, {2, 3, 4}, {0, 0, 0}) == F::PastTensor);     // columns overflow
  CHECK(failureOf({24, 8}, {2, 3, 8}, {0, 0, 0}) == F::PastTensor);    // more rows than the tensor
  CHECK(failureOf({6, 8}, {2, 3, 8}, {0, 0, 0}) == F::None);
}
