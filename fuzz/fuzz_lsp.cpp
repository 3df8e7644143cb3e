// The language server: the input is the byte stream a client writes to `tilec lsp`
// (framed JSON-RPC messages, damaged ones included). Every message must be answered or
// refused without an exception escaping serve(), whatever the documents hold. The same
// bytes are also read as the files the server finds a document's flags in (a compilation
// database, its shell-quoted commands, compile_flags.txt), which must not throw either.
#include <sstream>

#include "FuzzSupport.h"
#include "lsp/CompileFlags.h"
#include "lsp/Server.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string stream(reinterpret_cast<const char*>(data), size);
  tilec::fuzz::onBigStack([&] {
    std::istringstream in(stream);
    std::ostringstream out;
    tilec::lsp::serve(in, out, {});
    tilec::lsp::flagsFromDatabase(stream, "/k.tile");
    tilec::lsp::flagsFromFlagsFile(stream, "/");
    tilec::lsp::shellSplit(stream);
  });
  return 0;
}
