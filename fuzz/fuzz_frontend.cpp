// The .tile frontend: lexing, parsing, checking and lowering to IR, then the verifier.
#include "FuzzSupport.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return tilec::fuzz::fuzzText(data, size, [](const std::string& text) {
    tilec::SourceManager sm;
    tilec::DiagnosticEngine diags(sm);
    tilec::fuzz::lowerTile(text, sm, diags);
  });
}
