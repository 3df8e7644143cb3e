#include "backend/pto/PtoOps.h"

#include "backend/pto/FunctionEmitter.h"
#include "backend/pto/PtoLegality.h"

namespace tilec::pto {

const ir::OpTable<PtoOpInfo>& ptoOps() {
  static const ir::OpTable<PtoOpInfo> kTable([] {
    using namespace dtypes;
#define EMIT(method) &FunctionEmitter::method
#define RULE(method) &FunctionLegality::method
#define Pipe(P) PipeClass{OpPipe::P, 0}
#define Vec(W) PipeClass{OpPipe::Vec, W}
#define TILEC_PTO_OP(E, FORM, MNEMONIC, A2A3, A5, ROWMAJOR, EMITTER, LEGALITY, PIPE) \
  {ir::OpKind::E, PtoForm::FORM, MNEMONIC, A2A3, A5, RowMajorScope::ROWMAJOR, EMITTER, LEGALITY, PIPE},
    return std::vector<PtoOpInfo>{
#include "backend/pto/PtoOps.def"
    };
#undef TILEC_PTO_OP
#undef Vec
#undef Pipe
#undef RULE
#undef EMIT
  }());
  return kTable;
}

const PtoOpInfo* ptoOp(ir::OpKind k) { return ptoOps().find(k); }

}  // namespace tilec::pto
