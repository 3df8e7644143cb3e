// file:// URIs and paths. A URI of another scheme (an unsaved `untitled:` buffer) stands
// for itself: it is used as the document's path, and imports resolve from the current
// directory.
#pragma once
#include <string>

namespace tilec::lsp {

std::string uriToPath(const std::string& uri);  // percent-decoded
std::string pathToUri(const std::string& path);  // made absolute, percent-encoded

}  // namespace tilec::lsp
