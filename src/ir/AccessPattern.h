// Access patterns: the walk a data-movement op makes over a tensor, as an element offset
// and (size, stride) pairs, outermost first (the last pair is the fastest), every number
// an Expr over loop variables and runtime sizes. The tilers build them the way mlir-aie's
// taplib does (simple, group and step tilers), but a tile's pattern is a function of its
// step index, so `tile_at(i)` inside a loop whose bound is a runtime value is one pattern
// with i in it, not a list enumerated at compile time. Constant inputs fold to the same
// numbers taplib computes. docs/aie.md has the rules.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/Expr.h"

namespace tilec::ir {

struct AccessPattern {
  Expr offset;
  std::vector<Expr> sizes, strides;  // outermost first
};

// From the outermost dimension inwards, a dimension of size 1 (but the last) gets stride 0,
// up to the first dimension of another size: two patterns that walk alike compare equal.
void cleanUnitDims(AccessPattern& p);

// For a pattern of constants over a tensor of `elements`: the element each step visits, in
// order (wrapping modulo `elements`, as taplib does), or nullopt if something is symbolic.
std::optional<std::vector<int64_t>> accesses(const AccessPattern& p, int64_t elements);

// What a tiler is asked for: a row-major [rows, cols] tensor cut into tiles of
// tileDims, visited in groups of groupRepeats tiles spaced groupSteps tiles apart.
struct TilerSpec {
  std::vector<Expr> tensorDims;            // 1 or 2 dims (a 1-D tensor is one row)
  std::vector<int64_t> tileDims;           // default: the whole tensor (constant dims only)
  std::vector<int64_t> groupRepeats = {1, 1};
  std::vector<int64_t> groupSteps = {1, 1};
  bool tileColMajor = false;   // walk each tile column by column
  bool groupColMajor = false;  // walk the tiles of a group column by column
  bool iterColMajor = false;   // number the steps column by column
  bool allowPartial = false;   // groups at the edges may have fewer tiles
  bool pruneSteps = true;      // merge a group of adjacent tiles into one larger tile
  int64_t patternRepeat = 1;   // each step's pattern runs this many times
};

// One step of a tiler: its pattern, and whether the pattern's shape (which dimensions it
// uses, and whether a group merges into one larger tile) depends on which step it is. Then
// the numbers select among the shapes by the step, and fold to one shape only for a
// constant step: an unroll loop's copies, not a serial loop, whose iterations share one
// descriptor.
struct TileStep {
  AccessPattern pattern;
  bool shapeVaries = false;
};

// A condition that must hold at run time (sizes that are runtime values), and why.
struct RuntimeGuard {
  Expr holds;
  std::string message;
};

class Tiler {
 public:
  // The tiler, or nullopt with the rule `spec` breaks in `error`. Sizes that are runtime
  // values need constant tiles, groups and steps and whole groups (no allowPartial); the
  // divisibility they need is then a runtime guard.
  static std::optional<Tiler> make(const TilerSpec& spec, std::string& error);

  const Expr& count() const { return count_; }  // the number of steps
  const std::vector<RuntimeGuard>& guards() const { return guards_; }
  // Step `k` (a constant, or an expression of loop variables and runtime sizes); nullopt
  // with `error` when a pattern repeat finds no free dimension.
  std::optional<TileStep> at(const Expr& k, std::string& error) const;

 private:
  TilerSpec spec_;
  Expr rows_, cols_, tilesH_, tilesW_, stepsH_, stepsW_, count_;
  std::vector<RuntimeGuard> guards_;
};

}  // namespace tilec::ir
