#include "lsp/Calls.h"

#include <cctype>

namespace tilec::lsp {
namespace {

bool isNameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

struct Open {
  char bracket;
  uint32_t at;        // of the bracket
  unsigned commas;    // at this level
  uint32_t argStart;  // of the current argument
};

// The offset just past a comment or string that starts at `i`, or `i` when none does.
size_t skipped(std::string_view text, size_t i) {
  if (text.compare(i, 2, "//") == 0) {
    const size_t end = text.find('\n', i);
    return end == std::string_view::npos ? text.size() : end + 1;  // the cursor at its end is in it
  }
  if (text.compare(i, 2, "/*") == 0) {
    const size_t end = text.find("*/", i + 2);
    return end == std::string_view::npos ? text.size() : end + 2;
  }
  if (text[i] == '"') {
    size_t j = i + 1;
    while (j < text.size() && text[j] != '"' && text[j] != '\n') j += text[j] == '\\' ? 2 : 1;
    return std::min(j + 1, text.size());
  }
  return i;
}

// The name that ends at `end` (before blanks and one `<...>`), or empty.
std::string nameBefore(std::string_view text, size_t end) {
  auto skipBlanks = [&] {
    while (end > 0 && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  };
  skipBlanks();
  if (end > 0 && text[end - 1] == '>') {
    const size_t open = text.rfind('<', end - 1);
    if (open == std::string_view::npos) return "";
    end = open;
    skipBlanks();
  }
  size_t begin = end;
  while (begin > 0 && isNameChar(text[begin - 1])) --begin;
  return std::string(text.substr(begin, end - begin));
}

// `name =` at the start of an argument (not `==`).
std::string keywordOf(std::string_view arg) {
  size_t i = 0;
  while (i < arg.size() && std::isspace(static_cast<unsigned char>(arg[i]))) ++i;
  const size_t begin = i;
  while (i < arg.size() && isNameChar(arg[i])) ++i;
  const size_t end = i;
  while (i < arg.size() && std::isspace(static_cast<unsigned char>(arg[i]))) ++i;
  const bool assigns = i < arg.size() && arg[i] == '=' && (i + 1 == arg.size() || arg[i + 1] != '=');
  return end > begin && assigns ? std::string(arg.substr(begin, end - begin)) : "";
}

}  // namespace

std::optional<CallSite> callAt(std::string_view text, uint32_t offset) {
  if (offset > text.size()) return std::nullopt;
  std::vector<Open> open;
  for (size_t i = 0; i < offset; ++i) {
    const size_t past = skipped(text, i);
    if (past != i) {
      if (past > offset) return std::nullopt;  // in a comment or string
      i = past - 1;
      continue;
    }
    const char c = text[i];
    if (c == '(' || c == '[' || c == '{') open.push_back({c, uint32_t(i), 0, uint32_t(i + 1)});
    else if ((c == ')' || c == ']' || c == '}') && !open.empty()) open.pop_back();
    else if (c == ',' && !open.empty()) {
      ++open.back().commas;
      open.back().argStart = uint32_t(i + 1);
    } else if (c == ';') open.clear();  // a statement ends: whatever was left open was a typo
  }
  for (auto it = open.rbegin(); it != open.rend(); ++it) {
    if (it->bracket == '{') return std::nullopt;
    if (it->bracket != '(') continue;
    std::string callee = nameBefore(text, it->at);
    if (callee.empty()) return std::nullopt;
    return CallSite{std::move(callee), it->commas, keywordOf(text.substr(it->argStart, offset - it->argStart))};
  }
  return std::nullopt;
}

std::vector<UsageParameter> usageParameters(const std::string& usage) {
  const size_t open = usage.find('('), close = usage.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close <= open + 1) return {};
  std::vector<UsageParameter> parameters;
  int depth = 0;
  size_t start = open + 1;
  for (size_t i = open + 1; i <= close; ++i) {
    const char c = usage[i];
    if (c == '[' || c == '(' || c == '<') ++depth;
    if ((c == ']' || c == ')' || c == '>') && i != close) --depth;
    if ((c == ',' && depth == 0) || i == close) {
      size_t b = start, e = i;
      while (b < e && usage[b] == ' ') ++b;
      parameters.push_back({usage.substr(b, e - b), uint32_t(b), uint32_t(e)});
      start = i + 1;
    }
  }
  return parameters;
}

std::optional<unsigned> activeParameter(const std::vector<UsageParameter>& parameters, const CallSite& site) {
  if (parameters.empty()) return std::nullopt;
  if (!site.keyword.empty()) {
    for (unsigned p = 0; p < parameters.size(); ++p)
      if (keywordOf(parameters[p].text) == site.keyword) return p;
    return std::nullopt;
  }
  return std::min<unsigned>(site.argument, unsigned(parameters.size() - 1));
}

}  // namespace tilec::lsp
