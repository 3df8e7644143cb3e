// A backend's facts per op: one row for each op of the groups its targets accept, written
// in any order and found by kind in constant time. Every backend's op table is one of
// these, so they are built, checked and looked up one way.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/OpDefs.h"

namespace tilec::ir {

template <class Row>  // Row has a member `OpKind kind`
class OpTable {
 public:
  explicit OpTable(std::vector<Row> rows) : rows_(std::move(rows)), byKind_(kNumOpKinds, nullptr) {
    for (const Row& row : rows_) {
      const Row*& slot = byKind_[size_t(row.kind)];
      if (slot) throw std::logic_error(std::string("two rows for ") + opInfo(row.kind).name + " in an op table");
      slot = &row;
    }
  }
  template <size_t N>
  explicit OpTable(const Row (&rows)[N]) : OpTable(std::vector<Row>(rows, rows + N)) {}

  // The row of op kind `k`, or null: the op is of a group the table's targets do not accept.
  const Row* find(OpKind k) const { return byKind_[size_t(k)]; }
  const std::vector<Row>& rows() const { return rows_; }
  // The row of an op that `legality` (the pass that refuses ops without one) let through;
  // an internal error (std::logic_error) for an op without one.
  const Row& rowOf(const Op& op, const char* legality) const {
    if (const Row* row = find(op.kind())) return *row;
    throw std::logic_error(std::string(op.name()) + " reached the backend past " + legality + ", which refuses it");
  }

 private:
  std::vector<Row> rows_;
  std::vector<const Row*> byKind_;  // rows_ never changes after construction
};

}  // namespace tilec::ir
