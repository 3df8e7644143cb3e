// The op table (Ops.def) as data, each op kind's attribute schema, and its typing
// rules: result-type inference and per-op verification. Every rule violation has
// its own E02xx code and names the operand it is about.
#include "ir/OpDefs.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "ir/Describe.h"
#include "ir/NdShape.h"

namespace tilec::ir {

// ---- the table ----

namespace {

// Sorted by key, plus `buffers` and `addrs` for ops with results (assign-buffers and
// plan-addresses set them).
std::vector<AttrSpec> schema(std::vector<AttrSpec> specs, int numResults) {
  if (numResults != 0) {
    specs.push_back({attr::buffers.key, attr::buffers.kind, false});
    specs.push_back({attr::addrs.key, attr::addrs.kind, false});
  }
  std::sort(specs.begin(), specs.end(),
            [](const AttrSpec& a, const AttrSpec& b) { return std::string_view(a.key) < b.key; });
  return specs;
}

}  // namespace

const std::vector<OpInfo>& allOps() {
  static const std::vector<OpInfo> kOps = {
#define A(NAME, REQUIRED) AttrSpec{attr::NAME.key, attr::NAME.kind, REQUIRED}
#define ATTRS(...) std::vector<AttrSpec>{__VA_ARGS__}
#define TILEC_OP(E, NAME, SPELLING, GROUP, OPS, RES, REG, TRAITS, TIED, SCRATCH, RULE, ATTRS_) \
  {OpKind::E, NAME, SPELLING, OpGroup::GROUP, OPS, RES, REG, uint32_t(TRAITS), TIED, SCRATCH, schema(ATTRS_, RES)},
#include "ir/Ops.def"
#undef TILEC_OP
#undef ATTRS
#undef A
  };
  return kOps;
}

const OpInfo& opInfo(OpKind k) { return allOps()[size_t(k)]; }

std::string OpInfo::operandCountText() const {
  if (numOperands < 0) return "any number of";
  if (minOperands() == maxOperands()) return std::to_string(minOperands());
  return std::to_string(minOperands()) + " or " + std::to_string(maxOperands());
}

std::optional<OpKind> opKindByName(std::string_view name) {
  static const std::map<std::string_view, OpKind> kByName = [] {
    std::map<std::string_view, OpKind> m;
    for (const OpInfo& i : allOps()) m.emplace(i.name, i.kind);
    return m;
  }();
  auto it = kByName.find(name);
  if (it == kByName.end()) return std::nullopt;
  return it->second;
}

const char* opGroupName(OpGroup g) {
  switch (g) {
    case OpGroup::Core: return "core";
    case OpGroup::Tile: return "tile";
    case OpGroup::Sequence: return "sequence";
    case OpGroup::Region: return "region";
    case OpGroup::Cores: return "cores";
    case OpGroup::Launch: return "launch";
  }
  return "?";
}

// ---- attribute schema ----

const char* attrKindName(AttrKind k) {
  switch (k) {
    case AttrKind::Int: return "integer";
    case AttrKind::Float: return "float";
    case AttrKind::Bool: return "boolean";
    case AttrKind::String: return "string";
    case AttrKind::Expr: return "expression";
    case AttrKind::ExprList: return "expression list";
    case AttrKind::IntList: return "integer list";
    case AttrKind::Type: return "type";
    case AttrKind::IntOrFloat: return "number";
    case AttrKind::LoopMode: return "loop mode";
    case AttrKind::RoundMode: return "rounding mode";
    case AttrKind::RegionPhase: return "region phase";
    case AttrKind::Cmp: return "comparison predicate";
    case AttrKind::Scan: return "scan kind";
  }
  return "?";
}

const std::vector<AttrSpec>& attrSchema(OpKind k) { return opInfo(k).attrs; }

const AttrSpec* findAttrSpec(OpKind k, std::string_view key) {
  for (const AttrSpec& s : attrSchema(k))
    if (key == s.key) return &s;
  return nullptr;
}

bool attrHasKind(const AttrValue& v, AttrKind k) {
  switch (k) {
    case AttrKind::Int: return std::holds_alternative<int64_t>(v);
    case AttrKind::Float: return std::holds_alternative<double>(v);
    case AttrKind::Bool: return std::holds_alternative<bool>(v);
    case AttrKind::String: return std::holds_alternative<std::string>(v);
    case AttrKind::Expr: return std::holds_alternative<Expr>(v);
    case AttrKind::ExprList: return std::holds_alternative<std::vector<Expr>>(v);
    case AttrKind::IntList: return std::holds_alternative<std::vector<int64_t>>(v);
    case AttrKind::Type: return std::holds_alternative<TypeAttr>(v);
    case AttrKind::IntOrFloat:
      return std::holds_alternative<int64_t>(v) || std::holds_alternative<double>(v);
    case AttrKind::LoopMode: return std::holds_alternative<LoopMode>(v);
    case AttrKind::RoundMode: return std::holds_alternative<RoundMode>(v);
    case AttrKind::RegionPhase: return std::holds_alternative<RegionPhase>(v);
    case AttrKind::Cmp: return std::holds_alternative<CmpKind>(v);
    case AttrKind::Scan: return std::holds_alternative<ScanKind>(v);
  }
  return false;
}

namespace {

// ---- message helpers ----

std::string str(const Expr& e) { return exprText(e); }
std::string str(const Type& t) { return typeText(t); }

// "an expression", "a list": the noun with its indefinite article.
std::string withArticle(const std::string& noun) {
  const bool vowel = !noun.empty() && std::string("aeiou").find(noun[0]) != std::string::npos;
  return (vowel ? "an " : "a ") + noun;
}

const char* kindNoun(const Type& t) {
  switch (t.kind()) {
    case TypeKind::Scalar: return "a scalar";
    case TypeKind::Tensor: return "a tensor";
    case TypeKind::Tile: return "a tile";
    case TypeKind::None: return "untyped";
  }
  return "untyped";
}

bool proven(CmpKind k, const Expr& a, const Expr& b) {
  return prove(k, a, b) == std::optional<bool>(true);
}


using Result = std::variant<Type, OpError>;

// The rules of one op, checked against one InferInput.
class Rules {
 public:
  explicit Rules(const InferInput& in) : in_(in), info_(opInfo(in.kind)) {
    const std::string spelling = info_.spelling;  // a built-in reads as a word: "matmul inner dimensions differ"
    const bool builtin = std::isalpha(static_cast<unsigned char>(spelling[0])) && spelling.find(' ') == std::string::npos;
    op_ = builtin ? spelling : spellingOf(in.kind);
    // One op serves three built-ins: messages name the one written.
    if (in.kind == OpKind::Scan && in.attrs)
      if (const auto* k = attrOf<ScanKind>(*in.attrs, attr::scan.key)) op_ = scanBuiltin(*k);
  }

  // Operand count and attribute schema: the rules every op kind has.
  std::optional<OpError> checkCommon() const {
    if (auto e = checkOperandCount()) return e;
    return checkAttrs(in_.kind, attrs());
  }

  Result infer() {
    if (auto e = checkCommon()) return *e;
    if (auto e = checkMasks()) return *e;
    return (this->*rule())();
  }

 private:
  using Rule = Result (Rules::*)();

  // The typing rule of the op kind: the table's Rule column.
  Rule rule() const {
    static const Rule kRules[] = {
#define TILEC_OP(E, NAME, SPELLING, GROUP, OPS, RES, REG, TRAITS, TIED, SCRATCH, RULE, ATTRS_) &Rules::RULE,
#include "ir/Ops.def"
#undef TILEC_OP
    };
    return kRules[size_t(in_.kind)];
  }

  Result typedByRegions() {
    return OpError{Diag::IRVerify, op_ + " is typed by its regions, not by inference; check it with the verifier"};
  }
  Result inferPlainMatmul() { return inferMatmul(0); }
  Result inferPlainBatchMatmul() { return inferBatchMatmul(0); }

  // Schema checks: required keys present, no unknown keys, payload kinds (enumerated
  // values are typed), and that `init` is a condition.
  std::optional<OpError> checkAttrs(OpKind k, const AttrMap& attrs) const {
    for (const AttrSpec& spec : attrSchema(k))
      if (spec.required && !attrs.count(spec.key))
        return bad(std::string(info_.name) + " needs a '" + spec.key + "' attribute (" +
                   attrKindName(spec.kind) + "); add it");
    for (const auto& [key, value] : attrs) {
      const AttrSpec* spec = findAttrSpec(k, key);
      if (!spec)
        return bad(std::string(info_.name) + " has no attribute '" + std::string(key) + "'; remove it" +
                   knownKeys(k));
      if (const auto* name = std::get_if<std::string>(&value)) {
        if (spec->kind == AttrKind::LoopMode)
          return bad("loop mode '" + *name + "' is unknown; use " + loopModeList());
        if (spec->kind == AttrKind::RoundMode)
          return bad("rounding mode '" + *name + "' is unknown; use " + roundModeList());
        if (spec->kind == AttrKind::RegionPhase)
          return bad("region phase '" + *name + "' is unknown; use " + regionPhaseList());
        if (spec->kind == AttrKind::Cmp)
          return bad("comparison predicate '" + *name + "' is unknown; use " + cmpKindList());
        if (spec->kind == AttrKind::Scan)
          return bad("scan kind '" + *name + "' is unknown; use " + scanKindList());
      }
      if (!attrHasKind(value, spec->kind))
        return bad("attribute '" + std::string(key) + "' of " + info_.name + " must be " + withArticle(attrKindName(spec->kind)) +
                   "; write it as one");
    }
    if (auto* init = attrOf<Expr>(attrs, "init"))
      if (!init->isBool())
        return bad("'init' of " + op_ + " must be a condition, but it is " + str(*init) +
                   "; write a comparison such as i == 0");
    return std::nullopt;
  }

  // ---- access ----
  const AttrMap& attrs() const {
    static const AttrMap kEmpty;
    return in_.attrs ? *in_.attrs : kEmpty;
  }
  template <class T>
  static const T* attrOf(const AttrMap& attrs, const std::string& key) {
    auto it = attrs.find(key);
    return it == attrs.end() ? nullptr : std::get_if<T>(&it->second);
  }
  const std::vector<Expr>* exprList(const char* key) const { return attrOf<std::vector<Expr>>(attrs(), key); }
  const Type& operand(unsigned i) const { return in_.operands[i]; }
  unsigned numOperands() const { return unsigned(in_.operands.size()); }

  static OpError bad(std::string message) { return {Diag::BadAttribute, std::move(message), -1}; }
  static OpError fail(Diag id, std::string message, int operand = -1) {
    return {id, std::move(message), operand};
  }

  static std::string knownKeys(OpKind k) {
    const auto& specs = attrSchema(k);
    if (specs.empty()) return "";
    std::string s = " (known: ";
    for (size_t i = 0; i < specs.size(); ++i) s += std::string(i ? ", " : "") + specs[i].key;
    return s + ")";
  }

  std::optional<OpError> checkOperandCount() const {
    size_t n = numOperands();
    if (n >= info_.minOperands() && n <= info_.maxOperands()) return std::nullopt;
    return fail(Diag::IRVerify, std::string(info_.name) + " takes " + info_.operandCountText() +
                                    " operand" + (info_.maxOperands() == 1 ? "" : "s") + " but has " +
                                    std::to_string(n) + "; pass exactly the operands the op defines");
  }

  // ---- operand kinds ----
  std::optional<OpError> needTile(unsigned i, const char* role) const {
    if (operand(i).isTile()) return std::nullopt;
    return fail(Diag::OperandKind,
                op_ + " needs a tile as its " + role + ", but it is " + kindNoun(operand(i)) + " (" +
                    str(operand(i)) + "); pass a tile",
                int(i));
  }
  std::optional<OpError> needTensor(unsigned i, const char* role) const {
    if (operand(i).isTensor()) return std::nullopt;
    return fail(Diag::OperandKind,
                op_ + " needs a tensor as its " + role + ", but it is " + kindNoun(operand(i)) + " (" +
                    str(operand(i)) + "); pass a tensor parameter",
                int(i));
  }
  std::optional<OpError> needScalar(unsigned i, const char* role) const {
    if (operand(i).isScalar()) return std::nullopt;
    return fail(Diag::OperandKind,
                op_ + " needs a scalar as its " + role + ", but it is " + kindNoun(operand(i)) + " (" +
                    str(operand(i)) + "); pass a scalar value",
                int(i));
  }
  std::optional<OpError> needDeclared(TypeKind k, const char* what) const {
    if (in_.declared.kind() == k) return std::nullopt;
    return fail(Diag::OperandKind, op_ + " must declare " + what + " result type, but it declares " +
                                       (in_.declared.isNone() ? std::string("none") : str(in_.declared)) +
                                       "; give the result " + what + " type");
  }

  // ---- shared shape rules ----

  // Every valid extent within [1, physical extent]: constants exactly, symbolic ones provably.
  std::optional<OpError> checkValid(const Type& t, int operandIndex) const {
    if (t.valid().size() != t.shape().size())
      return fail(Diag::RankNotSupported,
                  "valid shape " + shapeText(t.valid()) + " has a different rank than the shape " +
                      shapeText(t.shape()) + "; give one valid extent per axis",
                  operandIndex);
    for (size_t i = 0; i < t.shape().size(); ++i) {
      const Expr& v = t.valid()[i];
      const Expr phys = Expr::constant(t.shape()[i]);
      if (!proven(CmpKind::LE, v, phys))
        return fail(Diag::ValidExtent,
                    "valid extent " + str(v) + " of axis " + std::to_string(i) +
                        " may exceed the physical extent " + std::to_string(t.shape()[i]) +
                        "; bound it, e.g. min(" + std::to_string(t.shape()[i]) + ", " + str(v) + ")",
                    operandIndex);
      if (proven(CmpKind::LT, v, Expr::constant(1)))
        return fail(Diag::ValidExtent,
                    "valid extent " + str(v) + " of axis " + std::to_string(i) +
                        " is less than 1; a tile holds at least one element per axis",
                    operandIndex);
    }
    return std::nullopt;
  }

  // `what` names an entry as .tile writes it: "offset", "window extent".
  std::optional<OpError> checkOffsetsCount(const std::vector<Expr>* offsets, size_t rank,
                                           const char* what, const char* of) const {
    if (offsets && offsets->size() == rank) return std::nullopt;
    const size_t n = offsets ? offsets->size() : 0;
    return fail(Diag::OffsetCount, op_ + " has " + std::to_string(n) + " " + what + (n == 1 ? "" : "s") +
                                       " but the " + of + " has rank " + std::to_string(rank) + "; give one " + what +
                                       " per axis");
  }

  // A box of `extents` at `offsets` inside `dims`; an error only when provably outside.
  // `past` replaces the code and the fix of a box that runs past the end.
  struct PastEnd {
    Diag id;
    std::string fix;
  };
  std::optional<OpError> checkInside(const std::vector<Expr>& offsets, const std::vector<Expr>& extents,
                                     const std::vector<Expr>& dims, const char* what,
                                     const char* container, int operandIndex,
                                     std::optional<PastEnd> past = std::nullopt) const {
    for (size_t i = 0; i < dims.size(); ++i) {
      if (proven(CmpKind::LT, offsets[i], Expr::constant(0)))
        return fail(Diag::OutOfBounds,
                    op_ + " " + what + " starts at negative offset " + str(offsets[i]) + " on axis " +
                        std::to_string(i) + "; offsets must be >= 0",
                    operandIndex);
      if (proven(CmpKind::GT, offsets[i] + extents[i], dims[i]))
        return fail(past ? past->id : Diag::OutOfBounds,
                    op_ + " " + what + " " + shapeText(extents) + " at offsets " + shapeText(offsets) +
                        " runs past the " + container + " extents " + shapeText(dims) + " on axis " +
                        std::to_string(i) + "; " +
                        (past ? past->fix : "shrink the " + std::string(what) + " or move it inside"),
                    operandIndex);
    }
    return std::nullopt;
  }

  // Shared by load and store: the tile <-> tensor window rules.
  std::optional<OpError> checkTransfer(const Type& tile, unsigned tensorIndex, int tileOperand) const {
    const Type& tensor = operand(tensorIndex);
    const char* verb = in_.kind == OpKind::Load ? "load" : "store";
    if (tile.dtype() != tensor.dtype())
      return fail(Diag::DTypeMismatch,
                  std::string(verb) + " moves " + dtypeName(tile.dtype()) + " elements but the tensor holds " +
                      dtypeName(tensor.dtype()) + "; use a tile of dtype " + dtypeName(tensor.dtype()) +
                      " and cast it",
                  tileOperand);
    if (tile.rank() > tensor.rank())
      return fail(Diag::RankNotSupported,
                  std::string(verb) + " tile has rank " + std::to_string(tile.rank()) +
                      " but the tensor only rank " + std::to_string(tensor.rank()) +
                      "; use a tile of at most the tensor's rank",
                  tileOperand);
    const auto* offsets = exprList("offsets");
    if (auto e = checkOffsetsCount(offsets, tensor.rank(), "offset", "tensor")) return e;
    if (auto e = checkValid(tile, tileOperand)) return e;
    const auto* window = exprList("window");
    if (window) {
      if (auto e = checkOffsetsCount(window, tensor.rank(), "window extent", "tensor")) return e;
      return checkInside(*offsets, *window, tensor.dims(), "window", "tensor", int(tensorIndex));
    }
    if (in_.kind == OpKind::Load)
      return checkInside(*offsets, nd::paddedWindow(tile, tensor.rank()), tensor.dims(), "window",
                         "tensor", int(tensorIndex));
    // A 2-D tile's rows may run on into outer axes ([6, 8] into [2, 3, 8]); storeWindow
    // finds the box it writes, or says why there is none.
    nd::StoreWindow w = nd::storeWindow(tile.valid(), tensor.dims(), *offsets);
    if (w.failure != nd::StoreWindow::Failure::None)
      return fail(w.diag(), w.message, int(tensorIndex));
    std::optional<PastEnd> ndRule;  // an N-D tile is held to its axes, which can surprise
    if (tile.rank() > 2)
      ndRule = PastEnd{Diag::StorePastTensor,
                       "the axes of a " + std::to_string(tile.rank()) +
                           "-D tile are the tensor's trailing axes one for one (it is not reshaped), so store a "
                           "smaller window, or reshape the tile to the tensor's axes first"};
    return checkInside(*offsets, w.window, tensor.dims(), "window", "tensor", int(tensorIndex), ndRule);
  }

  // The memory space two tiles share: equal, or one unset.
  // The space both operands are in (an unplaced operand takes the other's), and the
  // operand whose type carries it.
  std::variant<unsigned, OpError> joinSpaces(unsigned a, unsigned b) const {
    SpaceId x = operand(a).space(), y = operand(b).space();
    if (x == y || y == kNoSpace) return a;
    if (x == kNoSpace) return b;
    return fail(Diag::SpaceMismatch,
                op_ + " operands are in different memory spaces (" + operand(a).spaceName() + " and " +
                    operand(b).spaceName() + "); move one of them with move(t, space = ...)",
                int(b));
  }

  // Operand 0's type, in the space operands 0 and 1 share (joinSpaces).
  Result firstInJoinedSpace() const {
    auto space = joinSpaces(0, 1);
    if (auto* e = std::get_if<OpError>(&space)) return *e;
    const Type& placed = operand(std::get<unsigned>(space));
    const Type& t = operand(0);
    return placed.space() == t.space() ? t : t.withSpace(placed.space(), *placed.model());
  }

  std::optional<OpError> sameDType(unsigned a, unsigned b, const char* fix) const {
    if (operand(a).dtype() == operand(b).dtype()) return std::nullopt;
    return fail(Diag::DTypeMismatch,
                op_ + " operands have different dtypes (" + dtypeName(operand(a).dtype()) + " and " +
                    dtypeName(operand(b).dtype()) + "); " + fix,
                int(b));
  }

  // ---- scalars and tensors ----

  Result inferConst() {
    if (auto e = needDeclared(TypeKind::Scalar, "a scalar")) return *e;
    const AttrValue& v = attrs().at("value");
    if (!isFloat(in_.declared.dtype()) && std::holds_alternative<double>(v))
      return bad("constant of integer type " + std::string(dtypeName(in_.declared.dtype())) +
                 " has a float value; write an integer or declare a float type");
    return in_.declared;
  }

  Result inferIndex() {
    if (auto e = needDeclared(TypeKind::Scalar, "a scalar")) return *e;
    return in_.declared;  // a float type converts the integer value, rounding to nearest
  }

  Result inferTensorView() {
    if (auto e = needTensor(0, "source")) return *e;
    if (auto e = needDeclared(TypeKind::Tensor, "a tensor")) return *e;
    const Type& src = operand(0);
    if (in_.declared.dtype() != src.dtype())
      return fail(Diag::DTypeMismatch, "tensor.view keeps the dtype " + std::string(dtypeName(src.dtype())) +
                                           " but declares " + dtypeName(in_.declared.dtype()) +
                                           "; declare the source dtype",
                  0);
    if (!provablyEqual(product(src.dims()), product(in_.declared.dims())))
      return fail(Diag::ElementCount, "tensor.view of " + shapeText(src.dims()) + " as " +
                                          shapeText(in_.declared.dims()) +
                                          " changes the element count; keep the product of the dims",
                  0);
    return in_.declared;
  }

  // ---- data movement ----

  Result declaredTile() {
    if (auto e = needDeclared(TypeKind::Tile, "a tile")) return *e;
    if (auto e = checkValid(in_.declared, -1)) return *e;
    return in_.declared;
  }

  Result inferLoad() {
    if (auto e = needTensor(0, "source")) return *e;
    if (auto e = needDeclared(TypeKind::Tile, "a tile")) return *e;
    if (auto e = checkTransfer(in_.declared, 0, -1)) return *e;
    return in_.declared;
  }

  Result inferStore() {
    if (auto e = needTile(0, "value")) return *e;
    if (auto e = needTensor(1, "destination")) return *e;
    if (auto e = checkTransfer(operand(0), 1, 0)) return *e;
    return Type();
  }

  // One element of a signed integer tensor, read as an index: one index per axis, none
  // provably outside the tensor, and only integers can become offsets (signed ones: ids and
  // block tables are i32 or i64, and an index is signed).
  Result inferTensorRead() {
    if (auto e = needTensor(0, "source")) return *e;
    const Type& t = operand(0);
    if (!isInteger(t.dtype()) || !isSigned(t.dtype()))
      return fail(Diag::DTypeNotSupported,
                  "an element read from a tensor becomes an index, a signed integer, but the tensor is " +
                      std::string(dtypeName(t.dtype())) + "; declare it i32 or i64",
                  0);
    const auto* offsets = exprList("offsets");
    if (auto e = checkOffsetsCount(offsets, t.rank(), "index", "tensor")) return *e;
    for (size_t axis = 0; axis < t.rank(); ++axis) {
      const Expr& i = (*offsets)[axis];
      if (proven(CmpKind::LT, i, Expr::constant(0)) || proven(CmpKind::GE, i, t.dims()[axis]))
        return fail(Diag::OutOfBounds,
                    "element " + shapeText(*offsets) + " is outside the tensor's extents " + shapeText(t.dims()) +
                        " on axis " + std::to_string(axis) + "; index each axis from 0 to its extent - 1",
                    0);
    }
    return Type::index();
  }

  Result inferIota() {
    if (auto e = needScalar(0, "start")) return *e;
    Result r = declaredTile();
    if (std::holds_alternative<OpError>(r)) return r;
    const Type& t = in_.declared;
    if (!isInteger(t.dtype()))
      return fail(Diag::DTypeNotSupported,
                  op_ + " counts in integers, but the tile is " + dtypeName(t.dtype()) +
                      "; make an i32 iota and cast it, cast<" + dtypeName(t.dtype()) + ">(iota<i32>(" +
                      shapeText(t.shape()) + "))");
    if (!isInteger(operand(0).dtype())) return scalarKindError(t, 0);
    if (operand(0).dtype() != t.dtype() && operand(0).dtype() != DType::Index)
      return fail(Diag::DTypeMismatch,
                  op_ + " starts a " + dtypeName(t.dtype()) + " row from a " + dtypeName(operand(0).dtype()) +
                      " scalar; give the start the row's dtype",
                  0);
    const bool oneRow = t.rank() == 1 || (t.rank() == 2 && t.shape()[0] == 1);
    if (!oneRow)
      return fail(Diag::RankNotSupported,
                  op_ + " fills one row, [n] or [1, n], but the shape is " + shapeText(t.shape()) +
                      "; make one row, iota<" + dtypeName(t.dtype()) + ">([1, " + std::to_string(t.shape().back()) +
                      "]), and use it for every row");
    return r;
  }

  Result inferFull() {
    if (auto e = needScalar(0, "fill value")) return *e;
    Result r = declaredTile();
    if (std::holds_alternative<OpError>(r)) return r;
    if (isFloat(in_.declared.dtype()) != isFloat(operand(0).dtype()))
      return scalarKindError(in_.declared, 0);
    return r;
  }

  OpError scalarKindError(const Type& tile, unsigned scalarIndex) const {
    bool floatTile = isFloat(tile.dtype());
    return fail(Diag::ScalarKind,
                op_ + " combines a tile of dtype " + dtypeName(tile.dtype()) + " with a scalar of dtype " +
                    dtypeName(operand(scalarIndex).dtype()) + "; use " +
                    (floatTile ? "a float scalar" : "an integer scalar") + " for a " +
                    (floatTile ? "float" : "integer") + " tile",
                int(scalarIndex));
  }

  // Declared type equal to operand 0 except in what the op may change.
  std::optional<OpError> checkOnlyChanges(bool dtype, bool valid, bool space, const char* what) const {
    const Type& src = operand(0);
    const Type& d = in_.declared;
    bool same = (dtype || d.dtype() == src.dtype()) && d.shape() == src.shape() &&
                (space || d.space() == src.space());
    if (same && !valid)
      for (size_t i = 0; i < d.valid().size() && same; ++i) same = provablyEqual(d.valid()[i], src.valid()[i]);
    if (same) return std::nullopt;
    return fail(Diag::DeclaredTypeChange, op_ + " may change only the " + what + ", but turns " + str(src) +
                                              " into " + str(d) + "; keep the rest of the type",
                0);
  }

  Result inferMove() {
    if (auto e = needTile(0, "source")) return *e;
    if (auto e = needDeclared(TypeKind::Tile, "a tile")) return *e;
    if (auto e = checkOnlyChanges(false, false, true, "memory space and layout")) return *e;
    return in_.declared;
  }

  Result inferCast() {
    if (auto e = needTile(0, "source")) return *e;
    if (auto e = needDeclared(TypeKind::Tile, "a tile")) return *e;
    if (auto e = checkOnlyChanges(true, false, false, "dtype")) return *e;
    return in_.declared;
  }

  // ---- elementwise ----

  // The row_expand_* op that broadcasts a column for this elementwise op, if one exists
  // ("tile.add" -> "row_expand_add").
  static std::optional<std::string> rowExpandFor(OpKind k) {
    std::string name = std::string("tile.row_expand_") + (opInfo(k).name + 5);
    if (opKindByName(name)) return name.substr(5);
    return std::nullopt;
  }

  OpError shapeError() const {
    const Type& a = operand(0);
    const Type& b = operand(1);
    std::string msg = op_ + " operands have different shapes (" + shapeText(a.shape()) + " and " +
                      shapeText(b.shape()) + "); ";
    bool rowVector = a.rank() == b.rank() && a.rank() >= 1 &&
                     std::equal(a.shape().begin(), a.shape().end() - 1, b.shape().begin()) &&
                     (a.shape().back() == 1 || b.shape().back() == 1);
    std::optional<std::string> expand = rowExpandFor(in_.kind);
    if (rowVector && expand)
      msg += "to combine each row with a per-row value use " + *expand + "(tile, column)";
    else
      msg += "make the shapes equal";
    return fail(Diag::ShapeMismatch, msg, 1);
  }

  Result inferElementwise() {
    if (auto e = needTile(0, "first operand")) return *e;
    if (auto e = needTile(1, "second operand")) return *e;
    if (auto e = sameDType(0, 1, "cast one of them")) return *e;
    if (operand(0).shape() != operand(1).shape()) return shapeError();
    for (size_t i = 0; i < operand(0).rank(); ++i)
      if (!provablyEqual(operand(0).valid()[i], operand(1).valid()[i]))
        return fail(Diag::ValidShapeMismatch,
                    op_ + " operands have different valid shapes (" + shapeText(operand(0).valid()) +
                        " and " + shapeText(operand(1).valid()) + "); make the valid extents equal",
                    1);
    return firstInJoinedSpace();
  }

  Result inferTileScalar() {
    if (auto e = needTile(0, "first operand")) return *e;
    if (auto e = needScalar(1, "second operand")) return *e;
    if (isFloat(operand(0).dtype()) != isFloat(operand(1).dtype())) return scalarKindError(operand(0), 1);
    return operand(0);
  }

  Result inferUnary() {
    if (auto e = needTile(0, "operand")) return *e;
    DType d = operand(0).dtype();
    bool needsFloat = in_.kind == OpKind::Exp || in_.kind == OpKind::Log || in_.kind == OpKind::Sqrt ||
                      in_.kind == OpKind::Rsqrt || in_.kind == OpKind::Recip;
    if (needsFloat && !isFloat(d))
      return fail(Diag::DTypeNotSupported,
                  op_ + " needs a float tile, but it is " + dtypeName(d) + "; cast it to f32 first", 0);
    if (!needsFloat && !isSigned(d))
      return fail(Diag::DTypeNotSupported,
                  op_ + " needs a signed or float tile, but it is " + dtypeName(d) +
                      "; cast it to a signed or float dtype first",
                  0);
    return operand(0);
  }

  // ---- compare and select ----

  static bool isMask(const Type& t) { return t.isTile() && t.dtype() == DType::Bool; }

  // A mask's encoding is the target's (PTO packs each row into bits), so only the ops that
  // make or select with one take it, and reshapes that keep its rows whole; a mask made by
  // anything else (a cast, a load) would not be in that encoding.
  std::optional<OpError> checkMasks() const {
    if (info_.group != OpGroup::Tile || info_.has(Predicate)) return std::nullopt;
    if (in_.kind == OpKind::Reshape) {
      const bool rowsKept = !isMask(operand(0)) || !in_.declared.isTile() ||
                            in_.declared.shape().back() == operand(0).shape().back();
      if (rowsKept) return std::nullopt;
      return fail(Diag::OperandKind,
                  "reshape of a mask keeps its rows, which are packed, but this one turns " +
                      shapeText(operand(0).shape()) + " into " + shapeText(in_.declared.shape()) +
                      "; reshape the tiles compared instead",
                  0);
    }
    static const char* kOrdinals[] = {"first", "second", "third", "fourth"};
    for (unsigned i = 0; i < numOperands() && i < 4; ++i)
      if (isMask(operand(i)))
        return fail(Diag::OperandKind,
                    op_ + " takes numbers, but its " + kOrdinals[i] +
                        " operand is a mask (the bool tile a comparison gives); a mask only selects: "
                        "write where(mask, a, b)",
                    int(i));
    if (isMask(in_.declared) && in_.kind != OpKind::Create)
      return fail(Diag::OperandKind, op_ + " cannot make a bool tile; a mask comes from a comparison such as a < b");
    return std::nullopt;
  }

  std::optional<OpError> needComparable(unsigned i) const {
    const DType d = operand(i).dtype();
    if (d != DType::Bool && d != DType::Index) return std::nullopt;
    return fail(Diag::DTypeNotSupported,
                op_ + " compares numbers, but its operand is " + dtypeName(d) + "; compare a tile of numbers", int(i));
  }

  Result inferCompare() {
    Result r = inferElementwise();
    if (std::holds_alternative<OpError>(r)) return r;
    if (auto e = needComparable(0)) return *e;
    return std::get<Type>(r).withDType(DType::Bool);
  }

  Result inferCompareScalar() {
    Result r = inferTileScalar();
    if (std::holds_alternative<OpError>(r)) return r;
    if (auto e = needComparable(0)) return *e;
    return std::get<Type>(r).withDType(DType::Bool);
  }

  // where(mask, a, b): a and b as for an elementwise op, the mask of their shape and valid
  // shape; the optional scratch is any tile in their space (PTO's tsel stages mask words in it).
  Result inferSelect() {
    if (auto e = needTile(0, "condition")) return *e;
    if (!isMask(operand(0)))
      return fail(Diag::OperandKind,
                  op_ + " needs a mask as its condition, but it is a tile of " + dtypeName(operand(0).dtype()) +
                      "; compare to make one, e.g. where(x > 0.0, a, b)",
                  0);
    const InferInput values{OpKind::Sel, {operand(1), operand(2)}, in_.attrs, Type()};
    Result r = Rules(values).inferElementwise();
    if (auto* e = std::get_if<OpError>(&r)) return OpError{e->id, e->message, e->operand < 0 ? -1 : e->operand + 1};
    Type mask = operand(0);
    const Type& value = std::get<Type>(r);
    if (mask.shape() != value.shape())
      return fail(Diag::ShapeMismatch,
                  op_ + " condition is " + shapeText(mask.shape()) + " but the values are " + shapeText(value.shape()) +
                      "; compare tiles of the values' shape",
                  0);
    for (size_t i = 0; i < mask.rank(); ++i)
      if (!provablyEqual(mask.valid()[i], value.valid()[i]))
        return fail(Diag::ValidShapeMismatch,
                    op_ + " condition has valid shape " + shapeText(mask.valid()) + " but the values have " +
                        shapeText(value.valid()) + "; make the valid extents equal",
                    0);
    if (numOperands() > 3) {
      if (auto e = needTile(3, "scratch operand")) return *e;
      auto space = joinSpaces(1, 3);
      if (auto* e = std::get_if<OpError>(&space)) return *e;
    }
    return value;
  }

  // ---- bitwise and shifts ----

  // They act on the bits of integers; a float's bits are no integer to mask or shift.
  std::optional<OpError> needIntegerTile() const {
    const DType d = operand(0).dtype();
    if (isInteger(d)) return std::nullopt;
    return fail(Diag::DTypeNotSupported,
                op_ + " works on the bits of integer tiles, but this tile is " + dtypeName(d) +
                    "; cast it to an integer dtype first, e.g. cast<i32>(...)",
                0);
  }

  // The optional scratch operand (after the value operands) is any tile in their space.
  std::optional<OpError> checkScratch() const {
    const unsigned at = unsigned(info_.numOperands);
    if (info_.scratchOperand < 0 || numOperands() <= at) return std::nullopt;
    if (auto e = needTile(at, "scratch operand")) return *e;
    auto space = joinSpaces(0, at);
    if (auto* e = std::get_if<OpError>(&space)) return *e;
    return std::nullopt;
  }

  Result inferBitwise() {
    Result r = inferElementwise();
    if (std::holds_alternative<OpError>(r)) return r;
    if (auto e = needIntegerTile()) return *e;
    if (auto e = checkScratch()) return *e;
    return r;
  }

  Result inferBitwiseScalar() {
    Result r = inferTileScalar();
    if (std::holds_alternative<OpError>(r)) return r;
    if (auto e = needIntegerTile()) return *e;
    if (auto e = checkScratch()) return *e;
    return r;
  }

  Result inferBitwiseUnary() {
    if (auto e = needTile(0, "operand")) return *e;
    if (auto e = needIntegerTile()) return *e;
    return operand(0);
  }

  // ---- leaky relu ----

  // The slope is one f32 whatever the tile's float dtype: PTO's tlrelu takes an f32 slope
  // and rounds it to the tile's dtype, so an f16 or bf16 scalar would name a rounding the
  // op does not do.
  Result inferLRelu() {
    if (auto e = needTile(0, "operand")) return *e;
    if (auto e = needScalar(1, "slope")) return *e;
    const DType d = operand(0).dtype();
    if (!isFloat(d))
      return fail(Diag::DTypeNotSupported,
                  op_ + " needs a float tile, but it is " + dtypeName(d) + "; cast it to f32 first", 0);
    if (operand(1).dtype() != DType::F32)
      return fail(Diag::DTypeNotSupported,
                  op_ + " takes an f32 slope, but it is " + dtypeName(operand(1).dtype()) +
                      "; pass a float constant or an f32 scalar parameter",
                  1);
    return operand(0);
  }

  Result inferTri() {
    if (auto e = needScalar(0, "diagonal")) return *e;
    if (!isInteger(operand(0).dtype()))
      return fail(Diag::DTypeNotSupported,
                  op_ + " takes an integer diagonal, but it is " + dtypeName(operand(0).dtype()) +
                      "; pass an integer expression",
                  0);
    return declaredTile();
  }

  // ---- reductions and broadcasts ----

  // The optional scratch operand (the table's Scratch column), when present.
  std::optional<OpError> checkScratch(bool sameShape) const {
    const unsigned i = unsigned(info_.scratchOperand);
    if (numOperands() <= i) return std::nullopt;
    if (auto e = needTile(i, "scratch operand")) return e;
    if (auto e = sameDType(0, i, "give the scratch tile the source's dtype")) return e;
    if (sameShape && operand(i).shape() != operand(0).shape())
      return fail(Diag::ShapeMismatch,
                  op_ + " scratch tile is " + shapeText(operand(i).shape()) + " but the source is " +
                      shapeText(operand(0).shape()) + "; give the scratch tile the source's shape",
                  int(i));
    auto space = joinSpaces(0, i);
    if (auto* e = std::get_if<OpError>(&space)) return *e;
    return std::nullopt;
  }

  Result inferRowReduce() { return reduceRows(std::nullopt); }

  // The arg-reductions give indices: i32, the index type of PTO's trowargmax/tcolargmax.
  static constexpr DType kArgIndexDType = DType::I32;

  Result inferRowArgReduce() { return reduceRows(kArgIndexDType); }

  Result inferColArgReduce() {
    if (auto e = needTile(0, "source")) return *e;
    if (auto e = checkScratch(true)) return *e;
    Result r = inferColReduce();
    if (auto* t = std::get_if<Type>(&r)) return t->withDType(kArgIndexDType);
    return r;
  }

  // [.., C] -> [.., 1], of the source's dtype or `indices` when the op gives indices.
  Result reduceRows(std::optional<DType> indices) {
    if (auto e = needTile(0, "source")) return *e;
    const Type& src = operand(0);
    // A 1-D tile is one row: [n] -> [1], its one value.
    if (src.rank() < 1)
      return fail(Diag::RankNotSupported,
                  op_ + " reduces the last axis of a tile, but the source has rank 0; give it a shape such as [1, n]",
                  0);
    if (auto e = checkScratch(true)) return *e;
    std::vector<int64_t> shape = src.shape();
    std::vector<Expr> valid = src.valid();
    shape.back() = 1;
    valid.back() = Expr::constant(1);
    Type column = src.reshapedTo(shape, valid);
    if (indices) column = column.withDType(*indices);
    if (storesColumn(in_.declared, column)) return in_.declared;
    return column;
  }

  // A row statistic is its one valid column per row; how a target stores it (its layout,
  // and physical columns padded to the target's row alignment) is the target's choice,
  // so a declared result that keeps everything else is the result.
  static bool storesColumn(const Type& declared, const Type& column) {
    if (!declared.isTile() || declared.dtype() != column.dtype() || declared.space() != column.space() ||
        declared.rank() != column.rank())
      return false;
    const size_t last = column.rank() - 1;
    for (size_t i = 0; i < column.rank(); ++i)
      if ((i < last && declared.shape()[i] != column.shape()[i]) || !provablyEqual(declared.valid()[i], column.valid()[i]))
        return false;
    return true;
  }

  Result inferColReduce() {
    if (auto e = needTile(0, "source")) return *e;
    const Type& src = operand(0);
    if (src.rank() == 1)
      return fail(Diag::RankNotSupported,
                  op_ + " reduces the columns of a 2-D tile, but the source is 1-D: one row, so each column holds "
                        "one element and the reduction would give the tile back; use the tile itself, or reshape it "
                        "to the 2-D tile [r, c] whose columns you mean (r * c = " +
                      std::to_string(src.shape()[0]) + ")",
                  0);
    if (src.rank() != 2)
      return fail(Diag::RankNotSupported,
                  op_ + " reduces axis 0 of a 2-D tile, but the source has rank " +
                      std::to_string(src.rank()) + "; reshape it to 2-D first",
                  0);
    return src.reshapedTo({1, src.shape()[1]}, {Expr::constant(1), src.valid()[1]});
  }

  // ---- prefix scans ----

  // [R, C] -> [R, C]: a 2-D tile of numbers and an axis of it.
  Result inferScan() {
    if (auto e = needTile(0, "source")) return *e;
    const Type& src = operand(0);
    if (src.rank() != 2)
      return fail(Diag::RankNotSupported,
                  op_ + " scans a 2-D tile, but the source has rank " + std::to_string(src.rank()) +
                      (src.rank() == 1 ? "; reshape it to the row [1, " + std::to_string(src.shape()[0]) +
                                             "] and scan axis = 1"
                                       : "; reshape it to 2-D first"),
                  0);
    if (src.dtype() == DType::Index)
      return fail(Diag::DTypeNotSupported,
                  op_ + " scans numbers, but the source is index; cast it to i32 first", 0);
    const int64_t axis = *attrOf<int64_t>(attrs(), attr::axis.key);
    if (axis != 0 && axis != 1)
      return fail(Diag::ScanAxis, op_ + " runs along axis 0 (down each column) or 1 (along each row) of a 2-D tile, "
                                        "but 'axis' is " + std::to_string(axis) + "; give 0 or 1");
    return src;
  }

  Result inferRowExpand() {
    if (auto e = needTile(0, "tile operand")) return *e;
    if (auto e = needTile(1, "column operand")) return *e;
    const Type& t = operand(0);
    const Type& col = operand(1);
    // A 1-D tile is one row: its column is [1], one value for every element.
    if (t.rank() < 1)
      return fail(Diag::RankNotSupported,
                  op_ + " combines each row of a tile with a value, but the tile has rank 0; give it a shape such "
                        "as [1, n]",
                  0);
    std::vector<int64_t> want = t.shape();
    want.back() = 1;
    // One valid column per row; its physical columns may be padded (a target's row alignment).
    const bool column = col.rank() == t.rank() &&
                        std::equal(want.begin(), want.end() - 1, col.shape().begin()) &&
                        provablyEqual(col.valid().back(), Expr::constant(1));
    if (!column)
      return fail(Diag::RowVectorShape,
                  op_ + " needs the per-row column to be " + shapeText(want) + " for a " +
                      shapeText(t.shape()) + " tile, but it is " + shapeText(col.shape()) +
                      (col.hasFullValid() ? "" : " with valid " + shapeText(col.valid())) +
                      "; reduce the rows with row_max/row_sum/row_min to get that column",
                  1);
    if (auto e = sameDType(0, 1, "cast the column to the tile's dtype")) return *e;
    for (size_t i = 0; i + 1 < t.rank(); ++i)
      if (!provablyEqual(t.valid()[i], col.valid()[i]))
        return fail(Diag::ValidShapeMismatch,
                    op_ + " column has valid rows " + shapeText(col.valid()) + " but the tile " +
                        shapeText(t.valid()) + "; make the valid row extents equal",
                    1);
    return firstInJoinedSpace();
  }

  // A column broadcast: [R, C] combined with the row [1, C], one value per column. The row
  // is a row-major [1, C] of its own (no padding), so its shape is exact.
  Result inferColExpand() {
    if (auto e = needTile(0, "tile operand")) return *e;
    if (auto e = needTile(1, "row operand")) return *e;
    const Type& t = operand(0);
    const Type& row = operand(1);
    if (t.rank() != 2)
      return fail(Diag::RankNotSupported,
                  op_ + " combines each column of a 2-D tile with a value, but the tile has rank " +
                      std::to_string(t.rank()) + "; reshape it to the 2-D tile [r, c] whose columns you mean",
                  0);
    const std::vector<int64_t> want = {1, t.shape()[1]};
    const bool isRow = row.shape() == want && provablyEqual(row.valid()[0], Expr::constant(1));
    if (!isRow)
      return fail(Diag::ColVectorShape,
                  op_ + " needs the per-column row to be " + shapeText(want) + " for a " + shapeText(t.shape()) +
                      " tile, but it is " + shapeText(row.shape()) +
                      (row.hasFullValid() ? "" : " with valid " + shapeText(row.valid())) +
                      "; reduce the columns with col_max/col_sum/col_min to get that row",
                  1);
    if (auto e = sameDType(0, 1, "cast the row to the tile's dtype")) return *e;
    if (!provablyEqual(t.valid()[1], row.valid()[1]))
      return fail(Diag::ValidShapeMismatch,
                  op_ + " row has valid columns " + shapeText(row.valid()) + " but the tile " +
                      shapeText(t.valid()) + "; make the valid column extents equal",
                  1);
    return firstInJoinedSpace();
  }

  // ---- sort and top-k (issue 28) ----

  // (values [R, C] f32, indices [R, C] u32) -> [R, 2C] f32: one (value, index) pair per
  // element, two f32 slots each, as PTO's tsort32 writes them.
  Result inferSort32() {
    if (auto e = needTile(0, "values")) return *e;
    if (auto e = needTile(1, "indices")) return *e;
    const Type& t = operand(0);
    const Type& ids = operand(1);
    if (auto e = needTwoD(0)) return *e;
    if (auto e = needPairDType(0)) return *e;
    if (t.shape()[1] % kSortRun != 0 || !provablyEqual(t.valid()[1], Expr::constant(t.shape()[1])))
      return fail(Diag::SortExtent,
                  op_ + " sorts whole runs of " + std::to_string(kSortRun) + " columns, but the values have " +
                      std::to_string(t.shape()[1]) + " columns (valid " + str(t.valid()[1]) +
                      "); pad the rows to a multiple of " + std::to_string(kSortRun) + " with -inf",
                  0);
    if (ids.dtype() != DType::U32)
      return fail(Diag::DTypeNotSupported,
                  op_ + " carries u32 indices with the values, but they are " + dtypeName(ids.dtype()) +
                      "; make them with reinterpret_view<u32>(...) of an i32 tile",
                  1);
    if (ids.shape() != t.shape())
      return fail(Diag::ShapeMismatch,
                  op_ + " needs one index per value, but the indices are " + shapeText(ids.shape()) +
                      " and the values " + shapeText(t.shape()) + "; give them the values' shape",
                  1);
    if (!provablyEqual(t.valid()[0], ids.valid()[0]) || !provablyEqual(t.valid()[1], ids.valid()[1]))
      return fail(Diag::ValidShapeMismatch,
                  op_ + " indices have valid " + shapeText(ids.valid()) + " but the values " +
                      shapeText(t.valid()) + "; make the valid extents equal",
                  1);
    Result placed = firstInJoinedSpace();
    if (auto* e = std::get_if<OpError>(&placed)) return *e;
    const Type& p = std::get<Type>(placed);
    return p.reshapedTo({t.shape()[0], 2 * t.shape()[1]},
                        {t.valid()[0], Expr::constant(2) * t.valid()[1]});
  }

  // A pair tile [R, 2C] f32 -> its values [R, C] f32 or indices [R, C] i32.
  Result inferPairField() {
    if (auto e = needTile(0, "pairs")) return *e;
    const Type& t = operand(0);
    if (auto e = needTwoD(0)) return *e;
    if (auto e = needPairDType(0)) return *e;
    const Expr two = Expr::constant(2);
    if (t.shape()[1] % 2 != 0 || !provablyEqual(Expr::mod(t.valid()[1], two), Expr::constant(0)))
      return fail(Diag::ShapeMismatch,
                  op_ + " reads (value, index) pairs, two columns each, but the tile has " +
                      std::to_string(t.shape()[1]) + " columns (valid " + str(t.valid()[1]) +
                      "); pass the pairs sort32 makes",
                  0);
    const DType field = in_.kind == OpKind::PairIndices ? DType::I32 : DType::F32;
    return t.reshapedTo({t.shape()[0], t.shape()[1] / 2}, {t.valid()[0], Expr::floorDiv(t.valid()[1], two)})
        .withDType(field);
  }

  // ---- gather by an index tile (issue 28) ----

  // gather(src, index): NumPy's take_along_axis along the last axis. Both 1-D or both 2-D;
  // a 2-D index takes row i from src's row i (rows equal, valid rows equal), or every row
  // from a one-row src. The index is an i32 or u32 tile (PTO's tgather takes 32-bit
  // indices); the result has src's dtype and the index's shape and valid shape.
  Result inferGather() {
    if (auto e = needTile(0, "source")) return *e;
    if (auto e = needTile(1, "index")) return *e;
    const Type& src = operand(0);
    const Type& index = operand(1);
    for (unsigned i : {0u, 1u})
      if (operand(i).rank() < 1 || operand(i).rank() > 2)
        return fail(Diag::RankNotSupported,
                    op_ + " works along the rows of 1-D or 2-D tiles, but the " + (i ? "index" : "source") +
                        " has rank " + std::to_string(operand(i).rank()) + "; reshape it to [rows, columns] first",
                    int(i));
    if (src.rank() != index.rank())
      return fail(Diag::RankNotSupported,
                  op_ + " takes a source and an index of one rank (NumPy's take_along_axis), but the source is " +
                      shapeText(src.shape()) + " and the index " + shapeText(index.shape()) + "; reshape the " +
                      (src.rank() == 1 ? "source to [1, " + std::to_string(src.shape()[0]) + "]"
                                       : "index to [1, " + std::to_string(index.shape()[0]) + "]"),
                  src.rank() == 1 ? 0 : 1);
    if (index.dtype() != DType::I32 && index.dtype() != DType::U32)
      return fail(Diag::DTypeNotSupported,
                  op_ + " takes column numbers as an i32 or u32 tile, but the index is " + dtypeName(index.dtype()) +
                      "; cast it with cast<i32>(...)",
                  1);
    if (src.dtype() == DType::Index)
      return fail(Diag::DTypeNotSupported, op_ + " gathers numbers, but the source is index; cast it to i32 first", 0);
    if (src.rank() == 2 && src.shape()[0] != 1) {
      if (src.shape()[0] != index.shape()[0]) {
        const std::string rows = std::to_string(src.shape()[0]);
        const std::string fix =
            index.shape()[0] == 1
                ? "give the index a row for each: full<" + std::string(dtypeName(index.dtype())) + ">([" + rows + ", " +
                      std::to_string(index.shape()[1]) + "], 0) + index"
                : "give them the same rows, or gather from one row [1, " + std::to_string(src.shape()[1]) +
                      "], which serves every index row";
        return fail(Diag::ShapeMismatch,
                    op_ + " takes row i of the index from row i of the source, but the source has " + rows +
                        " rows and the index " + std::to_string(index.shape()[0]) + "; " + fix,
                    1);
      }
      if (!provablyEqual(src.valid()[0], index.valid()[0]))
        return fail(Diag::ValidShapeMismatch,
                    op_ + " takes row i of the index from row i of the source, but the index has valid " +
                        shapeText(index.valid()) + " and the source " + shapeText(src.valid()) +
                        "; make the valid row extents equal, e.g. with set_valid_shape",
                    1);
    }
    if (const int64_t* stride = attrOf<int64_t>(attrs(), attr::row_stride.key)) {
      if (src.rank() != 2 || src.shape()[0] == 1 || *stride < src.shape()[1])
        return bad("'row_stride' of tile.gather is " + std::to_string(*stride) + ", but a flat index needs a source of " +
                   "several rows and rows at least its " + std::to_string(src.shape().back()) +
                   " columns apart; remove it or give the source's row stride");
    }
    const unsigned scratch = unsigned(info_.scratchOperand);
    if (numOperands() > scratch) {
      if (auto e = needTile(scratch, "scratch operand")) return *e;
      if (auto e = sameDType(1, scratch, "give the scratch tile the index's dtype")) return *e;
      auto space = joinSpaces(1, scratch);
      if (auto* e = std::get_if<OpError>(&space)) return *e;
    }
    auto space = joinSpaces(0, 1);
    if (auto* e = std::get_if<OpError>(&space)) return *e;
    const Type& placed = operand(std::get<unsigned>(space));
    Type r = index.withDType(src.dtype());
    return placed.space() == r.space() ? r : r.withSpace(placed.space(), *placed.model());
  }

  std::optional<OpError> needTwoD(unsigned i) const {
    if (operand(i).rank() == 2) return std::nullopt;
    return fail(Diag::RankNotSupported,
                op_ + " works along the rows of a 2-D tile, but the tile has rank " +
                    std::to_string(operand(i).rank()) + "; reshape it to [rows, columns]",
                int(i));
  }

  // Only f32 keys: PTO's pairs of f16 keys are laid out differently, and pto-isa's simulator
  // writes them over each other.
  std::optional<OpError> needPairDType(unsigned i) const {
    if (operand(i).dtype() == DType::F32) return std::nullopt;
    return fail(Diag::DTypeNotSupported,
                op_ + " sorts f32 values, but the tile is " + dtypeName(operand(i).dtype()) +
                    "; cast it first, cast<f32>(...)",
                int(i));
  }

  // ---- cube ----

  static std::optional<DType> matmulResultDType(DType a) {
    switch (a) {
      case DType::F16:
      case DType::BF16:
      case DType::F32: return DType::F32;
      case DType::I8: return DType::I32;
      default: return std::nullopt;
    }
  }

  // The matmul of operands (first, first + 1) over their last two axes; batch axes are
  // handled by the caller.
  Result inferMatmul(unsigned first) {
    unsigned l = first, r = first + 1;
    if (auto e = needTile(l, "lhs")) return *e;
    if (auto e = needTile(r, "rhs")) return *e;
    const Type& lhs = operand(l);
    const Type& rhs = operand(r);
    bool batched = in_.kind == OpKind::BatchMatmul || in_.kind == OpKind::BatchMatmulAcc;
    if (!batched && (lhs.rank() == 1 || rhs.rank() == 1)) {
      const bool left = lhs.rank() == 1;
      const int64_t n = (left ? lhs : rhs).shape()[0];
      return fail(Diag::RankNotSupported,
                  op_ + " multiplies 2-D tiles, but the " + (left ? "lhs" : "rhs") + " is the 1-D tile [" +
                      std::to_string(n) + "]; reshape it to the matrix you mean: the row [1, " + std::to_string(n) +
                      "] or the column [" + std::to_string(n) + ", 1]",
                  left ? int(l) : int(r));
    }
    if (!batched && (lhs.rank() != 2 || rhs.rank() != 2))
      return fail(Diag::RankNotSupported,
                  op_ + " multiplies 2-D tiles, but the operands have rank " + std::to_string(lhs.rank()) +
                      " and " + std::to_string(rhs.rank()) +
                      "; multiply one 2-D page at a time (load or reshape each batch page "
                      "to 2-D in a loop over the batch axes)",
                  lhs.rank() != 2 ? int(l) : int(r));
    size_t n = lhs.rank();
    if (lhs.shape()[n - 1] != rhs.shape()[n - 2])
      return fail(Diag::MatmulInnerDim,
                  op_ + " inner dimensions differ: lhs is " + shapeText(lhs.shape()) + " but rhs is " +
                      shapeText(rhs.shape()) + "; make the lhs column count equal the rhs row count",
                  int(r));
    if (!provablyEqual(lhs.valid()[n - 1], rhs.valid()[n - 2]))
      return fail(Diag::ValidShapeMismatch,
                  op_ + " inner valid extents differ: lhs has " + str(lhs.valid()[n - 1]) +
                      " valid columns but rhs " + str(rhs.valid()[n - 2]) +
                      " valid rows; make them equal",
                  int(r));
    if (auto e = sameDType(l, r, "use the same dtype for lhs and rhs")) return *e;
    auto out = matmulResultDType(lhs.dtype());
    if (!out)
      return fail(Diag::DTypeNotSupported,
                  op_ + " supports f16, bf16, f32 and i8 operands, not " +
                      std::string(dtypeName(lhs.dtype())) + "; cast the operands to one of those",
                  int(l));
    // Placed operands feed the matrix unit, which writes the target's result space.
    const Type& placed = lhs.space() != kNoSpace ? lhs : rhs;
    const TargetModel* model = placed.space() != kNoSpace ? placed.model() : nullptr;
    SpaceId space = model ? model->spaceWithRole(kMatmulResult) : kNoSpace;
    std::vector<int64_t> shape(lhs.shape().begin(), lhs.shape().end() - 2);
    std::vector<Expr> valid(lhs.valid().begin(), lhs.valid().end() - 2);
    shape.push_back(lhs.shape()[n - 2]);
    shape.push_back(rhs.shape()[n - 1]);
    valid.push_back(lhs.valid()[n - 2]);
    valid.push_back(rhs.valid()[n - 1]);
    return Type::tile(*out, shape, valid, space, std::nullopt, model);
  }

  Result inferBatchMatmul(unsigned first) {
    unsigned l = first, r = first + 1;
    if (auto e = needTile(l, "lhs")) return *e;
    if (auto e = needTile(r, "rhs")) return *e;
    const Type& lhs = operand(l);
    const Type& rhs = operand(r);
    if (lhs.rank() < 3 || lhs.rank() != rhs.rank())
      return fail(Diag::RankNotSupported,
                  op_ + " needs operands of equal rank >= 3, but they have rank " +
                      std::to_string(lhs.rank()) + " and " + std::to_string(rhs.rank()) +
                      "; reshape them to [batch.., rows, cols] of one rank",
                  lhs.rank() < 3 ? int(l) : int(r));
    Result mm = inferMatmul(first);
    if (std::holds_alternative<OpError>(mm)) return mm;
    Type t = std::get<Type>(mm);
    std::vector<int64_t> shape = t.shape();
    std::vector<Expr> valid = t.valid();
    for (size_t i = 0; i + 2 < lhs.rank(); ++i) {
      int64_t a = lhs.shape()[i], b = rhs.shape()[i];
      if (a != b && a != 1 && b != 1)
        return fail(Diag::BatchDimMismatch,
                    op_ + " batch axis " + std::to_string(i) + " is " + std::to_string(a) + " in lhs and " +
                        std::to_string(b) + " in rhs; make them equal or 1 (broadcast)",
                    int(r));
      bool fromRhs = a == 1 && b != 1;
      shape[i] = fromRhs ? b : a;
      valid[i] = fromRhs ? rhs.valid()[i] : lhs.valid()[i];
    }
    return Type::tile(t.dtype(), shape, valid, t.space(), std::nullopt, t.model());
  }

  Result checkAccumulator(Result product) {
    if (std::holds_alternative<OpError>(product)) return product;
    if (auto e = needTile(0, "accumulator")) return *e;
    const Type& want = std::get<Type>(product);
    const Type& acc = operand(0);
    if (acc.shape() != want.shape() || acc.dtype() != want.dtype())
      return fail(Diag::AccumulatorType,
                  op_ + " accumulates into a tile of dtype " + dtypeName(acc.dtype()) + " and shape " +
                      shapeText(acc.shape()) + " but the product has dtype " + dtypeName(want.dtype()) +
                      " and shape " + shapeText(want.shape()) +
                      "; create the accumulator with the product's dtype and shape",
                  0);
    return acc;
  }

  Result inferMatmulAcc() { return checkAccumulator(inferMatmul(1)); }
  Result inferBatchMatmulAcc() { return checkAccumulator(inferBatchMatmul(1)); }

  // ---- views and shape ----

  Result inferTranspose() {
    if (auto e = needTile(0, "source")) return *e;
    const Type& src = operand(0);
    const auto& axes = *attrOf<std::vector<int64_t>>(attrs(), "axes");
    int64_t rank = int64_t(src.rank());
    if (rank == 1)
      return fail(Diag::TransposeAxes,
                  op_ + " swaps two axes, but the source is 1-D and has one; reshape it to the row [1, " +
                      std::to_string(src.shape()[0]) + "] first, which transposes to a column",
                  0);
    if (axes.size() != 2 || axes[0] == axes[1] || axes[0] < 0 || axes[1] < 0 || axes[0] >= rank ||
        axes[1] >= rank)
      return fail(Diag::TransposeAxes, op_ + " swaps two distinct axes of a rank-" + std::to_string(rank) +
                                           " tile, but 'axes' is " + shapeText(axes) +
                                           "; give two different axes in [0, " + std::to_string(rank) + ")");
    if (info_.scratchOperand >= 0)
      if (auto e = checkScratch(false)) return *e;
    std::vector<int64_t> shape = src.shape();
    std::vector<Expr> valid = src.valid();
    std::swap(shape[size_t(axes[0])], shape[size_t(axes[1])]);
    std::swap(valid[size_t(axes[0])], valid[size_t(axes[1])]);
    // A view of a 2-D tile is the same bytes read transposed; a transpose copies into a
    // tile of its own.
    if (in_.kind == OpKind::TransposeView && src.rank() == 2)
      return src.withShape(shape, valid).withLayout(transposedLayout(src.layout()));
    return src.reshapedTo(shape, valid);
  }

  // Views keep the memory (and so the space) of their operand.
  std::optional<OpError> checkViewSpace() const {
    SpaceId a = operand(0).space(), b = in_.declared.space();
    if (a == b || a == kNoSpace || b == kNoSpace) return std::nullopt;
    return fail(Diag::SpaceMismatch,
                op_ + " views a " + std::string(operand(0).spaceName()) + " tile but declares space " +
                    in_.declared.spaceName() +
                    "; a view stays in its operand's space (use move to change spaces)",
                0);
  }

  Result inferReshape() {
    if (auto e = needTile(0, "source")) return *e;
    Result d = declaredTile();
    if (std::holds_alternative<OpError>(d)) return d;
    const Type& src = operand(0);
    const Type& t = in_.declared;
    if (in_.kind == OpKind::Reshape) {
      if (t.dtype() != src.dtype())
        return fail(Diag::DTypeMismatch, "reshape keeps the dtype " + std::string(dtypeName(src.dtype())) +
                                             " but declares " + dtypeName(t.dtype()) +
                                             "; use reinterpret_view or cast to change it",
                    0);
      if (t.elementCount() != src.elementCount())
        return fail(Diag::ElementCount,
                    "reshape of " + shapeText(src.shape()) + " (" + std::to_string(src.elementCount()) +
                        " elements) to " + shapeText(t.shape()) + " (" + std::to_string(t.elementCount()) +
                        " elements) changes the element count; keep the product of the shape",
                    0);
    } else if (t.byteSize() != src.byteSize()) {
      return fail(Diag::ElementCount,
                  "reinterpret_view of a " + std::to_string(src.byteSize()) + "-byte tile as " + str(t) +
                      " (" + std::to_string(t.byteSize()) + " bytes) changes the size; keep the byte size",
                  0);
    }
    if (auto e = checkViewSpace()) return *e;
    return t;
  }

  Result inferSlice() {
    if (auto e = needTile(0, "source")) return *e;
    Result d = declaredTile();
    if (std::holds_alternative<OpError>(d)) return d;
    const Type& src = operand(0);
    const Type& t = in_.declared;
    if (t.dtype() != src.dtype())
      return fail(Diag::DTypeMismatch, "slice keeps the dtype " + std::string(dtypeName(src.dtype())) +
                                           " but declares " + dtypeName(t.dtype()) + "; declare the source dtype",
                  0);
    if (t.rank() != src.rank())
      return fail(Diag::RankNotSupported, "slice of a rank-" + std::to_string(src.rank()) +
                                              " tile declares rank " + std::to_string(t.rank()) +
                                              "; keep the source's rank",
                  0);
    const auto* offsets = exprList("offsets");
    if (auto e = checkOffsetsCount(offsets, src.rank(), "offset", "source tile")) return *e;
    if (auto e = checkInside(*offsets, constExprs(t.shape()), constExprs(src.shape()), "region",
                             "source tile", 0))
      return *e;
    if (auto e = checkViewSpace()) return *e;
    return t;
  }

  Result inferAssemble() {
    if (auto e = needTile(0, "target")) return *e;
    if (auto e = needTile(1, "source")) return *e;
    const Type& target = operand(0);
    const Type& src = operand(1);
    if (auto e = sameDType(0, 1, "cast the source to the target's dtype")) return *e;
    if (src.rank() != target.rank())
      return fail(Diag::RankNotSupported, "assemble of a rank-" + std::to_string(src.rank()) +
                                              " tile into a rank-" + std::to_string(target.rank()) +
                                              " tile; reshape the source to the target's rank",
                  1);
    const auto* offsets = exprList("offsets");
    if (auto e = checkOffsetsCount(offsets, target.rank(), "offset", "target tile")) return *e;
    if (auto e = checkInside(*offsets, constExprs(src.shape()), constExprs(target.shape()), "region",
                             "target tile", 1))
      return *e;
    return target;
  }

  Result inferSetValidShape() {
    if (auto e = needTile(0, "source")) return *e;
    Result d = declaredTile();
    if (std::holds_alternative<OpError>(d)) return d;
    if (auto e = checkOnlyChanges(false, true, false, "valid shape")) return *e;
    return in_.declared;
  }

  // ---- tile regions ----

  // The [R, C] slot shape of `whole` cut by the `grid` attribute, or why it cannot be cut.
  std::variant<std::vector<int64_t>, OpError> slotShape(const Type& whole, int operandIndex) const {
    const auto* grid = attrOf<std::vector<int64_t>>(attrs(), "grid");
    if (whole.rank() != 2)
      return fail(Diag::RegionGrid, op_ + " cuts " + str(whole) + ", but tile regions are 2-D; reshape the tile to 2-D first",
                  operandIndex);
    if (!grid || grid->size() != 2 || (*grid)[0] < 1 || (*grid)[1] < 1)
      return fail(Diag::RegionGrid, op_ + " needs a grid of two positive counts [rows, columns] of slots");
    const std::vector<int64_t>& shape = whole.shape();
    if (shape[0] % (*grid)[0] != 0 || shape[1] % (*grid)[1] != 0)
      return fail(Diag::RegionGrid,
                  "a " + shapeText(*grid) + " grid does not cut " + shapeText(shape) +
                      " into equal slots; choose counts that divide the rows and the columns",
                  operandIndex);
    return std::vector<int64_t>{shape[0] / (*grid)[0], shape[1] / (*grid)[1]};
  }

  // The slot index: two entries, each provably inside the grid when it is a constant or bounded.
  std::optional<OpError> checkSlotIndex() const {
    const auto* index = exprList("index");
    const auto* grid = attrOf<std::vector<int64_t>>(attrs(), "grid");
    if (!index || index->size() != 2)
      return fail(Diag::RegionIndex, op_ + " needs a slot index [row, column]; give two entries");
    for (size_t axis = 0; axis < 2; ++axis) {
      const Expr& i = (*index)[axis];
      if (proven(CmpKind::LT, i, Expr::constant(0)) || proven(CmpKind::GE, i, Expr::constant((*grid)[axis])))
        return fail(Diag::RegionIndex, op_ + " names slot " + shapeText(*index) + " of a " + shapeText(*grid) +
                                           " grid; " + (axis ? "column" : "row") + " indices run from 0 to " +
                                           std::to_string((*grid)[axis] - 1));
    }
    return std::nullopt;
  }

  Result inferRegionPart() {
    if (auto e = needTile(0, "parent")) return *e;
    auto slot = slotShape(operand(0), 0);
    if (auto* e = std::get_if<OpError>(&slot)) return *e;
    if (auto e = checkSlotIndex()) return *e;
    const Type& parent = operand(0);
    const auto& shape = std::get<std::vector<int64_t>>(slot);
    std::vector<Expr> valid;
    if (!parent.hasFullValid())
      for (size_t axis = 0; axis < 2; ++axis) {
        Expr start = (*exprList("index"))[axis] * Expr::constant(shape[axis]);
        Expr left = Expr::max(Expr::sub(parent.valid()[axis], start), Expr::constant(0));
        valid.push_back(Expr::min(Expr::constant(shape[axis]), left));
      }
    return parent.withShape(shape, valid);
  }

  Result inferRegionArray() {
    Result d = declaredTile();
    if (std::holds_alternative<OpError>(d)) return d;
    auto slot = slotShape(in_.declared, -1);
    if (auto* e = std::get_if<OpError>(&slot)) return *e;
    return d;
  }

  Result inferRegionInsert() {
    if (auto e = needTile(0, "array")) return *e;
    if (auto e = needTile(1, "slot value")) return *e;
    auto slot = slotShape(operand(0), 0);
    if (auto* e = std::get_if<OpError>(&slot)) return *e;
    if (auto e = checkSlotIndex()) return *e;
    const Type& array = operand(0);
    const Type& value = operand(1);
    const auto& shape = std::get<std::vector<int64_t>>(slot);
    const bool spaceOk = value.space() == kNoSpace || array.space() == kNoSpace || value.space() == array.space();
    if (value.dtype() != array.dtype() || value.shape() != shape || !spaceOk)
      return fail(Diag::RegionSlotType,
                  "a slot of " + str(array) + " cut by a " + shapeText(*attrOf<std::vector<int64_t>>(attrs(), "grid")) +
                      " grid holds tile<" + dtypeName(array.dtype()) + ", " + shapeText(shape) + ">, but the value is " +
                      str(value) + "; cast, move or cut the value to the slot's type",
                  1);
    return array;
  }

  Result inferRegionAssembly() {
    if (auto e = needTile(0, "array")) return *e;
    auto slot = slotShape(operand(0), 0);
    if (auto* e = std::get_if<OpError>(&slot)) return *e;
    return operand(0);
  }

  // ---- runtime sequences ----
  std::optional<OpError> checkChannel() const {
    const auto* channel = exprList("channel");
    if (channel->size() != 2)
      return bad(op_ + " names its channel as [column, channel], but 'channel' has " +
                 std::to_string(channel->size()) + " entries");
    return std::nullopt;
  }

  Result inferDmaTransfer() {
    if (auto e = needTensor(0, "host tensor")) return *e;
    if (auto e = checkChannel()) return *e;
    const auto* sizes = exprList("sizes");
    const auto* strides = exprList("strides");
    if (sizes->empty() || sizes->size() != strides->size())
      return bad(op_ + " needs as many strides as sizes, and at least one of each; it has " +
                 std::to_string(sizes->size()) + " sizes and " + std::to_string(strides->size()) + " strides");
    return Type();
  }

  Result inferRequire() {
    if (!attrOf<Expr>(attrs(), "cond")->isBool())
      return bad("'cond' of seq.require must be a condition, but it is " + str(*attrOf<Expr>(attrs(), "cond")) +
                 "; write a comparison");
    return Type();
  }

  Result inferRaw() { return Type(); }

  // ---- a kernel split between the cores: where these ops may stand is the verifier's ----
  Result inferSection() { return Type(); }
  Result indexResult() { return Type::index(); }

  Result inferPipeInit() {
    if (*attrOf<int64_t>(attrs(), attr::slots.key) < 1 || *attrOf<int64_t>(attrs(), attr::slot_bytes.key) < 1)
      return bad("a pipe needs at least one slot of at least one byte; give 'slots' and 'slot_bytes' positive values");
    return Type();
  }

  Result inferPipePush() {
    if (auto e = needTile(0, "value")) return *e;
    return Type();
  }  // the target's model checks the name and arguments

  Result inferDmaWait() {
    if (auto e = checkChannel()) return *e;
    return Type();
  }

  const InferInput& in_;
  const OpInfo& info_;
  std::string op_;  // the name used in messages: "matmul", "'+'", "slot write"
};

std::string resultTypeMessage(const Op& op, const Type& actual, const Type& inferred) {
  return std::string(op.name()) + " result has type " + str(actual) + " but its operands give " +
         str(inferred) + "; use the inferred type";
}

}  // namespace

std::variant<Type, OpError> inferResultType(const InferInput& in) { return Rules(in).infer(); }

const Value* updatedValue(const Value* v) {
  while (v->definingOp() && tiedOperand(v->definingOp()->kind()) >= 0)
    v = v->definingOp()->operand(unsigned(tiedOperand(v->definingOp()->kind())));
  return v;
}

bool isWriteBack(const Op& op) {
  if (op.kind() != OpKind::Assemble || op.numOperands() != 2) return false;
  const Op* slice = updatedValue(op.operand(1))->definingOp();
  if (!slice || slice->kind() != OpKind::Slice || slice->operand(0) != op.operand(0)) return false;
  const auto* at = slice->find(attr::offsets);
  const auto* to = op.find(attr::offsets);
  if (!at || !to || at->size() != to->size()) return false;
  for (size_t i = 0; i < at->size(); ++i)
    if (!provablyEqual((*at)[i], (*to)[i])) return false;
  return true;
}

std::optional<OpError> verifyOp(const Op& op) {
  const OpInfo& info = opInfo(op.kind());
  for (unsigned i = 0; i < op.numOperands(); ++i)
    if (!op.operand(i))
      return OpError{Diag::IRVerify, std::string(op.name()) + " operand " + std::to_string(i) +
                                         " is missing; every operand needs a value",
                     int(i)};
  if (info.numResults >= 0 && op.numResults() != unsigned(info.numResults))
    return OpError{Diag::IRVerify, std::string(op.name()) + " has " + std::to_string(op.numResults()) +
                                       " results but the op defines " + std::to_string(info.numResults) +
                                       "; produce exactly that many"};
  if (op.numRegions() != unsigned(info.numRegions))
    return OpError{Diag::IRVerify, std::string(op.name()) + " has " + std::to_string(op.numRegions()) +
                                       " regions but the op defines " + std::to_string(info.numRegions) +
                                       "; give it exactly that many"};
  InferInput in{op.kind(), {}, &op.attrs(), Type()};
  for (Value* v : op.operands()) in.operands.push_back(v->type());
  if (const auto* buffers = op.find(attr::buffers))
    if (buffers->size() != op.numResults())
      return OpError{Diag::BadAttribute, std::string(op.name()) + " has " + std::to_string(buffers->size()) +
                                             " buffer ids for " + std::to_string(op.numResults()) +
                                             " results; give one id per result (-1 for non-tiles)"};
  if (const auto* addrs = op.find(attr::addrs))
    if (addrs->size() != op.numResults())
      return OpError{Diag::BadAttribute, std::string(op.name()) + " has " + std::to_string(addrs->size()) +
                                             " addresses for " + std::to_string(op.numResults()) +
                                             " results; give one address per result (-1 for non-tiles)"};
  // Control flow is typed by its regions: the verifier checks those.
  if (info.has(Loop) || info.has(Branch) || info.has(Terminator)) return Rules(in).checkCommon();
  if (op.numResults() == 1) in.declared = op.result()->type();
  auto r = inferResultType(in);
  if (auto* e = std::get_if<OpError>(&r)) return *e;
  const Type& inferred = std::get<Type>(r);
  Type actual = op.numResults() == 1 ? op.result()->type() : Type();
  if (inferred != actual)
    return OpError{Diag::ResultTypeMismatch, resultTypeMessage(op, actual, inferred)};
  return std::nullopt;
}

OpKind scanStep(ScanKind k) {
  static const OpKind kSteps[] = {OpKind::Add, OpKind::Max, OpKind::Min};
  return kSteps[size_t(k)];
}

}  // namespace tilec::ir
