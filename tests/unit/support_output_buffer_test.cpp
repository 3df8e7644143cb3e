// OutputBuffer: pieces, placeholders filled late, and spilling of large outputs to a
// temporary file, all invisible in the text it writes.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "support/OutputBuffer.h"

using namespace tilec;

namespace {

std::string writtenToFile(const OutputBuffer& out) {
  char name[] = "/tmp/tilec-outbuf-test.XXXXXX";
  const int fd = ::mkstemp(name);
  REQUIRE(fd >= 0);
  CHECK(out.writeTo(fd));
  ::close(fd);
  std::ifstream in(name, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  ::unlink(name);
  return text.str();
}

}  // namespace

TEST_CASE("output buffer: a placeholder filled after the text that follows it") {
  OutputBuffer out;
  out << "head\n";
  const OutputBuffer::Placeholder p = out.placeholder();
  out << "body " << 42 << '\n';
  out.fill(p, "constants\n");
  CHECK(out.str() == "head\nconstants\nbody 42\n");
  CHECK(out.size() == out.str().size());
  CHECK(writtenToFile(out) == out.str());
}

TEST_CASE("output buffer: tens of megabytes, spilled, come back whole and in order") {
  OutputBuffer out;
  std::string expected;
  const OutputBuffer::Placeholder p = out.placeholder();
  for (int i = 0; i < 400000; ++i) {
    std::string line = "line " + std::to_string(i) + " of a large output, long enough to matter\n";
    out << line;
    expected += line;
  }
  out.fill(p, "first\n");
  expected = "first\n" + expected;
  CHECK(out.size() == expected.size());
  CHECK(out.str() == expected);
  CHECK(writtenToFile(out) == expected);
}

TEST_CASE("output buffer: a string given whole") {
  OutputBuffer out(std::string("abc"));
  out << 'd';
  CHECK(out.str() == "abcd");
}
