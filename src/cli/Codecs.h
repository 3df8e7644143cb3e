// tilec --decode FILE and tilec --encode LISTING: a backend's binary turned into a readable
// listing and back, by the registry's codecs (target::allCodecs). Nothing is compiled.
#pragma once
#include <optional>
#include <string>

#include "cli/Options.h"
#include "support/Diagnostics.h"
#include "support/Source.h"

namespace tilec::cli {

// The listing (Decode) or the bytes (Encode) of `file`; nullopt after reporting why it
// does not convert: E0007 with the byte offset where decoding stopped, E0008 at the
// listing line that does not encode.
std::optional<std::string> convertBinary(CodecAction action, const SourceManager& sources, FileId file,
                                         DiagnosticEngine& diags);

}  // namespace tilec::cli
