// How IR is shown to people: the one place for the text of values, ops, expressions,
// shapes and numbers in messages, hovers, the report and IR text.
//
// Messages name what the author wrote (docs/diagnostics.md, "How messages read"): a value
// by its let/var/parameter name or the source text of the expression that made it, an op
// by its source text, an op kind by its .tile spelling, and never by the names the IR
// printer or a pass gives them ('%3', 'acc_mm0', 'tile.load'). What shows the IR itself
// (the .tir printer, the verifier's messages about .tir input, the report) names values
// as the printer does (irName).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

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
// The built-in a prefix scan of kind `k` is written with: "cumsum", "cummax", "cummin" (one
// op, tile.scan, serves the three, so its kind names it).
const char* scanBuiltin(ScanKind k);

// An expression or type as a message shows it, each value by the name the author gave it
// (expressions mention loop variables, sizes and parameters, which the author names), or,
// for an unnamed constant or integer expression, by its value.
std::string exprText(const Expr& e);
std::string typeText(const Type& t);
// A type in the syntax of a .tile annotation with every field spelled out (the language
// server's hover): the valid extents even when they are the whole shape, the layout when it
// is not the space's default. "tile<f32, [16, 128], vec, valid = [16, 128]>", "f32[S, 64]".
std::string annotationText(const Type& t);
// A value as exprText names it, quoted, for a message made where no source text is at
// hand (the interpreter's faults): "'S'", "'(r * 16)'".
std::string describeByName(const Value* v);

class ValueNames;
// A value as IR text names it: "%acc_2", the printer's unique name.
std::string irName(const Value* v, const ValueNames& names);

// A shape, window, offset or index list: "[16, 32]".
std::string shapeText(const std::vector<int64_t>& xs);
// The same of expressions, each by exprText: "[16, S]"; or each value named by `name`
// (IR text's "%S").
std::string shapeText(const std::vector<Expr>& es);
std::string shapeText(const std::vector<Expr>& es, const std::function<std::string(const Value*)>& name);

// The shortest decimal text that reads back as exactly `d`: "0.1", "3", "1e+30".
std::string numberText(double d);

}  // namespace tilec::ir
