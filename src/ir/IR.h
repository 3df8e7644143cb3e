// The SSA tile IR: a Module of Functions; a Function owns one Block; ops with
// regions (scf.for, scf.if) own Regions of exactly one Block each. Values are
// block arguments or op results. Structured control flow only: there are no
// branches, so dominance is "defined earlier in an enclosing block".
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ir/Expr.h"
#include "ir/TargetModel.h"
#include "ir/Type.h"
#include "support/Source.h"

namespace tilec::ir {

enum class OpKind : uint16_t {
#define TILEC_OP(E, ...) E,
#include "ir/Ops.def"
#undef TILEC_OP
};
constexpr size_t kNumOpKinds = 0
#define TILEC_OP(E, ...) +1
#include "ir/Ops.def"
#undef TILEC_OP
    ;

class Op;
class Block;
class Function;

struct Use {
  Op* user;
  unsigned index;
};

class Value {
 public:
  const Type& type() const { return type_; }
  void setType(Type t) { type_ = std::move(t); }
  // Name hint from the source ("acc", "x") or made by a pass ("acc_mm0"); the printer
  // makes names unique. Messages name a value by its origin instead (ir/Describe.h).
  const std::string& name() const { return name_; }
  void setName(std::string n) { name_ = std::move(n); }
  // The source text this value stands for: the name the author gave it (a let, var,
  // parameter or loop variable, or %x in .tir), the value a pass made it from (its
  // origin), or else the construct of its defining op; invalid when there is none.
  SourceRange origin() const;
  void setOrigin(SourceRange r) { origin_ = r; }
  uint32_t id() const { return id_; }                 // unique and increasing within a Function
  Op* definingOp() const { return def_; }             // null for block arguments
  Block* ownerBlock() const { return block_; }        // for block arguments
  Block* block() const;                               // where it is defined: its op's block, or ownerBlock()
  Function* function() const;                         // the function it belongs to, or null
  unsigned index() const { return index_; }           // result or argument number
  const std::vector<Use>& uses() const { return uses_; }
  bool hasUses() const { return !uses_.empty(); }
  // Every operand use, and for scalars every mention inside an expression (attributes,
  // valid extents, tensor dims) in the function, now refers to `other`. O(uses) for tiles
  // and tensors; one walk over the function for scalars.
  void replaceAllUsesWith(Value* other);

 private:
  friend class Op;
  friend class Block;
  friend class Function;
  Type type_;
  std::string name_;
  uint32_t id_ = 0;
  unsigned index_ = 0;
  SourceRange origin_;
  Op* def_ = nullptr;
  Block* block_ = nullptr;
  std::vector<Use> uses_;
};

// Enumerated attribute values, each with one name table (IR.cpp); the .tir text and the
// .tile keywords spell them by these names.
// Parallel loops split their iterations over the launch's blocks: Parallel in contiguous
// runs (block b takes the b-th of block_num nearly equal runs), ParallelCyclic round-robin
// (iteration k goes to block k mod block_num).
enum class LoopMode : uint8_t { Serial, Unroll, Parallel, ParallelCyclic };
inline bool isParallel(LoopMode m) { return m == LoopMode::Parallel || m == LoopMode::ParallelCyclic; }
// The most iterations a serial loop's `buffers(N)` (attribute `buffering`) may run at once.
constexpr int64_t kMaxLoopBuffers = 4;
enum class RoundMode : uint8_t { CastRint, Round, Rint, Floor, Ceil, Trunc, Odd, None };
// Where a slot write falls in its tile array's construction (region.insert).
enum class RegionPhase : uint8_t { Init, Middle, Last, InitLast };
// What a prefix scan (tile.scan) combines: cumsum, cummax, cummin.
enum class ScanKind : uint8_t { Add, Max, Min };
const char* loopModeName(LoopMode m);    // "serial", ...
const char* roundModeName(RoundMode m);  // "cast_rint", ...
const char* regionPhaseName(RegionPhase p);  // "init", "middle", "last", "init_last"
const char* cmpKindName(CmpKind k);          // a tile comparison's predicate: "eq", ..., "ge"
const char* scanKindName(ScanKind k);        // "add", "max", "min"
std::optional<LoopMode> parseLoopMode(std::string_view s);
std::optional<RoundMode> parseRoundMode(std::string_view s);
std::optional<RegionPhase> parseRegionPhase(std::string_view s);
std::optional<CmpKind> parseCmpKind(std::string_view s);
std::optional<ScanKind> parseScanKind(std::string_view s);
std::string loopModeList();   // "serial, unroll or parallel", for messages
std::string roundModeList();  // "cast_rint, round, ... or none"
std::string regionPhaseList();  // "init, middle, last or init_last"
std::string cmpKindList();      // "eq, ne, lt, le, gt or ge"
std::string scanKindList();     // "add, max or min"

// A type as an attribute value, held by a shared pointer: a Type is large and rare in
// attributes, and inline it would make every attribute as large.
class TypeAttr {
 public:
  TypeAttr(Type t) : type_(std::make_shared<const Type>(std::move(t))) {}  // NOLINT: implicit on purpose
  const Type& type() const { return *type_; }
  bool operator==(const TypeAttr& o) const { return type() == o.type(); }

 private:
  std::shared_ptr<const Type> type_;
};

// What an attribute holds (its payload's alternative of AttrValue); IntOrFloat is either
// number. Attrs.def gives every attribute its kind.
enum class AttrKind : uint8_t {
  Int, Float, Bool, String, Expr, ExprList, IntList, Type, IntOrFloat, LoopMode, RoundMode, RegionPhase, Cmp, Scan
};
const char* attrKindName(AttrKind k);  // "integer", "expression list", ...

// Attribute payloads. Lists of Expr carry offsets/shapes.
using AttrValue = std::variant<int64_t, double, bool, std::string, Expr, std::vector<Expr>,
                               std::vector<int64_t>, TypeAttr, LoopMode, RoundMode, RegionPhase, CmpKind,
                               ScanKind>;

// The attributes of one op: a few per op, so a vector sorted by key (one allocation, and
// iteration in key order, which keeps printing deterministic) with the part of std::map's
// interface the compiler uses. Keys are views of one stored copy per distinct key (the
// Attrs.def keys, else a copy made once): a kernel has 10^5 ops and a few distinct keys.
class AttrMap {
 public:
  using value_type = std::pair<std::string_view, AttrValue>;
  using iterator = std::vector<value_type>::iterator;
  using const_iterator = std::vector<value_type>::const_iterator;

  AttrMap() = default;
  AttrMap(std::initializer_list<value_type> items);

  iterator begin() { return items_.begin(); }
  iterator end() { return items_.end(); }
  const_iterator begin() const { return items_.begin(); }
  const_iterator end() const { return items_.end(); }
  bool empty() const { return items_.empty(); }
  size_t size() const { return items_.size(); }

  iterator find(std::string_view key);
  const_iterator find(std::string_view key) const;
  size_t count(std::string_view key) const { return find(key) != end() ? 1 : 0; }
  AttrValue& operator[](std::string_view key);  // a default value when absent
  const AttrValue& at(std::string_view key) const;  // std::out_of_range when absent
  size_t erase(std::string_view key);

 private:
  iterator lowerBound(std::string_view key);  // the first item not ordered before `key`
  std::vector<value_type> items_;
};

// The C++ type an attribute of kind K holds (IntOrFloat: the whole AttrValue, either number).
template <AttrKind K> struct AttrPayloadOf { using type = AttrValue; };
template <> struct AttrPayloadOf<AttrKind::Int> { using type = int64_t; };
template <> struct AttrPayloadOf<AttrKind::Float> { using type = double; };
template <> struct AttrPayloadOf<AttrKind::Bool> { using type = bool; };
template <> struct AttrPayloadOf<AttrKind::String> { using type = std::string; };
template <> struct AttrPayloadOf<AttrKind::Expr> { using type = Expr; };
template <> struct AttrPayloadOf<AttrKind::ExprList> { using type = std::vector<Expr>; };
template <> struct AttrPayloadOf<AttrKind::IntList> { using type = std::vector<int64_t>; };
template <> struct AttrPayloadOf<AttrKind::Type> { using type = TypeAttr; };
template <> struct AttrPayloadOf<AttrKind::LoopMode> { using type = LoopMode; };
template <> struct AttrPayloadOf<AttrKind::RoundMode> { using type = RoundMode; };
template <> struct AttrPayloadOf<AttrKind::RegionPhase> { using type = RegionPhase; };
template <> struct AttrPayloadOf<AttrKind::Cmp> { using type = CmpKind; };
template <> struct AttrPayloadOf<AttrKind::Scan> { using type = ScanKind; };

// An attribute as code names it (ir::attr::offsets), typed by its kind: Op::get/find/set
// take one, and calling one makes an entry of an op's attributes: {attr::offsets(xs)}.
template <AttrKind K> struct AttrKey {
  using Payload = typename AttrPayloadOf<K>::type;
  static constexpr AttrKind kind = K;
  const char* key;
  AttrMap::value_type operator()(Payload v) const { return {key, AttrValue(std::move(v))}; }
};

// Every attribute of Attrs.def.
namespace attr {
#define TILEC_ATTR(NAME, KEY, KIND) inline constexpr AttrKey<AttrKind::KIND> NAME{KEY};
#include "ir/Attrs.def"
#undef TILEC_ATTR
}  // namespace attr

class Region {
 public:
  Block& block() { return *block_; }
  const Block& block() const { return *block_; }
  Op* parentOp() const { return parent_; }

 private:
  friend class Op;
  std::unique_ptr<Block> block_;
  Op* parent_ = nullptr;
};

class Op {
 public:
  ~Op();
  OpKind kind() const { return kind_; }
  const char* name() const;
  SourceRange loc() const { return loc_; }
  void setLoc(SourceRange r) { loc_ = r; }

  // Operands
  unsigned numOperands() const { return unsigned(operands_.size()); }
  Value* operand(unsigned i) const { return operands_[i]; }
  const std::vector<Value*>& operands() const { return operands_; }
  void setOperand(unsigned i, Value* v);
  void addOperand(Value* v);
  void setOperands(const std::vector<Value*>& vs);

  // Results
  unsigned numResults() const { return unsigned(results_.size()); }
  Value* result(unsigned i = 0) const { return results_[i].get(); }
  std::vector<Value*> results() const;
  Value* addResult(Type t, std::string name = {});

  // Attributes, by their typed names (ir::attr). attrs() is the whole map, for code that
  // handles every attribute alike (printing, parsing, cloning, verifying).
  const AttrMap& attrs() const { return attrs_; }
  AttrMap& attrs() { return attrs_; }
  // The attribute, or null when the op does not carry it.
  template <AttrKind K> const typename AttrKey<K>::Payload* find(AttrKey<K> a) const {
    auto it = attrs_.find(a.key);
    if (it == attrs_.end()) return nullptr;
    if constexpr (K == AttrKind::IntOrFloat) return &it->second;
    else return std::get_if<typename AttrKey<K>::Payload>(&it->second);
  }
  // A required attribute (verifyOp checks that it is there): an internal error otherwise.
  template <AttrKind K> const typename AttrKey<K>::Payload& get(AttrKey<K> a) const {
    if (const auto* v = find(a)) return *v;
    missingAttr(a.key);
  }
  template <AttrKind K> bool has(AttrKey<K> a) const { return find(a) != nullptr; }
  template <AttrKind K> void set(AttrKey<K> a, typename AttrKey<K>::Payload v) {
    attrs_[a.key] = AttrValue(std::move(v));
  }
  template <AttrKind K> void remove(AttrKey<K> a) { attrs_.erase(a.key); }

  // Regions
  unsigned numRegions() const { return unsigned(regions_.size()); }
  Region& region(unsigned i) { return *regions_[i]; }
  const Region& region(unsigned i) const { return *regions_[i]; }
  Block& body(unsigned i = 0) { return regions_[i]->block(); }
  const Block& body(unsigned i = 0) const { return regions_[i]->block(); }
  Region& addRegion();

  Block* parentBlock() const { return parent_; }
  Op* nextOp() const;    // the op after this one in its block, or null
  Op* parentOp() const;  // the op whose region contains this op, or null at function level
  Function* function() const;

  // Pre-order walk over this op and every nested op.
  void walk(const std::function<void(Op&)>& f);

 private:
  friend class Block;
  friend class Function;
  [[noreturn]] void missingAttr(const char* key) const;
  Op(Function& fn, OpKind k, SourceRange loc) : fn_(&fn), kind_(k), loc_(loc) {}
  Function* fn_;
  OpKind kind_;
  SourceRange loc_;
  std::vector<Value*> operands_;
  std::vector<std::unique_ptr<Value>> results_;
  AttrMap attrs_;
  std::vector<std::unique_ptr<Region>> regions_;
  Block* parent_ = nullptr;
  std::list<std::unique_ptr<Op>>::iterator self_;
};

class Block {
 public:
  using OpList = std::list<std::unique_ptr<Op>>;
  // Ops die last-first, so every user goes before the values it uses.
  ~Block() {
    while (!ops_.empty()) ops_.pop_back();
  }
  const std::vector<std::unique_ptr<Value>>& args() const { return args_; }
  Value* arg(unsigned i) const { return args_[i].get(); }
  unsigned numArgs() const { return unsigned(args_.size()); }
  Value* addArg(Type t, std::string name = {});

  OpList& ops() { return ops_; }
  const OpList& ops() const { return ops_; }
  bool empty() const { return ops_.empty(); }
  Op* back() const { return ops_.empty() ? nullptr : ops_.back().get(); }
  Op* terminator() const;  // the trailing scf.yield, if any

  // Creates an op at the end of the block or before `before` (which must be in this block).
  Op* create(OpKind k, SourceRange loc, Op* before = nullptr);
  // Unlinks `op` (which must have no remaining uses of its results) and destroys it.
  void erase(Op* op);
  // Moves `op` (from any block) to just before `before` in this block (end if null).
  void moveHere(Op* op, Op* before = nullptr);

  Region* parentRegion() const { return region_; }
  Op* parentOp() const { return region_ ? region_->parentOp() : nullptr; }
  Function* function() const { return fn_; }

 private:
  friend class Op;
  friend class Function;
  Function* fn_ = nullptr;
  Region* region_ = nullptr;
  std::vector<std::unique_ptr<Value>> args_;
  OpList ops_;
};

enum class ParamDir : uint8_t { None, In, Out, InOut };  // None: scalar and size parameters
const char* paramDirName(ParamDir d);

class Function {
 public:
  Function(class Module& module, std::string name, KernelKind kind);
  // Ops destroyed with their function skip the use bookkeeping: otherwise every op would
  // search its operands' use lists, quadratic in the uses of a widely used value.
  ~Function() { dying_ = true; }
  bool dying() const { return dying_; }
  const class Module& module() const { return *module_; }
  const std::string& name() const { return name_; }
  KernelKind kind() const { return kind_; }  // an index into the module's TargetModel::kernelKinds
  void setKind(KernelKind k) { kind_ = k; }
  SourceRange loc() const { return loc_; }
  void setLoc(SourceRange r) { loc_ = r; }
  // The launch: how many blocks run the kernel (0: not chosen yet, one block when run), and
  // how many sub-blocks (vector cores of one AI core) each block has.
  int64_t blocks() const { return blocks_; }
  void setBlocks(int64_t n) { blocks_ = n; }
  int64_t subblocks() const { return subblocks_; }
  void setSubblocks(int64_t n) { subblocks_ = n; }

  // Parameters are the body block's arguments, in declaration order. Symbolic sizes
  // (`where S: dyn`) are index-typed parameters with ParamDir::None.
  Value* addParam(Type t, std::string name, ParamDir dir, SourceRange loc = {});
  unsigned numParams() const { return body_->numArgs(); }
  Value* param(unsigned i) const { return body_->arg(i); }
  ParamDir paramDir(unsigned i) const { return dirs_[i]; }
  SourceRange paramLoc(unsigned i) const { return paramLocs_[i]; }

  Block& body() { return *body_; }
  const Block& body() const { return *body_; }
  void walk(const std::function<void(Op&)>& f);

  uint32_t nextValueId() { return nextId_++; }
  uint32_t valueIdBound() const { return nextId_; }  // every value's id is below it
  // How many ops of kind `k` the function holds, nested ones included: a pass that
  // rewrites a few kinds skips a function without them instead of walking it.
  size_t count(OpKind k) const { return opCounts_[size_t(k)]; }
  int64_t numOps() const;  // of every kind

 private:
  friend class Op;
  friend class Block;
  class Module* module_;
  std::string name_;
  KernelKind kind_;
  SourceRange loc_;
  int64_t blocks_ = 0;
  int64_t subblocks_ = 1;
  std::unique_ptr<Block> body_;
  std::vector<ParamDir> dirs_;
  std::vector<SourceRange> paramLocs_;
  uint32_t nextId_ = 0;
  std::array<size_t, kNumOpKinds> opCounts_{};  // kept by Block::create and ~Op
  bool dying_ = false;
};

class Module {
 public:
  std::vector<std::unique_ptr<Function>>& functions() { return functions_; }
  const std::vector<std::unique_ptr<Function>>& functions() const { return functions_; }
  explicit Module(const TargetModel& target = neutralModel()) : target_(&target) {}
  Function& addFunction(std::string name, KernelKind kind = 0);
  Function* lookup(const std::string& name) const;
  // The target the module is compiled for: it defines the module's spaces and kernel kinds.
  const TargetModel& target() const { return *target_; }

 private:
  std::vector<std::unique_ptr<Function>> functions_;
  const TargetModel* target_;
};

}  // namespace tilec::ir
