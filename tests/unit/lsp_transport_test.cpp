#include <doctest/doctest.h>

#include <sstream>

#include "lsp/Transport.h"

using namespace tilec::lsp;

TEST_CASE("lsp transport: frames round-trip, other headers ignored") {
  std::istringstream in(frame("{\"a\":1}") + "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n" +
                        "content-length: 2\r\n\r\n[]");
  Incoming first = readMessage(in);
  CHECK(first.kind == Incoming::Kind::Message);
  CHECK(first.body == "{\"a\":1}");
  Incoming second = readMessage(in);
  CHECK(second.kind == Incoming::Kind::Message);
  CHECK(second.body == "[]");
  CHECK(readMessage(in).kind == Incoming::Kind::End);
}

TEST_CASE("lsp transport: a broken header is reported and the next message still read") {
  std::istringstream in("X-Trace: on\r\n\r\nContent-Length: -3\r\n\r\n" + frame("{}"));
  Incoming missing = readMessage(in);
  CHECK(missing.kind == Incoming::Kind::BadHeader);
  CHECK(missing.error == "no Content-Length header");
  Incoming bad = readMessage(in);
  CHECK(bad.kind == Incoming::Kind::BadHeader);
  CHECK(bad.error == "bad Content-Length");
  Incoming good = readMessage(in);
  CHECK(good.kind == Incoming::Kind::Message);
  CHECK(good.body == "{}");
}

TEST_CASE("lsp transport: a body without its header does not hide the next message") {
  std::istringstream in("{\"lost\":true}" + frame("{\"found\":1}"));
  Incoming m = readMessage(in);
  CHECK(m.kind == Incoming::Kind::Message);
  CHECK(m.body == "{\"found\":1}");
}

TEST_CASE("lsp transport: oversized and truncated messages") {
  std::istringstream huge("Content-Length: 99999999999\r\n\r\n");
  CHECK(readMessage(huge).kind == Incoming::Kind::BadHeader);
  std::istringstream truncated("Content-Length: 10\r\n\r\n{}");
  CHECK(readMessage(truncated).kind == Incoming::Kind::End);
  std::istringstream empty("");
  CHECK(readMessage(empty).kind == Incoming::Kind::End);
}
