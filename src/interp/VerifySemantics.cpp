#include "interp/VerifySemantics.h"

#include <cmath>
#include <unordered_set>

#include <spdlog/spdlog.h>

#include "ir/Describe.h"
#include "ir/Launch.h"
#include "ir/IRText.h"
#include "ir/OpDefs.h"

namespace tilec::interp {
using namespace ir;

namespace {

// splitmix64: the same stream on every machine and standard library.
struct Rng {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  int64_t below(int64_t n) { return int64_t(next() % uint64_t(n)); }
};

// Small values every dtype holds exactly: floats k/32 in [-2, 2), integers in [-8, 8)
// (unsigned [0, 16)), booleans 0 or 1.
Num randomElement(DType d, Rng& rng) {
  Num n;
  if (isFloatType(d)) n.f = double(rng.below(128) - 64) / 32;
  else if (d == DType::Bool) n.i = rng.below(2);
  else if (d == DType::U8 || d == DType::U16 || d == DType::U32) n.i = rng.below(16);
  else n.i = rng.below(16) - 8;
  return n;
}

constexpr int64_t kMaxElements = int64_t(1) << 22;  // per kernel, over all tensors

// The tensors whose elements the kernel reads as integers (ids, block tables, lengths). Their
// random elements are 0 or 1: an offset, bound or extent any tensor of the sizes tried holds,
// where [-8, 8) would fault on almost every run.
// So are the tensors a gather's index is loaded from (through casts and views): a column
// number every source row has.
void collectIndexTensors(const Block& b, std::unordered_set<const Value*>& out) {
  for (const auto& op : b.ops()) {
    if (op->kind() == OpKind::TensorRead) out.insert(op->operand(0));
    if (op->kind() == OpKind::Gather) {
      const Value* v = op->operand(1);
      for (const Op* def = v->definingOp(); def && def->numOperands(); def = v->definingOp()) {
        const OpKind k = def->kind();
        v = def->operand(0);
        if (k == OpKind::Load) {
          while (v->definingOp() && v->definingOp()->kind() == OpKind::TensorView) v = v->definingOp()->operand(0);
          out.insert(v);
          break;
        }
        if (k != OpKind::Cast && k != OpKind::Move && k != OpKind::SetValidShape && !isView(k)) break;
      }
    }
    for (unsigned r = 0; r < op->numRegions(); ++r) collectIndexTensors(op->body(r), out);
  }
}

std::string numText(Num n, DType d) {
  if (!isFloatType(d)) return std::to_string(n.i);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", n.f);
  return buf;
}

bool same(Num a, Num b, DType d) {
  if (!isFloatType(d)) return a.i == b.i;
  return a.f == b.f || (std::isnan(a.f) && std::isnan(b.f));
}

// Size values to try, in order: random ones, then a few round ones.
std::vector<std::vector<int64_t>> sizeCandidates(size_t count, Rng& rng) {
  std::vector<std::vector<int64_t>> out;
  std::vector<int64_t> random;
  for (size_t i = 0; i < count; ++i) random.push_back(1 + rng.below(20));
  out.push_back(random);
  for (int64_t v : {64, 32, 16, 1}) out.push_back(std::vector<int64_t>(count, v));
  return out;
}

}  // namespace

std::optional<KernelInputs> makeInputs(const Function& f, const std::vector<int64_t>& sizes, uint64_t seed,
                                       std::string& why, const std::map<unsigned, RtValue>& given) {
  KernelInputs in;
  in.sizes = sizes;
  Rng rng{seed};
  std::unordered_map<const Value*, int64_t> sizeOf;
  size_t nextSize = 0;
  for (unsigned i = 0; i < f.numParams(); ++i) {
    const Value* p = f.param(i);
    if (!p->type().isIndex()) continue;
    auto g = given.find(i);
    sizeOf[p] = g != given.end() ? std::get<Scalar>(g->second).value.i : sizes[nextSize++];
  }
  std::unordered_set<const Value*> indexTensors;
  collectIndexTensors(f.body(), indexTensors);
  int64_t elements = 0;
  for (unsigned i = 0; i < f.numParams(); ++i) {
    const Value* p = f.param(i);
    const Type& t = p->type();
    if (auto g = given.find(i); g != given.end()) {
      if (const auto* x = std::get_if<Tensor>(&g->second)) elements += int64_t(x->data->elems.size());
      in.args.push_back(g->second);
      continue;
    }
    if (t.isTensor()) {
      Tensor x{std::make_shared<TensorData>(), {}};
      x.data->dtype = t.dtype();
      for (const Expr& d : t.dims())
        x.dims.push_back(evaluate(d, [&](const Value* v) -> std::optional<int64_t> {
          auto it = sizeOf.find(v);
          return it == sizeOf.end() ? std::nullopt : std::optional<int64_t>(it->second);
        }, f.loc()));
      for (int64_t d : x.dims)
        if (d < 0) {
          why = "tensor '" + p->name() + "' has the negative extent " + std::to_string(d) + " at the sizes tried";
          return std::nullopt;
        }
      int64_t n = cappedCount(x.dims, kMaxElements);
      elements += n;
      if (elements > kMaxElements) {
        why = "its tensors hold more than " + std::to_string(kMaxElements) + " elements at the sizes tried";
        return std::nullopt;
      }
      const bool indices = indexTensors.count(p) != 0;
      for (int64_t e = 0; e < n; ++e) {
        Num index;
        index.i = rng.below(2);
        x.data->elems.push_back(indices ? index : randomElement(t.dtype(), rng));
      }
      in.args.push_back(x);
    } else if (t.isIndex()) {
      Num n;
      n.i = sizeOf.at(p);
      in.args.push_back(Scalar{DType::Index, n});
    } else {
      in.args.push_back(Scalar{t.dtype(), randomElement(t.dtype(), rng)});
    }
  }
  return in;
}

// "1 block", "48 blocks", "3 blocks of 2 sub-blocks".
std::string launchText(int64_t blocks, int64_t subblocks) {
  std::string s = std::to_string(std::max<int64_t>(blocks, 1)) + (blocks > 1 ? " blocks" : " block");
  return subblocks > 1 ? s + " of " + std::to_string(subblocks) + " sub-blocks" : s;
}

std::vector<RtValue> copyArgs(const std::vector<RtValue>& args) {
  std::vector<RtValue> out;
  for (const RtValue& a : args) {
    if (const auto* t = std::get_if<Tensor>(&a)) out.push_back(Tensor{std::make_shared<TensorData>(*t->data), t->dims});
    else out.push_back(a);
  }
  return out;
}

std::optional<KernelInputs> chooseInputs(const Function& f, uint64_t seed, std::string& why, const RunLimits& limits,
                                         const std::map<unsigned, RtValue>& given) {
  size_t freeSizes = 0;
  for (unsigned i = 0; i < f.numParams(); ++i) freeSizes += f.param(i)->type().isIndex() && !given.count(i);
  Rng rng{seed ^ 0x5eed};
  for (const std::vector<int64_t>& sizes : sizeCandidates(freeSizes, rng)) {
    std::optional<KernelInputs> in = makeInputs(f, sizes, seed, why, given);
    if (!in) continue;
    try {
      Interpreter(f, limits).run(copyArgs(in->args));
      return in;
    } catch (const RunError& e) {
      why = e.what();
    }
    if (freeSizes == 0) break;  // the same run again would fault the same way
  }
  return std::nullopt;
}

namespace {

bool verifiesQuietly(const Module& m) {
  SourceManager sources;
  DiagnosticEngine quiet(sources);
  return verifyModule(m, quiet);
}

}  // namespace

void SemanticsInstrumentation::runBeforePipeline(const Module& m) {
  baselines_.clear();
  pending_ = true;
  if (verifiesQuietly(m)) takeBaselines(m);
}

void SemanticsInstrumentation::takeBaselines(const Module& m) {
  pending_ = false;
  for (const auto& f : m.functions()) {
    std::string why;
    std::optional<KernelInputs> in = chooseInputs(*f, seed_, why, limits_);
    if (!in) {
      diags_.report(Diag::SemanticsUnchecked, f->loc(),
                    "--verify-semantics does not check kernel '" + f->name() +
                        "': it does not run on the inputs tried (" + why +
                        "); give it sizes it accepts, or run it with --run to see why");
      continue;
    }
    std::vector<RtValue> outputs = copyArgs(in->args);
    Interpreter(*f, limits_).run(outputs);
    baselines_.push_back({f->name(), std::move(*in), std::move(outputs), f->blocks(), f->subblocks(), ir::readsLaunch(*f)});
  }
}

void SemanticsInstrumentation::runAfterPipeline(const Module&) {
  spdlog::info("--verify-semantics: {} kernel(s) checked after {} pass(es), {} output elements compared",
               baselines_.size(), passesChecked_, compared_);
}

void SemanticsInstrumentation::runAfterPass(const Pass& pass, const Module& m) {
  if (pending_) {
    if (verifiesQuietly(m)) takeBaselines(m);
    return;
  }
  const std::string who = "pass '" + std::string(pass.info().arg) + "'";
  ++passesChecked_;
  for (auto b = baselines_.begin(); b != baselines_.end();) {
    const Function* f = m.lookup(b->kernel);
    if (!f) throw InternalError(who + " removed kernel '" + b->kernel + "'");
    if (checkRun(who, *b, *f)) ++b;
    else b = baselines_.erase(b);
  }
}

// Runs `f` on the baseline's inputs and compares every output element; false when the run
// went past the interpreter's work limit (a pass may add copies the original did not do),
// which ends the checks of this kernel with a warning rather than blaming the pass.
bool SemanticsInstrumentation::checkRun(const std::string& who, const Baseline& b, const Function& f) {
  std::vector<RtValue> outputs = copyArgs(b.inputs.args);
  try {
    Interpreter(f, limits_).run(outputs);
  } catch (const WorkLimitError& e) {
    diags_.report(Diag::SemanticsUnchecked, f.loc(),
                  "--verify-semantics checks kernel '" + b.kernel + "' no further than before " + who +
                      ": after it, " + e.what() + "; check it at smaller sizes");
    return false;
  } catch (const RaceError& e) {  // the pass launched it as several blocks, which the kernel does not allow
    reportFault(diags_, e);
    return false;
  } catch (const RunError& e) {
    throw InternalError(who + " changed what kernel '" + b.kernel + "' computes (--verify-semantics): it ran "
                        "before the pipeline but now faults: " + e.what());
  }
  for (unsigned i = 0; i < f.numParams(); ++i) {
    const auto* want = std::get_if<Tensor>(&b.outputs[i]);
    const auto* got = std::get_if<Tensor>(&outputs[i]);
    if (!want || !got) continue;
    const DType d = want->data->dtype;
    for (size_t e = 0; e < want->data->elems.size(); ++e, ++compared_) {
      if (same(want->data->elems[e], got->data->elems[e], d)) continue;
      std::string name = f.param(i)->name();
      if (b.readsLaunch && (f.blocks() != b.blocks || f.subblocks() != b.subblocks)) {
        diags_.report(Diag::SemanticsUnchecked, f.loc(),
                      "--verify-semantics checks kernel '" + b.kernel + "' no further than before " + who +
                          ": the kernel asks for its block, and launched as " + launchText(f.blocks(), f.subblocks()) +
                          " it gives tensor '" + name + "' element " + indexText(int64_t(e), want->dims) + " = " +
                          numText(got->data->elems[e], d) + ", not the " + numText(want->data->elems[e], d) +
                          " it gives as " + launchText(b.blocks, b.subblocks) +
                          "; give --blocks to check it at the launch it is compiled for");
        return false;
      }
      throw InternalError(who + " changed what kernel '" + b.kernel + "' computes (--verify-semantics): tensor '" +
                          name + "' element " + indexText(int64_t(e), want->dims) + " is " +
                          numText(got->data->elems[e], d) + " after it but " + numText(want->data->elems[e], d) +
                          " before the pipeline");
    }
  }
  return true;
}

}  // namespace tilec::interp
