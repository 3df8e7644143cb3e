#include "support/StringSet.h"

#include <functional>
#include <stdexcept>

namespace tilec {
namespace {

uint32_t hashOf(std::string_view s) { return static_cast<uint32_t>(std::hash<std::string_view>()(s)); }

}  // namespace

size_t StringSet::probe(std::string_view s, uint32_t hash) const {
  const size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot& slot = slots_[i];
    if (slot.length == kEmpty) return i;
    if (slot.hash == hash && std::string_view(text_).substr(slot.offset, slot.length) == s) return i;
  }
}

bool StringSet::contains(std::string_view s) const {
  return !slots_.empty() && slots_[probe(s, hashOf(s))].length != kEmpty;
}

bool StringSet::insert(std::string_view s) {
  // Offsets and lengths are 32-bit: a table of names that large is an internal error.
  if (s.size() >= kEmpty || text_.size() + s.size() >= kEmpty) throw std::length_error("StringSet: too much text");
  if ((size_ + 1) * 4 > slots_.size() * 3) grow();
  const uint32_t hash = hashOf(s);
  Slot& slot = slots_[probe(s, hash)];
  if (slot.length != kEmpty) return false;
  slot = {static_cast<uint32_t>(text_.size()), static_cast<uint32_t>(s.size()), hash};
  text_.append(s);
  ++size_;
  return true;
}

void StringSet::grow() {
  std::vector<Slot> old(slots_.empty() ? 16 : slots_.size() * 2);
  old.swap(slots_);
  for (const Slot& slot : old) {
    if (slot.length == kEmpty) continue;
    const std::string_view s = std::string_view(text_).substr(slot.offset, slot.length);
    slots_[probe(s, slot.hash)] = slot;
  }
}

}  // namespace tilec
