#include "lsp/Uri.h"

#include <cctype>
#include <filesystem>

namespace tilec::lsp {
namespace {

constexpr const char* kFileScheme = "file://";

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

// RFC 3986's unreserved characters, and '/' between segments, stay as they are.
bool keptInUri(unsigned char c) {
  return std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
}

}  // namespace

std::string uriToPath(const std::string& uri) {
  const std::string scheme = kFileScheme;
  if (uri.compare(0, scheme.size(), scheme) != 0) return uri;
  const size_t pathStart = uri.find('/', scheme.size());  // after the authority, usually empty
  if (pathStart == std::string::npos) return uri;
  std::string path;
  for (size_t i = pathStart; i < uri.size(); ++i) {
    const int hi = uri[i] == '%' && i + 2 < uri.size() ? hexValue(uri[i + 1]) : -1;
    const int lo = hi >= 0 ? hexValue(uri[i + 2]) : -1;
    if (lo < 0) {
      path += uri[i];
      continue;
    }
    path += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return path;
}

std::string pathToUri(const std::string& path) {
  std::error_code ec;
  const std::string absolute = std::filesystem::absolute(path, ec).lexically_normal().string();
  static const char* const kHex = "0123456789ABCDEF";
  std::string uri = kFileScheme;
  for (unsigned char c : ec ? path : absolute) {
    if (keptInUri(c)) {
      uri += static_cast<char>(c);
    } else {
      uri += '%';
      uri += kHex[c >> 4];
      uri += kHex[c & 15];
    }
  }
  return uri;
}

}  // namespace tilec::lsp
