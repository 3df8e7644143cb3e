#include "backend/linx/LinxModel.h"

namespace tilec::linx {

const ir::TargetModel& linxModel() {
  static const ir::TargetModel kModel = [] {
    const uint32_t all = ir::kComputeSpace | ir::kMatrixSpace | ir::kMatmulStage | ir::kMatmulResult;
    const int64_t capacity = kCellsPerPe * kCellBytes;
    ir::TargetModel m{"linx",
                      {{"none", 0},
                       {"local", all, "Local tile cells", capacity, kCellBytes},
                       {"shared", all, "Shared tile cells", capacity, kCellBytes}},
                      {"incore"},
                      [](ir::SpaceId, const std::vector<int64_t>& shape) {
                        return ir::defaultLayout(ir::kNoSpace, shape, nullptr);
                      },
                      0};
    m.layouts = {"row_major", "col_major", "nz", "zn", "acc", "cube_m16", "cube_m32", "cube_n8"};
    return m;
  }();
  return kModel;
}

int maxSizeCode(ir::SpaceId space) { return space == Shared ? kMaxSharedSizeCode : kMaxLocalSizeCode; }

std::string handList() {
  std::string out;
  for (int h = 0; h < kHands; ++h) out += std::string(h ? ", " : "") + kHandNames[h];
  return out;
}

int64_t rowAlignBytes() { return 32; }

}  // namespace tilec::linx
