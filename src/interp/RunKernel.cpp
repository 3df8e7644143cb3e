#include "interp/RunKernel.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>

#include "interp/Npy.h"
#include "interp/Numeric.h"
#include "interp/VerifySemantics.h"
#include "ir/Describe.h"
#include "support/AtomicFile.h"
#include "support/Wording.h"

namespace tilec::interp {

namespace {

// The extents of tensor parameter `i` at the size parameters' values (`param(index)`, null
// when not known yet); nullopt when a size is missing or the shape cannot be evaluated.
std::optional<std::vector<int64_t>> dimsAt(const ir::Function& f, unsigned i,
                                           const std::function<const RtValue*(unsigned)>& param) {
  std::vector<int64_t> dims;
  try {
    for (const ir::Expr& d : f.param(i)->type().dims())
      dims.push_back(evaluate(d, [&](const ir::Value* v) -> std::optional<int64_t> {
        const RtValue* x = v->ownerBlock() == &f.body() ? param(v->index()) : nullptr;
        const auto* s = x ? std::get_if<Scalar>(x) : nullptr;
        return s ? std::optional<int64_t>(s->value.i) : std::nullopt;
      }, f.paramLoc(i)));
  } catch (const RunError&) {
    return std::nullopt;
  }
  return dims;
}

// One run, step by step; each step returns false once it has reported why the run stops
// (a diagnostic, or the usage error kept in usage_).
class KernelRun {
 public:
  KernelRun(const ir::Function& f, const RunRequest& request, DiagnosticEngine& diags, std::vector<std::string>& written)
      : f_(f), request_(request), diags_(diags), written_(written) {
    for (unsigned i = 0; i < f.numParams(); ++i) byName_[f.param(i)->name()] = i;
  }

  RunOutcome run() {
    std::vector<RtValue> args;
    if (bindGiven() && zeroOutputs() && arguments(args) && checkShapes(args) && execute(args) && writeOutputs(args))
      return {RunOutcome::Kind::Ran, {}};
    if (!usage_.empty()) return {RunOutcome::Kind::Usage, usage_};
    return {RunOutcome::Kind::Failed, {}};
  }

 private:
  bool usageError(std::string message) {
    usage_ = std::move(message);
    return false;
  }

  std::optional<unsigned> paramNamed(const std::string& name, const char* flag) {
    auto it = byName_.find(name);
    if (it != byName_.end()) return it->second;
    std::vector<std::string> names;
    for (unsigned i = 0; i < f_.numParams(); ++i) names.push_back(f_.param(i)->name());
    usageError(std::string(flag) + " names '" + name + "', which is no parameter of kernel '" + f_.name() + "' (" +
               listText(names) + ")");
    return std::nullopt;
  }

  // --arg: a tensor's .npy file, or a size's or scalar's number.
  bool bindGiven() {
    for (const auto& [name, value] : request_.args) {
      std::optional<unsigned> i = paramNamed(name, "--arg");
      if (!i) return false;
      const ir::Type& t = f_.param(*i)->type();
      if (t.isTensor()) {
        Tensor x;
        std::string error;
        if (!readNpy(value, t.dtype(), x, error)) {
          diags_.report(Diag::NpyFile, f_.paramLoc(*i),
                        "cannot read '" + value + "' for tensor '" + name + "': " + error + "; pass a .npy file");
          return false;
        }
        given_[*i] = x;
        continue;
      }
      Num n;
      char* end = nullptr;
      errno = 0;
      if (isFloatType(t.dtype())) n.f = roundFloat(std::strtod(value.c_str(), &end), t.dtype());
      else n.i = std::strtoll(value.c_str(), &end, 10);
      if (errno || !end || *end || value.empty())
        return usageError("--arg " + name + "=" + value + " is no " + ir::dtypeName(t.dtype()) + " value");
      given_[*i] = Scalar{t.dtype(), n};
    }
    return true;
  }

  // An output-only tensor nobody gave starts as zeros of its declared shape.
  bool zeroOutputs() {
    if (request_.randomSeed) return true;
    auto givenParam = [&](unsigned k) -> const RtValue* {
      auto it = given_.find(k);
      return it == given_.end() ? nullptr : &it->second;
    };
    for (unsigned i = 0; i < f_.numParams(); ++i) {
      const ir::Type& t = f_.param(i)->type();
      if (given_.count(i) || f_.paramDir(i) != ir::ParamDir::Out || !t.isTensor()) continue;
      std::optional<std::vector<int64_t>> dims = dimsAt(f_, i, givenParam);
      if (!dims) continue;  // a size is missing: reported by arguments()
      Tensor x{std::make_shared<TensorData>(), *dims};
      x.data->dtype = t.dtype();
      int64_t n = cappedCount(x.dims, RunLimits::kMaxTensorElements);
      if (std::any_of(x.dims.begin(), x.dims.end(), [](int64_t d) { return d < 0; }) ||
          n > RunLimits::kMaxTensorElements) {
        diags_.report(Diag::RunFault, f_.paramLoc(i),
                      "output tensor '" + f_.param(i)->name() + "' would have a negative extent or more than " +
                          std::to_string(RunLimits::kMaxTensorElements) +
                          " elements at these sizes, more than --run allocates; run it at other sizes");
        return false;
      }
      x.data->elems.assign(size_t(std::max<int64_t>(n, 0)), Num{});
      given_[i] = x;
    }
    return true;
  }

  // Every parameter's value: the given ones, the rest from --random-inputs.
  bool arguments(std::vector<RtValue>& args) {
    if (given_.size() == f_.numParams()) {
      for (unsigned i = 0; i < f_.numParams(); ++i) args.push_back(given_.at(i));
      return true;
    }
    if (request_.randomSeed) {
      // Sizes not given are chosen so that the kernel runs if it can; where it runs on none
      // (or every size is given), the run shows the fault where it happens.
      std::string why;
      std::optional<KernelInputs> in = chooseInputs(f_, *request_.randomSeed, why, request_.limits, given_);
      size_t freeSizes = 0;
      for (unsigned i = 0; i < f_.numParams(); ++i) freeSizes += f_.param(i)->type().isIndex() && !given_.count(i);
      if (!in) in = makeInputs(f_, std::vector<int64_t>(freeSizes, 16), *request_.randomSeed, why, given_);
      if (!in) {
        diags_.report(Diag::RunFault, f_.loc(),
                      "--random-inputs cannot fill the parameters of kernel '" + f_.name() + "': " + why);
        return false;
      }
      args = std::move(in->args);
      return true;
    }
    // Name a missing size first: the shapes of the outputs wait for it.
    for (bool sizes : {true, false})
      for (unsigned i = 0; i < f_.numParams(); ++i)
        if (f_.param(i)->type().isIndex() == sizes && !given_.count(i))
          return usageError("--run needs a value for parameter '" + f_.param(i)->name() + "' of kernel '" + f_.name() +
                            "'; give it with --arg " + f_.param(i)->name() + "=..., or use --random-inputs");
    return true;
  }

  // A given array must have the tensor's shape at the sizes of this run.
  bool checkShapes(const std::vector<RtValue>& args) {
    for (const auto& [i, value] : given_) {
      const auto* x = std::get_if<Tensor>(&value);
      if (!x) continue;
      std::optional<std::vector<int64_t>> dims = dimsAt(f_, i, [&](unsigned k) { return &args[k]; });
      if (!dims) {
        diags_.report(Diag::RunFault, f_.paramLoc(i),
                      "the shape of tensor '" + f_.param(i)->name() + "' cannot be evaluated at the sizes of this run "
                      "(a division by zero); give other sizes");
        return false;
      }
      if (*dims != x->dims) {
        diags_.report(Diag::NpyFile, f_.paramLoc(i),
                      "the array given for tensor '" + f_.param(i)->name() + "' is " + ir::shapeText(x->dims) +
                          " but the tensor is " + ir::shapeText(*dims) +
                          " at the sizes of this run; give an array of that shape");
        return false;
      }
    }
    return true;
  }

  bool execute(std::vector<RtValue>& args) {
    if (request_.execute) return request_.execute(args, diags_);
    try {
      Interpreter(f_, request_.limits).run(args);
    } catch (const RunError& e) {
      reportFault(diags_, e);
      return false;
    }
    return true;
  }

  bool writeOutputs(const std::vector<RtValue>& args) {
    for (const auto& [name, path] : request_.outputs) {
      std::optional<unsigned> i = paramNamed(name, "--out");
      if (!i) return false;
      const auto* x = std::get_if<Tensor>(&args[*i]);
      if (!x) return usageError("--out " + name + " names a scalar; --out writes tensors");
      std::string error;
      if (!writeFileAtomically(path, npyBytes(*x), error)) {
        for (const std::string& done : written_) std::remove(done.c_str());  // all or nothing
        diags_.report(Diag::OutputNotWritable, {},
                      "cannot write output '" + path + "': " + error +
                          "; check that the directory exists and is writable");
        return false;
      }
      written_.push_back(path);
    }
    return true;
  }

  const ir::Function& f_;
  const RunRequest& request_;
  DiagnosticEngine& diags_;
  std::vector<std::string>& written_;
  std::map<std::string, unsigned> byName_;
  std::map<unsigned, RtValue> given_;  // by parameter index
  std::string usage_;
};

}  // namespace

RunOutcome runKernel(const ir::Function& f, const RunRequest& request, DiagnosticEngine& diags,
                     std::vector<std::string>& written) {
  return KernelRun(f, request, diags, written).run();
}

}  // namespace tilec::interp
