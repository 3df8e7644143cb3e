// The PTO targets as the IR sees them: the two architectures, their memory spaces by
// id, and the IR models (space table, kernel kinds, default layouts) of a2a3 and a5.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "ir/TargetModel.h"

namespace tilec::pto {

// The two PTO architectures; they differ in capacities, dtypes, legal moves, the spaces a
// store reads and the left operand's layout.
enum class Arch : uint8_t { A2A3, A5 };
const char* archName(Arch a);  // "a2a3" / "a5"

// The value for `a` of a fact the two architectures differ in.
template <class T>
T perArch(Arch a, T a2a3, T a5) {
  switch (a) {
    case Arch::A2A3:
      return a2a3;
    case Arch::A5:
      return a5;
  }
  throw std::logic_error("not a PTO architecture");
}

// The memory spaces of the PTO targets' IR model, by id (the order of its space table).
enum Space : ir::SpaceId { Vec = 1, Mat, Left, Right, Acc, Bias, Scaling };
const char* spaceName(ir::SpaceId s);  // as in .tile, .tir and PTO's `loc=`

// Its kernel kinds, by id: a kernel for the cube core, one for a vector core, or one
// whose kind inference decides (infer-memory-space).
// Mix: an incore kernel with cube and vector work, which split-cube-vector splits into a
// section per core.
enum class Kernel : ir::KernelKind { Incore, Aic, Aiv, Mix };

const ir::TargetModel& ptoModel(Arch a);
// The architecture whose model `m` is; a model of another backend is an internal error.
Arch archOf(const ir::TargetModel& m);
// Its `pto.target_arch` in PTO assembly ("a3" for a2a3).
const char* ptoArchAttr(Arch a);

// ---- tiles in memory (both architectures) ----

// A vec tile (none_box) holds its rows, and a column vector its column, in whole blocks
// of this many bytes.
inline constexpr int64_t kVecBlockBytes = 32;

// Boxed tiles are stored in fractals ("boxes") of kBoxSide lines: the 512-byte fractals of
// mat, left and right have lines of kBoxLineBytes bytes, the rows of a row-major box (mat,
// left) or the columns of a column-major one (right); acc's 1024-byte fractals are
// kBoxSide x kBoxSide elements of kAccElementBytes bytes.
inline constexpr int64_t kBoxSide = 16;
inline constexpr int64_t kBoxLineBytes = 32;
inline constexpr int64_t kAccElementBytes = 4;
inline constexpr int64_t kLineFractalBytes = kBoxSide * kBoxLineBytes;
inline constexpr int64_t kAccFractalBytes = kBoxSide * kBoxSide * kAccElementBytes;
// tsel stages each row's mask words in a u32 scratch tile of one row of this many words
// (a2a3 uses 2 or 4 of them; a5 takes the tile and leaves it unused).
inline constexpr int64_t kSelectScratchWords = 16;

struct FractalShape {
  int64_t rows, cols;  // elements
};
FractalShape fractalShape(const ir::TileLayout& layout, ir::DType d);

// The accumulator (acc) as the matrix unit writes it: box (r, c) of an [M, N] tile at
// (c * M/16 + r) * 1024 bytes, and an [m, n] product written compactly from its window's
// start, with no row stride, so a row window is addressable only inside one block column
// of boxes.
// Whether the columns [col, col + cols) lie inside one block column of acc boxes.
bool inOneAccBlockColumn(int64_t col, int64_t cols);

// The element types the matrix unit multiplies: operands of `operands` (lhs and rhs alike)
// into an accumulator of `acc`, in the order messages list them.
struct MatmulDTypes {
  ir::DType acc, operands;
};
const std::vector<MatmulDTypes>& matmulDTypes();

// ---- data movement ----

// The spaces tmov moves a tile to from `from` (pto-isa).
struct MovePaths {
  ir::SpaceId from;
  std::vector<ir::SpaceId> to;
};
// Every source space with its targets on `a`, in the order messages list them.
const std::vector<MovePaths>& movePaths(Arch a);
bool movable(Arch a, ir::SpaceId from, ir::SpaceId to);
// The spaces a store to a tensor reads a tile from on `a`.
const std::vector<ir::SpaceId>& storeSources(Arch a);

// How a target writes a vec tile into a window of another that does not keep the parent's
// strides (ir::windowKeepsStrides). PTOAS gives such a subview its parent's physical shape.
struct WindowWrites {
  // tmov into that subview: a5's copies the valid region whatever the shapes, except that
  // PTOAS first reinterprets column-major vec tiles as rows, which needs their real shapes;
  // a2a3's needs equal shapes.
  bool moveIntoWidenedSubview;
  uint32_t insertDTypes;   // pto.tinsert at the window's offsets into the parent (unboxed row-major vec tiles)
  int64_t insertAlignBytes;  // tinsert's column offset is a multiple of this many bytes
  uint32_t addZeroDTypes;  // pto.tadds of 0 into the subview: elementwise ops compare valid shapes only
};
const WindowWrites& windowWrites(Arch a);

// ---- pipes and their speeds: the report's pipe timeline (PtoTimeline.cpp) ----

// The in-order instruction queues of an AI core, as pto-isa's Perf-Sim names them: the cube
// core's scalar unit, MTE2 (GM to L1), MTE1 (L1 to L0A/L0B), CUBE and FIXP (out of L0C),
// and a vector core's MTE2 (GM to UB), VEC and MTE3 (UB to GM).
enum class Pipe : uint8_t { Scalar, CubeMte2, Mte1, Cube, Fixp, VecMte2, Vec, Mte3 };
inline constexpr size_t kPipeCount = 8;
const char* pipeName(Pipe p);  // "MTE2 (AIC)"

// An instruction on `pipe` over `bytes` takes overhead + bytes / bytesPerCycle cycles.
struct PipeRate {
  Pipe pipe;
  double bytesPerCycle;
  int64_t overhead;
};
// The pipe and rate of a tile moved from space `from` to space `to` (ir::kNoSpace: GM):
// a load, store, move or assemble. A pair no PTO instruction moves gets the vector copy's.
const PipeRate& transferRate(Arch a, ir::SpaceId from, ir::SpaceId to);

struct ComputeRates {
  // MACs per cycle with 2-byte operands; the cube reads a fixed number of operand bytes a
  // cycle, so 1-byte operands go twice as fast and 4-byte ones half as fast.
  double cubeMacsPerCycle;
  int64_t cubeOverhead;
  PipeRate vec;              // a plain elementwise op over its largest tile
  int64_t scalarCycles;      // one scalar instruction
};
const ComputeRates& computeRates(Arch a);

}  // namespace tilec::pto
