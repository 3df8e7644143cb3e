// The .tile frontend: tokens -> parse tree (ANTLR, SLL first then LL; statement by
// statement for a file without errors) -> typed AST
// -> name resolution, type/shape checking and SSA construction into the tile IR.
#pragma once
#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ir/IR.h"
#include "support/Diagnostics.h"
#include "support/Limits.h"

namespace tilec::ast {
struct Module;  // defined in frontend/Ast.h
struct ConstDecl;
struct Expr;
}

namespace tilec::frontend {

// Parses a .tile buffer. Reports every syntax error (E01xx); returns null if any.
// A file without errors takes the chunked fast path (ChunkedParse.h); any other, the
// whole-file parse below.
std::unique_ptr<ast::Module> parse(const SourceManager& sm, FileId file, DiagnosticEngine& diags);
// The same through the whole-file parse only: all tokens, then one parse tree, SLL then
// LL with recovery. Tests compare the two paths with it.
std::unique_ptr<ast::Module> parseWholeFile(const SourceManager& sm, FileId file, DiagnosticEngine& diags);

// -D NAME=VALUE, each parsed as the declaration `const NAME = VALUE;` of a source named
// "<command line>" (so a bad value is located and explained like a bad constant). A define
// overrides the file constant NAME (it must be a constant of the same kind: an integer for
// an integer, a number for a float), and makes the `dyn` size NAME that constant; a define
// that names neither is warning E0728.
using Defines = std::map<std::string, const ast::ConstDecl*>;

// Parses "NAME=VALUE" strings into one module per define (which `defines` points into);
// reports E01xx, or E0729 for a VALUE that is more than an expression. A later define of
// a name replaces an earlier one.
std::vector<std::unique_ptr<ast::Module>> parseDefines(SourceManager& sm, const std::vector<std::string>& nameValues,
                                                       DiagnosticEngine& diags, Defines& defines);

struct Val;      // defined in frontend/Lowering.h
struct Binding;

// Watches the lowering as it resolves names and evaluates expressions; the language
// server builds its index (hover, go to definition) from what it sees.
class LowerObserver {
 public:
  virtual ~LowerObserver() = default;
  virtual void evaluated(const ast::Expr& e, const Val& v) = 0;
  // `use` names `b` (an expression, or the target of an assignment); b.val is its value there.
  virtual void resolved(SourceRange use, const Binding& b) = 0;
};

// Checks names, types and shapes and builds SSA IR. Reports every independent
// error (E02xx); returns null if any. With `kernel` named (--kernel), only that kernel is
// checked and lowered, with the file constants; the other kernels are skipped, errors and all.
std::unique_ptr<ir::Module> lower(const ast::Module& m, DiagnosticEngine& diags, const ir::TargetModel& target,
                                  const Limits& limits = defaultLimits(), const Defines& defines = {},
                                  LowerObserver* observer = nullptr, const std::string& kernel = {});

// --emit=ast and --emit=tokens.
void printAst(const ast::Module& m, const SourceManager& sm, std::ostream& os);
void dumpTokens(const SourceManager& sm, FileId file, std::ostream& os);


}  // namespace tilec::frontend
