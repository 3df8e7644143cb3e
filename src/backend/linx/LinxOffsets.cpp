// linx-offsets: where each region slot is, in the modifier's terms. A slot's offset is its
// ordinal (i * C + j) times its size, in CELLs of the parent. The constant part goes in
// the modifier's immediate when it fits (0..kImmMax, LinxModel.h); the rest (a term of a
// runtime value, or a larger constant) is computed into a register, RegSrc, one of the
// model's kOffsetRegisters; one register per distinct expression, in program order (E1106
// when they run out). The decisions are attributes (`offset`, `imm`, `reg`) the listing
// prints. Linear.
#include <map>
#include <string>
#include <vector>

#include "backend/linx/LinxLayout.h"
#include "backend/linx/LinxTargets.h"
#include "backend/linx/LinxWords.h"
#include "passes/Pass.h"
#include "passes/PassUtils.h"

namespace tilec::linx {
namespace {
using namespace ir;

// The offset registers by name, consecutive ones of one kind as a run: "a0..a7, s1..s8".
std::string registerRuns() {
  auto kind = [](int reg) { return std::string(gprName(reg)).substr(0, 1); };
  std::string out;
  const size_t n = std::size(kOffsetRegisters);
  for (size_t first = 0, last = 0; first < n; first = ++last) {
    while (last + 1 < n && kOffsetRegisters[last + 1] == kOffsetRegisters[last] + 1 &&
           kind(kOffsetRegisters[last + 1]) == kind(kOffsetRegisters[first]))
      ++last;
    out += std::string(first ? ", " : "") + gprName(kOffsetRegisters[first]);
    if (last > first) out += std::string("..") + gprName(kOffsetRegisters[last]);
  }
  return out;
}

// The constant term of a canonical sum (the whole of a constant).
int64_t constantTerm(const Expr& e) {
  if (e.isConst()) return e.constValue();
  if (e.kind() != ExprKind::Add) return 0;
  int64_t c = 0;
  for (const Expr& t : e.operands())
    if (t.isConst()) c += t.constValue();
  return c;
}

class OffsetAssigner {
 public:
  OffsetAssigner(Function& f, const TargetModel&, DiagnosticEngine& diags) : f_(f), diags_(diags) {}

  void run() {
    f_.walk([&](Op& op) {
      if (op.kind() == OpKind::RegionPart) assign(op, op.result()->type());
      if (op.kind() == OpKind::RegionInsert) assign(op, op.operand(1)->type());
    });
  }

 private:
  void assign(Op& op, const Type& slot) {
    const auto& grid = op.get(attr::grid);
    const auto& index = op.get(attr::index);
    std::string why;
    const int64_t slotCells = storageBytes(slot, why).value_or(0) / kCellBytes;
    const Expr offset = (index[0] * Expr::constant(grid[1]) + index[1]) * Expr::constant(slotCells);
    const int64_t constant = constantTerm(offset);
    const bool immFits = constant >= 0 && constant <= kImmMax;
    const Expr inRegister = immFits ? offset - Expr::constant(constant) : offset;
    op.set(attr::offset, offset);
    op.set(attr::imm, int64_t(immFits ? constant : 0));
    op.remove(attr::reg);
    if (inRegister.isConst() && inRegister.constValue() == 0) return;
    if (std::optional<int> reg = registerFor(op, inRegister)) op.set(attr::reg, int64_t(*reg));
  }

  std::optional<int> registerFor(const Op& op, const Expr& e) {
    const std::string key = e.str([](const Value* v) { return v->name() + "#" + std::to_string(v->id()); });
    if (auto it = registers_.find(key); it != registers_.end()) return it->second;
    if (registers_.size() == std::size(kOffsetRegisters)) {
      diags_.report(Diag::LinxRegisters, op.loc(),
                    "this slot's offset needs a register, but all " + std::to_string(std::size(kOffsetRegisters)) +
                        " registers a modifier may read (" + registerRuns() +
                        ") hold other offsets; index fewer slots with runtime values");
      return std::nullopt;
    }
    const int reg = kOffsetRegisters[registers_.size()];
    registers_.emplace(key, reg);
    return reg;
  }

  Function& f_;
  DiagnosticEngine& diags_;
  std::map<std::string, int> registers_;
};

class LinxOffsets final : public Pass {
 public:
  const PassInfo& info() const override {
    static const PassInfo kInfo{"linx-offsets", "give each region slot its CELL offset, immediate and register",
                                PropLinxLegal, PropLinxOffsets, 0};
    return kInfo;
  }
  bool run(Module& m, PassContext& ctx) override { return passes::runOnFunctions<OffsetAssigner>(m, ctx.diags); }
};

}  // namespace

std::unique_ptr<Pass> createLinxOffsetsPass() { return std::make_unique<LinxOffsets>(); }

}  // namespace tilec::linx
