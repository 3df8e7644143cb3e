// JSON-RPC framing for the language server: each message is a header block
// (`Content-Length: N`, other headers ignored, ended by an empty line) and N bytes of
// JSON. A damaged header block is reported, not fatal: the reader finds the next
// `Content-Length:` and carries on.
#pragma once
#include <cstddef>
#include <iosfwd>
#include <string>

namespace tilec::lsp {

struct Incoming {
  enum class Kind { Message, BadHeader, End };
  Kind kind = Kind::End;
  std::string body;   // Message: the JSON text
  std::string error;  // BadHeader: what was wrong
};

// Bodies above this are refused (BadHeader) rather than allocated.
constexpr size_t kMaxMessageBytes = size_t(256) << 20;

// The next message; End at end of input (also in the middle of a message).
Incoming readMessage(std::istream& in);

// `body` with its header, ready to write.
std::string frame(const std::string& body);

}  // namespace tilec::lsp
