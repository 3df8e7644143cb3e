// The PTO side of the report's pipe timeline: the pipes of an AI core (PtoModel.h) and the
// cycles of each op, from its row's Pipe column (PtoOps.def) and the model's rates. Sizes are
// the tiles' physical shapes: a tile whose valid part is smaller costs as much as a full one.
#include <cmath>

#include "backend/pto/PtoOps.h"
#include "backend/pto/PtoReport.h"
#include "report/Timeline.h"

namespace tilec::pto {
namespace {

using namespace ir;

int64_t cyclesOf(const PipeRate& r, int64_t bytes) {
  return r.overhead + int64_t(std::llround(double(bytes) / r.bytesPerCycle));
}

SpaceId spaceOf(const Value* v) { return v && v->type().isTile() ? v->type().space() : kNoSpace; }

// A transfer moves its last tile operand (with none, it reads GM) into its tile result
// (with none, it writes GM): a load, store, move, assemble, or a pipe's push and pop, whose
// slots are in GM.
report::PipeCost transferCost(Arch a, const Op& op) {
  const Value* from = nullptr;
  for (const Value* v : op.operands())
    if (v->type().isTile()) from = v;
  const Value* to = op.numResults() && op.result()->type().isTile() ? op.result() : nullptr;
  const PipeRate& rate = transferRate(a, spaceOf(from), spaceOf(to));
  const Value* moved = from ? from : to;
  return {int(rate.pipe), cyclesOf(rate, moved ? moved->type().byteSize() : 0)};
}

// lhs [M, K] times rhs [K, N]: the last two operands.
report::PipeCost cubeCost(Arch a, const Op& op) {
  const ComputeRates& rates = computeRates(a);
  const Type& lhs = op.operand(op.numOperands() - 2)->type();
  const Type& rhs = op.operand(op.numOperands() - 1)->type();
  const double macs = double(lhs.shape()[0]) * double(lhs.shape()[1]) * double(rhs.shape()[1]);
  const double perCycle = rates.cubeMacsPerCycle * 2 / double(dtypeBytes(lhs.dtype()));
  return {int(Pipe::Cube), rates.cubeOverhead + int64_t(std::llround(macs / perCycle))};
}

// A vector instruction streams its largest tile.
report::PipeCost vecCost(Arch a, const Op& op, double weight) {
  int64_t bytes = 0;
  for (const Value* v : op.operands())
    if (v->type().isTile()) bytes = std::max(bytes, v->type().byteSize());
  for (const Value* v : op.results())
    if (v->type().isTile()) bytes = std::max(bytes, v->type().byteSize());
  const PipeRate& rate = computeRates(a).vec;
  return {int(rate.pipe), rate.overhead + int64_t(std::llround(weight * double(bytes) / rate.bytesPerCycle))};
}

report::PipeCost opCost(Arch a, const Op& op) {
  const PtoOpInfo* row = ptoOp(op.kind());
  if (!row) return {};
  switch (row->pipe.pipe) {
    case OpPipe::None: return {};
    case OpPipe::Scalar: return {int(Pipe::Scalar), computeRates(a).scalarCycles};
    case OpPipe::Cube: return cubeCost(a, op);
    case OpPipe::Transfer: return transferCost(a, op);
    case OpPipe::Vec: return vecCost(a, op, row->pipe.vecWeight);
  }
  return {};
}

}  // namespace

bool writeTimelineSection(const report::KernelView& kernel, report::Page& page) {
  const Arch a = archOf(kernel.function().module().target());
  report::PipeModel model;
  for (size_t p = 0; p < kPipeCount; ++p) model.pipes.push_back(pipeName(Pipe(p)));
  model.cost = [a](const Op& op) { return opCost(a, op); };
  return report::writeTimelineSection(kernel, page, model);
}

}  // namespace tilec::pto
