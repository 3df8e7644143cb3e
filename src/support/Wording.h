// Wording shared by diagnostics (docs/diagnostics.md): lists in messages are bounded, so a
// message stays one readable line however large the input.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

// At most this many items of a list are spelled out in a message.
constexpr size_t kListedItems = 8;

// "a", "a and b", "a, b and c"; past kListedItems items, the first ones and then
// "and 9992 more". `conjunction` joins the last two ("and", "or"). A caller with many items
// may pass only the first ones (at least kListedItems) and the whole count as `total`.
std::string listText(const std::vector<std::string>& items, std::string_view conjunction = "and", size_t total = 0);

// The fix that picks one of `options` (written as the author writes them), each a `noun`:
// "the only layout is a: use it" for one, "use one of a, b or c" for more, bounded as
// listText is.
std::string useOneOf(const std::vector<std::string>& options, std::string_view noun);

// `text` quoted for a message, shortened past `limit` characters to its start and "...":
// a name or a piece of source copied into a message cannot make it arbitrarily long.
std::string quotedName(std::string_view text, size_t limit = 40);

// The candidate nearest `name` by edits (a swap of two neighbours is one), within one edit
// per three characters, for a "did you mean" note; the first by name among equals.
std::optional<std::string> closestName(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace tilec
