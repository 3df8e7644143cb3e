#include "cli/WarningFlags.h"

#include <string_view>

#include "support/Wording.h"

namespace tilec::cli {

namespace {

// A -W flag that names a code: its prefix after -W and what it makes of the code.
struct CodeRule {
  std::string_view prefix;
  WarningState state;
};
constexpr CodeRule kCodeRules[] = {
    {"error=", WarningState::Error}, {"no-error=", WarningState::Warning}, {"no-", WarningState::Ignored}};

std::vector<Diag> warnings() {
  std::vector<Diag> out;
  for (Diag d : allDiags())
    if (diagDefaultLevel(d) == Level::Warning) out.push_back(d);
  return out;
}

std::string codeList(const std::vector<Diag>& diags) {
  std::vector<std::string> items;
  for (Diag d : diags) items.push_back(std::string(diagCode(d)) + " (" + diagFlagName(d) + ")");
  return listText(items, "and", diags.size());
}

// The warning `name` names, or the usage error saying why it names none.
std::variant<Diag, std::string> warningNamed(const std::string& flag, const std::string& name) {
  const std::optional<Diag> found = findDiag(name);
  if (found && diagDefaultLevel(*found) == Level::Warning) return *found;
  if (found)
    return flag + ": " + diagCode(*found) + " (" + diagFlagName(*found) + ") is " +
           (diagDefaultLevel(*found) == Level::Note ? "a note" : "an error") + ", not a warning, and stays one; -Werror=, -Wno-error= and -Wno- take a warning: " + codeList(warnings());
  std::vector<std::string> candidates;
  for (Diag d : warnings()) candidates.push_back(diagCode(d)), candidates.push_back(diagFlagName(d));
  const std::optional<std::string> near = closestName(name, candidates);
  return flag + ": no warning has the code or name '" + name + "'" +
         (near ? "; did you mean '" + *near + "'?" : "; the warnings are " + codeList(warnings()));
}

// Applies one -W value to `policy`; the usage error if it is not one tilec knows.
std::optional<std::string> apply(const std::string& value, WarningPolicy& policy) {
  const std::string flag = "-W" + value;
  if (value == "error" || value == "no-error") {
    policy.allAsErrors = value == "error";
    return std::nullopt;
  }
  for (const CodeRule& rule : kCodeRules) {
    if (value.compare(0, rule.prefix.size(), rule.prefix) != 0) continue;
    std::variant<Diag, std::string> named = warningNamed(flag, value.substr(rule.prefix.size()));
    if (const std::string* problem = std::get_if<std::string>(&named)) return *problem;
    policy.byCode[std::get<Diag>(named)] = rule.state;
    return std::nullopt;
  }
  const std::optional<std::string> near =
      closestName(flag.substr(0, flag.find('=')), {"-Werror", "-Wno-error", "-Wno-"});
  return "unknown option '" + flag + "'" + (near ? "; did you mean '" + *near + "'?" : "") +
         "; tilec takes -Werror, -Wno-error, -Werror=CODE, -Wno-error=CODE and -Wno-CODE";
}

}  // namespace

std::variant<WarningPolicy, std::string> parseWarningFlags(const std::vector<std::string>& values, bool ignoreAll) {
  WarningPolicy policy;
  policy.ignoreAll = ignoreAll;
  for (const std::string& value : values)
    if (std::optional<std::string> problem = apply(value, policy)) return *problem;
  return policy;
}

}  // namespace tilec::cli
