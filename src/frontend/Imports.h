// `import "file.tile";`: a program is a root file plus every file it imports, directly or
// not. Each file is read and parsed once, however many files import it; the declarations
// of all of them form one module, an imported file's before its importer's.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "support/Diagnostics.h"

namespace tilec::ast {
struct Module;
}

namespace tilec::frontend {

struct ImportOptions {
  std::vector<std::string> searchDirs;  // -I, in order, after the importing file's directory
  // Reads a file's text; nullopt if it cannot be read. Empty: read from the file system.
  // (The language server serves its open, unsaved documents this way.)
  std::function<std::optional<std::string>(const std::string& path)> readFile;
};

// Parses `root` and, depth first, every file it imports; returns the whole program, or null
// after errors (E01xx in any file, E0107 for a file not found, E0108 for a cycle).
// `files` receives the path of every imported file, in the order they were read.
std::unique_ptr<ast::Module> parseProgram(SourceManager& sm, FileId root, DiagnosticEngine& diags,
                                          const ImportOptions& options, std::vector<std::string>* files = nullptr);

// The program as one self-contained source: every file's text, imported files first, with
// each import declaration blanked out (so lines keep their numbers within each file).
// The crash reproducer is made of it.
std::string inlineProgram(const SourceManager& sm, const ast::Module& program);

}  // namespace tilec::frontend
