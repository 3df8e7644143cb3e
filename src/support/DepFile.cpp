#include "support/DepFile.h"

namespace tilec {

std::string escapeDepPath(std::string_view path) {
  std::string out;
  size_t pendingBackslashes = 0;
  for (char c : path) {
    if (c == '\\') {
      ++pendingBackslashes;
      out += c;
      continue;
    }
    if (c == ' ' || c == '#') {
      out.append(pendingBackslashes, '\\');  // so make does not read them as the escape
      out += '\\';
    }
    pendingBackslashes = 0;
    if (c == '$') out += '$';
    out += c;
  }
  return out;
}

std::string renderDepFile(const DepFileContents& contents) {
  std::string out;
  for (size_t i = 0; i < contents.targets.size(); ++i) {
    if (i) out += ' ';
    out += contents.targets[i];
  }
  out += ':';
  for (const std::string& dep : contents.deps) out += ' ' + escapeDepPath(dep);
  out += '\n';
  if (contents.phonyTargets)
    for (size_t i = 1; i < contents.deps.size(); ++i) out += escapeDepPath(contents.deps[i]) + ":\n";
  return out;
}

}  // namespace tilec
