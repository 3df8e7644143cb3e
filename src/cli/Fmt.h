// tilec fmt: rewrites .tile files in the canonical layout (frontend/Format.h), or with
// --check only says which are not in it (docs/cli.md, "Formatting").
#pragma once

namespace tilec::cli {

// `argv[0]` is "fmt". Exit 0 when every file was formatted (or, with --check, already
// was), 1 after a file that does not parse, cannot be read or written, or (--check) is
// not formatted, 2 on a usage error.
int runFmt(int argc, char** argv);

}  // namespace tilec::cli
