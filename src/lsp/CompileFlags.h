// The flags a document is compiled with, found the way clangd finds a C file's: a
// compilation database (compile_commands.json, or tilec_compile_commands.json which the
// CMake module writes) with an entry for the file, or a compile_flags.txt, in the file's
// directory or a parent (also in a `build/` subdirectory of those). Only the flags that
// change what the server reports are kept: -I, -D and --target (docs/lsp.md).
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace tilec::lsp {

struct CompileFlags {
  std::vector<std::string> includeDirs;  // absolute
  std::vector<std::string> defines;      // NAME=VALUE
  std::optional<std::string> target;
  std::string origin;                    // the file they came from, for messages
  std::vector<std::string> problems;     // flags that were dropped, and why
};

// Splits a `command` of a compilation database as a POSIX shell would: blanks separate
// words, quotes group, a backslash escapes the next character (inside double quotes only
// before `"`, `\`, `$` and a backquote).
std::vector<std::string> shellSplit(const std::string& command);

// The -I, -D and --target of an argument list, in every spelling tilec's command line
// accepts (-I DIR, -IDIR, -D N=V, -DN=V, --target T, --target=T). Relative -I
// directories are taken relative to `directory`. A later --target wins, as on the
// command line. The first argument is the compiler and is skipped when `skipFirst`.
CompileFlags flagsFromArguments(const std::vector<std::string>& args, const std::string& directory, bool skipFirst);

// compile_flags.txt: one argument a line, blank lines ignored.
CompileFlags flagsFromFlagsFile(const std::string& text, const std::string& directory);

// The entry of a compile_commands.json text for `file` (an absolute path), or nullopt
// when it has none or is no JSON array of entries.
std::optional<CompileFlags> flagsFromDatabase(const std::string& text, const std::string& file);

// The flags of `file` from the files on disk. `databasePath`, when not empty, is looked at
// first: a compile_commands.json-style file, or a directory holding one.
std::optional<CompileFlags> findCompileFlags(const std::string& file, const std::string& databasePath);

}  // namespace tilec::lsp
