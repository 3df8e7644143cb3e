// Every registered target's op table against the groups it accepts: the one check that
// replaces a check per backend, so a new target or a new op cannot skip it.
#include <doctest/doctest.h>

#include <stdexcept>

#include "ir/OpDefs.h"
#include "ir/OpTable.h"
#include "target/Registry.h"

using namespace tilec;

TEST_CASE("every target's op table has a row for each op of the groups it accepts, and for no other") {
  REQUIRE(!target::allTargets().empty());
  for (const target::TargetDesc* t : target::allTargets()) {
    INFO(t->name);
    CHECK((t->groups & ir::groupBit(ir::OpGroup::Core)) != 0);
    REQUIRE(bool(t->hasOpRow));
    for (const ir::OpInfo& info : ir::allOps()) {
      INFO(info.name << " (" << ir::opGroupName(info.group) << ")");
      CHECK(t->hasOpRow(info.kind) == ((t->groups & ir::groupBit(info.group)) != 0));
    }
  }
}

namespace {
struct Row {
  ir::OpKind kind;
  int fact;
};
}  // namespace

TEST_CASE("an op table finds a row by kind in any order, and refuses two rows for one op") {
  const Row rows[] = {{ir::OpKind::Store, 2}, {ir::OpKind::Load, 1}};
  const ir::OpTable<Row> table(rows);
  REQUIRE(table.find(ir::OpKind::Load));
  CHECK(table.find(ir::OpKind::Load)->fact == 1);
  CHECK(table.find(ir::OpKind::Store)->fact == 2);
  CHECK(table.find(ir::OpKind::Add) == nullptr);
  CHECK(table.rows().size() == 2);
  const Row twice[] = {{ir::OpKind::Load, 1}, {ir::OpKind::Load, 2}};
  CHECK_THROWS_AS(ir::OpTable<Row>{twice}, std::logic_error);
}
