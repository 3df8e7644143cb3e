#include "lsp/Transport.h"

#include <cctype>
#include <istream>

namespace tilec::lsp {
namespace {

constexpr const char* kLengthHeader = "content-length:";

std::string lowered(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The length a header line announces: nullopt-like -1 when the line has no length header,
// -2 when it has one whose value is not a number of bytes we accept. The header is looked
// for anywhere in the line, so a body that lost its header does not hide the next one.
long long announcedLength(const std::string& line) {
  const size_t at = lowered(line).rfind(kLengthHeader);
  if (at == std::string::npos) return -1;
  size_t i = at + std::char_traits<char>::length(kLengthHeader);
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  long long n = 0;
  size_t digits = 0;
  for (; i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])); ++i, ++digits) {
    n = n * 10 + (line[i] - '0');
    if (n > static_cast<long long>(kMaxMessageBytes)) return -2;
  }
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  return digits == 0 || i != line.size() ? -2 : n;
}

}  // namespace

Incoming readMessage(std::istream& in) {
  long long length = -1;
  bool sawHeader = false;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) {
      if (!sawHeader) continue;  // stray blank lines between messages
      if (length < 0) return {Incoming::Kind::BadHeader, "", length == -1 ? "no Content-Length header" : "bad Content-Length"};
      std::string body(static_cast<size_t>(length), '\0');
      if (!in.read(body.data(), length)) return {};
      return {Incoming::Kind::Message, std::move(body), ""};
    }
    sawHeader = true;
    const long long n = announcedLength(line);
    if (n != -1) length = n;
  }
  return {};
}

std::string frame(const std::string& body) {
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

}  // namespace tilec::lsp
