// The .tile frontend: tokens -> parse tree (ANTLR, SLL first then LL) -> typed AST
// -> name resolution, type/shape checking and SSA construction into the tile IR.
#pragma once
#include <iosfwd>
#include <map>
#include <memory>

#include "ir/IR.h"
#include "support/Diagnostics.h"
#include "support/Limits.h"

namespace tilec::ast {
struct Module;  // defined in frontend/Ast.h
}

namespace tilec::frontend {

// Parses a .tile buffer. Reports every syntax error (E01xx); returns null if any.
std::unique_ptr<ast::Module> parse(const SourceManager& sm, FileId file, DiagnosticEngine& diags);

// Checks names, types and shapes and builds SSA IR. Reports every independent
// error (E02xx); returns null if any.
// `defines` (-D NAME=VALUE) give `dyn` sizes constant values: the kernels are built as if the
// size were written as that number.
using Defines = std::map<std::string, int64_t>;
std::unique_ptr<ir::Module> lower(const ast::Module& m, DiagnosticEngine& diags, const ir::TargetModel& target,
                                  const Limits& limits = defaultLimits(), const Defines& defines = {});

// --emit=ast and --emit=tokens.
void printAst(const ast::Module& m, const SourceManager& sm, std::ostream& os);
void dumpTokens(const SourceManager& sm, FileId file, std::ostream& os);

// Files this module imports (for depfiles); empty until imports are implemented.
std::vector<std::string> imports(const ast::Module& m);

}  // namespace tilec::frontend
