// Make-style dependency files (-MD/-MF/-MT/-MQ/-MP), in GCC's format so make and
// ninja (deps = gcc) read them.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

// Quotes a path for a depfile: space -> "\ ", '#' -> "\#", '$' -> "$$", and a run of
// backslashes right before a space or '#' is doubled (GCC's and clang's rule).
std::string escapeDepPath(std::string_view path);

struct DepFileContents {
  std::vector<std::string> targets;  // already in depfile syntax (-MT verbatim, else escaped)
  std::vector<std::string> deps;     // raw paths; the first is the main input
  bool phonyTargets = false;         // -MP: an empty rule for every dependency but the first
};

// "t1 t2: d1 d2\n" then, with -MP, "d2:\n" for each later dependency.
std::string renderDepFile(const DepFileContents& contents);

}  // namespace tilec
