// The fast path of the frontend: parses a file with no errors one statement at a time,
// building each statement's AST at once and then freeing its parse tree and tokens, so
// memory holds the AST and one statement, not the whole file's tokens and tree. The
// grammar is still the parser: each statement, declaration and head (kernel, for, if)
// is one call of its rule with SLL prediction and the bail-out strategy; this file only
// walks the braces of block bodies between those calls.
#pragma once
#include <memory>
#include <string_view>

#include "frontend/Ast.h"
#include "frontend/TokenRanges.h"
#include "support/Source.h"

namespace tilec::frontend {

// The module of a file without lexical errors, syntax errors, over-deep nesting or AST
// diagnostics; null when the file has any of them, and the caller then runs the
// whole-file parse, which reports them. `text` is valid UTF-8 (parse() checks it first).
std::unique_ptr<ast::Module> parseChunked(const SourceManager& sm, std::string_view text,
                                          const TokenRanges& ranges);

}  // namespace tilec::frontend
