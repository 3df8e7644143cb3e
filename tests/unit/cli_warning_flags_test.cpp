#include <doctest/doctest.h>

#include "cli/WarningFlags.h"
#include "support/Diagnostics.h"

using namespace tilec;

namespace {

WarningPolicy policyOf(std::vector<std::string> values, bool ignoreAll = false) {
  auto parsed = cli::parseWarningFlags(values, ignoreAll);
  REQUIRE(std::holds_alternative<WarningPolicy>(parsed));
  return std::get<WarningPolicy>(parsed);
}

std::string problemOf(std::vector<std::string> values) {
  auto parsed = cli::parseWarningFlags(values, false);
  REQUIRE(std::holds_alternative<std::string>(parsed));
  return std::get<std::string>(parsed);
}

}  // namespace

TEST_CASE("warning flags: a code is found by code or by name in any spelling") {
  CHECK(findDiag("E0723") == Diag::UnusedResult);
  CHECK(findDiag("e0723") == Diag::UnusedResult);
  CHECK(findDiag("UnusedResult") == Diag::UnusedResult);
  CHECK(findDiag("unused-result") == Diag::UnusedResult);
  CHECK_FALSE(findDiag("unused-reslt"));
  CHECK(diagFlagName(Diag::UnusedResult) == "unused-result");
  CHECK(diagFlagName(Diag::IRSyntax) == "ir-syntax");
}

TEST_CASE("warning flags: levels follow clang's rules") {
  CHECK(policyOf({}).levelOf(Diag::UnusedResult) == Level::Warning);
  CHECK(policyOf({"error"}).levelOf(Diag::UnusedResult) == Level::Error);
  CHECK(policyOf({"error", "no-error"}).levelOf(Diag::UnusedResult) == Level::Warning);
  CHECK(policyOf({"no-error=E0723", "error"}).levelOf(Diag::UnusedResult) == Level::Warning);
  CHECK(policyOf({"error"}).levelOf(Diag::DepOptionUnused) == Level::Error);
  CHECK_FALSE(policyOf({"no-E0723"}).levelOf(Diag::UnusedResult));
  CHECK(policyOf({"no-E0723", "error=E0723"}).levelOf(Diag::UnusedResult) == Level::Error);
  CHECK_FALSE(policyOf({"error=E0723", "no-unused-result"}).levelOf(Diag::UnusedResult));
  CHECK_FALSE(policyOf({"error=E0723"}, /*ignoreAll=*/true).levelOf(Diag::UnusedResult));
  // Errors stay errors whatever is given.
  CHECK(policyOf({"error"}, true).levelOf(Diag::UnknownName) == Level::Error);
}

TEST_CASE("warning flags: a code that names no warning is refused") {
  CHECK(problemOf({"error=E0201"}).find("E0201 (d-type-mismatch) is an error, not a warning") != std::string::npos);
  CHECK(problemOf({"no-unused-reslt"}).find("did you mean 'unused-result'?") != std::string::npos);
  CHECK(problemOf({"all"}).find("unknown option '-Wall'") == 0);
}
