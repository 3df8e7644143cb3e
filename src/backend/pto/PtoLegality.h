// pto-legality's checks of one function: the rules every tile has (valid extents, vec
// row alignment, whole fractals), the element types and row-major tiles the op table
// gives each op, and the rules of the ops that have their own, which the op table
// (PtoOps.def) points at. A rule broken is one E05xx diagnostic (docs/passes.md).
#pragma once
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <tuple>

#include "backend/pto/AssembleForm.h"
#include "backend/pto/PtoModel.h"
#include "backend/pto/PtoOps.h"
#include "ir/IR.h"
#include "support/Diagnostics.h"

namespace tilec::pto {

class FunctionLegality {
 public:
  FunctionLegality(ir::Function& f, const ir::TargetModel& model, DiagnosticEngine& diags)
      : f_(f), target_(archOf(model)), diags_(diags) {}

  void run();

  // The rules of ops that have their own (the op table's Legality column).
  void checkLoad(const ir::Op& op);
  void checkStore(const ir::Op& op);
  void checkMove(const ir::Op& op);
  void checkFull(const ir::Op& op);
  void checkCompare(const ir::Op& op);
  void checkAssemble(const ir::Op& op);
  void checkMatmul(const ir::Op& op);
  void checkTransposeView(const ir::Op& op);
  void checkGather(const ir::Op& op);
  void refuseRegion(const ir::Op& op);
  void checkSection(const ir::Op& op);

 private:
  void report(Diag id, const ir::Op& op, std::string message, const ir::Value* about = nullptr);
  const char* targetStr() const { return archName(target_); }
  // PTO valid extents and matmul m/k/n stay within this.
  int64_t maxExtent() const { return f_.module().target().maxTileExtent; }

  // ---- tile rules ----
  void checkTile(const ir::Op& op, const ir::Value* v);
  void checkVecAlignment(const ir::Op& op, const ir::Value* v);
  void checkFractals(const ir::Op& op, const ir::Value* v);

  // ---- op rules ----
  void checkOp(const ir::Op& op);
  void checkDType(const ir::Op& op, const PtoOpInfo& row);
  void checkRowMajor(const ir::Op& op, const PtoOpInfo& row);
  void checkTensorAccess(const ir::Op& op, const ir::Value* tensor);
  std::string iterationOfLargest(const ir::Expr& e) const;
  std::optional<int64_t> largest(const ir::Expr& e) const;
  static ir::Interval loopRange(const ir::Value* v);
  void checkGmDType(const ir::Op& op, const ir::Value* tile, const char* what);
  void checkAccStore(const ir::Op& op, const ir::Value* tile, const ir::Value* tensor);
  void checkStoreCount(const ir::Op& op, const ir::Value* tile);
  std::string whyNoForm(const ir::Op& op, const AssembleWrite& w, uint32_t dtypes);
  void checkAccWindow(const ir::Op& op);
  void checkAccPitch(const ir::Op& op, const ir::Expr& m, const ir::Expr& n, const ir::Type& dst);
  void checkMatmulDTypes(const ir::Op& op, ir::DType acc, ir::DType lhs, ir::DType rhs);
  void checkMatmulValid(const ir::Op& op, const char* dim, const ir::Expr& extent);

  std::string describe(const ir::Value* v) const;
  std::string describe(const ir::Op& op) const;
  std::string describeIn(const ir::Value* v, const ir::Op& op) const;

  ir::Function& f_;
  Arch target_;
  DiagnosticEngine& diags_;
  std::set<std::tuple<uint16_t, uint32_t, uint32_t, uint32_t>> reported_;  // code and range
};

}  // namespace tilec::pto
