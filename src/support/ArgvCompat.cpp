#include "support/ArgvCompat.h"

#include <string_view>

namespace tilec {

namespace {

constexpr std::string_view kFlags[] = {"-MD", "-MP", "-fsyntax-only", "-Werror"};
constexpr std::string_view kOptionsWithValue[] = {"-MF", "-MT", "-MQ"};

bool startsWith(const std::string& s, std::string_view prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// Appends the CLI11 spelling of one argument; returns false if it needs none.
bool rewriteOne(const std::string& arg, std::vector<std::string>& out) {
  for (std::string_view flag : kFlags)
    if (arg == flag) {
      out.push_back("-" + arg);
      return true;
    }
  for (std::string_view option : kOptionsWithValue)
    if (startsWith(arg, option)) {
      out.push_back("-" + std::string(option));
      if (arg.size() > option.size()) out.push_back(arg.substr(option.size()));
      return true;
    }
  if (arg == "-O") {  // as in clang, -O alone is -O1
    out.push_back("-O1");
    return true;
  }
  if (startsWith(arg, "--") && arg.size() > 3 && arg.back() == '=') {
    out.push_back(arg.substr(0, arg.size() - 1));
    out.push_back("");
    return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> rewriteArgsForCli11(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  out.reserve(args.size() + 1);
  bool optionsEnded = false;
  for (const std::string& arg : args) {
    if (optionsEnded || !rewriteOne(arg, out)) out.push_back(arg);
    if (arg == "--") optionsEnded = true;
  }
  return out;
}

}  // namespace tilec
