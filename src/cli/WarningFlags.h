// clang's warning flags: -Werror, -Wno-error, -Werror=X, -Wno-error=X, -Wno-X (all given
// as the values of -W, in command-line order) and -w, turned into one WarningPolicy.
#pragma once
#include <string>
#include <variant>
#include <vector>

#include "support/Diagnostics.h"

namespace tilec::cli {

// The policy, or the usage error of the first flag that names no warning (with the
// likeliest one meant) or names an error, which no flag can change.
std::variant<WarningPolicy, std::string> parseWarningFlags(const std::vector<std::string>& values, bool ignoreAll);

}  // namespace tilec::cli
