#include <doctest/doctest.h>

#include "support/DepFile.h"

using namespace tilec;

TEST_CASE("depfile: escaping follows GCC") {
  CHECK(escapeDepPath("plain/k.tile") == "plain/k.tile");
  CHECK(escapeDepPath("a b.tile") == "a\\ b.tile");
  CHECK(escapeDepPath("a#b") == "a\\#b");
  CHECK(escapeDepPath("$x.tile") == "$$x.tile");
  CHECK(escapeDepPath("a\\b") == "a\\b");         // a lone backslash stays
  CHECK(escapeDepPath("a\\ b") == "a\\\\\\ b");   // backslash before space: doubled, then "\ "
  CHECK(escapeDepPath("a\\\\#") == "a\\\\\\\\\\#");
  CHECK(escapeDepPath("a\\$") == "a\\$$");        // only space and '#' double backslashes
}

TEST_CASE("depfile: rule with targets and dependencies") {
  DepFileContents dep;
  dep.targets = {"out dir/k.pto"};  // already depfile syntax: used verbatim
  dep.deps = {"in dir/k.tile", "lib/$std.tile"};
  CHECK(renderDepFile(dep) == "out dir/k.pto: in\\ dir/k.tile lib/$$std.tile\n");
}

TEST_CASE("depfile: -MP adds an empty rule for every dependency but the main input") {
  DepFileContents dep;
  dep.targets = {"k.pto", "k.d"};
  dep.deps = {"k.tile", "a b.tile", "c.tile"};
  dep.phonyTargets = true;
  CHECK(renderDepFile(dep) ==
        "k.pto k.d: k.tile a\\ b.tile c.tile\n"
        "a\\ b.tile:\n"
        "c.tile:\n");
}

TEST_CASE("depfile: no dependencies (stdin input) still makes a valid rule") {
  DepFileContents dep;
  dep.targets = {"k.pto"};
  dep.phonyTargets = true;
  CHECK(renderDepFile(dep) == "k.pto:\n");
}
