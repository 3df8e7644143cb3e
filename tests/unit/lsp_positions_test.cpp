#include <doctest/doctest.h>

#include "lsp/Positions.h"
#include "lsp/Uri.h"
#include "support/Source.h"

using namespace tilec;
using lsp::Encoding;
using lsp::LineMap;
using lsp::Position;

namespace {
// "é" is 2 bytes, 1 UTF-16 unit; "😀" is 4 bytes, 2 UTF-16 units; both 1 code point.
const std::string kText = "ab\n\xC3\xA9\xF0\x9F\x98\x80x\r\nlast";
}  // namespace

TEST_CASE("lsp positions: byte offsets to UTF-16 and UTF-32 columns") {
  LineMap lines(kText);
  CHECK(lines.position(0, Encoding::Utf16) == Position{0, 0});
  CHECK(lines.position(2, Encoding::Utf16) == Position{0, 2});
  CHECK(lines.position(3, Encoding::Utf16) == Position{1, 0});
  CHECK(lines.position(5, Encoding::Utf16) == Position{1, 1});  // after é
  CHECK(lines.position(9, Encoding::Utf16) == Position{1, 3});  // after 😀: a surrogate pair
  CHECK(lines.position(9, Encoding::Utf32) == Position{1, 2});
  CHECK(lines.position(10, Encoding::Utf16) == Position{1, 4});
  CHECK(lines.position(12, Encoding::Utf32) == Position{2, 0});
  CHECK(lines.position(999, Encoding::Utf32) == Position{2, 4});  // clamped to the end
}

TEST_CASE("lsp positions: UTF-16 and UTF-32 columns to byte offsets") {
  LineMap lines(kText);
  CHECK(lines.offset({1, 1}, Encoding::Utf16) == 5);
  CHECK(lines.offset({1, 3}, Encoding::Utf16) == 9);
  CHECK(lines.offset({1, 2}, Encoding::Utf32) == 9);
  CHECK(lines.offset({1, 4}, Encoding::Utf16) == 10);
  CHECK(lines.offset({1, 99}, Encoding::Utf16) == 10);  // past the line: its end, before the CRLF
  CHECK(lines.offset({2, 2}, Encoding::Utf16) == 14);
  CHECK(lines.offset({7, 0}, Encoding::Utf16) == kText.size());  // past the last line
}

TEST_CASE("lsp positions: columns agree with the compiler's code-point columns") {
  SourceManager sm;
  FileId f = sm.addBuffer("k.tile", kText);
  LineMap lines(kText);
  for (uint32_t offset : {0u, 3u, 5u, 9u, 10u, 14u}) {
    CAPTURE(offset);
    LineCol lc = sm.lineCol(f, offset);
    Position p = lines.position(offset, Encoding::Utf32);
    CHECK(p.line + 1 == lc.line);
    CHECK(p.character + 1 == lc.column);
  }
}

TEST_CASE("lsp positions: malformed UTF-8 counts a unit per byte") {
  const std::string text = "a\xFF\xC3";  // a byte no sequence starts with, then a truncated sequence
  LineMap lines(text);
  CHECK(lines.position(2, Encoding::Utf16) == Position{0, 2});
  CHECK(lines.position(3, Encoding::Utf16) == Position{0, 3});
  CHECK(lines.offset({0, 3}, Encoding::Utf16) == 3);
}

TEST_CASE("lsp uris: file URIs and paths, percent-encoded") {
  CHECK(lsp::uriToPath("file:///tmp/a%20b/k.tile") == "/tmp/a b/k.tile");
  CHECK(lsp::uriToPath("file://host/tmp/%C3%A9.tile") == "/tmp/\xC3\xA9.tile");
  CHECK(lsp::uriToPath("untitled:Untitled-1") == "untitled:Untitled-1");
  CHECK(lsp::uriToPath("file:///bad%zz") == "/bad%zz");
  CHECK(lsp::pathToUri("/tmp/a b/\xC3\xA9.tile") == "file:///tmp/a%20b/%C3%A9.tile");
  CHECK(lsp::uriToPath(lsp::pathToUri("/x/y#1.tile")) == "/x/y#1.tile");
}
