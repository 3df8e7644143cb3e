// The reference interpreter: runs one kernel of the tile IR on the host, at any point of
// the pipeline, with the semantics of every op written once. The IR is value-semantic
// (buffers are ignored), so a pass that preserves meaning leaves every output unchanged.
//
// Tiles hold their elements in physical row-major order with a definedness bit each;
// elements outside a tile's valid extents are poison. Elementwise ops carry poison along;
// a store, reduction or matmul that reads a poison element is a run-time fault naming the
// op, the tile and the element. A load or store moves its window box, packed row after row
// into the tile's valid region (the packed layout of a flattened N-D tile). Faults (an
// index past a tensor, an integer division by zero, a step limit) are RunErrors at the op.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "interp/Numeric.h"
#include "ir/IR.h"
#include "support/Diagnostics.h"

namespace tilec::interp {

// A run-time fault, located at the op that raised it.
class RunError : public std::runtime_error {
 public:
  RunError(SourceRange loc, const std::string& message) : std::runtime_error(message), loc_(loc) {}
  SourceRange loc() const { return loc_; }

 private:
  SourceRange loc_;
};

// Two units of the launch (blocks, or sub-blocks) touch one tensor element, one of them
// writing: located at the second access, with a note at the other unit's op.
class RaceError : public RunError {
 public:
  RaceError(SourceRange loc, const std::string& message, SourceRange otherLoc, std::string otherNote)
      : RunError(loc, message), otherLoc_(otherLoc), otherNote_(std::move(otherNote)) {}
  SourceRange otherLoc() const { return otherLoc_; }
  const std::string& otherNote() const { return otherNote_; }

 private:
  SourceRange otherLoc_;
  std::string otherNote_;
};

// The run went past RunLimits::maxWork: a limit of the interpreter, not a fault of the kernel.
class WorkLimitError : public RunError {
 public:
  using RunError::RunError;
};

// Host memory of a tensor; views of it (tensor.view) share it.
struct TensorData {
  ir::DType dtype;
  std::vector<Num> elems;
};
struct Tensor {
  std::shared_ptr<TensorData> data;
  std::vector<int64_t> dims;
};

struct Tile {
  ir::DType dtype;
  std::vector<int64_t> shape;  // physical
  std::vector<int64_t> valid;
  std::vector<Num> elems;        // physical, row-major
  std::vector<uint8_t> defined;  // 0: poison
};

struct Scalar {
  ir::DType dtype;
  Num value;
};

using RtValue = std::variant<std::monostate, Scalar, Tensor, Tile>;

struct RunLimits {
  int64_t maxWork = 25'000'000;        // tile elements read and written, plus one per op run
  int64_t maxTileElements = 1 << 22;   // far above any on-chip tile (UB is 192-248 KiB)
  static constexpr int64_t kMaxTensorElements = 1 << 24;  // per tensor the host run allocates
  // Not a limit but how a run goes: the launch's blocks run one after the other, in
  // ascending order, or in an order drawn from this seed (--shuffle-blocks).
  std::optional<uint64_t> blockOrderSeed;
};

// The product of non-negative extents, or cap + 1 when it is larger (never overflows).
inline int64_t cappedCount(const std::vector<int64_t>& dims, int64_t cap) {
  int64_t n = 1;
  for (int64_t d : dims) n = d != 0 && n > cap / d ? cap + 1 : n * d;
  return n;
}

class Interpreter {
 public:
  explicit Interpreter(const ir::Function& f, RunLimits limits = {});
  // Runs the function on `args` (one per parameter: a Tensor for each tensor parameter,
  // a Scalar for each scalar one). Tensors are written in place. Throws RunError.
  void run(const std::vector<RtValue>& args);

 private:
  struct Impl;
  void runSplit(Impl& prologue);
  const ir::Function& f_;
  RunLimits limits_;
};

// "[1, 2]": the index of row-major element `flat` of a tensor of `dims`.
std::string indexText(int64_t flat, const std::vector<int64_t>& dims);

// A fault of the kernel as its diagnostic: E0801, or E0804 for a race, with the other access as a note.
Diagnostic& reportFault(DiagnosticEngine& diags, const RunError& e);

// Evaluates a symbolic expression with the given variable values; throws RunError (at
// `loc`) on division by zero or an unbound variable.
int64_t evaluate(const ir::Expr& e, const std::function<std::optional<int64_t>(const ir::Value*)>& var,
                 SourceRange loc);

}  // namespace tilec::interp
