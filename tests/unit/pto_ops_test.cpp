// The PTO op table (src/backend/pto/PtoOps.def): a row for every op of the groups the PTO
// targets accept and for no other op, each row complete for its form.
#include <doctest/doctest.h>

#include <string>

#include "backend/pto/PtoOps.h"
#include "backend/pto/PtoTargets.h"

using namespace tilec;
using namespace tilec::ir;

// That the table has a row for exactly these groups' ops is target_ops_test's check.
TEST_CASE("pto ops: the a2a3 and a5 targets accept the groups the op table covers") {
  CHECK(pto::a2a3Target().groups == pto::kPtoGroups);
  CHECK(pto::a5Target().groups == pto::kPtoGroups);
  CHECK((pto::kPtoGroups & groupBit(OpGroup::Sequence)) == 0);
}

TEST_CASE("pto ops: each row has what its form needs") {
  for (const pto::PtoOpInfo& row : pto::ptoOps().rows()) {
    CAPTURE(opInfo(row.kind).name);
    const bool named = std::string(row.mnemonic).size() > 1;
    switch (row.form) {
      case pto::PtoForm::Dps:
        CHECK(named);
        CHECK(row.emit == nullptr);
        break;
      case pto::PtoForm::Own:
      case pto::PtoForm::Scalar:
      case pto::PtoForm::Control:
        CHECK(row.emit != nullptr);
        break;
      case pto::PtoForm::Alloc:
      case pto::PtoForm::Lowered:
        CHECK(std::string(row.mnemonic).empty());
        CHECK(row.emit == nullptr);
        break;
    }
    // Region ops reach PTO only to be lowered (lower-regions), and pto-legality says so.
    if (opInfo(row.kind).group == OpGroup::Region) {
      CHECK(row.form == pto::PtoForm::Lowered);
      CHECK(row.rule != nullptr);
    }
  }
}
