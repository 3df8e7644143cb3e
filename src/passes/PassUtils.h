// Helpers for passes of any target: program-order op lists, a union-find over values,
// the edges that force two tiles into one memory space or buffer, where notes point and
// what values a pass made are called in messages, and the shape of a function-level pass.
#pragma once
#include <functional>
#include <string>
#include <set>
#include <vector>

#include "ir/Builder.h"
#include "ir/IR.h"
#include "ir/OpDefs.h"
#include "support/Diagnostics.h"
#include "ir/ValueMap.h"

namespace tilec::passes {

// Every op of `f` in pre-order (an op before the ops of its regions).
std::vector<ir::Op*> preorder(ir::Function& f);
// The ops of `f` whose kind is one of `kinds`, in pre-order; no walk when `f` holds none
// (Function::count), which is the common case for a pass that rewrites rare ops.
std::vector<ir::Op*> opsOfKind(ir::Function& f, std::initializer_list<ir::OpKind> kinds);
// The same for the kinds with any of the traits `traits` (OpTrait bits).
std::vector<ir::Op*> opsWithTrait(ir::Function& f, uint32_t traits);

bool isTile(const ir::Value* v);
// The ops in `b`, nested ones included.
int64_t countOps(const ir::Block& b);

// Union-find with path halving and union by size: near-linear in the number of values.
// Over the values of one function (the table is indexed by value id).
class ValueUnionFind {
 public:
  ir::Value* find(ir::Value* v);
  // Returns false when both were already in one class.
  bool unite(ir::Value* a, ir::Value* b);

 private:
  struct Entry {
    ir::Value* parent = nullptr;
    unsigned size = 0;
  };
  Entry& entry(ir::Value* v);
  // A class's root always has an entry, so entry(parent) never inserts (and never moves
  // the entry a caller holds).
  ir::ValueMap<Entry> entries_;
};

// Calls `join(a, b)` for every pair of tile values that must live in the same place, over
// `ops` (a function's, from preorder(), which the caller usually has already): tied
// results and their operand, loop inits / body args / yields / results, branch yields and
// results, and (when `views` is set) view results and their operand.
void forEachTileJoin(const std::vector<ir::Op*>& ops, bool views,
                     const std::function<void(ir::Value*, ir::Value*)>& join);


// `made`, a value a pass made to stand for (a part or a copy of) `from`: messages call it
// what they call `from` (Value::origin).
ir::Value* madeFrom(ir::Value* made, const ir::Value* from);
// Adds the scalars the expressions of `op` itself name (its attributes and result types;
// not its operands, not its nested ops): uses that no use list holds.
void addNamedScalars(const ir::Op& op, std::set<const ir::Value*>& out);
// Every mention of `v` inside the attributes and types of `op` and its nested ops becomes `e`
// (operands are left alone).
void bindInExprs(ir::Op& op, const ir::Value* v, const ir::Expr& e);

// One iteration of `loop`'s body copied at b's insertion point: its variable bound to `iv`
// (through an arith.index in operands, the expression itself in attributes and types), its
// carried values read from `carried`, which then holds what the copy yields. Returns the
// ops it made, in order (the yield is not copied; the arith.index only if read). Linear in the body. unroll-loops and linx-peel copy
// iterations with it.
std::vector<ir::Op*> cloneIteration(ir::OpBuilder& b, const ir::Op& loop, const ir::Expr& iv,
                                    std::vector<ir::Value*>& carried);
// A rule that held for the symbolic loop variable can fail for one of its values (a load
// at `i * 9` runs past its tensor when i = 7): reports the first op of `copies` (nested
// ones included) that breaks its rules, with a note naming the iteration ("i = 7 of this
// loop, which is unrolled": `how` is "unrolled"); false if there is one.
bool checkIteration(const std::vector<ir::Op*>& copies, const ir::Op& loop, const ir::Expr& iv, const char* how,
                    DiagnosticEngine& diags);

// Where a note about `v` should point: its defining op, or its block's owner.
SourceRange definitionLoc(const ir::Value* v);
void addNote(Diagnostic& d, SourceRange range, std::string message);


// Counts errors reported while a pass runs, so run() can say whether it failed
// (warnings promoted by -Werror count too).
class ErrorWatch {
 public:
  explicit ErrorWatch(const DiagnosticEngine& diags) : diags_(diags), before_(diags.errorCount()) {}
  bool clean() const { return diags_.errorCount() == before_; }

 private:
  const DiagnosticEngine& diags_;
  unsigned before_;
};

// Runs `Worker(function, m.target(), diags).run()` on every function of `m`; the pass
// fails when any error was reported (the shape of every function-level pass).
template <class Worker>
bool runOnFunctions(ir::Module& m, DiagnosticEngine& diags) {
  ErrorWatch errors(diags);
  for (auto& f : m.functions()) Worker(*f, m.target(), diags).run();
  return errors.clean();
}

}  // namespace tilec::passes
