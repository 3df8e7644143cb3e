// The AIE backend's op table (src/backend/aie/AieOps.def) against the groups npu1 and npu2
// accept, and the backend's refusal of a module that is not an NPU's.
#include <doctest/doctest.h>

#include <stdexcept>

#include "backend/aie/AieOps.h"
#include "backend/aie/AieTargets.h"
#include "ir/OpDefs.h"
#include "test_support.h"

using namespace tilec;

TEST_CASE("the AIE table has one row for every op of the groups the NPUs accept, and no other") {
  for (aie::Npu npu : {aie::Npu::Npu1, aie::Npu::Npu2}) {
    const target::TargetDesc& t = aie::npuTarget(npu);
    CHECK(t.groups == (ir::groupBit(ir::OpGroup::Core) | ir::groupBit(ir::OpGroup::Sequence)));
    for (const ir::OpInfo& info : ir::allOps()) {
      INFO(t.name << ": " << info.name);
      size_t rows = 0;
      for (const aie::AieOpInfo& row : aie::kAieOps) rows += row.kind == info.kind;
      const bool accepted = (t.groups & ir::groupBit(info.group)) != 0;
      CHECK(rows == (accepted ? 1u : 0u));
      const aie::AieOpInfo* found = aie::findAieOp(info.kind);
      CHECK((found != nullptr) == accepted);
      if (found) CHECK(found->kind == info.kind);
    }
  }
}

TEST_CASE("only transfers and waits use a shim channel") {
  for (const aie::AieOpInfo& row : aie::kAieOps) {
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
