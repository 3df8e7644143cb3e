// Translates one function of buffer-assigned, PTO-legal tile IR into a
// `func.func` of PTO assembly: signature (tensor pointers, then scalars),
// constants, tensor views, then the body with one `pto.alloc_tile` per buffer.
// Every decision was made by a pass; this only spells the IR in PTO syntax.
#pragma once
#include <iosfwd>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "backend/pto/BufferPlan.h"
#include "backend/pto/ScalarEmitter.h"
#include "backend/pto/PtoModel.h"
#include "ir/IR.h"
#include "support/Diagnostics.h"
#include "support/OutputBuffer.h"

namespace tilec::pto {

// Which part of a function one emission writes: all of it, or one section of a split
// kernel (split-cube-vector), as a func.func of that core's kind named <kernel>_aic or _aiv.
enum class Section { Whole, Cube, Vector };

class FunctionEmitter {
 public:
  // `addresses`: give each pto.alloc_tile its buffer's address (PTOAS --pto-level=level3).
  FunctionEmitter(const ir::Function& f, Arch target, DiagnosticEngine& diags, bool addresses,
                  Section section = Section::Whole)
      : f_(f), target_(target), diags_(diags), section_(section), addresses_(addresses) {}
  // Writes the function to `os`; returns false (after reporting) if the IR is not emittable,
  // leaving part of the function in `os`.
  bool emit(OutputBuffer& os);

  // The writers of ops that have one of their own (the op table's Emitter column).
  void emitScalar(const ir::Op& op);
  void emitFor(const ir::Op& op);
  void emitIf(const ir::Op& op);
  void emitYield(const ir::Op& op);
  void emitTensorViewOp(const ir::Op& op);
  void emitLoad(const ir::Op& op);
  void emitStore(const ir::Op& op);
  void emitMove(const ir::Op& op);
  void emitCast(const ir::Op& op);
  void emitIota(const ir::Op& op);
  void emitTensorRead(const ir::Op& op);
  void emitLaunchQuery(const ir::Op& op);
  std::string gmSlots(int64_t pipe);
  void emitCompare(const ir::Op& op);
  void emitTri(const ir::Op& op);
  void emitPairField(const ir::Op& op);
  void emitMatmulAcc(const ir::Op& op);
  void emitWithScratch(const ir::Op& op);  // ttrans, tsel: the scratch tile is their last operand
  void emitView(const ir::Op& op);
  void emitAssemble(const ir::Op& op);
  void emitSetValidShape(const ir::Op& op);
  void emitSection(const ir::Op& op);
  void emitPipeInit(const ir::Op& op);
  void emitPush(const ir::Op& op);
  void emitPop(const ir::Op& op);
  void emitFree(const ir::Op& op);

 private:
  struct TensorView {
    std::string view;  // the pto.make_tensor_view result
    std::string ptr;   // the kernel argument it views
  };
  struct Operand {
    std::string name;
    const std::string* type = nullptr;  // interned: a function has a few distinct types, used many times
  };

  bool prepare();
  std::string signature();
  void emitTensorView(const ir::Value* tensor, const std::string& ptr, const std::string& hint);
  void emitBlock(const ir::Block& b);
  void emitAllocs(const ir::Op& op);
  void emitOp(const ir::Op& op);
  void emitTransfer(const ir::Op& op, const ir::Value* tile, const ir::Value* tensor, bool load);
  void emitSubview(const std::string& name, const Operand& parent,
                   const std::vector<ir::Expr>& offsets, const ir::Type& part,
                   const std::string& partType);
  Operand reshapeView(const Operand& tile, const ir::Type& view, std::string name);
  Operand rowView(const Operand& tile, const ir::Type& view, const std::string& hint);
  // `pto.<name> ins(<ins> [attrs] : <types>) outs(<out> : <type>)`.
  void dps(const std::string& name, const std::vector<const ir::Value*>& ins,
           const ir::Value* out, const std::string& attrs = "");

  // The SSA name and type of a tile (its buffer's alloc, or its view) or scalar.
  Operand operand(const ir::Value* v);
  // Index scalar `v` as a scalar of the tiles' element type.
  Operand elementScalar(const ir::Value* v, ir::DType element);
  // Names for the non-tile results of a for/if; returns the `%r = ` / `%r:2 = ` prefix.
  std::string bindScalarResults(const ir::Op& op, std::string& types);
  std::vector<std::string> indices(const std::vector<ir::Expr>& es);
  void fail(const ir::Op& op, const std::string& message);
  const std::string& interned(std::string typeText);
  std::string functionName(Section s) const;
  void findPushes(const ir::Block& b, Section s);
  // `{id = N, split = 0}` of a pipe op.
  static std::string pipeAttrs(const ir::Op& op);

  const ir::Function& f_;
  Arch target_;
  DiagnosticEngine& diags_;
  Section section_;
  bool addresses_;
  std::map<int64_t, Section> producers_;  // the section pushing into each pipe
  std::string pipeSlots_;                 // a2a3: the kernel argument holding the pipes' GM slots
  std::string blockSlots_;                // ... advanced to this block's pipes (emitted once)
  std::map<int64_t, int64_t> pipeSlotOffset_;  // a2a3: each pipe's slots in its block's part, in f32 words
  int64_t blockSlotWords_ = 0;            // the f32 words of one block's pipes
  NameTable names_;
  BodyWriter body_;
  ScalarEmitter scalars_{names_, body_};
  BufferPlan plan_;
  std::unordered_set<std::string> typeTexts_;                  // lookup only
  std::vector<Operand> buffers_;                                // alloc name and type per buffer index
  std::unordered_map<const ir::Value*, Operand> views_;         // lookup only
  std::unordered_map<const ir::Value*, TensorView> tensors_;    // lookup only
  std::vector<std::string> params_;                             // "%arg0: !pto.ptr<f32>", ...
  bool ok_ = true;
};

}  // namespace tilec::pto
