// `tilec lsp`: a Language Server Protocol server over standard input and output
// (docs/lsp.md). One thread, one request at a time; a request that fails gets an error
// response and the server carries on.
#pragma once
#include <iosfwd>
#include <string>

namespace tilec::lsp {

struct ServerOptions {
  // Test hook (hidden): handling this method throws, to show the server survives it.
  std::string crashIn;
};

// Serves until the `exit` notification or the end of `in`; the exit code is 0 when a
// `shutdown` request came first, 1 otherwise.
int serve(std::istream& in, std::ostream& out, const ServerOptions& options);

// The `tilec lsp [--debug-crash-in=METHOD]` command; `argv[0]` is "lsp".
int runLsp(int argc, char** argv);

}  // namespace tilec::lsp
