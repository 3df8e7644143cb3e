#include <doctest/doctest.h>

#include "support/ArgvCompat.h"

using namespace tilec;
using Args = std::vector<std::string>;

TEST_CASE("argv: GCC-style flags become double-dash") {
  CHECK(rewriteArgsForCli11({"k.tile", "-MD", "-MP", "-fsyntax-only", "-ferror-limit=3"}).args ==
        Args{"k.tile", "--MD", "--MP", "--fsyntax-only", "--ferror-limit=3"});
  // -Werror is CLI11's -W with a value; --Werror joins it there, so their order is kept.
  CHECK(rewriteArgsForCli11({"-Werror", "--Werror", "-Wno-error=E0723"}).args ==
        Args{"-Werror", "-Werror", "-Wno-error=E0723"});
}

TEST_CASE("argv: -MF/-MT/-MQ take a separate or attached value") {
  CHECK(rewriteArgsForCli11({"-MF", "k.d", "-MTout.pto", "-MQ", "$x"}).args ==
        Args{"--MF", "k.d", "--MT", "out.pto", "--MQ", "$x"});
}

TEST_CASE("argv: an explicitly empty value stays empty") {
  CHECK(rewriteArgsForCli11({"--passes=", "k.tile"}).args == Args{"--passes", "", "k.tile"});
  CHECK(rewriteArgsForCli11({"--passes=verify"}).args == Args{"--passes=verify"});
}

TEST_CASE("argv: other arguments and everything after -- are untouched") {
  CHECK(rewriteArgsForCli11({"-o", "-", "-v", "--emit=ir", "-"}).args == Args{"-o", "-", "-v", "--emit=ir", "-"});
  CHECK(rewriteArgsForCli11({"--", "-MD", "--x="}).args == Args{"--", "-MD", "--x="});
  CHECK(rewriteArgsForCli11({"-MDX"}).args == Args{"-MDX"});
}

TEST_CASE("argv: -O alone is -O1 as in clang and a level stays attached") {
  CHECK(rewriteArgsForCli11({"-O", "k.tile", "-O2"}).args == Args{"-O1", "k.tile", "-O2"});
  CHECK(rewriteArgsForCli11({"--", "-O"}).args == Args{"--", "-O"});
}

TEST_CASE("argv: clang's color flags and rustc's --error-format become tilec's options") {
  CHECK(rewriteArgsForCli11({"-fdiagnostics-color", "-fdiagnostics-color=never", "-fno-diagnostics-color"}).args ==
        Args{"--color", "always", "--color", "never", "--color", "never"});
  CHECK(rewriteArgsForCli11({"-fcolor-diagnostics", "-fno-color-diagnostics"}).args ==
        Args{"--color", "always", "--color", "never"});
  CHECK(rewriteArgsForCli11({"--error-format=json", "--error-format", "human"}).args ==
        Args{"--diagnostics-format", "json", "--diagnostics-format", "text"});
  CHECK(rewriteArgsForCli11({"--", "-fcolor-diagnostics"}).args == Args{"--", "-fcolor-diagnostics"});
  CHECK(rewriteArgsForCli11({"-fdiagnostics-color=always"}).usageError.empty());
}

TEST_CASE("argv: an alias given a value it does not take is a usage error") {
  CHECK(rewriteArgsForCli11({"--error-format=short"}).usageError ==
        "--error-format=short: the value is json or human");
  CHECK(rewriteArgsForCli11({"--error-format=jsno"}).usageError ==
        "--error-format=jsno: the value is json or human; did you mean 'json'?");
  CHECK(rewriteArgsForCli11({"-fdiagnostics-color=alwys"}).usageError ==
        "-fdiagnostics-color=alwys: the value is always, never or auto; did you mean 'always'?");
  CHECK(rewriteArgsForCli11({"-fcolor-diagnostics=always"}).usageError ==
        "-fcolor-diagnostics takes no value; write -fcolor-diagnostics alone");
  CHECK(rewriteArgsForCli11({"--error-format"}).usageError == "--error-format needs a value: --error-format=VALUE");
}
