#include "backend/aie/AieOps.h"

#include <array>
#include <stdexcept>
#include <string>

namespace tilec::aie {

const AieOpInfo* findAieOp(ir::OpKind k) {
  static const std::array<const AieOpInfo*, ir::kNumOpKinds> kRowOf = [] {
    std::array<const AieOpInfo*, ir::kNumOpKinds> rows{};
    for (const AieOpInfo& row : kAieOps) rows[size_t(row.kind)] = &row;
    return rows;
  }();
  return kRowOf[size_t(k)];
}

const AieOpInfo& aieOp(const ir::Op& op) {
  if (const AieOpInfo* row = findAieOp(op.kind())) return *row;
  throw std::logic_error(std::string(op.name()) + " reached the AIE backend past aie-legality, which refuses it");
}

bool drains(const ir::Op& op) {
  switch (aieOp(op).channel) {
    case AieChannel::MM2S: return false;
    case AieChannel::S2MM: return true;
    case AieChannel::Named: return op.get(ir::attr::drain);
    case AieChannel::None: break;
  }
  throw std::logic_error(std::string(op.name()) + " uses no shim channel");
}

}  // namespace tilec::aie
