// Output files appear whole or not at all: contents go to a temporary file in the
// destination's directory, which is renamed over the destination on success and
// removed on failure. A reader never sees a half-written .pto or depfile, and a
// failed compile never leaves one behind.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

// Writes `contents` to `path` ("-" means stdout). On failure returns false and sets
// `error` to a lower-case reason (from errno), leaving no file behind.
bool writeFileAtomically(const std::string& path, std::string_view contents, std::string& error);
// The same for contents given as consecutive pieces (OutputBuffer::pieces()).
bool writeFileAtomically(const std::string& path, const std::vector<std::string_view>& pieces, std::string& error);

}  // namespace tilec
