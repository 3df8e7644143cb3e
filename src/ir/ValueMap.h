// A table from the values of one function to T, indexed by Value::id(). Ids are dense
// and follow creation order, which follows program order for most values, so a walk over
// the program touches the table nearly in order; a hash of addresses (PointerMap) would
// scatter those accesses over the whole table, and at a million values every one would
// miss the cache. Values of different functions share ids: one table per function.
#pragma once
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "ir/IR.h"

namespace tilec::ir {

template <class T>
class ValueMap {
 public:
  // The entry for `v`, or null.
  T* find(const Value* v) { return contains(v) ? &items_[v->id()] : nullptr; }
  const T* find(const Value* v) const { return const_cast<ValueMap*>(this)->find(v); }
  bool contains(const Value* v) const { return v->id() < present_.size() && present_[v->id()]; }
  const T& at(const Value* v) const {
    if (const T* item = find(v)) return *item;
    throw std::out_of_range("ValueMap::at: no entry");
  }

  // The entry for `v`, value-initialised when new. Growing moves the entries, so a
  // reference from an earlier call is valid only until an id past the table's end comes.
  T& operator[](const Value* v) {
    const size_t id = v->id();
    if (id >= present_.size()) {
      const size_t size = std::max(id + 1, 2 * present_.size());
      present_.resize(size, false);
      items_.resize(size);
    }
    present_[id] = true;
    return items_[id];
  }

 private:
  std::vector<T> items_;
  std::vector<bool> present_;
};

}  // namespace tilec::ir
