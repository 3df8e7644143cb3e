#include "backend/pto/PtoModel.h"

#include <algorithm>
#include <string>

#include "backend/pto/PtoOps.h"

namespace tilec::pto {
namespace {

using namespace ir;

// The layouts PTOAS gives a tile it is not told otherwise: mat NZ, left zZ on a2a3 and
// nZ on a5 (PTOAS rewrites the left blayout by target), right zN, acc NZ with
// 1024-byte fractals; vec ND row-major, except a [N, 1] column vector, which is DN.
TileLayout ptoDefaultLayout(Arch arch, SpaceId space, const std::vector<int64_t>& shape) {
  switch (space) {
    case Mat:
      return {BLayout::ColMajor, SLayout::RowMajor, kLineFractalBytes, PadValue::Null};
    case Left:
      return {perArch(arch, BLayout::RowMajor, BLayout::ColMajor), SLayout::RowMajor, kLineFractalBytes,
              PadValue::Null};
    case Right:
      return {BLayout::RowMajor, SLayout::ColMajor, kLineFractalBytes, PadValue::Null};
    case Acc:
      return {BLayout::ColMajor, SLayout::RowMajor, kAccFractalBytes, PadValue::Null};
    default:
      return defaultLayout(kNoSpace, shape, nullptr);
  }
}

constexpr int64_t KiB = 1024;

// Blocks at once per kernel kind (incore, aic, aiv, mix): a block of a cube or mix kernel is
// an AI core (a2a3 910B: 24, a5 950: 32), whose cube core runs the cube part and one of its
// two vector cores the vector part; a block of a vector kernel is one vector core. pto-isa's
// hand-written kernels launch these counts (gemm_performance 24, topk 48; a5 mxfp8 32).
std::vector<int64_t> blockCores(Arch arch) {
  const int64_t aiCores = perArch<int64_t>(arch, 24, 32);
  return {aiCores, aiCores, 2 * aiCores, aiCores};
}

// The spaces in Space order, with PTOAS PlanMemory's per-function sizes and alignments
// (pto-assembly.md, 3.6); on a2a3 the top 8 KiB of the 192 KiB UB are reserved.
TargetModel makeModel(Arch arch, DefaultLayoutFn layouts) {
  auto kib = [arch](int64_t a2a3, int64_t a5) { return perArch(arch, a2a3, a5) * KiB; };
  return {archName(arch),
          {{"none", 0},
           {"vec", kComputeSpace, "UB", kib(184, 248), 32},
           {"mat", kMatrixSpace | kMatmulStage, "L1", 512 * KiB, 32},
           {"left", kMatrixSpace, "L0A", 64 * KiB, 512},
           {"right", kMatrixSpace, "L0B", 64 * KiB, 512},
           {"acc", kMatrixSpace | kMatmulResult, "L0C", kib(128, 256), 512},
           {"bias", kMatrixSpace, "bias table", kib(1, 4), 32},
           {"scaling", kMatrixSpace, "fixpipe buffer", kib(2, 4), 32}},
          {"incore", "aic", "aiv", "mix"},
          layouts,
          /*maxTileExtent=*/4095,
          std::nullopt,
          {},
          {},
          blockCores(arch),
          KernelKind(Kernel::Aiv)};
}

}  // namespace

const char* archName(Arch a) { return perArch(a, "a2a3", "a5"); }

const char* ptoArchAttr(Arch a) { return perArch(a, "a3", "a5"); }

const char* spaceName(SpaceId s) { return ptoModel(Arch::A2A3).spaceName(s); }

const TargetModel& ptoModel(Arch a) {
  static const TargetModel kA2A3 = makeModel(Arch::A2A3, [](SpaceId s, const std::vector<int64_t>& shape) {
    return ptoDefaultLayout(Arch::A2A3, s, shape);
  });
  static const TargetModel kA5 = makeModel(Arch::A5, [](SpaceId s, const std::vector<int64_t>& shape) {
    return ptoDefaultLayout(Arch::A5, s, shape);
  });
  return *perArch(a, &kA2A3, &kA5);
}

Arch archOf(const TargetModel& m) {
  for (Arch a : {Arch::A2A3, Arch::A5})
    if (&m == &ptoModel(a)) return a;
  throw std::logic_error(std::string("the PTO backend was given a module for target ") + m.name);
}

// PTOAS's vec-to-vec tinsert verifiers (a2a3 i8/f16/bf16/f32, a5 also i32); pto-isa's a2a3
// TINSERT asserts a 32-byte aligned column offset (a5's copies unaligned columns too); the
// a2a3 TADDS dtypes that tinsert lacks.
const WindowWrites& windowWrites(Arch a) {
  static const WindowWrites kA2A3{false, dtypeBit(DType::I8) | dtypes::F16F32 | dtypes::BF16, 32,
                                  dtypeBit(DType::I16) | dtypes::I32};
  static const WindowWrites kA5{true, dtypeBit(DType::I8) | dtypes::I32 | dtypes::F16F32 | dtypes::BF16, 1, 0};
  return *perArch(a, &kA2A3, &kA5);
}

FractalShape fractalShape(const TileLayout& layout, DType d) {
  if (layout.fractal != kLineFractalBytes) return {kBoxSide, kBoxSide};
  const int64_t line = kBoxLineBytes / std::min<int64_t>(kBoxLineBytes, dtypeBytes(d));
  return layout.slayout == SLayout::RowMajor ? FractalShape{kBoxSide, line} : FractalShape{line, kBoxSide};
}

bool inOneAccBlockColumn(int64_t col, int64_t cols) {
  return cols <= kBoxSide && col / kBoxSide == (col + cols - 1) / kBoxSide;
}

const std::vector<MatmulDTypes>& matmulDTypes() {
  static const std::vector<MatmulDTypes> kPairs{
      {DType::I32, DType::I8}, {DType::F32, DType::F16}, {DType::F32, DType::BF16}, {DType::F32, DType::F32}};
  return kPairs;
}

// pto-isa's TMOV: a2a3 has no path from acc to vec (PTOAS parses one, the generated C++
// does not compile); a5 adds vec to mat and acc to vec.
const std::vector<MovePaths>& movePaths(Arch a) {
  static const std::vector<MovePaths> kA2A3{
      {Mat, {Left, Right, Bias, Scaling}}, {Vec, {Vec}}, {Acc, {Mat}}};
  static const std::vector<MovePaths> kA5{
      {Mat, {Left, Right, Bias, Scaling}}, {Vec, {Vec, Mat}}, {Acc, {Mat, Vec}}};
  return *perArch(a, &kA2A3, &kA5);
}

bool movable(Arch a, SpaceId from, SpaceId to) {
  for (const MovePaths& p : movePaths(a))
    if (p.from == from) return std::find(p.to.begin(), p.to.end(), to) != p.to.end();
  return false;
}

// TSTORE reads mat tiles on a2a3 only.
const std::vector<SpaceId>& storeSources(Arch a) {
  static const std::vector<SpaceId> kA2A3{Vec, Mat, Acc};
  static const std::vector<SpaceId> kA5{Vec, Acc};
  return *perArch(a, &kA2A3, &kA5);
}

}  // namespace tilec::pto

namespace tilec::pto {

const char* pipeName(Pipe p) {
  static const char* const kNames[kPipeCount] = {"Scalar", "MTE2 (AIC)", "MTE1", "CUBE", "FIXP", "MTE2 (AIV)", "VEC", "MTE3"};
  return kNames[size_t(p)];
}

namespace {

using ir::kNoSpace;

struct TransferRow {
  ir::SpaceId from, to;  // kNoSpace: GM
  PipeRate rate;
};

// The numbers are pto-isa Perf-Sim's (3186c381, a2a3, one core) for tilec's output, fitted
// through the sizes measured: tload 128x64 and 64x256 f16 into mat, 209 and 418 cycles;
// tload 16x128 f32 and 32x256 f16 into vec, 139 and 279; tmov 128x64 f16 to left, 65, and
// 64x256 f16 to right, 257; tstore 128x256 f32 from acc, 1614; tstore 16x128 f32 and
// 32x256 f16 from vec, 74 and 149. Rows marked "not measured" copy the nearest measured
// rate. A5 has no Perf-Sim model here: its rows are a2a3's, plus its own paths.
const PipeRate kMte2Mat{Pipe::CubeMte2, 78.4, 0};
const PipeRate kMte2Vec{Pipe::VecMte2, 58.8, 0};
const PipeRate kMte1Left{Pipe::Mte1, 256, 1};
const PipeRate kMte1Right{Pipe::Mte1, 128, 1};  // also bias and scaling: not measured
const PipeRate kFixp{Pipe::Fixp, 81.2, 0};      // acc to mat or vec: not measured
const PipeRate kMte3{Pipe::Mte3, 110, 0};       // mat to GM, vec to mat: not measured
// tadd, tmul and tmax over 32x256 f16 (16 KiB): 138 cycles each.
const PipeRate kVecRate{Pipe::Vec, 128, 10};

const std::vector<TransferRow>& transferRows(Arch a) {
  static const std::vector<TransferRow> kA2A3{
      {kNoSpace, Mat, kMte2Mat}, {kNoSpace, Vec, kMte2Vec}, {Mat, Left, kMte1Left}, {Mat, Right, kMte1Right},
      {Mat, Bias, kMte1Right},   {Mat, Scaling, kMte1Right}, {Acc, kNoSpace, kFixp}, {Acc, Mat, kFixp},
      {Vec, kNoSpace, kMte3},    {Mat, kNoSpace, kMte3},     {Vec, Vec, kVecRate}};
  static const std::vector<TransferRow> kA5 = [] {
    std::vector<TransferRow> rows = kA2A3;
    rows.push_back({Acc, Vec, kFixp});
    rows.push_back({Vec, Mat, kMte3});
    return rows;
  }();
  return *perArch(a, &kA2A3, &kA5);
}

}  // namespace

const PipeRate& transferRate(Arch a, ir::SpaceId from, ir::SpaceId to) {
  for (const TransferRow& r : transferRows(a))
    if (r.from == from && r.to == to) return r.rate;
  return kVecRate;
}

const ComputeRates& computeRates(Arch a) {
  // tmatmul and tmatmul.acc 128x64x256 f16: 518 cycles = 2^21 MACs / 4096 + 6. A scalar
  // instruction (Perf-Sim's TASSIGN): 1 cycle.
  static const ComputeRates kA2A3{4096, 6, kVecRate, 1};
  return *perArch(a, &kA2A3, &kA2A3);
}

}  // namespace tilec::pto
