// What the language server knows about one open document: the compiler's diagnostics
// for it, and an index of its names (hover text, declaration) and tile expressions, made
// by running the frontend and the target's default pipeline.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "support/Diagnostics.h"
#include "support/Source.h"

namespace tilec::ast {
struct Import;
}
namespace tilec::target {
struct TargetDesc;
}

namespace tilec::lsp {

// Reads an imported file's text (the open document's, when one has that path).
using FileReader = std::function<std::optional<std::string>(const std::string& path)>;

struct Hover {
  std::string text;  // one line of .tile-like text: `let t: tile<f32, [16, 128], vec, valid = [16, 128]>`
  SourceRange range;  // what it describes
};

struct Symbol {
  enum class Kind { Kernel, Constant, Parameter };
  std::string name;
  Kind kind;
  std::string detail;
  SourceRange range, selection;
  std::vector<Symbol> children;
};

// What `tilec FILE --target=T -I DIR -D NAME=VALUE` would be given besides the file.
struct AnalysisFlags {
  const target::TargetDesc* target = nullptr;  // checks and compiles it (its model and default pipeline)
  std::vector<std::string> includeDirs;        // where imports are looked for after the file's directory
  std::vector<std::string> defines;            // NAME=VALUE, NAME an identifier
};

// A name a program may use at some place: what completion offers.
struct ScopedName {
  std::string name;
  std::string detail;  // its hover text: `let t: tile<...>`, `const ROWS = 16`
  bool constant;       // a `const` or a `where` size, else a variable, parameter or loop variable
  SourceRange visible;  // where it may be used; invalid for a file constant (everywhere)
};

// What a name stands for, as semantic highlighting tells them apart.
enum class NameKind { Parameter, Variable, Constant };

// A piece of the root that semantic highlighting colours: a name, or a built-in's name
// where it is called.
struct NameToken {
  SourceRange range;
  enum class Kind { Parameter, Variable, Constant, Builtin } kind;
  bool declaration;
};

// What the pipeline made of a `let` or `var` whose type is not written: shown after its name.
struct SpaceHint {
  SourceRange after;     // the name
  std::string space;     // `vec`, `mat`, `left`, ...
  std::string type;      // the whole type, as hover shows it
};

class Analysis {
 public:
  // `path` names the document (imports resolve against its directory); `read` serves
  // imports.
  Analysis(const std::string& path, std::string text, const FileReader& read, const AnalysisFlags& flags);
  Analysis(const Analysis&) = delete;
  Analysis& operator=(const Analysis&) = delete;

  const SourceManager& sources() const { return *sources_; }
  FileId root() const { return root_; }
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  const std::vector<Symbol>& symbols() const { return symbols_; }
  // Whether `file` holds a -D value rather than program text.
  bool fromFlags(FileId file) const { return file != root_ && file < firstImport_; }
  // The path of every file the program read besides the root.
  std::vector<std::string> importedFiles() const;

  // Queries at a byte offset of the root file.
  std::optional<Hover> hoverAt(uint32_t offset) const;
  // A declaration; for an import's path, the start of that file.
  std::optional<SourceRange> definitionAt(uint32_t offset) const;
  // The names in scope at `offset`, by name; an inner declaration hides an outer one.
  std::vector<ScopedName> namesInScopeAt(uint32_t offset) const;
  // Whether the program parsed, so that names and scopes are known.
  bool indexed() const { return indexed_; }
  // Whether the frontend checked and lowered the program without error: every use of
  // every name was resolved.
  bool lowered() const { return lowered_; }
  // The declaration of the name at `offset` and every use of it the program makes, in
  // any of its files (the declaration first, then in file and offset order); empty when
  // `offset` is on no name.
  std::vector<SourceRange> referencesAt(uint32_t offset) const;
  // The names and built-in calls of the root, in order, each once.
  std::vector<NameToken> nameTokens() const;
  // The memory space of each tile `let` and `var` of the root without a written type.
  const std::vector<SpaceHint>& spaceHints() const { return spaceHints_; }

  // Where a diagnostic in an imported file is shown in the root: the root's import that
  // leads to that file (the start of the root when none is known).
  SourceRange importLeadingTo(FileId file) const;

  struct Name {
    SourceRange at;    // the name as written: a use or a declaration
    SourceRange decl;  // the declaration it names
    std::string hover;
    NameKind kind;
  };
  struct RootImport {
    SourceRange range, pathRange;
    FileId file;  // kNoFile when it was not read
  };

 private:
  FileId fileRead(const ast::Import& i) const;
  std::unique_ptr<SourceManager> sources_;
  FileId root_ = kNoFile;
  FileId firstImport_ = kNoFile;  // the files before it are the root and the -D values
  std::vector<Diagnostic> diagnostics_;
  std::vector<Name> names_;
  std::vector<ScopedName> scoped_;
  std::vector<SpaceHint> spaceHints_;
  std::vector<SourceRange> builtinCalls_;  // the callee of every call the frontend lowered
  bool indexed_ = false, lowered_ = false;
  std::vector<Hover> tileExprs_;
  std::vector<RootImport> imports_;
  std::vector<Symbol> symbols_;
};

}  // namespace tilec::lsp
