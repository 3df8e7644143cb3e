// Per-op facts from Ops.def plus the two functions every op kind defines:
// result-type inference (used by the frontend to type-check, and by passes that
// rebuild ops) and verification (used by the IR verifier).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/IR.h"
#include "support/Diagnostics.h"

namespace tilec::ir {

enum OpTrait : uint32_t {
  Pure = 1u << 0, Loop = 1u << 1, Branch = 1u << 2, Terminator = 1u << 3, Reads = 1u << 4,
  Writes = 1u << 5, Allocates = 1u << 6, Elementwise = 1u << 7, TileScalar = 1u << 8,
  Unary = 1u << 9, RowReduce = 1u << 10, ColReduce = 1u << 11, RowExpand = 1u << 12,
  Cube = 1u << 13, View = 1u << 14,
};

struct OpInfo {
  OpKind kind;
  const char* name;   // "tile.add"
  int numOperands;    // -1: variadic
  int numResults;     // -1: variadic
  int numRegions;
  uint32_t traits;
  bool has(OpTrait t) const { return (traits & t) != 0; }
};
const OpInfo& opInfo(OpKind k);
std::optional<OpKind> opKindByName(std::string_view name);
const std::vector<OpInfo>& allOps();

// ---- attribute schema (ODS style) ----
// Every attribute an op kind accepts, with the payload kind it must hold. The
// parser reads attribute values by it; verifyOp rejects missing required, unknown
// and mistyped attributes. Every op with results also accepts `buffers` (IntList,
// one buffer id per result, -1 for non-tiles), set by assign-buffers.
enum class AttrKind : uint8_t { Int, Float, Bool, String, Expr, ExprList, IntList, Type, IntOrFloat };
const char* attrKindName(AttrKind k);  // "integer", "expression list", ...
struct AttrSpec {
  const char* key;
  AttrKind kind;
  bool required;
};
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
  Target target = Target::A2A3;
};
// Returns the result type, or the first rule violation.
std::variant<Type, OpError> inferResultType(const InferInput& in);

// Checks one op against its rules (operand/result counts and types, attributes).
// Structural rules (dominance, regions, terminators) are the verifier's.
std::optional<OpError> verifyOp(const Op& op, Target target);

// Which operand, if any, the op's result is tied to (updated in place):
// matmul_acc -> 0, batch_matmul_acc -> 0, assemble -> 0, set_valid_shape -> 0; otherwise -1.
int tiedOperand(OpKind k);

}  // namespace tilec::ir
