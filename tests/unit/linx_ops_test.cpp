// The linx backend's op table (src/backend/linx/LinxOps.def) against the groups linx
// accepts, and the columns' agreement with each row's form.
#include <doctest/doctest.h>

#include <string>

#include "backend/linx/LinxOps.h"
#include "backend/linx/LinxTargets.h"
#include "ir/OpDefs.h"

using namespace tilec;

// That the table has a row for exactly these groups' ops is target_ops_test's check.
TEST_CASE("linx accepts core, tile and region ops, not runtime sequences") {
  CHECK(linx::linxTarget().groups == (ir::groupBit(ir::OpGroup::Core) | ir::groupBit(ir::OpGroup::Tile) |
                                      ir::groupBit(ir::OpGroup::Region)));
}

TEST_CASE("a linx block has an engine and an opcode, an op without a form the reason") {
  for (const linx::LinxOpInfo& row : linx::linxOps().rows()) {
    INFO(ir::opInfo(row.kind).name);
    const bool block = row.form == linx::LinxForm::Block;
    CHECK(block == (std::string(row.engine).size() > 0 && std::string(row.opcode).size() > 0));
    CHECK((row.form == linx::LinxForm::None) == (std::string(row.noForm).size() > 0));
  }
}
