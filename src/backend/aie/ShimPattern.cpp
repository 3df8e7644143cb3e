#include "backend/aie/ShimPattern.h"

#include "backend/aie/AieModel.h"

namespace tilec::aie {
namespace {

using namespace ir;

struct Dim {
  Expr size, stride;
};

bool isConst(const Expr& e, int64_t v) { return e.asConst() == std::optional<int64_t>(v); }

}  // namespace

std::optional<AccessPattern> shimPattern(const AccessPattern& p, int64_t elemBits, std::string& error) {
  std::vector<Dim> dims;  // outermost first
  for (size_t i = 0; i < p.sizes.size(); ++i)
    if (!isConst(p.sizes[i], 1)) dims.push_back({p.sizes[i], p.strides[i]});
  if (dims.empty()) dims.push_back({Expr::constant(1), Expr::constant(1)});
  // Too many dimensions: fold an outer one into the inner one it continues.
  for (size_t i = dims.size() - 1; dims.size() > kDescriptorDims && i-- > 0;) {
    Dim& outer = dims[i];
    const Dim& inner = dims[i + 1];
    if (!provablyEqual(outer.stride, inner.size * inner.stride)) continue;
    dims[i + 1] = {outer.size * inner.size, inner.stride};
    dims.erase(dims.begin() + long(i));
  }
  static_assert(kDescriptorDims == 4, "the message below says a descriptor walks three dimensions plus a repeat");
  if (dims.size() > kDescriptorDims) {
    error = "the pattern walks " + std::to_string(dims.size()) +
            " dimensions that do not merge, and a descriptor walks three plus a repeat; move the outer ones "
            "into a loop around the transfer";
    return std::nullopt;
  }
  for (size_t i = 1; i < dims.size(); ++i)
    if (isConst(dims[i].stride, 0)) {
      error = "dimension " + std::to_string(i) + " (of " + std::to_string(dims.size()) +
              ", outermost first) repeats data with stride 0, but only the outermost may: a descriptor repeats "
              "whole walks; reorder the pattern or move the repeat into a loop";
      return std::nullopt;
    }
  // A repeat or a fourth dimension is the iteration; padding goes inside it.
  const bool outerIsIteration = dims.size() == kDescriptorDims || (dims.size() > 1 && isConst(dims[0].stride, 0));
  const Dim unit{Expr::constant(1), Expr::constant(0)};
  std::vector<Dim> four;
  if (outerIsIteration) four.push_back(dims.front());
  const size_t inner = outerIsIteration ? dims.size() - 1 : dims.size();
  four.insert(four.end(), kDescriptorDims - four.size() - inner, unit);
  four.insert(four.end(), dims.end() - long(inner), dims.end());
  AccessPattern out{p.offset, {}, {}};
  for (const Dim& d : four) {
    out.sizes.push_back(d.size);
    out.strides.push_back(d.stride);
  }
  return out;
}

std::optional<tilec_txn::Transfer> constantTransfer(const AccessPattern& p, int64_t elemBits,
                                                    const std::function<std::optional<int64_t>(const Value*)>& value) {
  bool ok = true;
  auto eval = [&](const Expr& e) -> int64_t {
    Expr c = e.substitute([&](const Value* v) {
      std::optional<int64_t> x = value(v);
      return x ? Expr::constant(*x) : Expr();
    });
    std::optional<int64_t> n = c.asConst();
    if (!n) ok = false;
    return n.value_or(0);
  };
  tilec_txn::Transfer t;
  t.elemBits = elemBits;
  t.offset = eval(p.offset);
  for (size_t i = 0; i < kDescriptorDims && i < p.sizes.size(); ++i) {
    t.sizes[kDescriptorDims - 1 - i] = eval(p.sizes[i]);
    t.strides[kDescriptorDims - 1 - i] = eval(p.strides[i]);
  }
  if (!ok || p.sizes.size() != kDescriptorDims) return std::nullopt;
  return t;
}

std::optional<tilec_txn::Walk> constantWalk(const AccessPattern& p, int64_t elemBits) {
  tilec_txn::Walk w;
  w.elemBits = elemBits;
  for (size_t i = 0; i < p.sizes.size(); ++i) {
    const std::optional<int64_t> n = p.sizes[i].asConst(), s = p.strides[i].asConst();
    if (!n || !s) return std::nullopt;
    w.sizes.push_back(*n);
    w.strides.push_back(*s);
  }
  return w;
}

AccessPattern patternOf(const tilec_txn::Transfer& t, const Expr& offset) {
  AccessPattern out{offset, {}, {}};
  for (size_t i = kDescriptorDims; i-- > 0;) {
    out.sizes.push_back(Expr::constant(t.sizes[i]));
    out.strides.push_back(Expr::constant(t.strides[i]));
  }
  return out;
}

}  // namespace tilec::aie
