#include "support/ArgvCompat.h"

#include <string_view>
#include <utility>

#include "support/Wording.h"

namespace tilec {

namespace {

constexpr std::string_view kFlags[] = {"-MD", "-MP", "-fsyntax-only", "-fno-diagnostics-fixit-info",
                                       "-fdiagnostics-parseable-fixits"};
constexpr std::string_view kOptionsWithValue[] = {"-MF", "-MT", "-MQ"};
constexpr std::string_view kJoinedOptions[] = {"-ferror-limit="};  // -fx=V -> --fx=V

// Another compiler's spelling of a tilec option: `spelling` alone is `option` with the
// value `bare` (none: a value must follow); `spelling=V` is `option` with V's tilec value,
// V one of `values` (as given, then as tilec spells it).
struct Alias {
  std::string_view spelling, option, bare;
  std::vector<std::pair<std::string_view, std::string_view>> values;
};
const Alias kAliases[] = {
    {"-fdiagnostics-color", "--color", "always", {{"always", "always"}, {"never", "never"}, {"auto", "auto"}}},
    {"-fno-diagnostics-color", "--color", "never", {}},
    {"-fcolor-diagnostics", "--color", "always", {}},
    {"-fno-color-diagnostics", "--color", "never", {}},
    {"--error-format", "--diagnostics-format", "", {{"json", "json"}, {"human", "text"}}},  // rustc's
};

bool startsWith(const std::string& s, std::string_view prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// The tilec value of `value` given to `alias`, or the usage error.
std::pair<std::string, std::string> aliasValue(const Alias& alias, const std::string& value) {
  const std::string spelling(alias.spelling);
  if (alias.values.empty()) return {"", spelling + " takes no value; write " + spelling + " alone"};
  std::vector<std::string> given;
  for (const auto& [from, to] : alias.values) {
    if (value == from) return {std::string(to), ""};
    given.push_back(std::string(from));
  }
  const std::optional<std::string> near = closestName(value, given);
  return {"", spelling + "=" + value + ": the value is " + listText(given, "or") +
                  (near ? "; did you mean '" + *near + "'?" : "")};
}

// Rewrites args[i] (and the value after it, for an alias that takes one) onto `out`;
// returns how many arguments it took, 0 if it rewrites none.
size_t rewriteAlias(const std::vector<std::string>& args, size_t i, ArgvRewrite& out) {
  const std::string& arg = args[i];
  for (const Alias& alias : kAliases) {
    if (!startsWith(arg, alias.spelling)) continue;
    const std::string rest = arg.substr(alias.spelling.size());
    if (!rest.empty() && rest[0] != '=') continue;
    size_t taken = 1;
    std::string value = rest.empty() ? std::string(alias.bare) : rest.substr(1);
    if (rest.empty() && alias.bare.empty()) {
      if (i + 1 == args.size()) {
        out.usageError = std::string(alias.spelling) + " needs a value: " + std::string(alias.spelling) + "=VALUE";
        return 1;
      }
      value = args[i + 1], taken = 2;
    }
    if (!rest.empty() || alias.bare.empty()) {
      auto [mapped, problem] = aliasValue(alias, value);
      if (!problem.empty() && out.usageError.empty()) out.usageError = problem;
      value = mapped;
    }
    out.args.push_back(std::string(alias.option));
    out.args.push_back(value);
    return taken;
  }
  return 0;
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
  for (std::string_view option : kJoinedOptions)
    if (startsWith(arg, option)) {
      out.push_back("-" + arg);
      return true;
    }
  if (arg == "--Werror") {  // the older spelling: one -W option keeps every warning flag in order
    out.push_back("-Werror");
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

std::vector<std::string> aliasSpellings() {
  std::vector<std::string> out;
  for (const Alias& alias : kAliases) out.push_back(std::string(alias.spelling));
  return out;
}

ArgvRewrite rewriteArgsForCli11(const std::vector<std::string>& args) {
  ArgvRewrite out;
  out.args.reserve(args.size() + 1);
  bool optionsEnded = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (!optionsEnded)
      if (size_t taken = rewriteAlias(args, i, out)) {
        i += taken - 1;
        continue;
      }
    if (optionsEnded || !rewriteOne(arg, out.args)) out.args.push_back(arg);
    if (arg == "--") optionsEnded = true;
  }
  return out;
}

}  // namespace tilec
