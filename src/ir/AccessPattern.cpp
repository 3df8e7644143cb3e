#include "ir/AccessPattern.h"

#include <algorithm>
#include <tuple>

#include "ir/Describe.h"

namespace tilec::ir {
namespace {

std::string num(int64_t v) { return std::to_string(v); }

// The largest tile, repeat, step or group extent a tiler takes: far beyond any tensor, and
// small enough that no product of them overflows.
constexpr int64_t kLargest = int64_t(1) << 30;

// Integers of `xs`, promoted from one number to [1, n] like a 1-D tensor.
std::vector<int64_t> asPair(std::vector<int64_t> xs) {
  if (xs.size() == 1) xs.insert(xs.begin(), 1);
  return xs;
}

// The steps a tiler takes along one axis of `tiles` tiles, grouping `repeat` tiles spaced
// `step` apart; a last, smaller group covers what is left (taplib's counting).
int64_t stepsAlong(int64_t tiles, int64_t repeat, int64_t step) {
  const int64_t block = step * repeat, full = tiles / block;
  const int64_t left = tiles - block * full, leftRepeats = left / step;
  return full * step + (step * leftRepeats > 0 ? left / (step * leftRepeats) * step : left);
}

// Values known only at run time show as <runtime>.
std::string listText(const std::vector<Expr>& xs) {
  return shapeText(xs, [](const Value*) { return std::string("<runtime>"); });
}

}  // namespace

void cleanUnitDims(AccessPattern& p) {
  for (size_t i = 0; i + 1 < p.sizes.size(); ++i) {
    std::optional<int64_t> s = p.sizes[i].asConst();
    if (!s || *s != 1) break;
    p.strides[i] = Expr::constant(0);
  }
}

std::optional<std::vector<int64_t>> accesses(const AccessPattern& p, int64_t elements) {
  std::optional<int64_t> offset = p.offset.asConst();
  if (!offset || elements <= 0) return std::nullopt;
  std::vector<int64_t> sizes, strides;
  int64_t total = 1;
  for (size_t i = 0; i < p.sizes.size(); ++i) {
    std::optional<int64_t> s = p.sizes[i].asConst(), t = p.strides[i].asConst();
    if (!s || !t || *s < 1 || *s > (int64_t(1) << 24) / total) return std::nullopt;
    sizes.push_back(*s);
    strides.push_back(*t);
    total *= *s;
  }
  std::vector<int64_t> out, at(sizes.size(), 0);
  out.reserve(size_t(total));
  for (int64_t n = 0; n < total; ++n) {
    int64_t index = *offset;
    for (size_t i = 0; i < at.size(); ++i) index += at[i] * strides[i];
    out.push_back(((index % elements) + elements) % elements);
    for (size_t i = at.size(); i-- > 0;) {  // the last dimension counts fastest
      if (++at[i] < sizes[i]) break;
      at[i] = 0;
    }
  }
  return out;
}

std::optional<Tiler> Tiler::make(const TilerSpec& spec, std::string& error) {
  Tiler t;
  t.spec_ = spec;
  TilerSpec& s = t.spec_;
  std::vector<Expr> dims = s.tensorDims;
  if (dims.size() == 1) dims.insert(dims.begin(), Expr::constant(1));
  if (dims.size() != 2) {
    error = "a tiler cuts a 1-D or 2-D tensor, not one of " + num(int64_t(s.tensorDims.size())) + " dims";
    return std::nullopt;
  }
  if (s.tileDims.empty())
    for (const Expr& d : dims) {
      if (!d.isConst()) {
        error = "a tiler over a tensor with runtime sizes needs its tile dims";
        return std::nullopt;
      }
      s.tileDims.push_back(d.constValue());
    }
  s.tileDims = asPair(s.tileDims);
  s.groupRepeats = asPair(s.groupRepeats);
  s.groupSteps = asPair(s.groupSteps);
  const std::pair<const char*, const std::vector<int64_t>*> lists[] = {
      {"tile dims", &s.tileDims}, {"group repeats", &s.groupRepeats}, {"group steps", &s.groupSteps}};
  for (const auto& [what, xs] : lists) {
    if (xs->size() != 2) {
      error = std::string(what) + " are 1 or 2 numbers, not " + num(int64_t(xs->size()));
      return std::nullopt;
    }
    for (int64_t x : *xs) {
      if (x < 1) {
        error = std::string(what) + " must be positive, but one is " + num(x);
        return std::nullopt;
      }
      if (x > kLargest) {
        error = std::string(what) + " must be at most " + num(kLargest) + ", but one is " + num(x);
        return std::nullopt;
      }
    }
  }
  for (int axis = 0; axis < 2; ++axis)
    if (s.tileDims[size_t(axis)] * s.groupRepeats[size_t(axis)] > kLargest / s.groupSteps[size_t(axis)]) {
      error = "a group of tile x repeat x step spans more than " + num(kLargest) + " elements along one axis";
      return std::nullopt;
    }
  if (s.patternRepeat < 1) {
    error = "a pattern repeat must be positive, but it is " + num(s.patternRepeat);
    return std::nullopt;
  }
  for (int axis = 0; axis < 2; ++axis) {
    const Expr& dim = dims[size_t(axis)];
    const int64_t tile = s.tileDims[size_t(axis)];
    int64_t& repeat = s.groupRepeats[size_t(axis)];
    int64_t& step = s.groupSteps[size_t(axis)];
    const std::string name = axis == 0 ? "rows" : "columns";
    if (std::optional<int64_t> d = dim.asConst()) {
      if (*d < 1) {
        error = "the tensor's " + name + " must be positive, but there are " + num(*d);
        return std::nullopt;
      }
      if (*d % tile != 0) {
        error = "the tensor's " + num(*d) + " " + name + " are not a whole number of tiles of " + num(tile);
        return std::nullopt;
      }
      const int64_t block = tile * repeat * step;
      if (!s.allowPartial && *d % block != 0) {
        error = "the tensor's " + num(*d) + " " + name + " are not whole groups of " + num(block) + " (tile " +
                num(tile) + " x repeat " + num(repeat) + " x step " + num(step) +
                "); allow partial groups, or choose groups that divide the tensor";
        return std::nullopt;
      }
      const int64_t tiles = *d / tile;
      repeat = std::min(repeat, (tiles + step - 1) / step);
      if (step > tiles) step = 1;
      (axis == 0 ? t.stepsH_ : t.stepsW_) = Expr::constant(stepsAlong(tiles, repeat, step));
    } else {
      if (s.allowPartial) {
        error = "partial groups need constant tensor sizes; the " + name + " are a runtime value";
        return std::nullopt;
      }
      const int64_t block = tile * repeat * step;
      t.guards_.push_back({Expr::logicalAnd(Expr::cmp(CmpKind::EQ, Expr::mod(dim, Expr::constant(block)),
                                                      Expr::constant(0)),
                                            Expr::cmp(CmpKind::GE, dim, Expr::constant(block))),
                           "the tensor's " + name + " must be a positive multiple of " + num(block) + " (tile " +
                               num(tile) + " x repeat " + num(repeat) + " x step " + num(step) + ")"});
      (axis == 0 ? t.stepsH_ : t.stepsW_) = Expr::floorDiv(dim, Expr::constant(tile * repeat));
    }
    (axis == 0 ? t.tilesH_ : t.tilesW_) = Expr::floorDiv(dim, Expr::constant(tile));
  }
  t.rows_ = dims[0];
  t.cols_ = dims[1];
  t.count_ = t.stepsH_ * t.stepsW_;
  return t;
}

std::optional<TileStep> Tiler::at(const Expr& k, std::string& error) const {
  const TilerSpec& s = spec_;
  const int64_t rh = s.groupRepeats[0], rw = s.groupRepeats[1];
  const int64_t sh = s.groupSteps[0], sw = s.groupSteps[1];
  // The step's position in tiles: along the width first unless the steps go column-major.
  const Expr r = s.iterColMajor ? Expr::floorDiv(k, stepsH_) : Expr::mod(k, stepsW_);
  const Expr c = s.iterColMajor ? Expr::mod(k, stepsH_) : Expr::floorDiv(k, stepsW_);
  auto groupStart = [](const Expr& i, int64_t step, int64_t repeat) {
    return Expr::floorDiv(i, Expr::constant(step)) * (step * repeat) + Expr::mod(i, Expr::constant(step));
  };
  const Expr offW = groupStart(r, sw, rw), offH = groupStart(c, sh, rh);
  TileStep step;
  AccessPattern& p = step.pattern;
  p.offset = offH * s.tileDims[0] * cols_ + offW * s.tileDims[1];

  // Groups at the edges of a partial tiling hold fewer tiles (and a step past the edge is
  // 1): counts that are expressions of the step (clamped into the grid: a step outside it
  // has no pattern anyway).
  const Expr zero = Expr::constant(0), one = Expr::constant(1);
  Expr rhHere = Expr::constant(rh), rwHere = Expr::constant(rw), shHere = Expr::constant(sh),
       swHere = Expr::constant(sw);
  if (s.allowPartial) {
    auto clamp = [&](const Expr& i, const Expr& n) { return Expr::min(Expr::max(i, zero), n - one); };
    const Expr remH = tilesH_ - groupStart(clamp(c, stepsH_), sh, rh);
    const Expr remW = tilesW_ - groupStart(clamp(r, stepsW_), sw, rw);
    auto fewer = [](int64_t repeat, const Expr& rem, int64_t step) {
      return Expr::min(Expr::constant(repeat), Expr::ceilDiv(rem, Expr::constant(step)));
    };
    auto narrowed = [](int64_t step, const Expr& rem) {
      return Expr::select(Expr::cmp(CmpKind::GT, Expr::constant(step), rem), Expr::constant(1), Expr::constant(step));
    };
    rhHere = fewer(rh, remH, sh), rwHere = fewer(rw, remW, sw);
    shHere = narrowed(sh, remH), swHere = narrowed(sw, remW);
  }
  // The pattern's shape answers four questions about the step's group: is it merged into
  // one taller (or wider) tile, and does it span more than one tile down (across). Each is
  // a condition that folds to a constant when it holds alike for every step; otherwise
  // (partial groups, a symbolic step) every number of the pattern selects by it, and folds
  // once the step is a constant.
  auto no = Expr::boolean(false);
  const Expr mergeH = s.pruneSteps && s.groupColMajor && !s.tileColMajor
                          ? Expr::logicalAnd(Expr::cmp(CmpKind::EQ, shHere, one), Expr::cmp(CmpKind::GT, rhHere, one))
                          : no;
  const Expr mergeW = s.pruneSteps && !s.groupColMajor && s.tileColMajor
                          ? Expr::logicalAnd(Expr::cmp(CmpKind::EQ, swHere, one), Expr::cmp(CmpKind::GT, rwHere, one))
                          : no;
  const Expr tall = Expr::logicalAnd(Expr::logicalNot(mergeH), Expr::cmp(CmpKind::GT, rhHere, one));
  const Expr wide = Expr::logicalAnd(Expr::logicalNot(mergeW), Expr::cmp(CmpKind::GT, rwHere, one));
  for (const Expr& question : {mergeH, mergeW, tall, wide}) step.shapeVaries = step.shapeVaries || !question.isConst();

  const Expr th = Expr::select(mergeH, rhHere * s.tileDims[0], Expr::constant(s.tileDims[0]));
  const Expr tw = Expr::select(mergeW, rwHere * s.tileDims[1], Expr::constant(s.tileDims[1]));
  if (s.tileColMajor) {
    p.sizes = {one, one, tw, th};
    p.strides = {zero, zero, one, cols_};
  } else {
    p.sizes = {one, one, th, tw};
    p.strides = {zero, zero, cols_, one};
  }
  // A group both tall and wide takes the two outer dimensions (the row dimension outermost
  // unless the group is walked column by column); one that is only tall or only wide, the
  // second.
  const Expr rowStride = cols_ * shHere * s.tileDims[0], colStride = swHere * s.tileDims[1];
  const Expr both = Expr::logicalAnd(tall, wide);
  const bool rowsOuter = !s.groupColMajor;
  auto pick = [&](const Expr& rows, const Expr& cols, const Expr& none) {
    const Expr outer = Expr::select(both, rowsOuter ? rows : cols, none);
    const Expr inner = Expr::select(both, rowsOuter ? cols : rows,
                                    Expr::select(tall, rows, Expr::select(wide, cols, none)));
    return std::pair<Expr, Expr>{outer, inner};
  };
  std::tie(p.sizes[0], p.sizes[1]) = pick(rhHere, rwHere, one);
  std::tie(p.strides[0], p.strides[1]) = pick(rowStride, colStride, zero);
  cleanUnitDims(p);
  if (s.patternRepeat != 1) {
    if (!both.isConst()) {
      error = "a pattern repeat needs a free outer dimension, but the steps whose group is both taller and wider "
              "than a tile use all four";
      return std::nullopt;
    }
    if (p.sizes[0].asConst() != std::optional<int64_t>(1) || p.strides[0].asConst() != std::optional<int64_t>(0)) {
      error = "a pattern repeat needs a free outer dimension, but all four are in use (sizes " + listText(p.sizes) +
              ", strides " + listText(p.strides) + ")";
      return std::nullopt;
    }
    p.sizes[0] = Expr::constant(s.patternRepeat);
    cleanUnitDims(p);
  }
  return step;
}

}  // namespace tilec::ir
