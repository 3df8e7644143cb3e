// The op table, attribute schema and result-type inference: for every typing
// rule one input that passes and one that breaks it (code, operand, message).
#include <doctest/doctest.h>

#include <set>

#include "backend/pto/PtoModel.h"
#include "ir/OpDefs.h"

using namespace tilec;
using namespace tilec::ir;

namespace {

Expr k(int64_t v) { return Expr::constant(v); }

std::vector<Expr> ks(std::initializer_list<int64_t> xs) {
  std::vector<Expr> out;
  for (int64_t x : xs) out.push_back(k(x));
  return out;
}

Type tile(DType d, std::vector<int64_t> shape, ir::SpaceId s = ir::kNoSpace, std::vector<Expr> valid = {}) {
  return Type::tile(d, std::move(shape), std::move(valid), s, std::nullopt, &pto::ptoModel(pto::Arch::A2A3));
}

Type tensor(DType d, std::vector<Expr> dims) { return Type::tensor(d, std::move(dims)); }

const Type f32 = Type::scalar(DType::F32);
const Type i32 = Type::scalar(DType::I32);

struct Infer {
  OpKind kind;
  std::vector<Type> operands;
  AttrMap attrs = {};
  Type declared = {};

  std::variant<Type, OpError> run() const { return inferResultType({kind, operands, &attrs, declared}); }
  Type type() const {
    auto r = run();
    if (auto* e = std::get_if<OpError>(&r)) FAIL_CHECK("unexpected error: " << e->message);
    return std::holds_alternative<Type>(r) ? std::get<Type>(r) : Type();
  }
  OpError error() const {
    auto r = run();
    REQUIRE_MESSAGE(std::holds_alternative<OpError>(r), "expected an error");
    return std::get<OpError>(r);
  }
};

AttrMap offsets(std::vector<Expr> offs) { return {attr::offsets(std::move(offs))}; }

// A function with index values %S and %c to build symbolic shapes from.
struct Syms {
  Module m;
  Function& f = m.addFunction("k");
  Expr S = Expr::var(f.addParam(Type::index(), "S", ParamDir::None));
  Expr c = Expr::var(f.addParam(Type::index(), "c", ParamDir::None));
};

}  // namespace

TEST_CASE("the op table") {
  std::set<std::string> names;
  for (const OpInfo& info : allOps()) {
    CHECK(&opInfo(info.kind) == &info);
    CHECK(opKindByName(info.name) == info.kind);
    CHECK(names.insert(info.name).second);
  }
  CHECK(opInfo(OpKind::Add).numOperands == 2);
  CHECK(opInfo(OpKind::Add).has(Elementwise));
  CHECK(std::string(opInfo(OpKind::MatmulAcc).name) == "tile.matmul_acc");
  CHECK(!opKindByName("tile.nothing"));
  CHECK(tiedOperand(OpKind::MatmulAcc) == 0);
  CHECK(tiedOperand(OpKind::Assemble) == 0);
  CHECK(tiedOperand(OpKind::SetValidShape) == 0);
  CHECK(tiedOperand(OpKind::Add) == -1);
  CHECK(opInfo(OpKind::RowSum).scratchOperand == 1);
  CHECK(opInfo(OpKind::RowSum).operandCountText() == "1 or 2");
  CHECK(isView(OpKind::Slice));
  CHECK(!isView(OpKind::Transpose));
}

TEST_CASE("attribute schema") {
  std::vector<std::string> keys;
  for (const AttrSpec& s : attrSchema(OpKind::Load)) keys.push_back(s.key);
  CHECK(keys == std::vector<std::string>{"addrs", "buffers", "offsets", "window"});
  const AttrSpec* lb = findAttrSpec(OpKind::For, "lb");
  REQUIRE(lb);
  CHECK(lb->kind == AttrKind::Expr);
  CHECK(lb->required);
  CHECK(!findAttrSpec(OpKind::Add, "offsets"));
  CHECK(findAttrSpec(OpKind::Add, "buffers"));
  CHECK(!findAttrSpec(OpKind::Yield, "buffers"));
  CHECK(!findAttrSpec(OpKind::Store, "buffers"));
  CHECK(findAttrSpec(OpKind::Const, "value")->kind == AttrKind::IntOrFloat);
  CHECK(attrHasKind(AttrValue(int64_t(1)), AttrKind::IntOrFloat));
  CHECK(attrHasKind(AttrValue(1.5), AttrKind::IntOrFloat));
  CHECK(!attrHasKind(AttrValue(1.5), AttrKind::Int));
  CHECK(attrHasKind(AttrValue(ks({1})), AttrKind::ExprList));
  CHECK(std::string(attrKindName(AttrKind::ExprList)) == "expression list");
}

TEST_CASE("load") {
  Syms s;
  Type x = tensor(DType::BF16, {s.S, k(512)});
  Type t = tile(DType::BF16, {16, 512}, ir::kNoSpace, {Expr::min(k(16), s.S - s.c), k(512)});
  CHECK(Infer{OpKind::Load, {x}, offsets({s.c, k(0)}), t}.type() == t);
  // A rank-1 tile reads a window padded with leading 1s.
  Type row = tile(DType::BF16, {512});
  CHECK(Infer{OpKind::Load, {x}, offsets({s.c, k(0)}), row}.type() == row);

  OpError e = Infer{OpKind::Load, {tile(DType::BF16, {16, 512})}, offsets(ks({0, 0})), t}.error();
  CHECK(e.id == Diag::OperandKind);
  CHECK(e.operand == 0);
  e = Infer{OpKind::Load, {x}, offsets(ks({0})), t}.error();
  CHECK(e.id == Diag::OffsetCount);
  CHECK(e.message == "load has 1 offset but the tensor has rank 2; give one offset per axis");
  e = Infer{OpKind::Load, {x}, offsets(ks({0, 0})), tile(DType::F32, {16, 512})}.error();
  CHECK(e.id == Diag::DTypeMismatch);
  CHECK(e.message == "load moves f32 elements but the tensor holds bf16; use a tile of dtype bf16 and cast it");
  e = Infer{OpKind::Load, {x}, offsets(ks({0, 0})), tile(DType::BF16, {1, 16, 512})}.error();
  CHECK(e.id == Diag::RankNotSupported);
  e = Infer{OpKind::Load, {tensor(DType::BF16, ks({64, 512}))}, offsets(ks({56, 0})), tile(DType::BF16, {16, 512})}.error();
  CHECK(e.id == Diag::OutOfBounds);
  CHECK(e.operand == 0);
  CHECK(e.message == "load window [16, 512] at offsets [56, 0] runs past the tensor extents [64, 512] on axis 0; shrink "
                     "the window or move it inside");
  // The valid extent bounds the window: a partial tile at the tail is fine.
  Type tail = tile(DType::BF16, {16, 512}, ir::kNoSpace, ks({8, 512}));
  CHECK(Infer{OpKind::Load, {tensor(DType::BF16, ks({64, 512}))}, offsets(ks({56, 0})), tail}.type() == tail);
  e = Infer{OpKind::Load, {x}, offsets(ks({-1, 0})), t}.error();
  CHECK(e.id == Diag::OutOfBounds);
  e = Infer{OpKind::Load, {x}, offsets({s.c, k(0)}), tile(DType::BF16, {16, 512}, ir::kNoSpace, {s.S - s.c, k(512)})}.error();
  CHECK(e.id == Diag::ValidExtent);
  CHECK(e.message == "valid extent S - c of axis 0 may exceed the physical extent 16; bound it, e.g. min(16, S - c)");
  e = Infer{OpKind::Load, {x}, offsets(ks({0, 0})), tile(DType::BF16, {16, 512}, ir::kNoSpace, ks({0, 512}))}.error();
  CHECK(e.id == Diag::ValidExtent);
  // An explicit window (ND stores and loads) is checked instead of the padded valid shape.
  AttrMap windowed = offsets(ks({0, 0}));
  windowed["window"] = ks({64, 512});
  CHECK(Infer{OpKind::Load, {tensor(DType::BF16, ks({64, 512}))}, windowed, t}.type() == t);
  windowed["window"] = ks({65, 512});
  CHECK(Infer{OpKind::Load, {tensor(DType::BF16, ks({64, 512}))}, windowed, t}.error().id == Diag::OutOfBounds);
  windowed["window"] = ks({64});
  CHECK(Infer{OpKind::Load, {tensor(DType::BF16, ks({64, 512}))}, windowed, t}.error().id == Diag::OffsetCount);
  CHECK(Infer{OpKind::Load, {x}, {}, t}.error().id == Diag::BadAttribute);
}

TEST_CASE("store") {
  Type y = tensor(DType::F32, ks({64, 64}));
  Type t = tile(DType::F32, {16, 64});
  CHECK(Infer{OpKind::Store, {t, y}, offsets(ks({48, 0}))}.type().isNone());
  OpError e = Infer{OpKind::Store, {tile(DType::F16, {16, 64}), y}, offsets(ks({0, 0}))}.error();
  CHECK(e.id == Diag::DTypeMismatch);
  CHECK(e.operand == 0);
  e = Infer{OpKind::Store, {t, y}, offsets(ks({50, 0}))}.error();
  CHECK(e.id == Diag::OutOfBounds);
  CHECK(e.operand == 1);
  // A lower-rank store without a window: its rows may be a collapse of leading tensor
  // axes ([32, 64] into [2, 16, 64] writes the box [2, 16, 64]); see nd::storeWindow.
  Type nd = tensor(DType::F32, ks({2, 16, 64}));
  CHECK(Infer{OpKind::Store, {tile(DType::F32, {32, 64}), nd}, offsets(ks({0, 0, 0}))}.type().isNone());
  CHECK(Infer{OpKind::Store, {tile(DType::F32, {32, 64}), nd}, offsets(ks({0, 0, 8}))}.error().id == Diag::StorePastTensor);
  CHECK(Infer{OpKind::Store, {tile(DType::F32, {24, 64}), nd}, offsets(ks({0, 0, 0}))}.error().id == Diag::StoreFractionalAxis);
  CHECK(Infer{OpKind::Store, {tile(DType::F32, {32, 64}), nd}, offsets(ks({0, 1, 0}))}.error().id == Diag::StoreAxisOffset);
  AttrMap windowed = offsets(ks({0, 0, 0}));
  windowed["window"] = ks({2, 16, 64});
  CHECK(Infer{OpKind::Store, {tile(DType::F32, {32, 64}), nd}, windowed}.type().isNone());
  windowed["window"] = ks({2, 32, 64});
  CHECK(Infer{OpKind::Store, {tile(DType::F32, {32, 64}), nd}, windowed}.error().id == Diag::OutOfBounds);
  e = Infer{OpKind::Store, {y, y}, offsets(ks({0, 0}))}.error();
  CHECK(e.id == Diag::OperandKind);
  CHECK(e.message == "store needs a tile as its value, but it is a tensor (tensor<f32, [64, 64]>); pass a tile");
}

TEST_CASE("create and full") {
  Type t = tile(DType::F32, {16, 64}, pto::Vec);
  CHECK(Infer{OpKind::Create, {}, {}, t}.type() == t);
  CHECK(Infer{OpKind::Create, {}, {}, f32}.error().id == Diag::OperandKind);
  CHECK(Infer{OpKind::Full, {f32}, {}, t}.type() == t);
  OpError e = Infer{OpKind::Full, {i32}, {}, t}.error();
  CHECK(e.id == Diag::ScalarKind);
  CHECK(e.operand == 0);
  CHECK(e.message == "full combines a tile of dtype f32 with a scalar of dtype i32; use a float scalar for a float tile");
  CHECK(Infer{OpKind::Full, {t}, {}, t}.error().id == Diag::OperandKind);
}

TEST_CASE("move and cast change only what they may") {
  Type mat = tile(DType::F16, {32, 32}, pto::Mat);
  Type left = tile(DType::F16, {32, 32}, pto::Left);
  CHECK(Infer{OpKind::Move, {mat}, {}, left}.type() == left);
  OpError e = Infer{OpKind::Move, {mat}, {}, tile(DType::F16, {32, 16}, pto::Left)}.error();
  CHECK(e.id == Diag::DeclaredTypeChange);
  CHECK(e.message == "move may change only the memory space and layout, but turns tile<f16, [32, 32], mat> into "
                     "tile<f16, [32, 16], left>; keep the rest of the type");
  Type f = tile(DType::F32, {32, 32}, pto::Mat);
  AttrMap round{attr::rmode(RoundMode::Round)};
  CHECK(Infer{OpKind::Cast, {mat}, round, f}.type() == f);
  CHECK(Infer{OpKind::Cast, {mat}, round, tile(DType::F32, {32, 32})}.error().id == Diag::DeclaredTypeChange);
  AttrMap odd{{"rmode", std::string("sideways")}};  // ill-typed on purpose
  CHECK(Infer{OpKind::Cast, {mat}, odd, f}.error().id == Diag::BadAttribute);
}

TEST_CASE("elementwise binary ops") {
  Type a = tile(DType::F32, {16, 64});
  Type v = tile(DType::F32, {16, 64}, pto::Vec);
  CHECK(Infer{OpKind::Add, {a, a}}.type() == a);
  CHECK(Infer{OpKind::Max, {a, v}}.type() == v);  // one space unset: the set one
  OpError e = Infer{OpKind::Sub, {a, tile(DType::F16, {16, 64})}}.error();
  CHECK(e.id == Diag::DTypeMismatch);
  CHECK(e.operand == 1);
  e = Infer{OpKind::Sub, {a, tile(DType::F32, {16, 1})}}.error();
  CHECK(e.id == Diag::ShapeMismatch);
  CHECK(e.message == "'-' operands have different shapes ([16, 64] and [16, 1]); to combine each row with a per-row "
                     "value use row_expand_sub(tile, column)");
  e = Infer{OpKind::Max, {a, tile(DType::F32, {8, 64})}}.error();
  CHECK(e.message == "max operands have different shapes ([16, 64] and [8, 64]); make the shapes equal");
  e = Infer{OpKind::Mul, {a, tile(DType::F32, {16, 64}, ir::kNoSpace, ks({8, 64}))}}.error();
  CHECK(e.id == Diag::ValidShapeMismatch);
  e = Infer{OpKind::Div, {v, tile(DType::F32, {16, 64}, pto::Mat)}}.error();
  CHECK(e.id == Diag::SpaceMismatch);
  CHECK(e.message == "'/' operands are in different memory spaces (vec and mat); move one of them with move(t, space = ...)");
  CHECK(Infer{OpKind::Min, {a, f32}}.error().id == Diag::OperandKind);
}

TEST_CASE("tile-scalar ops") {
  Type a = tile(DType::F32, {16, 64});
  Type n = tile(DType::I32, {16, 64});
  CHECK(Infer{OpKind::AddS, {a, f32}}.type() == a);
  CHECK(Infer{OpKind::MulS, {n, Type::index()}}.type() == n);
  OpError e = Infer{OpKind::DivS, {a, i32}}.error();
  CHECK(e.id == Diag::ScalarKind);
  CHECK(e.operand == 1);
  CHECK(Infer{OpKind::MaxS, {n, f32}}.error().id == Diag::ScalarKind);
  CHECK(Infer{OpKind::SubS, {a, a}}.error().id == Diag::OperandKind);
}

TEST_CASE("bitwise and shift ops take integer tiles, xor an optional scratch tile") {
  Type n = tile(DType::I16, {16, 64});
  Type u = tile(DType::U8, {16, 64});
  Type a = tile(DType::F32, {16, 64});
  CHECK(Infer{OpKind::And, {n, n}}.type() == n);
  CHECK(Infer{OpKind::Shr, {u, u}}.type() == u);
  CHECK(Infer{OpKind::Xor, {n, n, n}}.type() == n);
  CHECK(Infer{OpKind::XorS, {n, i32, n}}.type() == n);
  CHECK(Infer{OpKind::ShlS, {u, i32}}.type() == u);
  CHECK(Infer{OpKind::Not, {u}}.type() == u);
  OpError e = Infer{OpKind::Or, {a, a}}.error();
  CHECK(e.id == Diag::DTypeNotSupported);
  CHECK(e.operand == 0);
  CHECK(e.message == "'|' works on the bits of integer tiles, but this tile is f32; cast it to an integer dtype "
                     "first, e.g. cast<i32>(...)");
  CHECK(Infer{OpKind::Not, {a}}.error().id == Diag::DTypeNotSupported);
  CHECK(Infer{OpKind::AndS, {a, f32}}.error().id == Diag::DTypeNotSupported);
  CHECK(Infer{OpKind::ShrS, {n, f32}}.error().id == Diag::ScalarKind);
  CHECK(Infer{OpKind::Shl, {n, tile(DType::I32, {16, 64})}}.error().id == Diag::DTypeMismatch);
  e = Infer{OpKind::Xor, {n, n, i32}}.error();
  CHECK(e.id == Diag::OperandKind);
  CHECK(e.operand == 2);
  Type vec = tile(DType::I16, {16, 64}, pto::Vec);
  e = Infer{OpKind::Xor, {vec, vec, tile(DType::I16, {16, 64}, pto::Mat)}}.error();
  CHECK(e.id == Diag::SpaceMismatch);
  CHECK(e.operand == 2);
}

TEST_CASE("fmod takes two tiles or a tile and a scalar of its kind, lrelu a float tile and an f32 slope") {
  Type a = tile(DType::F32, {16, 64});
  Type h = tile(DType::F16, {16, 64});
  Type n = tile(DType::I16, {16, 64});
  CHECK(Infer{OpKind::Fmod, {a, a}}.type() == a);
  CHECK(Infer{OpKind::Fmod, {n, n}}.type() == n);
  CHECK(Infer{OpKind::FmodS, {a, f32}}.type() == a);
  CHECK(Infer{OpKind::FmodS, {n, i32}}.type() == n);
  CHECK(Infer{OpKind::Fmod, {a, h}}.error().id == Diag::DTypeMismatch);
  CHECK(Infer{OpKind::Fmod, {a, tile(DType::F32, {16, 32})}}.error().id == Diag::ShapeMismatch);
  CHECK(Infer{OpKind::FmodS, {n, f32}}.error().id == Diag::ScalarKind);
  CHECK(Infer{OpKind::LRelu, {h, f32}}.type() == h);
  CHECK(Infer{OpKind::LRelu, {a, f32}}.type() == a);
  OpError e = Infer{OpKind::LRelu, {n, f32}}.error();
  CHECK(e.id == Diag::DTypeNotSupported);
  CHECK(e.operand == 0);
  CHECK(e.message == "lrelu needs a float tile, but it is i16; cast it to f32 first");
  e = Infer{OpKind::LRelu, {h, Type::scalar(DType::F16)}}.error();
  CHECK(e.id == Diag::DTypeNotSupported);
  CHECK(e.operand == 1);
  CHECK(e.message == "lrelu takes an f32 slope, but it is f16; pass a float constant or an f32 scalar parameter");
  CHECK(Infer{OpKind::LRelu, {a, a}}.error().id == Diag::OperandKind);
}

TEST_CASE("comparisons give masks, which only where and reshapes take") {
  Type a = tile(DType::F32, {16, 64});
  Type mask = tile(DType::Bool, {16, 64});
  const AttrMap lt = {attr::cmp(CmpKind::LT)};
  CHECK(Infer{OpKind::Cmp, {a, a}, lt}.type() == mask);
  CHECK(Infer{OpKind::CmpS, {a, f32}, lt}.type() == mask);
  CHECK(Infer{OpKind::Cmp, {a, a}}.error().id == Diag::BadAttribute);  // the predicate is required
  OpError e = Infer{OpKind::Cmp, {a, tile(DType::F32, {8, 64})}, lt}.error();
  CHECK(e.message == "tile comparison operands have different shapes ([16, 64] and [8, 64]); make the shapes equal");
  CHECK(Infer{OpKind::CmpS, {a, i32}, lt}.error().id == Diag::ScalarKind);
  e = Infer{OpKind::Cmp, {mask, mask}, lt}.error();
  CHECK(e.id == Diag::DTypeNotSupported);
  CHECK(e.message == "tile comparison compares numbers, but its operand is bool; compare a tile of numbers");

  CHECK(Infer{OpKind::Sel, {mask, a, a}}.type() == a);
  CHECK(Infer{OpKind::Sel, {mask, a, a, tile(DType::U32, {1, 16})}}.type() == a);
  e = Infer{OpKind::Sel, {a, a, a}}.error();
  CHECK(e.id == Diag::OperandKind);
  CHECK(e.operand == 0);
  CHECK(e.message == "where needs a mask as its condition, but it is a tile of f32; compare to make one, e.g. "
                     "where(x > 0.0, a, b)");
  e = Infer{OpKind::Sel, {mask, a, tile(DType::F16, {16, 64})}}.error();
  CHECK(e.id == Diag::DTypeMismatch);
  CHECK(e.operand == 2);
  e = Infer{OpKind::Sel, {tile(DType::Bool, {16, 32}), tile(DType::F32, {16, 32}, ir::kNoSpace, ks({16, 20})),
                          tile(DType::F32, {16, 32}, ir::kNoSpace, ks({16, 20}))}}.error();
  CHECK(e.id == Diag::ValidShapeMismatch);
  CHECK(e.operand == 0);

  e = Infer{OpKind::Add, {a, mask}}.error();
  CHECK(e.id == Diag::OperandKind);
  CHECK(e.operand == 1);
  CHECK(e.message == "'+' takes numbers, but its second operand is a mask (the bool tile a comparison gives); a mask "
                     "only selects: write where(mask, a, b)");
  CHECK(Infer{OpKind::RowSum, {mask}}.error().id == Diag::OperandKind);
  CHECK(Infer{OpKind::Cast, {a}, {}, mask}.error().id == Diag::OperandKind);
  Type rank3 = tile(DType::Bool, {2, 8, 64});
  CHECK(Infer{OpKind::Reshape, {rank3}, {}, mask}.type() == mask);
  e = Infer{OpKind::Reshape, {mask}, {}, tile(DType::Bool, {32, 32})}.error();
  CHECK(e.id == Diag::OperandKind);
  CHECK(e.message == "reshape of a mask keeps its rows, which are packed, but this one turns [16, 64] into [32, 32]; "
                     "reshape the tiles compared instead");
}

TEST_CASE("scans keep their 2-D source's type and name the built-in written") {
  Type a = tile(DType::F32, {16, 64}, ir::kNoSpace, {Expr::constant(5), Expr::constant(64)});
  Type n = tile(DType::I8, {4, 32});
  CHECK(Infer{OpKind::Scan, {a}, {attr::scan(ScanKind::Add), attr::axis(1)}}.type() == a);
  CHECK(Infer{OpKind::Scan, {n}, {attr::scan(ScanKind::Min), attr::axis(0)}}.type() == n);
  OpError axis = Infer{OpKind::Scan, {a}, {attr::scan(ScanKind::Max), attr::axis(2)}}.error();
  CHECK(axis.id == Diag::ScanAxis);
  CHECK(axis.message == "cummax runs along axis 0 (down each column) or 1 (along each row) of a 2-D tile, "
                        "but 'axis' is 2; give 0 or 1");
  OpError rank = Infer{OpKind::Scan, {tile(DType::F32, {64})}, {attr::scan(ScanKind::Add), attr::axis(0)}}.error();
  CHECK(rank.id == Diag::RankNotSupported);
  CHECK(rank.message == "cumsum scans a 2-D tile, but the source has rank 1; reshape it to the row [1, 64] and scan axis = 1");
  OpError mask = Infer{OpKind::Scan, {tile(DType::Bool, {16, 64})}, {attr::scan(ScanKind::Min), attr::axis(1)}}.error();
  CHECK(mask.id == Diag::OperandKind);
  CHECK(mask.message.rfind("cummin takes numbers", 0) == 0);
  CHECK(Infer{OpKind::Scan, {a}, {attr::axis(1)}}.error().id == Diag::BadAttribute);
  CHECK(Infer{OpKind::Scan, {f32}, {attr::scan(ScanKind::Add), attr::axis(1)}}.error().id == Diag::OperandKind);
}

TEST_CASE("gather takes the index's shape and valid shape and the source's dtype") {
  Type src = tile(DType::F16, {16, 64}, ir::kNoSpace, {Expr::constant(5), Expr::constant(64)});
  Type index = tile(DType::I32, {16, 32}, ir::kNoSpace, {Expr::constant(5), Expr::constant(32)});
  CHECK(Infer{OpKind::Gather, {src, index}}.type() == index.withDType(DType::F16));
  // One source row serves every index row, whatever their valid rows.
  Type row = tile(DType::F32, {1, 64});
  CHECK(Infer{OpKind::Gather, {row, index}}.type() == index.withDType(DType::F32));
  Type u = tile(DType::U32, {16, 32}, ir::kNoSpace, {Expr::constant(5), Expr::constant(32)});
  CHECK(Infer{OpKind::Gather, {src, u}}.type() == index.withDType(DType::F16));
  CHECK(Infer{OpKind::Gather, {tile(DType::I8, {64}), tile(DType::I32, {8})}}.type() == tile(DType::I8, {8}));
  // The flat form and its scratch (the index's dtype).
  CHECK(Infer{OpKind::Gather, {src, index, tile(DType::I32, {1, 8})}, {attr::row_stride(64)}}.type() ==
        index.withDType(DType::F16));
  OpError dtype = Infer{OpKind::Gather, {src, tile(DType::F32, {16, 32})}}.error();
  CHECK(dtype.id == Diag::DTypeNotSupported);
  CHECK(dtype.operand == 1);
  CHECK(dtype.message == "gather takes column numbers as an i32 or u32 tile, but the index is f32; cast it with cast<i32>(...)");
  CHECK(Infer{OpKind::Gather, {src, tile(DType::I16, {16, 32})}}.error().id == Diag::DTypeNotSupported);
  OpError rows = Infer{OpKind::Gather, {src, tile(DType::I32, {8, 32})}}.error();
  CHECK(rows.id == Diag::ShapeMismatch);
  CHECK(rows.message == "gather takes row i of the index from row i of the source, but the source has 16 rows and "
                        "the index 8; give them the same rows, or gather from one row [1, 64], which serves every index row");
  OpError oneRow = Infer{OpKind::Gather, {src, tile(DType::I32, {1, 32})}}.error();
  CHECK(oneRow.message == "gather takes row i of the index from row i of the source, but the source has 16 rows and "
                          "the index 1; give the index a row for each: full<i32>([16, 32], 0) + index");
  OpError valid = Infer{OpKind::Gather, {src, tile(DType::I32, {16, 32})}}.error();
  CHECK(valid.id == Diag::ValidShapeMismatch);
  CHECK(valid.message == "gather takes row i of the index from row i of the source, but the index has valid [16, 32] "
                         "and the source [5, 64]; make the valid row extents equal, e.g. with set_valid_shape");
  OpError rank = Infer{OpKind::Gather, {tile(DType::F32, {64}), index}}.error();
  CHECK(rank.id == Diag::RankNotSupported);
  CHECK(rank.message == "gather takes a source and an index of one rank (NumPy's take_along_axis), but the source is "
                        "[64] and the index [16, 32]; reshape the source to [1, 64]");
  CHECK(Infer{OpKind::Gather, {tile(DType::F32, {2, 4, 8}), tile(DType::I32, {2, 4, 8})}}.error().id ==
        Diag::RankNotSupported);
  CHECK(Infer{OpKind::Gather, {src, index}, {attr::row_stride(32)}}.error().id == Diag::BadAttribute);
  CHECK(Infer{OpKind::Gather, {row, index}, {attr::row_stride(64)}}.error().id == Diag::BadAttribute);
  CHECK(Infer{OpKind::Gather, {src, index, tile(DType::U32, {1, 8})}}.error().id == Diag::DTypeMismatch);
  CHECK(Infer{OpKind::Gather, {tile(DType::Bool, {16, 64}), index}}.error().id == Diag::OperandKind);
  CHECK(Infer{OpKind::Gather, {f32, index}}.error().id == Diag::OperandKind);
}

TEST_CASE("triangular tiles take an integer diagonal and are declared") {
  Type a = tile(DType::F32, {16, 64});
  CHECK(Infer{OpKind::Tri, {i32}, {}, a}.type() == a);
  CHECK(Infer{OpKind::Tri, {Type::index()}, {attr::upper(true)}, a}.type() == a);
  OpError e = Infer{OpKind::Tri, {f32}, {}, a}.error();
  CHECK(e.id == Diag::DTypeNotSupported);
  CHECK(e.message == "triangular tile takes an integer diagonal, but it is f32; pass an integer expression");
  CHECK(Infer{OpKind::Tri, {a}, {}, a}.error().id == Diag::OperandKind);
  CHECK(Infer{OpKind::Tri, {i32}, {}, tile(DType::Bool, {16, 64})}.error().id == Diag::OperandKind);
}

TEST_CASE("unary ops") {
  Type a = tile(DType::F16, {16, 64});
  Type n = tile(DType::I32, {16, 64});
  CHECK(Infer{OpKind::Exp, {a}}.type() == a);
  CHECK(Infer{OpKind::Neg, {n}}.type() == n);
  OpError e = Infer{OpKind::Sqrt, {n}}.error();
  CHECK(e.id == Diag::DTypeNotSupported);
  CHECK(e.message == "sqrt needs a float tile, but it is i32; cast it to f32 first");
  CHECK(Infer{OpKind::Abs, {tile(DType::U8, {16, 64})}}.error().id == Diag::DTypeNotSupported);
}

TEST_CASE("row and column reductions") {
  Type a = tile(DType::F32, {16, 128}, pto::Vec);
  Type r = Infer{OpKind::RowMax, {a}}.type();
  CHECK(r.shape() == std::vector<int64_t>{16, 1});
  CHECK(r.layout().blayout == BLayout::ColMajor);  // a column vector
  CHECK(r == tile(DType::F32, {16, 1}, pto::Vec));
  CHECK(Infer{OpKind::RowSum, {a, a}}.type() == r);
  Syms s;
  Type partial = tile(DType::F32, {16, 128}, ir::kNoSpace, {Expr::min(k(16), s.S), k(100)});
  CHECK(Infer{OpKind::RowMin, {partial}}.type().valid() == std::vector<Expr>{Expr::min(k(16), s.S), k(1)});
  CHECK(Infer{OpKind::RowMax, {tile(DType::F32, {2, 8, 16})}}.type().shape() == std::vector<int64_t>{2, 8, 1});
  // A 1-D tile is one row: its reduction is one value, [1].
  Type vec = tile(DType::F32, {128}, ir::kNoSpace, {Expr::min(k(128), s.S)});
  CHECK(Infer{OpKind::RowMax, {vec}}.type() == tile(DType::F32, {1}));
  CHECK(Infer{OpKind::RowSum, {tile(DType::F32, {}, ir::kNoSpace)}}.error().id == Diag::RankNotSupported);
  OpError e = Infer{OpKind::RowSum, {a, tile(DType::F32, {16, 64}, pto::Vec)}}.error();
  CHECK(e.id == Diag::ShapeMismatch);
  CHECK(e.operand == 1);
  CHECK(Infer{OpKind::RowSum, {a, a, a}}.error().id == Diag::IRVerify);
  Type c = Infer{OpKind::ColSum, {partial}}.type();
  CHECK(c.shape() == std::vector<int64_t>{1, 128});
  CHECK(c.valid() == std::vector<Expr>{k(1), k(100)});
  CHECK(Infer{OpKind::ColMax, {tile(DType::F32, {2, 8, 16})}}.error().id == Diag::RankNotSupported);
  OpError one = Infer{OpKind::ColSum, {vec}}.error();
  CHECK(one.id == Diag::RankNotSupported);
  CHECK(one.message.find("the source is 1-D") != std::string::npos);
}

// A row statistic is its one valid column per row: a declared result may store it with
// padded physical columns and another layout (linx-align-rows), nothing else.
TEST_CASE("row reductions keep a declared store of their column") {
  Type a = tile(DType::F32, {16, 128}, pto::Vec);
  Type padded = Type::tile(DType::F32, {16, 8}, ks({16, 1}), pto::Vec, namedLayout("row_major"),
                           &pto::ptoModel(pto::Arch::A2A3));
  CHECK(Infer{OpKind::RowMax, {a}, {}, padded}.type() == padded);
  Type column = Infer{OpKind::RowMax, {a}}.type();
  CHECK(Infer{OpKind::RowMax, {a}, {}, padded.withValid(ks({16, 2}))}.type() == column);
  CHECK(Infer{OpKind::RowMax, {a}, {}, padded.withShape({8, 8}, ks({8, 1}))}.type() == column);
  CHECK(Infer{OpKind::RowMax, {a}, {}, padded.withDType(DType::F16)}.type() == column);
}

TEST_CASE("arg-reductions give i32 indices in the shape of the reduction, with a scratch like their source") {
  Type a = tile(DType::F16, {16, 128}, pto::Vec);
  Type r = Infer{OpKind::RowArgMax, {a}}.type();
  CHECK(r == tile(DType::I32, {16, 1}, pto::Vec));
  CHECK(Infer{OpKind::RowArgMin, {a, a}}.type() == r);
  CHECK(Infer{OpKind::RowArgMax, {tile(DType::F32, {2, 8, 16})}}.type() == tile(DType::I32, {2, 8, 1}));
  Syms s;
  Type partial = tile(DType::I8, {32, 64}, ir::kNoSpace, {Expr::min(k(32), s.S), k(40)});
  Type c = Infer{OpKind::ColArgMin, {partial}}.type();
  CHECK(c == tile(DType::I8, {1, 64}, ir::kNoSpace, {k(1), k(40)}).withDType(DType::I32));
  CHECK(Infer{OpKind::ColArgMax, {partial, partial}}.type() == c);
  OpError e = Infer{OpKind::ColArgMax, {partial, partial.withDType(DType::F32)}}.error();
  CHECK(e.id == Diag::DTypeMismatch);
  CHECK(e.operand == 1);
  CHECK(Infer{OpKind::ColArgMax, {tile(DType::F32, {64})}}.error().id == Diag::RankNotSupported);
  CHECK(Infer{OpKind::RowArgMax, {f32}}.error().id == Diag::OperandKind);
}

TEST_CASE("sort32 pairs f32 values with u32 indices of their shape, in whole runs of 32 columns") {
  Type v = tile(DType::F32, {16, 64}, pto::Vec);
  Type ids = v.withDType(DType::U32);
  Type pairs = Infer{OpKind::Sort32, {v, ids}}.type();
  CHECK(pairs == tile(DType::F32, {16, 128}, pto::Vec));
  CHECK(Infer{OpKind::PairValues, {pairs}}.type() == v);
  CHECK(Infer{OpKind::PairIndices, {pairs}}.type() == v.withDType(DType::I32));
  Syms s;
  Type someRows = tile(DType::F32, {16, 32}, ir::kNoSpace, {Expr::min(k(16), s.S), k(32)});
  Type somePairs = Infer{OpKind::Sort32, {someRows, someRows.withDType(DType::U32)}}.type();
  CHECK(somePairs == tile(DType::F32, {16, 64}, ir::kNoSpace, {Expr::min(k(16), s.S), k(64)}));
  OpError tail = Infer{OpKind::Sort32, {tile(DType::F32, {16, 48}), tile(DType::U32, {16, 48})}}.error();
  CHECK(tail.id == Diag::SortExtent);
  CHECK(tail.operand == 0);
  Type partial = tile(DType::F32, {16, 32}, ir::kNoSpace, {k(16), k(20)});
  CHECK(Infer{OpKind::Sort32, {partial, partial.withDType(DType::U32)}}.error().id == Diag::SortExtent);
  CHECK(Infer{OpKind::Sort32, {v.withDType(DType::F16), ids}}.error().id == Diag::DTypeNotSupported);
  OpError signedIds = Infer{OpKind::Sort32, {v, v.withDType(DType::I32)}}.error();
  CHECK(signedIds.id == Diag::DTypeNotSupported);
  CHECK(signedIds.operand == 1);
  CHECK(Infer{OpKind::Sort32, {v, tile(DType::U32, {16, 32}, pto::Vec)}}.error().id == Diag::ShapeMismatch);
  CHECK(Infer{OpKind::PairValues, {tile(DType::F32, {16, 33})}}.error().id == Diag::ShapeMismatch);
  CHECK(Infer{OpKind::PairIndices, {tile(DType::F32, {64})}}.error().id == Diag::RankNotSupported);
}

TEST_CASE("tensor.read: an element of a signed integer tensor, inside it, as an index") {
  Syms s;
  Type ids = tensor(DType::I32, {s.S, k(4)});
  CHECK(Infer{OpKind::TensorRead, {ids}, offsets({s.c, k(3)})}.type() == Type::index());
  CHECK(Infer{OpKind::TensorRead, {tensor(DType::I64, ks({8}))}, offsets(ks({7}))}.type() == Type::index());
  OpError past = Infer{OpKind::TensorRead, {ids}, offsets({s.c, k(4)})}.error();
  CHECK(past.id == Diag::OutOfBounds);
  CHECK(past.message == "element [c, 4] is outside the tensor's extents [S, 4] on axis 1; index each axis from 0 to "
                        "its extent - 1");
  CHECK(Infer{OpKind::TensorRead, {ids}, offsets({k(-1), k(0)})}.error().id == Diag::OutOfBounds);
  CHECK(Infer{OpKind::TensorRead, {ids}, offsets({s.c})}.error().id == Diag::OffsetCount);
  OpError fl = Infer{OpKind::TensorRead, {tensor(DType::F32, ks({8}))}, offsets(ks({0}))}.error();
  CHECK(fl.id == Diag::DTypeNotSupported);
  CHECK(fl.message == "an element read from a tensor becomes an index, a signed integer, but the tensor is f32; "
                      "declare it i32 or i64");
  CHECK(Infer{OpKind::TensorRead, {tensor(DType::U32, ks({8}))}, offsets(ks({0}))}.error().id ==
        Diag::DTypeNotSupported);
  CHECK(Infer{OpKind::TensorRead, {i32}, offsets(ks({0}))}.error().id == Diag::OperandKind);
}

TEST_CASE("iota: one integer row from a start of its dtype") {
  Type row = tile(DType::I32, {1, 64}, pto::Vec);
  CHECK(Infer{OpKind::Iota, {i32}, {}, row}.type() == row);
  CHECK(Infer{OpKind::Iota, {Type::index()}, {attr::descending(true)}, tile(DType::I16, {64})}.type() ==
        tile(DType::I16, {64}));
  OpError rows = Infer{OpKind::Iota, {i32}, {}, tile(DType::I32, {4, 64})}.error();
  CHECK(rows.id == Diag::RankNotSupported);
  CHECK(rows.message == "iota fills one row, [n] or [1, n], but the shape is [4, 64]; make one row, "
                        "iota<i32>([1, 64]), and use it for every row");
  OpError fl = Infer{OpKind::Iota, {i32}, {}, tile(DType::F32, {1, 64})}.error();
  CHECK(fl.id == Diag::DTypeNotSupported);
  CHECK(fl.message == "iota counts in integers, but the tile is f32; make an i32 iota and cast it, "
                      "cast<f32>(iota<i32>([1, 64]))");
  CHECK(Infer{OpKind::Iota, {f32}, {}, row}.error().id == Diag::ScalarKind);
  OpError narrow = Infer{OpKind::Iota, {Type::scalar(DType::I16)}, {}, row}.error();
  CHECK(narrow.id == Diag::DTypeMismatch);
  CHECK(narrow.operand == 0);
}

TEST_CASE("row broadcasts") {
  Type a = tile(DType::F32, {16, 128});
  Type col = tile(DType::F32, {16, 1});
  CHECK(Infer{OpKind::RowExpandSub, {a, col}}.type() == a);
  // A 1-D tile combined with its one value.
  Type row = tile(DType::F32, {64});
  CHECK(Infer{OpKind::RowExpandDiv, {row, tile(DType::F32, {1})}}.type() == row);
  CHECK(Infer{OpKind::RowExpandDiv, {row, tile(DType::F32, {64})}}.error().id == Diag::RowVectorShape);
  OpError e = Infer{OpKind::RowExpandMul, {a, tile(DType::F32, {1, 128})}}.error();
  CHECK(e.id == Diag::RowVectorShape);
  CHECK(e.operand == 1);
  CHECK(e.message == "row_expand_mul needs the per-row column to be [16, 1] for a [16, 128] tile, but it is [1, 128]; "
                     "reduce the rows with row_max/row_sum/row_min to get that column");
  // A column padded to more physical columns, one of them valid, is a column.
  CHECK(Infer{OpKind::RowExpandSub, {a, tile(DType::F32, {16, 8}, ir::kNoSpace, ks({16, 1}))}}.type() == a);
  e = Infer{OpKind::RowExpandSub, {a, tile(DType::F32, {16, 8}, ir::kNoSpace, ks({16, 2}))}}.error();
  CHECK(e.message == "row_expand_sub needs the per-row column to be [16, 1] for a [16, 128] tile, but it is [16, 8] "
                     "with valid [16, 2]; reduce the rows with row_max/row_sum/row_min to get that column");
  CHECK(Infer{OpKind::RowExpandAdd, {a, tile(DType::F16, {16, 1})}}.error().id == Diag::DTypeMismatch);
  CHECK(Infer{OpKind::RowExpandDiv, {a, tile(DType::F32, {16, 1}, ir::kNoSpace, ks({8, 1}))}}.error().id ==
        Diag::ValidShapeMismatch);
}

TEST_CASE("column broadcasts") {
  Type a = tile(DType::F32, {16, 128});
  Type row = tile(DType::F32, {1, 128});
  CHECK(Infer{OpKind::ColExpandMul, {a, row}}.type() == a);
  // One row: the broadcast is elementwise, and still a column broadcast.
  CHECK(Infer{OpKind::ColExpandMul, {row, row}}.type() == row);
  OpError e = Infer{OpKind::ColExpandMul, {a, tile(DType::F32, {16, 1})}}.error();
  CHECK(e.id == Diag::ColVectorShape);
  CHECK(e.operand == 1);
  CHECK(e.message == "col_expand_mul needs the per-column row to be [1, 128] for a [16, 128] tile, but it is [16, 1]; "
                     "reduce the columns with col_max/col_sum/col_min to get that row");
  CHECK(Infer{OpKind::ColExpandMul, {a, tile(DType::F32, {1, 64})}}.error().id == Diag::ColVectorShape);
  CHECK(Infer{OpKind::ColExpandMul, {a, tile(DType::F32, {1, 128}, ir::kNoSpace, ks({1, 128}))}}.type() == a);
  CHECK(Infer{OpKind::ColExpandMul, {a, tile(DType::F16, {1, 128})}}.error().id == Diag::DTypeMismatch);
  // The row's valid columns are the tile's.
  Type partial = tile(DType::F32, {16, 128}, ir::kNoSpace, ks({5, 100}));
  CHECK(Infer{OpKind::ColExpandMul, {partial, tile(DType::F32, {1, 128}, ir::kNoSpace, ks({1, 100}))}}.type() ==
        partial);
  e = Infer{OpKind::ColExpandMul, {partial, row}}.error();
  CHECK(e.id == Diag::ValidShapeMismatch);
  CHECK(e.message == "col_expand_mul row has valid columns [1, 128] but the tile [5, 100]; make the valid column "
                     "extents equal");
  e = Infer{OpKind::ColExpandMul, {tile(DType::F32, {128}), tile(DType::F32, {128})}}.error();
  CHECK(e.id == Diag::RankNotSupported);
  CHECK(e.operand == 0);
}

TEST_CASE("matmul") {
  Type lhs = tile(DType::F16, {16, 32}, pto::Left);
  Type rhs = tile(DType::F16, {32, 8}, pto::Right);
  CHECK(Infer{OpKind::Matmul, {lhs, rhs}}.type() == tile(DType::F32, {16, 8}, pto::Acc));
  CHECK(Infer{OpKind::Matmul, {tile(DType::I8, {16, 32}), tile(DType::I8, {32, 8})}}.type() == tile(DType::I32, {16, 8}));
  Syms s;
  Type partial = tile(DType::BF16, {16, 32}, ir::kNoSpace, {Expr::min(k(16), s.S), k(32)});
  Type r = Infer{OpKind::Matmul, {partial, tile(DType::BF16, {32, 8})}}.type();
  CHECK(r.valid() == std::vector<Expr>{Expr::min(k(16), s.S), k(8)});
  OpError e = Infer{OpKind::Matmul, {lhs, tile(DType::F16, {16, 16})}}.error();
  CHECK(e.id == Diag::MatmulInnerDim);
  CHECK(e.operand == 1);
  CHECK(e.message == "matmul inner dimensions differ: lhs is [16, 32] but rhs is [16, 16]; make the lhs column count "
                     "equal the rhs row count");
  CHECK(Infer{OpKind::Matmul, {lhs, tile(DType::F32, {32, 8})}}.error().id == Diag::DTypeMismatch);
  OpError oneD = Infer{OpKind::Matmul, {lhs, tile(DType::F16, {32})}}.error();
  CHECK(oneD.id == Diag::RankNotSupported);
  CHECK(oneD.operand == 1);
  CHECK(oneD.message.find("the rhs is the 1-D tile [32]") != std::string::npos);
  CHECK(Infer{OpKind::Matmul, {tile(DType::I16, {16, 32}), tile(DType::I16, {32, 8})}}.error().id ==
        Diag::DTypeNotSupported);
  CHECK(Infer{OpKind::Matmul, {tile(DType::F16, {2, 16, 32}), rhs}}.error().id == Diag::RankNotSupported);
  CHECK(Infer{OpKind::Matmul, {lhs, tile(DType::F16, {32, 8}, ir::kNoSpace, ks({16, 8}))}}.error().id ==
        Diag::ValidShapeMismatch);
}

TEST_CASE("matmul_acc") {
  Type acc = tile(DType::F32, {16, 8}, pto::Acc);
  Type lhs = tile(DType::F16, {16, 32}, pto::Left);
  Type rhs = tile(DType::F16, {32, 8}, pto::Right);
  Syms s;
  AttrMap init{attr::init(Expr::cmp(CmpKind::EQ, s.c, k(0)))};
  CHECK(Infer{OpKind::MatmulAcc, {acc, lhs, rhs}, init}.type() == acc);
  CHECK(Infer{OpKind::MatmulAcc, {acc, lhs, rhs}}.type() == acc);
  OpError e = Infer{OpKind::MatmulAcc, {tile(DType::F16, {16, 8}), lhs, rhs}}.error();
  CHECK(e.id == Diag::AccumulatorType);
  CHECK(e.operand == 0);
  e = Infer{OpKind::MatmulAcc, {acc, lhs, tile(DType::F16, {16, 8})}}.error();
  CHECK(e.id == Diag::MatmulInnerDim);
  CHECK(e.operand == 2);
  AttrMap notBool{attr::init(s.c)};
  e = Infer{OpKind::MatmulAcc, {acc, lhs, rhs}, notBool}.error();
  CHECK(e.id == Diag::BadAttribute);
  CHECK(e.message == "'init' of matmul_acc must be a condition, but it is c; write a comparison such as i == 0");
}

TEST_CASE("batch matmul") {
  Type lhs = tile(DType::F16, {2, 16, 32});
  Type rhs = tile(DType::F16, {1, 32, 8});
  Type r = Infer{OpKind::BatchMatmul, {lhs, rhs}}.type();
  CHECK(r == tile(DType::F32, {2, 16, 8}));
  CHECK(Infer{OpKind::BatchMatmul, {rhs.withShape({1, 16, 32}, {}), tile(DType::F16, {4, 32, 8})}}.type().shape() ==
        std::vector<int64_t>{4, 16, 8});
  OpError e = Infer{OpKind::BatchMatmul, {lhs, tile(DType::F16, {3, 32, 8})}}.error();
  CHECK(e.id == Diag::BatchDimMismatch);
  CHECK(e.message == "batch_matmul batch axis 0 is 2 in lhs and 3 in rhs; make them equal or 1 (broadcast)");
  CHECK(Infer{OpKind::BatchMatmul, {tile(DType::F16, {16, 32}), tile(DType::F16, {32, 8})}}.error().id ==
        Diag::RankNotSupported);
  CHECK(Infer{OpKind::BatchMatmul, {lhs, tile(DType::F16, {2, 16, 8})}}.error().id == Diag::MatmulInnerDim);
  CHECK(Infer{OpKind::BatchMatmulAcc, {r, lhs, rhs}}.type() == r);
  CHECK(Infer{OpKind::BatchMatmulAcc, {tile(DType::F32, {16, 8}), lhs, rhs}}.error().id == Diag::AccumulatorType);
}

TEST_CASE("transposes") {
  Type a = tile(DType::F32, {16, 32}, pto::Vec);
  AttrMap axes{attr::axes(std::vector<int64_t>{0, 1})};
  CHECK(Infer{OpKind::Transpose, {a}, axes}.type() == tile(DType::F32, {32, 16}, pto::Vec));
  CHECK(Infer{OpKind::Transpose, {a, a}, axes}.type() == tile(DType::F32, {32, 16}, pto::Vec));
  Syms s;
  Type nd = tile(DType::F32, {2, 16, 32}, ir::kNoSpace, {k(2), Expr::min(k(16), s.S), k(32)});
  AttrMap last{attr::axes(std::vector<int64_t>{2, 1})};
  Type t = Infer{OpKind::TransposeView, {nd}, last}.type();
  CHECK(t.shape() == std::vector<int64_t>{2, 32, 16});
  CHECK(t.valid() == std::vector<Expr>{k(2), k(32), Expr::min(k(16), s.S)});
  AttrMap same{attr::axes(std::vector<int64_t>{1, 1})};
  OpError e = Infer{OpKind::Transpose, {a}, same}.error();
  CHECK(e.id == Diag::TransposeAxes);
  CHECK(e.message == "transpose swaps two distinct axes of a rank-2 tile, but 'axes' is [1, 1]; give two different axes "
                     "in [0, 2)");
  AttrMap out{attr::axes(std::vector<int64_t>{0, 2})};
  CHECK(Infer{OpKind::TransposeView, {a}, out}.error().id == Diag::TransposeAxes);
  CHECK(Infer{OpKind::Transpose, {a, tile(DType::F16, {16, 32}, pto::Vec)}, axes}.error().id == Diag::DTypeMismatch);
  CHECK(Infer{OpKind::Transpose, {a, tile(DType::F32, {16, 32}, pto::Mat)}, axes}.error().id == Diag::SpaceMismatch);
  CHECK(Infer{OpKind::TransposeView, {a, a}, axes}.error().id == Diag::IRVerify);
}

TEST_CASE("reshape and reinterpret_view") {
  Type a = tile(DType::F32, {2, 16, 32});
  CHECK(Infer{OpKind::Reshape, {a}, {}, tile(DType::F32, {32, 32})}.type() == tile(DType::F32, {32, 32}));
  OpError e = Infer{OpKind::Reshape, {a}, {}, tile(DType::F32, {16, 32})}.error();
  CHECK(e.id == Diag::ElementCount);
  CHECK(e.message == "reshape of [2, 16, 32] (1024 elements) to [16, 32] (512 elements) changes the element count; keep "
                     "the product of the shape");
  CHECK(Infer{OpKind::Reshape, {a}, {}, tile(DType::I32, {32, 32})}.error().id == Diag::DTypeMismatch);
  CHECK(Infer{OpKind::Reshape, {tile(DType::F32, {32, 32}, pto::Vec)}, {}, tile(DType::F32, {1024}, pto::Mat)}
            .error()
            .id == Diag::SpaceMismatch);
  CHECK(Infer{OpKind::ReinterpretView, {a}, {}, tile(DType::I32, {32, 32})}.type() == tile(DType::I32, {32, 32}));
  CHECK(Infer{OpKind::ReinterpretView, {a}, {}, tile(DType::F16, {32, 32})}.error().id == Diag::ElementCount);
}

TEST_CASE("slice and assemble") {
  Type a = tile(DType::F32, {32, 16});
  Type half = tile(DType::F32, {16, 16});
  CHECK(Infer{OpKind::Slice, {a}, offsets(ks({16, 0})), half}.type() == half);
  OpError e = Infer{OpKind::Slice, {a}, offsets(ks({17, 0})), half}.error();
  CHECK(e.id == Diag::OutOfBounds);
  CHECK(e.message == "slice region [16, 16] at offsets [17, 0] runs past the source tile extents [32, 16] on axis 0; "
                     "shrink the region or move it inside");
  CHECK(Infer{OpKind::Slice, {a}, offsets(ks({0})), half}.error().id == Diag::OffsetCount);
  CHECK(Infer{OpKind::Slice, {a}, offsets(ks({0, 0})), tile(DType::F32, {16})}.error().id == Diag::RankNotSupported);
  CHECK(Infer{OpKind::Assemble, {a, half}, offsets(ks({16, 0}))}.type() == a);
  e = Infer{OpKind::Assemble, {a, half}, offsets(ks({24, 0}))}.error();
  CHECK(e.id == Diag::OutOfBounds);
  CHECK(e.operand == 1);
  CHECK(Infer{OpKind::Assemble, {a, tile(DType::F32, {16})}, offsets(ks({0, 0}))}.error().id == Diag::RankNotSupported);
  CHECK(Infer{OpKind::Assemble, {a, tile(DType::F16, {16, 16})}, offsets(ks({0, 0}))}.error().id == Diag::DTypeMismatch);
}

TEST_CASE("set_valid_shape") {
  Syms s;
  Type a = tile(DType::F32, {32, 16});
  Type v = tile(DType::F32, {32, 16}, ir::kNoSpace, {Expr::min(k(32), s.S), k(16)});
  CHECK(Infer{OpKind::SetValidShape, {a}, {}, v}.type() == v);
  CHECK(Infer{OpKind::SetValidShape, {a}, {}, tile(DType::F16, {32, 16})}.error().id == Diag::DeclaredTypeChange);
  CHECK(Infer{OpKind::SetValidShape, {a}, {}, tile(DType::F32, {32, 16}, ir::kNoSpace, {s.S, k(16)})}.error().id ==
        Diag::ValidExtent);
}

TEST_CASE("tensor.view, const and index") {
  Syms s;
  Type t = tensor(DType::F32, {k(2), s.S, k(8)});
  CHECK(Infer{OpKind::TensorView, {t}, {}, tensor(DType::F32, {k(2) * s.S, k(8)})}.type().dims().size() == 2);
  CHECK(Infer{OpKind::TensorView, {t}, {}, tensor(DType::F32, {s.S, k(8)})}.error().id == Diag::ElementCount);
  CHECK(Infer{OpKind::TensorView, {t}, {}, tensor(DType::F16, {k(2) * s.S, k(8)})}.error().id == Diag::DTypeMismatch);
  AttrMap one{{"value", int64_t(1)}};
  AttrMap half{{"value", 0.5}};
  CHECK(Infer{OpKind::Const, {}, one, i32}.type() == i32);
  CHECK(Infer{OpKind::Const, {}, half, f32}.type() == f32);
  CHECK(Infer{OpKind::Const, {}, one, f32}.type() == f32);
  CHECK(Infer{OpKind::Const, {}, half, i32}.error().id == Diag::BadAttribute);
  CHECK(Infer{OpKind::Const, {}, {}, i32}.error().id == Diag::BadAttribute);
  AttrMap expr{{"value", s.S + k(1)}};
  CHECK(Infer{OpKind::IndexExpr, {}, expr, Type::index()}.type() == Type::index());
  CHECK(Infer{OpKind::IndexExpr, {}, expr, f32}.type() == f32);  // the integer's value as a float
  CHECK(Infer{OpKind::IndexExpr, {}, expr, tile(DType::F32, {16, 16}, pto::Vec)}.error().id == Diag::OperandKind);
  AttrMap wrongKind{{"value", int64_t(1)}};
  OpError e = Infer{OpKind::IndexExpr, {}, wrongKind, Type::index()}.error();
  CHECK(e.message == "attribute 'value' of arith.index must be an expression; write it as one");
}

TEST_CASE("verifyOp checks counts, attributes and the result type") {
  Module m;
  Function& f = m.addFunction("k", ir::KernelKind(pto::Kernel::Aiv));
  Op* create = f.body().create(OpKind::Create, {});
  Value* a = create->addResult(tile(DType::F32, {16, 16}, pto::Vec));
  CHECK(!verifyOp(*create));
  Op* exp = f.body().create(OpKind::Exp, {});
  exp->addOperand(a);
  exp->addResult(tile(DType::F32, {16, 16}));
  auto e = verifyOp(*exp);
  REQUIRE(e);
  CHECK(e->id == Diag::ResultTypeMismatch);
  exp->result()->setType(a->type());
  CHECK(!verifyOp(*exp));
  exp->addResult(a->type());
  e = verifyOp(*exp);
  REQUIRE(e);
  CHECK(e->message == "tile.exp has 2 results but the op defines 1; produce exactly that many");
  Op* loop = f.body().create(OpKind::For, {});
  loop->addRegion();
  CHECK(verifyOp(*loop)->id == Diag::BadAttribute);
  loop->set(attr::lb, k(0));
  loop->set(attr::ub, k(4));
  loop->set(attr::step, k(1));
  CHECK(!verifyOp(*loop));
  Op* branch = f.body().create(OpKind::If, {});
  branch->set(attr::cond, Expr::cmp(CmpKind::LT, k(0), k(1)));
  branch->addRegion();
  CHECK(verifyOp(*branch)->message == "scf.if has 1 regions but the op defines 2; give it exactly that many");
}
