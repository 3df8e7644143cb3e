// The linx backend's op table (src/backend/linx/LinxOps.def) against the groups linx
// accepts, and the columns' agreement with each row's form.
#include <doctest/doctest.h>

#include <string>

#include "backend/linx/LinxOps.h"
#include "backend/linx/LinxTargets.h"
#include "ir/OpDefs.h"

using namespace tilec;

TEST_CASE("the linx table has one row for every op of the groups linx accepts, and no other") {
  const target::TargetDesc& t = linx::linxTarget();
  CHECK(t.groups == (ir::groupBit(ir::OpGroup::Core) | ir::groupBit(ir::OpGroup::Tile) |
                     ir::groupBit(ir::OpGroup::Region)));
  for (const ir::OpInfo& info : ir::allOps()) {
    INFO(info.name);
    size_t rows = 0;
    for (const linx::LinxOpInfo& row : linx::kLinxOps) rows += row.kind == info.kind;
    const bool accepted = (t.groups & ir::groupBit(info.group)) != 0;
    CHECK(rows == (accepted ? 1u : 0u));
    const linx::LinxOpInfo* found = linx::findLinxOp(info.kind);
    CHECK((found != nullptr) == accepted);
    if (found) CHECK(found->kind == info.kind);
  }
}

TEST_CASE("a linx block has an engine and an opcode, an op without a form the reason") {
  for (const linx::LinxOpInfo& row : linx::kLinxOps) {
    INFO(ir::opInfo(row.kind).name);
    const bool block = row.form == linx::LinxForm::Block;
    CHECK(block == (std::string(row.engine).size() > 0 && std::string(row.opcode).size() > 0));
    CHECK((row.form == linx::LinxForm::None) == (std::string(row.noForm).size() > 0));
  }
}
