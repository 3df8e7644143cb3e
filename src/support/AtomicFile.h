// Output files appear whole or not at all: contents go to a temporary file in the
// destination's directory, which is renamed over the destination on success and
// removed on failure. A reader never sees a half-written .pto or depfile, and a
// failed compile never leaves one behind.
#pragma once
#include <functional>
#include <string>
#include <string_view>

namespace tilec {

// Writes `contents` to `path` ("-" means stdout). On failure returns false and sets
// `error` to a lower-case reason (from errno), leaving no file behind.
bool writeFileAtomically(const std::string& path, std::string_view contents, std::string& error);
// The same for contents that `write` writes to a file descriptor (false with errno set
// when it cannot), such as an OutputBuffer.
using FileWriter = std::function<bool(int fd)>;
bool writeFileAtomically(const std::string& path, const FileWriter& write, std::string& error);
// Writes all of `data` to `fd`, retrying after interruptions; false with errno set.
bool writeAll(int fd, std::string_view data);

}  // namespace tilec
