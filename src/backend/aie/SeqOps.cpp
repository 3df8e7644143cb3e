#include "backend/aie/SeqOps.h"

namespace tilec::aie {

using ir::OpKind;

SeqForm seqForm(OpKind k) {
  switch (k) {
    case OpKind::Const: return SeqForm::Const;
    case OpKind::IndexExpr: return SeqForm::Index;
    case OpKind::For: return SeqForm::Loop;
    case OpKind::If: return SeqForm::Branch;
    case OpKind::Yield: return SeqForm::Yield;
    case OpKind::DmaFill: case OpKind::DmaDrain: return SeqForm::Transfer;
    case OpKind::DmaWait: return SeqForm::Wait;
    case OpKind::SeqRequire: return SeqForm::Require;
    case OpKind::SeqRaw: return SeqForm::Raw;
    case OpKind::TensorView: case OpKind::Load: case OpKind::Store: case OpKind::Create: case OpKind::Full:
    case OpKind::Move: case OpKind::Add: case OpKind::Sub: case OpKind::Mul: case OpKind::Div:
    case OpKind::Max: case OpKind::Min: case OpKind::AddS: case OpKind::SubS: case OpKind::MulS:
    case OpKind::DivS: case OpKind::MaxS: case OpKind::MinS: case OpKind::Exp: case OpKind::Log:
    case OpKind::Neg: case OpKind::Sqrt: case OpKind::Rsqrt: case OpKind::Recip: case OpKind::Abs:
    case OpKind::Relu: case OpKind::Cast: case OpKind::RowMax: case OpKind::RowSum: case OpKind::RowMin:
    case OpKind::ColMax: case OpKind::ColSum: case OpKind::ColMin: case OpKind::RowExpandAdd:
    case OpKind::RowExpandSub: case OpKind::RowExpandMul: case OpKind::RowExpandDiv: case OpKind::Matmul:
    case OpKind::MatmulAcc: case OpKind::BatchMatmul: case OpKind::BatchMatmulAcc: case OpKind::Transpose:
    case OpKind::TransposeView: case OpKind::Reshape: case OpKind::ReinterpretView: case OpKind::Slice:
    case OpKind::Assemble: case OpKind::SetValidShape: case OpKind::RegionPart: case OpKind::RegionArray:
    case OpKind::RegionInsert: case OpKind::RegionAssembly:
      return SeqForm::TileWork;
  }
  return SeqForm::TileWork;  // not reached: every kind is named above
}

}  // namespace tilec::aie
