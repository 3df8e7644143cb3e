// The OpBuilder types what it builds through the op rules; clone and
// replaceAllUsesWith reach values inside expressions, attributes and types.
#include <doctest/doctest.h>

#include "backend/pto/PtoModel.h"
#include "ir/Builder.h"
#include "ir/IRText.h"
#include "passes/PassUtils.h"
#include "test_support.h"

using namespace tilec;
using namespace tilec::ir;
using testing::ParsedTir;

using testing::nth;

TEST_CASE("builder: results typed by the op rules, violations create nothing") {
  ParsedTir p("b.tir", R"(func @k(%x: tensor<f32, [16, 64]> in) incore {
  %t = tile.load %x {offsets = [0, 0]} : tile<f32, [16, 64]>
}
)");
  REQUIRE(p.module);
  Function& f = *p.module->functions()[0];
  Value* t = nth(f.body(), 0).result();
  OpBuilder b(f.body());
  Value* sum = b.createValue(OpKind::Add, {t, t}, {}, {}, "sum");
  CHECK(sum->type() == t->type());
  Value* rows = b.createValue(OpKind::RowSum, {sum}, {}, {}, "rows");
  CHECK(rows->type().shape() == std::vector<int64_t>{16, 1});

  auto bad = b.tryCreate(OpKind::Matmul, {t, t});  // [16, 64] x [16, 64]
  REQUIRE(std::holds_alternative<OpError>(bad));
  CHECK(std::get<OpError>(bad).id == Diag::MatmulInnerDim);
  CHECK(f.body().ops().size() == 3);  // nothing was added for the failed matmul
  CHECK_THROWS_AS(b.create(OpKind::Matmul, {t, t}), std::logic_error);

  // Inserted before an op, at its location.
  Op& load = nth(f.body(), 0);
  OpBuilder front = OpBuilder::before(load);
  Op* c = front.create(OpKind::Create, {}, {}, Type::tile(DType::F32, {8, 8}), "c");
  CHECK(&nth(f.body(), 0) == c);
  CHECK(c->loc().begin == load.loc().begin);
}

TEST_CASE("builder: clone maps operands, block arguments and values inside expressions") {
  ParsedTir p("c.tir", R"(func @k(%x: tensor<f32, [%S, 64]> in, %y: tensor<f32, [%S, 64]> out, %S: index) incore {
  scf.for %c = 0 to %S step 16 {
    %t = tile.load %x {offsets = [%c, 0]} : tile<f32, [16, 64], valid=[min(16, %S - %c), 64]>
    tile.store %t, %y {offsets = [%c, 0]}
  }
}
)");
  REQUIRE(p.module);
  Function& f = *p.module->functions()[0];
  Op& loop = nth(f.body(), 0);
  // Clone the loop with %S replaced by a new size parameter %T.
  Value* T = f.addParam(Type::index(), "T", ParamDir::None);
  ValueMapping mapping{{f.param(2), T}};
  OpBuilder b(f.body());
  Op* copy = b.clone(loop, mapping);
  std::string text = printToString(*p.module);
  CHECK(text.find("scf.for %c_1 = 0 to %T step 16 {") != std::string::npos);
  CHECK(text.find("%t_1 = tile.load %x {offsets = [%c_1, 0]} : tile<f32, [16, 64], valid=[min(16, %T - %c_1), 64]>") !=
        std::string::npos);
  CHECK(text.find("tile.store %t_1, %y {offsets = [%c_1, 0]}") != std::string::npos);
  // The original is untouched, and both verify.
  CHECK(text.find("%t = tile.load %x {offsets = [%c, 0]} : tile<f32, [16, 64], valid=[min(16, %S - %c), 64]>") !=
        std::string::npos);
  CHECK(copy->body().arg(0) == mapping.at(loop.body().arg(0)));
  CHECK(verifyModule(*p.module, p.diags));
}

TEST_CASE("replaceAllUsesWith reaches expressions: attributes, valid extents and block argument types") {
  ParsedTir p("r.tir", R"(func @k(%x: tensor<f32, [%S, 64]> in, %y: tensor<f32, [%S, 64]> out, %S: index, %n: index) incore {
  %m = arith.index {value = %n * 2} : index
  scf.for %c = 0 to %m step 16 {
    %t = tile.load %x {offsets = [%c, 0]} : tile<f32, [16, 64], valid=[min(16, %m - %c), 64]>
    tile.store %t, %y {offsets = [%c, 0]}
  }
}
)");
  REQUIRE(p.module);
  Function& f = *p.module->functions()[0];
  Value* m = nth(f.body(), 0).result();
  m->replaceAllUsesWith(f.param(2));  // %m -> %S
  std::string text = printToString(*p.module);
  CHECK(text.find("%m") == text.rfind("%m"));  // only its own definition is left
  CHECK(text.find("scf.for %c = 0 to %S step 16 {") != std::string::npos);
  CHECK(text.find("valid=[min(16, %S - %c), 64]") != std::string::npos);
  CHECK(verifyModule(*p.module, p.diags));
}

TEST_CASE("function op counts follow creation, erasure and nested regions") {
  ParsedTir p("c.tir", R"(func @k(%x: tensor<f32, [16, 64]> in, %y: tensor<f32, [16, 64]> out) incore {
  scf.for %i = 0 to 4 step 1 {
    %t = tile.load %x {offsets = [0, 0]} : tile<f32, [16, 64]>
    %e = tile.exp %t : tile<f32, [16, 64]>
    tile.store %e, %y {offsets = [0, 0]}
  }
}
)");
  REQUIRE(p.module);
  Function& f = *p.module->functions()[0];
  auto counted = [&] { return f.numOps() == passes::countOps(f.body()); };
  CHECK(f.count(OpKind::For) == 1);
  CHECK(f.count(OpKind::Exp) == 1);
  CHECK(f.count(OpKind::Transpose) == 0);
  CHECK(counted());
  CHECK(passes::opsOfKind(f, {OpKind::Transpose}).empty());
  CHECK(passes::opsOfKind(f, {OpKind::Exp, OpKind::Load}).size() == 2);
  Op& loop = nth(f.body(), 0);
  Op& load = nth(loop.body(), 0);
  OpBuilder b = OpBuilder::before(nth(loop.body(), 2));
  b.createValue(OpKind::Exp, {load.result()}, {}, {}, "again");
  CHECK(f.count(OpKind::Exp) == 2);
  CHECK(counted());
  f.body().erase(&loop);  // its nested ops go with it
  CHECK(f.numOps() == 0);
  CHECK(f.count(OpKind::Exp) == 0);
  CHECK(counted());
}
