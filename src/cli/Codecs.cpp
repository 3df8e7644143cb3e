#include "cli/Codecs.h"

#include <cstdint>
#include <vector>

#include "support/Wording.h"
#include "target/Registry.h"

namespace tilec::cli {

namespace {

// The first codec that recognizes the bytes decodes them.
std::optional<std::string> decode(const SourceManager& sources, FileId file, DiagnosticEngine& diags) {
  const std::string_view text = sources.contents(file);
  const std::vector<uint8_t> bytes(text.begin(), text.end());
  for (const target::BinaryCodec* codec : target::allCodecs()) {
    if (!codec->recognizes(bytes)) continue;
    std::string listing, error;
    size_t offset = 0;
    if (codec->decode(bytes, listing, error, offset)) return listing;
    diags.report(Diag::BadBinary, {},
                 "'" + sources.name(file) + "' at byte " + std::to_string(offset) + ": " + error +
                     "; it does not decode as " + codec->summary);
    return std::nullopt;
  }
  std::vector<std::string> summaries;
  for (const target::BinaryCodec* codec : target::allCodecs()) summaries.push_back(codec->summary);
  diags.report(Diag::BadBinary, {},
               "'" + sources.name(file) + "' starts like none of the binaries tilec reads (" +
                   listText(summaries, "or") + ")");
  return std::nullopt;
}

// A listing's first word names its codec.
std::optional<std::string> encode(const SourceManager& sources, FileId file, DiagnosticEngine& diags) {
  const std::string text(sources.contents(file));
  const size_t first = text.find_first_not_of(" \t\r\n");
  const std::string name =
      first == std::string::npos ? "" : text.substr(first, text.find_first_of(" \t\r\n", first) - first);
  const target::BinaryCodec* codec = target::findCodec(name);
  std::string error;
  size_t line = 0;
  std::vector<uint8_t> bytes;
  if (!codec) {
    error = "a listing starts with the name of its format, such as 'txn'";
    line = 1;
  } else if (codec->encode(text, bytes, error, line)) {
    return std::string(bytes.begin(), bytes.end());
  }
  SourceRange at;
  if (line > 0) {
    const uint32_t begin = sources.offsetOf(file, uint32_t(line), 0);
    at = {file, begin, begin + uint32_t(sources.lineText(file, uint32_t(line)).size())};
  }
  diags.report(Diag::BadListing, at, error);
  return std::nullopt;
}

}  // namespace

std::optional<std::string> convertBinary(CodecAction action, const SourceManager& sources, FileId file,
                                         DiagnosticEngine& diags) {
  return action == CodecAction::Decode ? decode(sources, file, diags) : encode(sources, file, diags);
}

}  // namespace tilec::cli
