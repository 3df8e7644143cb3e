#include "backend/linx/LinxModel.h"

namespace tilec::linx {

const ir::TargetModel& linxModel() {
  static const ir::TargetModel kModel = [] {
    const uint32_t all = ir::kComputeSpace | ir::kMatrixSpace | ir::kMatmulStage | ir::kMatmulResult;
    // 2048 cells of 128 bytes per PE; a Local binder takes up to 64 KiB of them, a Shared one 256 KiB.
    ir::TargetModel m{"linx",
                      {{"none", 0}, {"local", all, "Local tile cells", 262144, 128}, {"shared", all, "Shared tile cells", 262144, 128}},
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

int maxSizeCode(ir::SpaceId space) { return space == Shared ? 12 : 10; }

int64_t rowAlignBytes() { return 32; }

}  // namespace tilec::linx
