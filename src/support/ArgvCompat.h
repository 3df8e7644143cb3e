// Argument spellings CLI11 2.1 cannot parse, rewritten before it sees them:
// - GCC-style single-dash long options (-MD, -MF file, -MFfile, -fsyntax-only,
//   -ferror-limit=N): CLI11 allows only one character after a single dash (-Werror is
//   the option -W with the value "error", and --Werror becomes it);
// - an explicitly empty value (--passes=): CLI11 would take the next argument as
//   the value instead;
// - other compilers' spellings of tilec's options: clang's -fdiagnostics-color[=V],
//   -fno-diagnostics-color, -fcolor-diagnostics and -fno-color-diagnostics (--color),
//   rustc's --error-format=json|human (--diagnostics-format=json|text). They become the
//   tilec option, so the last of them and it wins as for any single-valued option.
#pragma once
#include <string>
#include <vector>

namespace tilec {

struct ArgvRewrite {
  std::vector<std::string> args;
  std::string usageError;  // the first alias given a value it does not take; empty if none
};

// Rewrites args (without argv[0]); everything after "--" is left alone.
// -MD/-MP/-fsyntax-only -> --MD/...; -MF/-MT/-MQ X and -MFX -> --MF X; --Werror -> -Werror;
// --name= -> --name ""; an alias -> its option and value.
ArgvRewrite rewriteArgsForCli11(const std::vector<std::string>& args);

// The aliases' spellings, for "did you mean" on an unknown option.
std::vector<std::string> aliasSpellings();

}  // namespace tilec
