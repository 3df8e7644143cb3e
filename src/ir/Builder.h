// Building and copying IR for passes: an OpBuilder creates ops at an insertion point
// and types them through the op table's rules (the same rules the verifier checks),
// and clones ops with a value mapping that reaches into expressions as well as operands.
#pragma once
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "ir/IR.h"
#include "ir/OpDefs.h"

namespace tilec::ir {

// Old value -> new value, for cloning and remapping. Values it does not map stay as they are.
using ValueMapping = std::unordered_map<const Value*, Value*>;

// The expression, attribute or type with every mapped value replaced by its image.
Expr remap(const Expr& e, const ValueMapping& m);
AttrValue remap(const AttrValue& v, const ValueMapping& m);
Type remap(const Type& t, const ValueMapping& m);

class OpBuilder {
 public:
  // New ops go before `before` (which must be in `block`), or at the end of `block`.
  OpBuilder(Block& block, Op* before = nullptr) : block_(&block), before_(before) {}
  // New ops go just before `op`, located at `op` unless setLoc says otherwise.
  static OpBuilder before(Op& op);

  void setLoc(SourceRange loc) { loc_ = loc; }
  SourceRange loc() const { return loc_; }

  // Creates `kind` with these operands and attributes, its result typed by the op's rule
  // (`declared` is the type for the ops whose result carries what no operand has: load,
  // create, full, move, cast, reshape, slice, set_valid_shape, ...). On a rule violation
  // nothing is created and the violation is returned.
  std::variant<Op*, OpError> tryCreate(OpKind kind, const std::vector<Value*>& operands, AttrMap attrs = {},
                                       Type declared = {}, std::string name = {});
  // The same for ops a pass knows to be well typed: a violation is a compiler bug
  // (std::logic_error, reported as an internal error).
  Op* create(OpKind kind, const std::vector<Value*>& operands, AttrMap attrs = {}, Type declared = {},
             std::string name = {});
  // create() for single-result ops, returning the result.
  Value* createValue(OpKind kind, const std::vector<Value*>& operands, AttrMap attrs = {},
                     Type declared = {}, std::string name = {}) {
    return create(kind, operands, std::move(attrs), std::move(declared), std::move(name))->result();
  }

  // Copies `op` and everything nested in it to the insertion point. Operands, values named
  // in attributes and in types are looked up in `mapping`; the copy's results and block
  // arguments are added to it, so later clones see them. Linear in the size of `op`.
  Op* clone(const Op& op, ValueMapping& mapping);

 private:
  Op* insert(OpKind kind);

  Block* block_;
  Op* before_;
  SourceRange loc_;
};

}  // namespace tilec::ir
