// The .tile formatter (frontend/Format.h): what it refuses, the decisions that depend on
// the parse (a prefix minus, a type's angle brackets), line ends, and a long file.
// tests/lit/fmt holds the golden files; tests/fmt/check-corpus.py runs it over every input.
#include <doctest/doctest.h>

#include <string>

#include "frontend/Format.h"

using namespace tilec;

namespace {

std::string formatted(const std::string& text) {
  std::optional<std::string> out = frontend::formatTile(text);
  REQUIRE(out);
  return *out;
}

}  // namespace

TEST_CASE("format: a file with a syntax error is refused with its diagnostic") {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  const FileId file = sm.addBuffer("t.tile", "kernel k() {\n  let a = ;\n}\n");
  CHECK_FALSE(frontend::formatTile(sm, file, diags));
  REQUIRE(diags.all().size() == 1);
  CHECK(std::string(diagCode(diags.all()[0].id)) == "E0101");
  CHECK_FALSE(frontend::formatTile("kernel k() { let a = \"open; }"));  // a lexical error
  CHECK_FALSE(frontend::formatTile("kernel k() { /* open }"));
}

TEST_CASE("format: a minus negates after an operator and subtracts after an operand") {
  CHECK(formatted("const A=-1-(-2)-a[0]-A;") == "const A = -1 - (-2) - a[0] - A;\n");
  CHECK(formatted("const A = x*-y;const B = f(-1, - 2);") == "const A = x * -y;\nconst B = f(-1, -2);\n");
}

TEST_CASE("format: angle brackets of type arguments hug and comparisons are spaced") {
  CHECK(formatted("const A = full < f32 > ([2], a<b);") == "const A = full<f32>([2], a < b);\n");
  CHECK(formatted("kernel k() { let t: tile<f32, [16, a>b], vec> =x>y; }") ==
        "kernel k() {\n  let t: tile<f32, [16, a > b], vec> = x > y;\n}\n");
}

TEST_CASE("format: a byte order mark goes and CRLF or CR line ends become LF") {
  CHECK(formatted("\xEF\xBB\xBF" "const A = 1;\r\n\r\n\r\nconst B = 2; // b\r\n") == "const A = 1;\n\nconst B = 2; // b\n");
  CHECK(formatted("const A = 1;\r\r\rconst B = 1 +\r2; // b\r") == "const A = 1;\n\nconst B = 1 +\n    2; // b\n");
}

TEST_CASE("format: a long file formats to a fixed point") {
  std::string text = "kernel k(x: in f32[16], y: out f32[16]) {\n";
  for (int i = 0; i < 2000; ++i) text += "let a" + std::to_string(i) + "=load(x,[0],[16])+1.0; // c\n";
  text += "}\n";
  const std::string once = formatted(text);
  CHECK(once.find("\n  let a1999 = load(x, [0], [16]) + 1.0; // c\n}\n") != std::string::npos);
  CHECK(formatted(once) == once);
}
