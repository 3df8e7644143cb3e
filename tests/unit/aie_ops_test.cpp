// The AIE backend's op table (src/backend/aie/AieOps.def) against the groups npu1 and npu2
// accept, and the backend's refusal of a module that is not an NPU's.
#include <doctest/doctest.h>

#include <stdexcept>

#include "backend/aie/AieOps.h"
#include "backend/aie/AieTargets.h"
#include "ir/OpDefs.h"
#include "test_support.h"

using namespace tilec;

// That the table has a row for exactly these groups' ops is target_ops_test's check.
TEST_CASE("the NPUs accept core ops and runtime sequences") {
  for (const target::TargetDesc* t : aie::npuTargets())
    CHECK(t->groups == (ir::groupBit(ir::OpGroup::Core) | ir::groupBit(ir::OpGroup::Sequence)));
}

TEST_CASE("only transfers and waits use a shim channel") {
  for (const aie::AieOpInfo& row : aie::aieOps().rows()) {
    INFO(ir::opInfo(row.kind).name);
    const bool channel = row.form == aie::AieForm::Transfer || row.form == aie::AieForm::Wait;
    CHECK(channel == (row.channel != aie::AieChannel::None));
  }
}

// A module compiled for another target reaching an AIE pass is a broken invariant: the pass
// must not check it against some NPU's numbers (it once took npu1's silently).
TEST_CASE("aie-legality refuses a module that is no NPU's as an internal error") {
  testing::ParsedTir tir("k.tir", "func @k(%x: tensor<i32, [64]> in) incore {\n}\n");
  REQUIRE(tir.module);
  PassContext ctx{tir.diags};
  CHECK_THROWS_AS(aie::createAieLegalityPass()->run(*tir.module, ctx), std::logic_error);
}
