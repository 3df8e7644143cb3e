#include <doctest/doctest.h>

#include "support/Source.h"

using namespace tilec;

TEST_CASE("source: line and column of byte offsets") {
  SourceManager sm;
  FileId f = sm.addBuffer("k.tile", "ab\ncd\n\nxyz");
  CHECK(sm.lineCol(f, 0).line == 1);
  CHECK(sm.lineCol(f, 0).column == 1);
  CHECK(sm.lineCol(f, 1).column == 2);
  CHECK(sm.lineCol(f, 2).column == 3);  // the newline itself ends line 1
  CHECK(sm.lineCol(f, 3).line == 2);
  CHECK(sm.lineCol(f, 3).column == 1);
  CHECK(sm.lineCol(f, 6).line == 3);
  CHECK(sm.lineCol(f, 7).line == 4);
  CHECK(sm.lineCol(f, 9).column == 3);
  CHECK(sm.lineCol(f, 10).column == 4);   // end of buffer
  CHECK(sm.lineCol(f, 999).line == 4);    // clamped
}

TEST_CASE("source: columns count unicode code points") {
  SourceManager sm;
  // "é" is 2 bytes, "→" 3 bytes, "𝄞" 4 bytes.
  FileId f = sm.addBuffer("u.tile", "é→𝄞x\n");
  CHECK(sm.lineCol(f, 2).column == 2);
  CHECK(sm.lineCol(f, 5).column == 3);
  CHECK(sm.lineCol(f, 9).column == 4);
  CHECK(sm.offsetOf(f, 1, 0) == 0);
  CHECK(sm.offsetOf(f, 1, 1) == 2);
  CHECK(sm.offsetOf(f, 1, 3) == 9);
  CHECK(sm.offsetOf(f, 1, 99) == 10);  // stops at the end of the line
}

TEST_CASE("source: line text without newline or carriage return") {
  SourceManager sm;
  FileId f = sm.addBuffer("w.tile", "one\r\ntwo\nthree");
  CHECK(sm.lineText(f, 1) == "one");
  CHECK(sm.lineText(f, 2) == "two");
  CHECK(sm.lineText(f, 3) == "three");
  CHECK(sm.lineText(f, 4).empty());
  CHECK(sm.lineText(f, 0).empty());
  CHECK(sm.offsetOf(f, 2, 0) == 5);
  CHECK(sm.offsetOf(f, 3, 2) == 11);
}

TEST_CASE("source: stdin is named <stdin> and files are numbered in order") {
  SourceManager sm;
  FileId a = sm.addBuffer("-", "x");
  FileId b = sm.addBuffer("dir/b.tir", "");
  CHECK(sm.name(a) == "<stdin>");
  CHECK(sm.name(b) == "dir/b.tir");
  CHECK(b == a + 1);
  CHECK(sm.fileCount() == 2);
  CHECK(sm.contents(a) == "x");
  CHECK(sm.lineCol(b, 0).line == 1);
}

TEST_CASE("source: join covers both ranges and ignores invalid ones") {
  SourceRange a{0, 4, 8}, b{0, 2, 5}, none;
  SourceRange j = SourceRange::join(a, b);
  CHECK(j.begin == 2);
  CHECK(j.end == 8);
  CHECK(SourceRange::join(none, a).begin == 4);
  CHECK(SourceRange::join(a, none).end == 8);
  CHECK_FALSE(SourceRange::join(none, none).valid());
}
