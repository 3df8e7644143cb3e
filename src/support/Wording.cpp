#include "support/Wording.h"

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

}  // namespace tilec
