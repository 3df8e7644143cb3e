#include "support/Wording.h"

#include <algorithm>

namespace tilec {

std::string listText(const std::vector<std::string>& items, std::string_view conjunction, size_t total) {
  const size_t shown = items.size() > kListedItems ? kListedItems : items.size();
  const size_t rest = (total > items.size() ? total : items.size()) - shown;
  std::string out;
  for (size_t i = 0; i < shown; ++i) {
    const bool last = rest == 0 && i + 1 == shown;
    if (i > 0) out += last ? " " + std::string(conjunction) + " " : ", ";
    out += items[i];
  }
  if (rest > 0) out += " " + std::string(conjunction) + " " + std::to_string(rest) + " more";
  return out;
}

std::string useOneOf(const std::vector<std::string>& options, std::string_view noun) {
  if (options.size() == 1) return "the only " + std::string(noun) + " is " + options[0] + ": use it";
  return "use one of " + listText(options, "or");
}

std::string quotedName(std::string_view text, size_t limit) {
  if (text.size() <= limit) return "'" + std::string(text) + "'";
  size_t cut = limit - 3;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
  return "'" + std::string(text.substr(0, cut)) + "...'";
}

namespace {

// Levenshtein distance where swapping two adjacent characters is one edit
// (optimal string alignment), since transposed letters are a common typo.
size_t editDistance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

// Quadratic in the name lengths, linear in the candidates; only runs on errors.
std::optional<std::string> closestName(const std::string& name, const std::vector<std::string>& candidates) {
  // One edit per three characters; never a full rewrite of a short name.
  size_t limit = std::min(std::max<size_t>(1, name.size() / 3), name.size() - 1);
  std::optional<std::string> best;
  size_t bestDistance = limit + 1;
  for (const std::string& c : candidates) {
    if (std::max(c.size(), name.size()) - std::min(c.size(), name.size()) > limit) continue;  // too far already
    size_t d = editDistance(name, c);
    if (d < bestDistance || (d == bestDistance && best && c < *best)) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

}  // namespace tilec
