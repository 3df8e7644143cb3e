// The typed AST of a .tile file. Built from the ANTLR parse tree by AstBuilder;
// consumed by the lowering to IR and by printAst. Every node carries the source
// range it was parsed from. Nodes are plain data: semantic checks (names, kinds,
// shapes) belong to the lowering, which sees the whole scope.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "ir/IR.h"
#include "support/Source.h"

namespace tilec::ast {

struct Node {
  SourceRange range;
};

// ---------------------------------------------------------------- expressions

enum class ExprKind : uint8_t { Int, Float, Bool, Name, Unary, Binary, Call, List, Index };
enum class UnaryOp : uint8_t { Neg, Not, BitNot };
// The bitwise operators come last (LowerExpr's isBitwise relies on it).
enum class BinaryOp : uint8_t {
  Add, Sub, Mul, Div, Mod, Eq, Ne, Lt, Le, Gt, Ge, And, Or,
  BitAnd, BitOr, BitXor, Shl, Shr
};
const char* spelling(UnaryOp op);   // "-", "!", "~"
const char* spelling(BinaryOp op);  // "+", "==", "&&", ...

struct Expr : Node {
  explicit Expr(ExprKind k) : kind(k) {}
  virtual ~Expr() = default;
  const ExprKind kind;
};
using ExprPtr = std::unique_ptr<Expr>;

struct IntLit final : Expr {
  static constexpr ExprKind kKind = ExprKind::Int;
  IntLit() : Expr(kKind) {}
  int64_t value = 0;
};

struct FloatLit final : Expr {
  static constexpr ExprKind kKind = ExprKind::Float;
  FloatLit() : Expr(kKind) {}
  double value = 0;
  std::string text;  // as written, for printing
};

struct BoolLit final : Expr {
  static constexpr ExprKind kKind = ExprKind::Bool;
  BoolLit() : Expr(kKind) {}
  bool value = false;
};

struct NameRef final : Expr {
  static constexpr ExprKind kKind = ExprKind::Name;
  NameRef() : Expr(kKind) {}
  std::string name;
};

struct Unary final : Expr {
  static constexpr ExprKind kKind = ExprKind::Unary;
  Unary() : Expr(kKind) {}
  UnaryOp op = UnaryOp::Neg;
  ExprPtr operand;
};

struct Binary final : Expr {
  static constexpr ExprKind kKind = ExprKind::Binary;
  Binary() : Expr(kKind) {}
  BinaryOp op = BinaryOp::Add;
  SourceRange opRange;
  ExprPtr lhs, rhs;
};

// One call argument: positional when `keyword` is empty.
struct Arg {
  std::string keyword;
  SourceRange keywordRange;
  ExprPtr value;
  SourceRange range;  // the whole argument, keyword included
};

// A call of a built-in: `load(x, [0, 0], [16, 16], space = mat)`, `cast<f32>(t)`.
struct Call final : Expr {
  static constexpr ExprKind kKind = ExprKind::Call;
  Call() : Expr(kKind) {}
  std::string callee;
  SourceRange calleeRange;
  std::optional<ir::DType> typeArg;  // the `<f32>` of `cast<f32>(...)`
  SourceRange typeArgRange;
  std::vector<Arg> args;
};

// `[a, b, c]`: offsets, shapes, valid extents.
struct List final : Expr {
  static constexpr ExprKind kKind = ExprKind::List;
  List() : Expr(kKind) {}
  std::vector<ExprPtr> elements;
};

// `p[i, j]`: a slot of a partition view or tile array.
struct Index final : Expr {
  static constexpr ExprKind kKind = ExprKind::Index;
  Index() : Expr(kKind) {}
  std::string name;
  SourceRange nameRange;
  std::vector<ExprPtr> indices;
};

template <class T>
const T* dynCast(const Expr* e) {
  return e && e->kind == T::kKind ? static_cast<const T*>(e) : nullptr;
}

// ---------------------------------------------------------------- types

// An optional binding annotation: `f32`, `index` or `tile<f32, [16, 16], vec, valid = [r, 16]>`.
struct TypeAnn : Node {
  enum class Kind : uint8_t { Scalar, Index, Tile };
  Kind kind = Kind::Scalar;
  ir::DType dtype = ir::DType::F32;  // Scalar and Tile
  std::vector<ExprPtr> shape;        // Tile
  std::vector<ExprPtr> valid;        // Tile; empty when not written
  std::optional<std::string> space;  // Tile
  SourceRange spaceRange;
};

// ---------------------------------------------------------------- statements

enum class StmtKind : uint8_t { Block, Bind, Assign, Expr, For, If, Const };

struct Stmt : Node {
  explicit Stmt(StmtKind k) : kind(k) {}
  virtual ~Stmt() = default;
  const StmtKind kind;
};
using StmtPtr = std::unique_ptr<Stmt>;

struct Block final : Stmt {
  static constexpr StmtKind kKind = StmtKind::Block;
  Block() : Stmt(kKind) {}
  std::vector<StmtPtr> stmts;
};

// `let x = e;` (immutable) or `var x = e;` (reassignable).
struct Bind final : Stmt {
  static constexpr StmtKind kKind = StmtKind::Bind;
  Bind() : Stmt(kKind) {}
  bool isMutable = false;
  std::string name;
  SourceRange nameRange;
  std::unique_ptr<TypeAnn> type;  // may be null
  ExprPtr init;
};

// `x = e;`, a compound `x += e;` (then `compound` is the operator), or a slot write
// `arr[i, j] = e;` (then `indices` holds i and j).
struct Assign final : Stmt {
  static constexpr StmtKind kKind = StmtKind::Assign;
  Assign() : Stmt(kKind) {}
  std::string name;
  SourceRange nameRange;
  std::vector<ExprPtr> indices;
  std::optional<BinaryOp> compound;
  SourceRange opRange;
  ExprPtr value;
};

struct ExprStmt final : Stmt {
  static constexpr StmtKind kKind = StmtKind::Expr;
  ExprStmt() : Stmt(kKind) {}
  ExprPtr expr;
};

using ir::LoopMode;  // the IR's enum and its one name table (ir::loopModeName)

// `[unroll|parallel[(schedule)]] for i in lb .. ub [step s] [clause(value)] { ... }`.
struct For final : Stmt {
  static constexpr StmtKind kKind = StmtKind::For;
  For() : Stmt(kKind) {}
  LoopMode mode = LoopMode::Serial;
  std::string schedule;  // as written in `parallel(...)`; empty: none given
  SourceRange scheduleRange;
  std::string clause;    // the name of `buffers(2)` after the bounds; empty: none given
  SourceRange clauseRange;
  ExprPtr clauseValue;
  std::string var;
  SourceRange varRange;
  ExprPtr lb, ub, step;  // step may be null (1)
  std::unique_ptr<Block> body;
};

// `if c { ... } else if d { ... } else { ... }`: `elseStmt` is null, a Block or an If.
struct If final : Stmt {
  static constexpr StmtKind kKind = StmtKind::If;
  If() : Stmt(kKind) {}
  ExprPtr cond;
  std::unique_ptr<Block> thenBlock;
  StmtPtr elseStmt;
};

// `const N = 16;` at file level or inside a kernel.
struct ConstDecl final : Stmt {
  static constexpr StmtKind kKind = StmtKind::Const;
  ConstDecl() : Stmt(kKind) {}
  std::string name;
  SourceRange nameRange;
  ExprPtr value;
};

template <class T>
const T* dynCast(const Stmt* s) {
  return s && s->kind == T::kKind ? static_cast<const T*>(s) : nullptr;
}

// ---------------------------------------------------------------- declarations

// `x: in bf16[S, 512]` (tensor: direction and dims) or `alpha: f32` (scalar).
struct Param : Node {
  std::string name;
  SourceRange nameRange;
  ir::ParamDir dir = ir::ParamDir::None;
  ir::DType dtype = ir::DType::F32;
  bool isTensor = false;
  std::vector<ExprPtr> dims;
};

// `S: dyn` in a where clause: a size known only at run time.
struct SymbolDecl : Node {
  std::string name;
};

struct Kernel : Node {
  std::string kind;  // as written (`aiv`); empty when the kernel names none
  SourceRange kindRange;
  std::string name;
  SourceRange nameRange;
  std::vector<Param> params;
  std::vector<SymbolDecl> symbols;
  std::unique_ptr<Block> body;
};

using TopDecl = std::variant<std::unique_ptr<ConstDecl>, std::unique_ptr<Kernel>>;

// `import "common.tile";`: `range` covers the declaration, `pathRange` the string.
struct Import : Node {
  std::string path;      // as written, escapes decoded
  SourceRange pathRange;
  FileId resolved = kNoFile;  // the file it named, once parseProgram found it
};

// One file's declarations, or, after parseProgram, a whole program: the declarations of
// every imported file (each once, imported before importer) and then the root file's.
struct Module {
  FileId file = kNoFile;             // the root file
  std::vector<TopDecl> decls;        // in program order
  std::vector<Import> imports;       // every import declaration, of every file
  std::vector<FileId> files;         // every file of the program, in declaration order
};

}  // namespace tilec::ast
