// Argument spellings CLI11 2.1 cannot parse, rewritten before it sees them:
// - GCC-style single-dash long options (-MD, -MF file, -MFfile, -fsyntax-only,
//   -Werror): CLI11 allows only one character after a single dash;
// - an explicitly empty value (--passes=): CLI11 would take the next argument as
//   the value instead.
#pragma once
#include <string>
#include <vector>

namespace tilec {

// Rewrites args (without argv[0]); everything after "--" is left alone.
// -MD/-MP/-fsyntax-only/-Werror -> --MD/...; -MF/-MT/-MQ X and -MFX -> --MF X;
// --name= -> --name "".
std::vector<std::string> rewriteArgsForCli11(const std::vector<std::string>& args);

}  // namespace tilec
