#include <doctest/doctest.h>

#include "support/ArgvCompat.h"

using namespace tilec;
using Args = std::vector<std::string>;

TEST_CASE("argv: GCC-style flags become double-dash") {
  CHECK(rewriteArgsForCli11({"k.tile", "-MD", "-MP", "-fsyntax-only", "-Werror"}) ==
        Args{"k.tile", "--MD", "--MP", "--fsyntax-only", "--Werror"});
}

TEST_CASE("argv: -MF/-MT/-MQ take a separate or attached value") {
  CHECK(rewriteArgsForCli11({"-MF", "k.d", "-MTout.pto", "-MQ", "$x"}) ==
        Args{"--MF", "k.d", "--MT", "out.pto", "--MQ", "$x"});
}

TEST_CASE("argv: an explicitly empty value stays empty") {
  CHECK(rewriteArgsForCli11({"--passes=", "k.tile"}) == Args{"--passes", "", "k.tile"});
  CHECK(rewriteArgsForCli11({"--passes=verify"}) == Args{"--passes=verify"});
}

TEST_CASE("argv: other arguments and everything after -- are untouched") {
  CHECK(rewriteArgsForCli11({"-o", "-", "-v", "--emit=ir", "-"}) == Args{"-o", "-", "-v", "--emit=ir", "-"});
  CHECK(rewriteArgsForCli11({"--", "-MD", "--x="}) == Args{"--", "-MD", "--x="});
  CHECK(rewriteArgsForCli11({"-MDX"}) == Args{"-MDX"});
}

TEST_CASE("argv: -O alone is -O1 as in clang and a level stays attached") {
  CHECK(rewriteArgsForCli11({"-O", "k.tile", "-O2"}) == Args{"-O1", "k.tile", "-O2"});
  CHECK(rewriteArgsForCli11({"--", "-O"}) == Args{"--", "-O"});
}
