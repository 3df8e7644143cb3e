// How messages name what the author wrote (docs/diagnostics.md, "Names in messages"): a
// value by its let/var/parameter name or the source text of the expression that made it,
// an op by its source text, an op kind by its .tile spelling, and never by the names the
// IR printer or a pass gives them ('%3', 'acc_mm0', 'tile.load').
#pragma once
#include <string>

#include "ir/IR.h"
#include "support/Source.h"

namespace tilec::ir {

// What the author wrote for `v` (the text of Value::origin: 'acc', 'exp(x)', '%x' in .tir),
// quoted and shortened for a message. A value a pass made stands for the value it came
// from; one with no source at all goes by its name hint, or as the result of its op.
std::string describe(const Value* v, const SourceManager& sm);
// The same unquoted, for code in a fix: "acc"; empty for a value with no source or name.
std::string sourceText(const Value* v, const SourceManager& sm);

// What the author wrote for `op`, quoted and shortened: 'matmul(a, b)', or 'tile.matmul'
// for an op of IR text; an op with no source goes by the spelling of its kind.
std::string describe(const Op& op, const SourceManager& sm);

// How .tile spells op kind `k`, for a message: 'load', 'matmul_acc', '+', quoted as code,
// or the words for a construct that is no call or operator ("for loop", "slot write").
std::string spellingOf(OpKind k);

// An expression or type as a message shows it, each value by the name the author gave it
// (expressions mention loop variables, sizes and parameters, which the author names), or,
// for an unnamed constant or integer expression, by its value.
std::string exprText(const Expr& e);
std::string typeText(const Type& t);

}  // namespace tilec::ir
