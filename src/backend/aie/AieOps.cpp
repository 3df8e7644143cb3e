#include "backend/aie/AieOps.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace tilec::aie {

const ir::OpTable<AieOpInfo>& aieOps() {
  static const AieOpInfo kRows[] = {
#define TILEC_AIE_OP(E, FORM, CHANNEL) {ir::OpKind::E, AieForm::FORM, AieChannel::CHANNEL},
#include "backend/aie/AieOps.def"
#undef TILEC_AIE_OP
  };
  static const ir::OpTable<AieOpInfo> kTable(kRows);
  return kTable;
}

const AieOpInfo* findAieOp(ir::OpKind k) { return aieOps().find(k); }

const AieOpInfo& aieOp(const ir::Op& op) { return aieOps().rowOf(op, "aie-legality"); }

bool drains(const ir::Op& op) {
  switch (aieOp(op).channel) {
    case AieChannel::MM2S: return false;
    case AieChannel::S2MM: return true;
    case AieChannel::Named: return op.get(ir::attr::drain);
    case AieChannel::None: break;
  }
  throw std::logic_error(std::string(op.name()) + " uses no shim channel");
}

int64_t queueEntries(const ir::Op& op) {
  const int64_t* pushes = op.find(ir::attr::pushes);
  const int64_t* split = op.find(ir::attr::split);
  return std::max(pushes ? *pushes : 1, split ? *split : 1);
}

}  // namespace tilec::aie
