// A set of strings for tables that only ask "is this name taken?" over hundreds of
// thousands of names (an emitter's SSA names). The strings sit back to back in one
// buffer, and an open-addressing table of offsets indexes them: about the string's own
// bytes plus 12 per entry, where a node-based std::set costs a node, a std::string and
// allocator overhead (about 80 bytes) per entry. No erase and no iteration.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

class StringSet {
 public:
  // Adds `s`; true when it was not there yet.
  bool insert(std::string_view s);
  bool contains(std::string_view s) const;
  size_t size() const { return size_; }

 private:
  struct Slot {
    uint32_t offset = 0;  // into text_; meaningful only when length != kEmpty
    uint32_t length = kEmpty;
    uint32_t hash = 0;
  };
  static constexpr uint32_t kEmpty = UINT32_MAX;

  // The slot holding `s`, or the empty slot where it would go.
  size_t probe(std::string_view s, uint32_t hash) const;
  void grow();

  std::string text_;
  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace tilec
