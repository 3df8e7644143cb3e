#include "backend/pto/PtoOps.h"

#include "backend/pto/FunctionEmitter.h"
#include "backend/pto/PtoLegality.h"

namespace tilec::pto {

const std::vector<PtoOpInfo>& ptoOps() {
  static const std::vector<PtoOpInfo> kRows = [] {
    using namespace dtypes;
#define EMIT(method) &FunctionEmitter::method
#define RULE(method) &FunctionLegality::method
#define TILEC_PTO_OP(E, FORM, MNEMONIC, A2A3, A5, ROWMAJOR, EMITTER, LEGALITY) \
  {ir::OpKind::E, PtoForm::FORM, MNEMONIC, A2A3, A5, RowMajorScope::ROWMAJOR, EMITTER, LEGALITY},
    return std::vector<PtoOpInfo>{
#include "backend/pto/PtoOps.def"
    };
#undef TILEC_PTO_OP
#undef RULE
#undef EMIT
  }();
  return kRows;
}

const PtoOpInfo* ptoOp(ir::OpKind k) {
  static const std::vector<const PtoOpInfo*> kByKind = [] {
    std::vector<const PtoOpInfo*> byKind(ir::kNumOpKinds, nullptr);
    for (const PtoOpInfo& row : ptoOps()) byKind[size_t(row.kind)] = &row;
    return byKind;
  }();
  return kByKind[size_t(k)];
}

}  // namespace tilec::pto
