// Per-op facts from Ops.def (one row per op kind) plus the two functions every op kind
// defines: result-type inference (used by the frontend and the OpBuilder to type ops, and
// by passes that rebuild ops) and verification (used by the IR verifier).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/IR.h"
#include "support/Diagnostics.h"

namespace tilec::ir {

// What an op is, for the passes that ask by kind of work rather than by op.
enum OpTrait : uint32_t {
  Loop = 1u << 0, Branch = 1u << 1, Terminator = 1u << 2,
  Elementwise = 1u << 3, TileScalar = 1u << 4, Unary = 1u << 5,  // vector work
  RowReduce = 1u << 6, ColReduce = 1u << 7, RowExpand = 1u << 8,  // vector work
  Cube = 1u << 9,                                                 // cube (matmul) work
  View = 1u << 10,  // the result is a view sharing its operand's memory
  ColExpand = 1u << 11,  // vector work: combines [R, C] with the row [1, C]
  Predicate = 1u << 12,  // makes a mask (a bool tile from a comparison) or selects with one
  Effect = 1u << 13,     // does more than define its results: writes a tensor or talks to a peer
};

// The kind of program an op belongs to. A target accepts whole groups, and its own op
// table has a row for every op of the groups it accepts (target/Target.h).
// tile.sort32 sorts each row in runs of this many columns, as PTO's tsort32 does.
inline constexpr int64_t kSortRun = 32;

enum class OpGroup : uint8_t {
  Core,      // scalars and structured control flow: every target has them
  Tile,      // tiles: data movement, elementwise work, reductions, matmuls, views
  Sequence,  // runtime sequences: DMA transfers between host tensors and channels
  Region,    // tile regions: partition views and tile arrays
  Cores,     // a kernel split between cube and vector cores: sections and the pipes between them
  Launch,    // the block and sub-block a copy of the kernel runs as, on targets that launch blocks
};
inline constexpr OpGroup kAllOpGroups[] = {OpGroup::Core,  OpGroup::Tile,  OpGroup::Sequence,
                                           OpGroup::Region, OpGroup::Cores, OpGroup::Launch};
using OpGroups = uint32_t;  // a set of groups, one bit each
constexpr OpGroups groupBit(OpGroup g) { return 1u << unsigned(g); }
const char* opGroupName(OpGroup g);  // "tile", ...

// ---- attribute schema (ODS style) ----
// Every attribute an op kind accepts, with the payload kind it must hold. The
// parser reads attribute values by it; verifyOp rejects missing required, unknown
// and mistyped attributes. Every op with results also accepts `buffers` (IntList,
// one buffer id per result, -1 for non-tiles), set by assign-buffers, and `addrs` (one
// byte address per result), set by plan-addresses.
struct AttrSpec {
  const char* key;
  AttrKind kind;
  bool required;
};

struct OpInfo {
  OpKind kind;
  const char* name;   // "tile.add", the .tir spelling
  const char* spelling;  // "+", how .tile writes it: how messages name the op
  OpGroup group;
  int numOperands;    // -1: variadic; an optional scratch operand is not counted
  int numResults;     // -1: variadic
  int numRegions;
  uint32_t traits;
  int tiedOperand;    // the operand the result updates in place, or -1
  int scratchOperand; // the index of an optional scratch-tile operand, or -1
  std::vector<AttrSpec> attrs;  // sorted by key; `buffers` added for ops with results
  bool has(OpTrait t) const { return (traits & t) != 0; }
  // The operand counts the op accepts: its count, and one more with the scratch operand.
  size_t minOperands() const { return numOperands < 0 ? 0 : size_t(numOperands); }
  size_t maxOperands() const {
    return numOperands < 0 ? SIZE_MAX : size_t(numOperands) + (scratchOperand >= 0 ? 1 : 0);
  }
  std::string operandCountText() const;  // "1", "1 or 2", "any number of"
};
const OpInfo& opInfo(OpKind k);
std::optional<OpKind> opKindByName(std::string_view name);
const std::vector<OpInfo>& allOps();

// The attributes of op kind `k`, sorted by key.
const std::vector<AttrSpec>& attrSchema(OpKind k);
const AttrSpec* findAttrSpec(OpKind k, std::string_view key);
// Whether `v` holds a payload of kind `k` (IntOrFloat: int64_t or double).
bool attrHasKind(const AttrValue& v, AttrKind k);

// A rule violation found while inferring or verifying. `operand` (>= 0) names the
// operand the problem is about so a caller can point at that argument's range.
struct OpError {
  Diag id;
  std::string message;
  int operand = -1;
};

// Everything needed to infer the result type of a single-result op kind:
// the operand types, the attributes, and (for ops whose result type carries
// information no operand has: load, create, reshape, cast, slice, move, set_valid_shape)
// the `declared` type the builder chose.
struct InferInput {
  OpKind kind;
  std::vector<Type> operands;
  const AttrMap* attrs = nullptr;
  Type declared;  // TypeKind::None when not applicable
};
// Returns the result type, or the first rule violation.
std::variant<Type, OpError> inferResultType(const InferInput& in);

// Checks one op against its rules (operand/result counts and types, attributes).
// Structural rules (dominance, regions, terminators) are the verifier's.
std::optional<OpError> verifyOp(const Op& op);

// Whether the op's result is a view sharing its operand's memory (the View trait).
inline bool isView(OpKind k) { return opInfo(k).has(View); }

// Which operand, if any, the op's result is tied to (updated in place): the table's column.
inline int tiedOperand(OpKind k) { return opInfo(k).tiedOperand; }

// The value `v` updates in place, following ops whose result is tied to an operand back to
// the first value that is not such a result (`v` itself when it is none).
const Value* updatedValue(const Value* v);

// An assemble that writes back a window updated in place: assemble(t, s, offsets) where s
// is (through ops updating their operand in place) slice(t, offsets). The data is already
// where the assemble puts it, so it reads nothing of t and moves nothing.
bool isWriteBack(const Op& op);

// The elementwise op one step of a prefix scan of kind `k` takes (tile.add, max, min): the
// interpreter's scan combines as it does, and lower-scans writes the steps with it.
OpKind scanStep(ScanKind k);

}  // namespace tilec::ir
