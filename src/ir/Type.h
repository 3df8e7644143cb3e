// IR types: scalars, tensors (GM data, symbolic dims) and tiles (on-chip buffers
// with a static physical shape and a symbolic valid shape). The TypeKind enum is
// the extension point for later value kinds (partition views, tile arrays, DMA
// channels); each kind keeps its payload in Type and prints/parses in Printer/Parser.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/Expr.h"

namespace tilec::ir {

enum class DType : uint8_t { Bool, I8, I16, I32, I64, U8, U16, U32, F16, BF16, F32, Index };
const char* dtypeName(DType d);                         // "bf16", "index", ...
std::optional<DType> parseDType(std::string_view s);
unsigned dtypeBytes(DType d);                          // bool=1, index=8
bool isFloat(DType d);
bool isInteger(DType d);                               // i*/u*/index (not bool)
bool isSigned(DType d);

// A memory space, as an index into the target model's space table (TargetModel.h);
// kNoSpace is a tile not yet placed.
using SpaceId = uint8_t;
constexpr SpaceId kNoSpace = 0;
// A kernel kind, as an index into the target model's kind table; 0 before inference.
using KernelKind = uint8_t;
struct TargetModel;

enum class BLayout : uint8_t { RowMajor, ColMajor };
enum class SLayout : uint8_t { NoneBox, RowMajor, ColMajor };
enum class PadValue : uint8_t { Null = 0, Zero = 1, Max = 2, Min = 3 };
const char* blayoutName(BLayout b);                    // "row_major" / "col_major"
const char* slayoutName(SLayout s);                    // "none_box" / ...
std::optional<BLayout> parseBLayout(std::string_view s);
std::optional<SLayout> parseSLayout(std::string_view s);

// The 128-byte CELL order of a LinxISA cube layout (docs/linx.md); None for the others.
enum class CubeCells : uint8_t { None, M16, M32, N8 };

struct TileLayout {
  BLayout blayout = BLayout::RowMajor;
  SLayout slayout = SLayout::NoneBox;
  int fractal = 512;  // bytes
  PadValue pad = PadValue::Null;
  CubeCells cells = CubeCells::None;
  bool operator==(const TileLayout& o) const {
    return blayout == o.blayout && slayout == o.slayout && fractal == o.fractal && pad == o.pad &&
           cells == o.cells;
  }
  bool operator!=(const TileLayout& o) const { return !(*this == o); }
};
// The layouts a kernel names (`layout = nz`): row_major and col_major (unboxed), nz
// (column-major 512-byte boxes, row-major inside: a matmul's left operand), zn (its
// transpose), acc (nz with 1024-byte boxes), and the cube layouts cube_m16, cube_m32 and
// cube_n8. A target model says which of them its kernels may name.
std::optional<TileLayout> namedLayout(std::string_view name);
const char* layoutName(const TileLayout& l);  // nullptr for a layout without a name

// The layout a tile in `space` with 2D `shape` has unless stated otherwise: the model's
// rule for a placed tile; for an unplaced one (or no model), row-major unboxed, except
// that a [N, 1] column vector (a row reduction's result) is column-major.
TileLayout defaultLayout(SpaceId space, const std::vector<int64_t>& shape, const TargetModel* model);

// The layout of the same bytes seen transposed: the box order and the order inside a
// box swap (NZ becomes ZN, an unboxed row-major tile a column-major one).
TileLayout transposedLayout(const TileLayout& l);

// True when a `part`-shaped window of a 2-D tile of type `parent` has the parent's row and
// column strides as a tile of its own: a full-width row band of an unboxed row-major tile,
// a full-height column band of a column-major one; for boxed layouts, only the whole tile.
bool windowKeepsStrides(const class Type& parent, const std::vector<int64_t>& part);

enum class TypeKind : uint8_t { None, Scalar, Tensor, Tile };

class Type {
 public:
  Type() = default;  // TypeKind::None, used for "no type"/error recovery
  static Type scalar(DType d);
  static Type index() { return scalar(DType::Index); }
  static Type tensor(DType d, std::vector<Expr> dims);
  // valid defaults to the physical shape when empty; layout defaults to defaultLayout(space).
  // A placed tile (space != kNoSpace) needs the model that defines its space.
  static Type tile(DType d, std::vector<int64_t> shape, std::vector<Expr> valid = {},
                   SpaceId space = kNoSpace, std::optional<TileLayout> layout = std::nullopt,
                   const TargetModel* model = nullptr);

  TypeKind kind() const { return kind_; }
  bool isNone() const { return kind_ == TypeKind::None; }
  bool isScalar() const { return kind_ == TypeKind::Scalar; }
  bool isIndex() const { return isScalar() && dtype_ == DType::Index; }
  bool isTensor() const { return kind_ == TypeKind::Tensor; }
  bool isTile() const { return kind_ == TypeKind::Tile; }

  DType dtype() const { return dtype_; }
  // Tensor
  const std::vector<Expr>& dims() const { return extents().dims; }
  // Tile
  const std::vector<int64_t>& shape() const { return extents().shape; }
  const std::vector<Expr>& valid() const { return extents().valid; }
  SpaceId space() const { return space_; }
  const char* spaceName() const;  // "none" for an unplaced tile
  const TileLayout& layout() const { return layout_; }
  const TargetModel* model() const { return model_; }  // null for an unplaced tile
  bool hasDefaultLayout() const;
  size_t rank() const { return isTensor() ? dims().size() : shape().size(); }
  bool hasFullValid() const;     // valid == shape
  int64_t elementCount() const;  // product of the physical shape; both saturate at INT64_MAX
  int64_t byteSize() const;

  // Copies with one field changed (tile only).
  Type withDType(DType d) const;
  Type withShape(std::vector<int64_t> shape, std::vector<Expr> valid) const;
  Type withValid(std::vector<Expr> valid) const;
  Type withFullValid() const { return withShape(shape(), {}); }
  Type withSpace(SpaceId m, const TargetModel& model) const;  // resets layout to the default
  Type withLayout(TileLayout l) const;
  // withShape for a derived tile: a default layout stays the default of the new shape
  // (a [R, 1] result becomes a column vector), an explicit one is kept.
  Type reshapedTo(std::vector<int64_t> shape, std::vector<Expr> valid) const;
  // The type with every expression in it (tensor dims, tile valid extents) rewritten by `f`.
  Type mapExprs(const std::function<Expr(const Expr&)>& f) const;

  bool operator==(const Type& o) const;
  bool operator!=(const Type& o) const { return !(*this == o); }

  // `f32`, `index`, `tensor<bf16, [%S, 512]>`,
  // `tile<f32, [16, 512], valid=[min(16, %S - %c), 512], vec>`; a layout that is not
  // the space's default prints as `layout=col_major/row_major/512/pad0`.
  std::string str(const std::function<std::string(const Value*)>& name) const;

 private:
  // The sizes of a tensor or tile, immutable and shared: a type is copied onto every
  // value, and the values of a large kernel have few distinct shapes, so a copy costs a
  // pointer, not three vectors.
  struct Extents {
    std::vector<Expr> dims;      // tensor
    std::vector<int64_t> shape;  // tile
    std::vector<Expr> valid;     // tile
  };
  const Extents& extents() const { return extents_ ? *extents_ : noExtents(); }
  static const Extents& noExtents();
  void setExtents(Extents e) { extents_ = std::make_shared<const Extents>(std::move(e)); }

  TypeKind kind_ = TypeKind::None;
  DType dtype_ = DType::F32;
  SpaceId space_ = kNoSpace;
  TileLayout layout_;
  const TargetModel* model_ = nullptr;  // defines space_ and the default layout
  std::shared_ptr<const Extents> extents_;  // null: no sizes (scalars, none)
};

}  // namespace tilec::ir
