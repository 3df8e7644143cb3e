// A hash map from pointers to small values, for the lookup tables passes keep per op or
// value. Open addressing with linear probing in one array: a lookup is one probe into
// contiguous memory, and an insert allocates nothing but an occasional doubling. A
// node-based std::unordered_map costs an allocation per entry and two cache misses per
// lookup, which at a million ops is most of a pass's time. No erase and no iteration:
// nothing can depend on the order of addresses.
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace tilec {

template <class Key, class Value>
class PointerMap {
 public:
  // The value for `key`, or null.
  Value* find(const Key* key) {
    if (slots_.empty()) return nullptr;
    for (size_t i = home(key);; i = (i + 1) & mask()) {
      if (slots_[i].first == key) return &slots_[i].second;
      if (!slots_[i].first) return nullptr;
    }
  }
  const Value* find(const Key* key) const { return const_cast<PointerMap*>(this)->find(key); }
  bool contains(const Key* key) const { return find(key) != nullptr; }
  const Value& at(const Key* key) const {
    if (const Value* v = find(key)) return *v;
    throw std::out_of_range("PointerMap::at: no entry");
  }
  Value& at(const Key* key) { return const_cast<Value&>(std::as_const(*this).at(key)); }

  // The value for `key`, value-initialised when new (only an insert can move the values).
  // `key` must not be null.
  Value& operator[](const Key* key) {
    if (Value* known = find(key)) return *known;
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    size_t i = home(key);
    while (slots_[i].first) i = (i + 1) & mask();
    ++size_;
    slots_[i] = {key, Value()};
    return slots_[i].second;
  }

  size_t size() const { return size_; }

 private:
  size_t mask() const { return slots_.size() - 1; }
  size_t home(const Key* key) const {
    // Fibonacci hashing of the address: heap pointers differ mostly in their middle bits.
    return size_t((uint64_t(reinterpret_cast<uintptr_t>(key)) * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  void grow() {
    std::vector<std::pair<const Key*, Value>> old(slots_.empty() ? 16 : slots_.size() * 2);
    old.swap(slots_);
    shift_ = 64;
    for (size_t n = slots_.size(); n > 1; n >>= 1) --shift_;
    size_ = 0;
    for (auto& [key, value] : old)
      if (key) (*this)[key] = std::move(value);
  }

  std::vector<std::pair<const Key*, Value>> slots_;
  unsigned shift_ = 64;
  size_t size_ = 0;
};

}  // namespace tilec
