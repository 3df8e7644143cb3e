#include "backend/pto/PtoModel.h"

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
      return {BLayout::ColMajor, SLayout::RowMajor, 512, PadValue::Null};
    case Left:
      return {arch == Arch::A5 ? BLayout::ColMajor : BLayout::RowMajor, SLayout::RowMajor, 512, PadValue::Null};
    case Right:
      return {BLayout::RowMajor, SLayout::ColMajor, 512, PadValue::Null};
    case Acc:
      return {BLayout::ColMajor, SLayout::RowMajor, 1024, PadValue::Null};
    default:
      return defaultLayout(kNoSpace, shape, nullptr);
  }
}

constexpr int64_t KiB = 1024;

// The spaces in Space order, with PTOAS PlanMemory's per-function sizes and alignments
// (pto-assembly.md, 3.6); on a2a3 the top 8 KiB of the 192 KiB UB are reserved.
TargetModel makeModel(Arch arch, DefaultLayoutFn layouts) {
  const bool a5 = arch == Arch::A5;
  return {archName(arch),
          {{"none", 0},
           {"vec", kComputeSpace, "UB", (a5 ? 248 : 184) * KiB, 32},
           {"mat", kMatrixSpace | kMatmulStage, "L1", 512 * KiB, 32},
           {"left", kMatrixSpace, "L0A", 64 * KiB, 512},
           {"right", kMatrixSpace, "L0B", 64 * KiB, 512},
           {"acc", kMatrixSpace | kMatmulResult, "L0C", (a5 ? 256 : 128) * KiB, 512},
           {"bias", kMatrixSpace, "bias table", (a5 ? 4 : 1) * KiB, 32},
           {"scaling", kMatrixSpace, "fixpipe buffer", (a5 ? 4 : 2) * KiB, 32}},
          {"incore", "aic", "aiv"},
          layouts,
          /*maxTileExtent=*/4095};
}

}  // namespace

const char* archName(Arch a) { return a == Arch::A5 ? "a5" : "a2a3"; }

const char* spaceName(SpaceId s) { return ptoModel(Arch::A2A3).spaceName(s); }

const TargetModel& ptoModel(Arch a) {
  static const TargetModel kA2A3 = makeModel(Arch::A2A3, [](SpaceId s, const std::vector<int64_t>& shape) {
    return ptoDefaultLayout(Arch::A2A3, s, shape);
  });
  static const TargetModel kA5 = makeModel(Arch::A5, [](SpaceId s, const std::vector<int64_t>& shape) {
    return ptoDefaultLayout(Arch::A5, s, shape);
  });
  return a == Arch::A5 ? kA5 : kA2A3;
}

Arch archOf(const TargetModel& m) { return &m == &ptoModel(Arch::A5) ? Arch::A5 : Arch::A2A3; }

// PTOAS's vec-to-vec tinsert verifiers (a2a3 i8/f16/bf16/f32, a5 also i32); pto-isa's a2a3
// TINSERT asserts a 32-byte aligned column offset (a5's copies unaligned columns too); the
// a2a3 TADDS dtypes that tinsert lacks.
const WindowWrites& windowWrites(Arch a) {
  static const WindowWrites kA2A3{false, dtypeBit(DType::I8) | dtypes::F16F32 | dtypes::BF16, 32,
                                  dtypeBit(DType::I16) | dtypes::I32};
  static const WindowWrites kA5{true, dtypeBit(DType::I8) | dtypes::I32 | dtypes::F16F32 | dtypes::BF16, 1, 0};
  return a == Arch::A5 ? kA5 : kA2A3;
}

}  // namespace tilec::pto
