#include "ir/Type.h"

#include "ir/Describe.h"
#include "ir/TargetModel.h"

#include <array>
#include <cassert>

namespace tilec::ir {
namespace {

struct DTypeFacts {
  DType dtype;
  const char* name;
  unsigned bytes;
};
constexpr std::array<DTypeFacts, 12> kDTypes{{
    {DType::Bool, "bool", 1}, {DType::I8, "i8", 1},     {DType::I16, "i16", 2},
    {DType::I32, "i32", 4},   {DType::I64, "i64", 8},   {DType::U8, "u8", 1},
    {DType::U16, "u16", 2},   {DType::U32, "u32", 4},   {DType::F16, "f16", 2},
    {DType::BF16, "bf16", 2}, {DType::F32, "f32", 4},   {DType::Index, "index", 8},
}};

template <class Enum, size_t N>
std::optional<Enum> lookupName(const std::array<const char*, N>& names, std::string_view s) {
  for (size_t i = 0; i < N; ++i)
    if (s == names[i]) return Enum(i);
  return std::nullopt;
}

constexpr std::array<const char*, 2> kBLayoutNames{"row_major", "col_major"};
constexpr std::array<const char*, 3> kSLayoutNames{"none_box", "row_major", "col_major"};

bool sameExprs(const std::vector<Expr>& a, const std::vector<Expr>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

}  // namespace

const char* dtypeName(DType d) { return kDTypes[size_t(d)].name; }
unsigned dtypeBytes(DType d) { return kDTypes[size_t(d)].bytes; }

std::optional<DType> parseDType(std::string_view s) {
  for (const auto& f : kDTypes)
    if (s == f.name) return f.dtype;
  return std::nullopt;
}

bool isFloat(DType d) { return d == DType::F16 || d == DType::BF16 || d == DType::F32; }
bool isInteger(DType d) { return !isFloat(d) && d != DType::Bool; }
bool isSigned(DType d) {
  return d == DType::I8 || d == DType::I16 || d == DType::I32 || d == DType::I64 ||
         d == DType::Index || isFloat(d);
}

const char* blayoutName(BLayout b) { return kBLayoutNames[size_t(b)]; }
const char* slayoutName(SLayout s) { return kSLayoutNames[size_t(s)]; }
std::optional<BLayout> parseBLayout(std::string_view s) {
  return lookupName<BLayout>(kBLayoutNames, s);
}
std::optional<SLayout> parseSLayout(std::string_view s) {
  return lookupName<SLayout>(kSLayoutNames, s);
}

namespace {
struct NamedLayout {
  const char* name;
  TileLayout layout;
};
const NamedLayout kNamedLayouts[] = {
    {"row_major", {BLayout::RowMajor, SLayout::NoneBox, 512, PadValue::Null, CubeCells::None}},
    {"col_major", {BLayout::ColMajor, SLayout::NoneBox, 512, PadValue::Null, CubeCells::None}},
    {"nz", {BLayout::ColMajor, SLayout::RowMajor, 512, PadValue::Null, CubeCells::None}},
    {"zn", {BLayout::RowMajor, SLayout::ColMajor, 512, PadValue::Null, CubeCells::None}},
    {"acc", {BLayout::ColMajor, SLayout::RowMajor, 1024, PadValue::Null, CubeCells::None}},
    {"cube_m16", {BLayout::ColMajor, SLayout::RowMajor, 128, PadValue::Null, CubeCells::M16}},
    {"cube_m32", {BLayout::ColMajor, SLayout::RowMajor, 128, PadValue::Null, CubeCells::M32}},
    {"cube_n8", {BLayout::RowMajor, SLayout::ColMajor, 128, PadValue::Null, CubeCells::N8}},
};
}  // namespace

std::optional<TileLayout> namedLayout(std::string_view name) {
  for (const NamedLayout& n : kNamedLayouts)
    if (name == n.name) return n.layout;
  return std::nullopt;
}

const char* layoutName(const TileLayout& l) {
  for (const NamedLayout& n : kNamedLayouts)
    if (l == n.layout) return n.name;
  return nullptr;
}

TileLayout transposedLayout(const TileLayout& l) {
  auto flip = [](BLayout b) { return b == BLayout::RowMajor ? BLayout::ColMajor : BLayout::RowMajor; };
  TileLayout t = l;
  t.blayout = flip(l.blayout);
  if (l.slayout != SLayout::NoneBox) t.slayout = l.slayout == SLayout::RowMajor ? SLayout::ColMajor : SLayout::RowMajor;
  return t;
}

bool windowKeepsStrides(const Type& parent, const std::vector<int64_t>& part) {
  const std::vector<int64_t>& whole = parent.shape();
  if (part.size() != 2 || whole.size() != 2) return part == whole;
  if (parent.layout().slayout != SLayout::NoneBox) return part == whole;
  return parent.layout().blayout == BLayout::RowMajor ? part[1] == whole[1] : part[0] == whole[0];
}

TileLayout defaultLayout(SpaceId space, const std::vector<int64_t>& shape, const TargetModel* model) {
  if (space != kNoSpace && model) return model->defaultLayout(space, shape);
  bool columnVector = shape.size() == 2 && shape[1] == 1 && shape[0] > 1;
  return {columnVector ? BLayout::ColMajor : BLayout::RowMajor, SLayout::NoneBox, 512, PadValue::Null};
}

Type Type::scalar(DType d) {
  Type t;
  t.kind_ = TypeKind::Scalar;
  t.dtype_ = d;
  return t;
}

const Type::Extents& Type::noExtents() {
  static const Extents kNone;
  return kNone;
}

Type Type::tensor(DType d, std::vector<Expr> dims) {
  Type t;
  t.kind_ = TypeKind::Tensor;
  t.dtype_ = d;
  t.setExtents({std::move(dims), {}, {}});
  return t;
}

Type Type::tile(DType d, std::vector<int64_t> shape, std::vector<Expr> valid, SpaceId space,
                std::optional<TileLayout> layout, const TargetModel* model) {
  Type t;
  t.kind_ = TypeKind::Tile;
  t.dtype_ = d;
  assert(space == kNoSpace || model);  // the model defines the space
  t.space_ = space;
  t.model_ = model;
  t.layout_ = layout ? *layout : defaultLayout(space, shape, model);
  std::vector<Expr> fullValid = valid.empty() ? constExprs(shape) : std::move(valid);
  t.setExtents({{}, std::move(shape), std::move(fullValid)});
  return t;
}

const char* Type::spaceName() const { return model_ ? model_->spaceName(space_) : "none"; }

bool Type::hasFullValid() const {
  const std::vector<int64_t>& s = shape();
  const std::vector<Expr>& v = valid();
  if (s.size() != v.size()) return false;
  for (size_t i = 0; i < s.size(); ++i)
    if (v[i].asConst() != s[i]) return false;
  return true;
}

namespace {
// Sizes saturate: a tile of INT64_MAX bytes is as impossible as a larger one, and
// capacity checks must see it as huge rather than wrapped around.
int64_t saturatingMul(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}
}  // namespace

int64_t Type::elementCount() const {
  int64_t n = 1;
  for (int64_t d : shape()) n = saturatingMul(n, d);
  return n;
}

int64_t Type::byteSize() const { return saturatingMul(elementCount(), int64_t(dtypeBytes(dtype_))); }

Type Type::withDType(DType d) const {
  Type t = *this;
  t.dtype_ = d;
  return t;
}

Type Type::withShape(std::vector<int64_t> shape, std::vector<Expr> valid) const {
  Type t = *this;
  std::vector<Expr> fullValid = valid.empty() ? constExprs(shape) : std::move(valid);
  t.setExtents({dims(), std::move(shape), std::move(fullValid)});
  return t;
}

Type Type::withValid(std::vector<Expr> valid) const {
  Type t = *this;
  t.setExtents({dims(), shape(), std::move(valid)});
  return t;
}

Type Type::withSpace(SpaceId m, const TargetModel& model) const {
  Type t = *this;
  t.space_ = m;
  t.model_ = &model;
  t.layout_ = defaultLayout(m, shape(), &model);
  return t;
}

Type Type::mapExprs(const std::function<Expr(const Expr&)>& f) const {
  if (!extents_) return *this;
  Extents mapped = *extents_;
  for (Expr& e : mapped.dims) e = f(e);
  for (Expr& e : mapped.valid) e = f(e);
  Type t = *this;
  t.setExtents(std::move(mapped));
  return t;
}

bool Type::hasDefaultLayout() const { return layout_ == defaultLayout(space_, shape(), model_); }

Type Type::reshapedTo(std::vector<int64_t> shape, std::vector<Expr> valid) const {
  Type r = withShape(std::move(shape), std::move(valid));
  return hasDefaultLayout() ? r.withLayout(defaultLayout(r.space_, r.shape(), model_)) : r;
}

Type Type::withLayout(TileLayout l) const {
  Type t = *this;
  t.layout_ = l;
  return t;
}

bool Type::operator==(const Type& o) const {
  if (kind_ != o.kind_) return false;
  switch (kind_) {
    case TypeKind::None:
      return true;
    case TypeKind::Scalar:
      return dtype_ == o.dtype_;
    case TypeKind::Tensor:
      return dtype_ == o.dtype_ && (extents_ == o.extents_ || sameExprs(dims(), o.dims()));
    case TypeKind::Tile:
      return dtype_ == o.dtype_ && space_ == o.space_ && layout_ == o.layout_ &&
             (extents_ == o.extents_ || (shape() == o.shape() && sameExprs(valid(), o.valid())));
  }
  return false;
}

std::string Type::str(const std::function<std::string(const Value*)>& name) const {
  switch (kind_) {
    case TypeKind::None:
      return "none";
    case TypeKind::Scalar:
      return dtypeName(dtype_);
    case TypeKind::Tensor:
      return std::string("tensor<") + dtypeName(dtype_) + ", " + shapeText(dims(), name) + ">";
    case TypeKind::Tile: {
      std::string s = std::string("tile<") + dtypeName(dtype_) + ", " + shapeText(shape());
      if (!hasFullValid()) s += ", valid=" + shapeText(valid(), name);
      if (space_ != kNoSpace) s += std::string(", ") + spaceName();
      if (layout_.cells != CubeCells::None)
        s += std::string(", layout=") + layoutName(layout_);
      else if (layout_ != defaultLayout(space_, shape(), model_))
        s += std::string(", layout=") + blayoutName(layout_.blayout) + "/" +
             slayoutName(layout_.slayout) + "/" + std::to_string(layout_.fractal) + "/pad" +
             std::to_string(int(layout_.pad));
      return s + ">";
    }
  }
  return "none";
}

}  // namespace tilec::ir
