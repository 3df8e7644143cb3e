// Liveness over program points, shared by the passes that ask whether a tile is
// still needed: buffer assignment (may two tiles share a buffer?), and the capacity
// and accumulator-packing decisions built on it.
//
// Every op gets an enter and an exit point in pre-order, every block a span, so
// "inside this loop", "in the other branch of this if" and "later in program order"
// are integer comparisons. A tile's reads include the reads of its views. Building
// the points is linear in the ops; a query costs the reads of a tile times the
// nesting depth.
#pragma once
#include <optional>
#include <utility>
#include <vector>

#include "ir/IR.h"
#include "support/PointerMap.h"

namespace tilec::passes {

struct Point {
  int index;
  const ir::Block* block;  // the innermost block containing the point
};

class Liveness {
 public:
  explicit Liveness(const ir::Function& f);

  Point enterOf(const ir::Op* op) const { return {spans_.at(op).first, op->parentBlock()}; }
  Point exitOf(const ir::Op* op) const { return {spans_.at(op).second, op->parentBlock()}; }
  int lastPoint() const { return counter_; }
  Point defOf(const ir::Value* v) const;  // the exit of its op; a block argument: its block's start
  bool inside(const Point& p, const ir::Op* op) const;
  bool inBlock(const Point& p, const ir::Block* b) const;

  // p and q lie in different branches of one scf.if: they never both execute.
  bool exclusive(const Point& p, const Point& q) const;
  // A read at `u` may execute after `p` without `d` (the value's definition) executing in
  // between: later in the same iteration, or in a later iteration of a loop around both
  // that does not contain `d` (then `nextIteration` is set).
  bool mayFollow(const Point& p, const Point& u, const Point& d, bool& nextIteration) const;

  // The ops that read a tile's data: its users, and the users of its views (a write-back
  // assemble reads nothing of its target).
  static void collectReads(ir::Value* v, std::vector<const ir::Op*>& out);
  // The value whose data `v` views (itself when it is no view).
  static ir::Value* dataRoot(ir::Value* v);

  // A read of `v` that may execute after point `p` (v defined before p), or none.
  struct LaterRead {
    const ir::Op* read;
    bool nextIteration;
  };
  std::optional<LaterRead> readAfter(ir::Value* v, const Point& p) const;

  // The last point at which `v` is still needed: the exit of its last read, or of the
  // outermost loop around a read that does not contain its definition (the read comes
  // again every iteration); its definition when nothing reads it.
  int liveEnd(ir::Value* v) const;

  // Gives `op`, just inserted before `before`, points of its own in the gap the
  // numbering leaves in front of every op.
  void placeBefore(const ir::Op* op, const ir::Op* before);

 private:
  void number(const ir::Block& b);
  int advance() { return counter_ += 4; }  // gaps leave room for inserted ops

  int counter_ = 0;
  // Lookup tables only; nothing here is iterated, so results never depend on addresses.
  PointerMap<ir::Op, std::pair<int, int>> spans_;
  PointerMap<ir::Block, std::pair<int, int>> blockSpans_;
};

}  // namespace tilec::passes
