// Checking and SSA lowering of the AST into the tile IR (internal to the frontend).
//
// One pass over each kernel does name resolution, kind/type checking and IR
// construction together. Integer and boolean expressions are never SSA values in
// the frontend: they are ir::Expr trees folded as they are built, so shapes and
// offsets stay symbolic. Tiles, tensors and float scalars are SSA values.
//
// SSA construction: a binding's current value lives in its Binding. Before a
// loop or branch is lowered, the variables it reassigns are found by a scan of
// the AST; they become iter_args/yields/results of scf.for or results of scf.if,
// and the binding is pointed at the block argument inside and the op result after.
//
// Error recovery: a failed expression yields a Poison value, and every consumer of
// Poison stays silent, so each independent error is reported exactly once.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "frontend/Ast.h"
#include "frontend/Frontend.h"
#include "ir/AccessPattern.h"
#include "ir/IR.h"
#include "ir/OpDefs.h"
#include "support/Diagnostics.h"
#include "support/Limits.h"
#include "support/Wording.h"

namespace tilec::frontend {

enum class ValKind : uint8_t {
  Poison,  // an error was reported already
  Void,    // the result of store(...)
  Int,     // integer ir::Expr (index-typed when materialized)
  Bool,    // boolean ir::Expr
  Float,   // compile-time float constant
  Scalar,  // SSA float scalar (a kernel parameter)
  Tile,
  Tensor,
  List,    // [a, b, ...]
  Pattern,  // an access pattern over a tensor (runtime sequences)
  Tiler,    // a tiler over a tensor: tile_at(t, i) is a pattern
  PartView,   // partview(t, [R, C]): t cut into a grid of slots, p[i, j] a slot (a tile)
  TileArray,  // tile_array(...): slots written one by one, then assembly(arr) is the tile
};
const char* valKindName(ValKind k);  // "a tile", "an integer", ...

struct Val {
  ValKind kind = ValKind::Poison;
  ir::Expr expr;               // Int, Bool
  double number = 0;           // Float
  ir::Value* value = nullptr;  // Scalar, Tile, Tensor
  std::vector<Val> elems;      // List
  std::shared_ptr<const ir::AccessPattern> pattern;  // Pattern (over the tensor `value`)
  std::shared_ptr<const ir::Tiler> tiler;            // Tiler (over the tensor `value`)
  std::vector<int64_t> grid;   // PartView (over the tile `value`), TileArray (`value` is the array so far)
  std::optional<SourceRange> assembledAt;  // TileArray: where assembly consumed it
  SourceRange range;           // the expression that produced it

  static Val poison(SourceRange r) { return make(ValKind::Poison, r); }
  static Val integer(ir::Expr e, SourceRange r);
  static Val boolean(ir::Expr e, SourceRange r);
  static Val floating(double d, SourceRange r);
  static Val ssa(ValKind k, ir::Value* v, SourceRange r);
  static Val make(ValKind k, SourceRange r);
  bool isPoison() const { return kind == ValKind::Poison; }
  std::optional<int64_t> constInt() const;  // Int with a constant value
};

enum class BindKind : uint8_t { Const, Let, Var, LoopVar, Param, Size };

struct Binding {
  std::string name;
  BindKind kind;
  SourceRange declRange;
  Val val;
  SourceRange assignedAt;  // the latest assignment, for carried-type errors
  SourceRange keywordRange = {};  // the `let` or `var` of a declaration, for fixes that change it
};

// Lexical scopes: a stack of frames owning their bindings, and for each name the stack
// of its visible bindings (innermost last), so a lookup is O(1) at any nesting depth.
class Scopes {
 public:
  void push() { frames_.emplace_back(); }
  void pop();
  Binding* lookup(const std::string& name);
  Binding* lookupInCurrent(const std::string& name);
  Binding& define(Binding b);
  // Every visible name, sorted, for spelling suggestions.
  std::vector<std::string> visibleNames() const;

 private:
  struct Visible {
    Binding* binding;
    size_t frame;
  };
  std::vector<std::vector<std::unique_ptr<Binding>>> frames_;
  std::unordered_map<std::string, std::vector<Visible>> visible_;
};


// An SSA operand of a tile op with the source range its argument came from, so
// an OpError about operand i points at the right argument.
struct Operand {
  ir::Value* value;
  SourceRange range;
};

struct BuiltinSig;

class Lowerer {
 public:
  // `kernel`: when not empty, the one kernel checked and lowered (see lower()).
  Lowerer(DiagnosticEngine& diags, const ir::TargetModel& target, const Limits& limits,
          const std::map<std::string, const ast::ConstDecl*>& defines, LowerObserver* observer = nullptr,
          std::string kernel = {})
      : diags_(diags), target_(target), limits_(limits), defines_(defines), observer_(observer),
        kernel_(std::move(kernel)) {}
  std::unique_ptr<ir::Module> lowerModule(const ast::Module& m);

  // ---- used by the built-in handlers (LowerBuiltins.cpp) ----
  struct CallArgs {
    const ast::Call& call;
    std::vector<const ast::Arg*> positional;
    std::map<std::string, const ast::Arg*> keywords;
    const ast::Expr& pos(size_t i) const { return *positional[i]->value; }
    const ast::Expr* kw(const std::string& k) const;
  };
  using Handler = Val (Lowerer::*)(ir::OpKind kind, const CallArgs& args);

 private:
  // LowerModule.cpp
  void lowerConst(const ast::ConstDecl& c, bool fileScope);
  Val constantValue(const ast::ConstDecl& c);
  std::optional<Val> definedValue(const std::string& name, ValKind declared, SourceRange declaredAt);
  void lowerKernel(const ast::Kernel& k, ir::Module& module);
  void requirePositive(const ir::Function& fn, const ast::Param& p, size_t axis, const ir::Expr& dim, SourceRange at,
                       std::vector<ir::Expr>& required);
  void defineParams(const ast::Kernel& k, ir::Function& fn);
  void define(const std::string& name, BindKind kind, SourceRange at, Val v);
  // Gives `v` the name the author wrote at `at`: its printed name and its origin (what
  // messages call it).
  static void nameValue(ir::Value* v, const std::string& name, SourceRange at);
  Diagnostic& error(Diag id, SourceRange at, std::string message);
  void noteDefinesIn(SourceRange at, Diagnostic& d);
  void reportUnusedDefines();
  std::string text(SourceRange r) const;
  std::string typeText(const ir::Type& t) const;

  // LowerStmt.cpp
  void lowerBlock(const ast::Block& b);
  // Whether a statement after the current one in its block (nested ones included) assigns
  // `name` without declaring it first.
  bool assignedLater(const std::string& name) const;
  // `base` with the first number from 2 on that makes a name neither visible nor a built-in.
  std::string freshName(const std::string& base);
  void discardedTile(const ast::Expr& e, const ir::Type& result);
  void undeclaredAssign(const ast::Assign& a);
  void lowerStmt(const ast::Stmt& s);
  void lowerBind(const ast::Bind& b);
  void lowerAssign(const ast::Assign& a);
  void lowerFor(const ast::For& f);
  struct LoweredLoop {
    ir::Op* op;
    std::vector<ir::Value*> next;
  };
  void lowerIf(const ast::If& i);
  void lowerElse(const ast::Stmt& s);
  void checkAnnotation(const ast::TypeAnn& t, const Val& v);
  struct Carried;
  std::vector<Carried> carriedBindings(const std::vector<const ast::Stmt*>& stmts, SourceRange construct);
  ir::Type carriedType(const Val& v) const;
  // `v`, a value carrying `c` into, through or out of a loop or branch, named after it.
  static ir::Value* carriedValue(ir::Value* v, const Carried& c);
  Val valueOfArg(const Val& like, ir::Value* v, SourceRange r) const;
  ir::Value* yieldValue(const Carried& c, SourceRange at);
  void checkCarriedType(const Carried& c, ir::Value* v, const ir::Type& expected, SourceRange at,
                        const std::string& expectedWhere, const std::string& actualWhere);
  ir::LoopMode loopMode(const ast::For& f);
  std::optional<int64_t> bufferingClause(const ast::For& f);
  // Counts the parallel loops around the statement being lowered.
  struct ParallelScope {
    ParallelScope(Lowerer& l, bool parallel) : l_(l), parallel_(parallel) { l_.parallelDepth_ += parallel_; }
    ~ParallelScope() { l_.parallelDepth_ -= parallel_; }
    Lowerer& l_;
    bool parallel_;
  };
  int parallelDepth_ = 0;
  LoweredLoop buildLoop(const ast::For& f, ir::LoopMode mode, const std::vector<Carried>& carried, const std::vector<ir::Value*>& inits,
                        const std::optional<ir::Expr>& lb, const std::optional<ir::Expr>& ub,
                        const std::optional<ir::Expr>& step);
  std::optional<ir::Type> narrowedSeed(const Carried& c, const ir::Value* next, const ir::Op& loop) const;

  // LowerExpr.cpp
  Val eval(const ast::Expr& e);
  Val evalName(const ast::NameRef& n);
  Val evalUnary(const ast::Unary& u);
  Val evalBinary(const ast::Binary& b);
  Val binary(ast::BinaryOp op, Val lhs, Val rhs, SourceRange opRange, SourceRange whole);
  Val intBinary(ast::BinaryOp op, const Val& lhs, const Val& rhs, SourceRange opRange, SourceRange whole);
  Val floatBinary(ast::BinaryOp op, const Val& lhs, const Val& rhs, SourceRange whole);
  Val tileBinary(ast::BinaryOp op, const Val& lhs, const Val& rhs, SourceRange whole);
  Val combineTiles(ir::OpKind kind, const Val& lhs, const Val& rhs, SourceRange whole);
  Val broadcastError(const Val& lhs, const Val& rhs, const std::string& why, const std::string& fix,
                     SourceRange whole);
  Val tileCompare(ast::BinaryOp op, const Val& lhs, const Val& rhs, SourceRange whole);
  Val tileBitwise(ast::BinaryOp op, const Val& lhs, const Val& rhs, SourceRange whole);
  Val bitNot(const Val& x, SourceRange whole);
  bool literalFits(const Val& scalar, const Val& tile, const std::string& role, const std::string& fix);
  std::optional<ir::Expr> asInt(const Val& v, const char* role);
  std::optional<ir::Expr> asBool(const Val& v, const char* role);
  ir::Value* asTile(const Val& v, const char* role);
  ir::Value* asTensor(const Val& v, const char* role);
  std::optional<int64_t> constInt(const Val& v, const char* role);
  ir::Value* scalarOperand(const Val& v, ir::DType dtype, const char* role);
  std::optional<bool> constFlag(const ast::Expr* e, const char* key);
  ir::Value* materialize(const ir::Expr& e, const ir::Type& type, SourceRange at);
  Val readElement(const ast::Index& x, const Val& tensor);  // `ids[t]` of a tensor: tensor.read
  ir::Value* constant(const Val& v, ir::DType dtype, SourceRange at);
  Val tileOp(ir::OpKind kind, const std::vector<Operand>& operands, ir::AttrMap attrs, ir::Type declared,
             SourceRange at);
  void reportOpError(const ir::OpError& err, const std::vector<Operand>& operands, SourceRange at);

  // LowerBuiltins.cpp
  Val evalCall(const ast::Call& c);
  std::optional<CallArgs> checkCallArgs(const ast::Call& c, const BuiltinSig& sig);
  std::optional<std::vector<int64_t>> staticShape(const ast::Expr& e, const char* what);
  std::optional<std::vector<int64_t>> staticShapeOf(const Val& list, const char* what);
  bool isList(const Val& v, const char* what, const char* example);
  std::optional<std::vector<ir::Expr>> intList(const ast::Expr& e, const char* what);
  std::optional<std::vector<ir::Expr>> validList(const ast::Expr* e, const std::vector<int64_t>& shape);
  std::optional<ir::SpaceId> spaceArg(const ast::Expr* e);
  // `layout = NAME`: the named layout (nullopt inside when not given), or nullopt after an error.
  using LayoutChoice = std::optional<ir::TileLayout>;
  std::optional<LayoutChoice> layoutArg(const ast::Expr* e);
  std::optional<ir::SpaceId> spaceNamed(const std::string& name, SourceRange at);
  Val callLoad(ir::OpKind, const CallArgs& a);
  Val callStore(ir::OpKind, const CallArgs& a);
  Val callCreate(ir::OpKind, const CallArgs& a);
  Val callFull(ir::OpKind, const CallArgs& a);
  Val callIota(ir::OpKind, const CallArgs& a);
  Val callCast(ir::OpKind, const CallArgs& a);
  Val callUnary(ir::OpKind, const CallArgs& a);
  Val callBinaryTile(ir::OpKind, const CallArgs& a);
  Val callMatmulAcc(ir::OpKind, const CallArgs& a);
  Val callTranspose(ir::OpKind, const CallArgs& a);
  Val callReshape(ir::OpKind, const CallArgs& a);
  Val callReinterpret(ir::OpKind, const CallArgs& a);
  Val callSlice(ir::OpKind, const CallArgs& a);
  Val callAssemble(ir::OpKind, const CallArgs& a);
  Val callMove(ir::OpKind, const CallArgs& a);
  Val callSetValid(ir::OpKind, const CallArgs& a);
  Val callMinMax(ir::OpKind, const CallArgs& a);
  Val callCeilDiv(ir::OpKind, const CallArgs& a);
  Val callLaunchQuery(ir::OpKind kind, const CallArgs& a);
  Val callWhere(ir::OpKind, const CallArgs& a);
  Val callFmod(ir::OpKind, const CallArgs& a);
  Val fmodDividendError(const Val& lhs, const Val& rhs, SourceRange whole);
  Val callLRelu(ir::OpKind, const CallArgs& a);
  Val callTri(ir::OpKind, const CallArgs& a);
  Val callTopk(ir::OpKind, const CallArgs& a);
  Val callScan(ir::OpKind, const CallArgs& a);
  Val callGather(ir::OpKind, const CallArgs& a);
  ir::Value* topkKeys(ir::Value* x, SourceRange at);

  // LowerRegions.cpp: partition views and tile arrays
  Val evalIndex(const ast::Index& x);
  void lowerSlotWrite(const ast::Assign& a, Binding& b);
  std::optional<std::vector<ir::Expr>> slotIndex(const std::vector<ast::ExprPtr>& indices, SourceRange at);
  std::optional<std::vector<int64_t>> gridArg(const ast::Expr& e, const char* what);
  bool usableArray(const Binding& b, SourceRange at);
  Val callPartview(ir::OpKind, const CallArgs& a);
  Val callTileArray(ir::OpKind, const CallArgs& a);
  // `scope = local | shared`: whether the array is in the target's Shared space (nullopt
  // after an error); `pes = 1100`: the PEs that write it or read its assembly.
  std::optional<bool> sharedScope(const CallArgs& a, bool spaceGiven);
  std::optional<std::string> peMaskArg(const ast::Expr* e);
  Val callAssembly(ir::OpKind, const CallArgs& a);

  // LowerSequence.cpp: runtime sequences
  bool inSequence(const CallArgs& a);
  std::optional<ir::AccessPattern> patternOf(const Val& v, ir::Value*& tensor, const char* role);
  Val tensorSlice(const CallArgs& a, const Val& tensor);
  std::optional<std::vector<ir::Expr>> channelArgs(const CallArgs& a);
  bool transferOptions(const CallArgs& a, ir::AttrMap& attrs);
  Val callTap(ir::OpKind, const CallArgs& a);
  Val callTiler(ir::OpKind, const CallArgs& a);
  void requireStep(const Val& tiler, const ir::Expr& k, const CallArgs& a);
  bool stepUnrolled(const ir::Expr& k, const Val& tiler, const CallArgs& a);
  bool insideBranch() const;  // whether the op being lowered is inside an `if`
  Val callTileAt(ir::OpKind, const CallArgs& a);
  Val callTileCount(ir::OpKind, const CallArgs& a);
  Val callTransfer(ir::OpKind, const CallArgs& a);
  Val callWait(ir::OpKind, const CallArgs& a);
  Val callRaw(const ast::Call& c, const ir::RawOpDesc& desc);

  friend const std::vector<BuiltinSig>& builtins();

  DiagnosticEngine& diags_;
  const ir::TargetModel& target_;
  const Limits& limits_;
  const std::map<std::string, const ast::ConstDecl*>& defines_;
  LowerObserver* observer_;  // may be null
  std::string kernel_;       // empty: every kernel
  std::map<std::string, Val> definedValues_;  // each -D evaluated once, when first used
  std::set<std::string> skippedSizes_;        // the dyn sizes of the kernels --kernel skips
  std::map<std::string, SourceRange> definable_;  // every file constant and dyn size a -D could set
  Scopes scopes_;
  // The statement being lowered: its block and its index there.
  struct BlockPosition {
    const ast::Block* block = nullptr;
    size_t index = 0;
  };
  BlockPosition position_;
  ir::Function* fn_ = nullptr;
  ir::Block* block_ = nullptr;  // where new ops go
  std::map<std::string, SourceRange> kernelNames_;
};

// One built-in function: its name, the op it builds (when there is one), its
// positional arity, keyword arguments, whether it takes `<dtype>`, and the handler.
struct BuiltinSig {
  const char* name;
  ir::OpKind kind;
  unsigned minArgs, maxArgs;
  std::vector<const char*> keywords;
  bool takesDType;
  std::string usage;  // shown when the call is malformed
  Lowerer::Handler handler;
};
const std::vector<BuiltinSig>& builtins();
const BuiltinSig* findBuiltin(const std::string& name);

}  // namespace tilec::frontend
