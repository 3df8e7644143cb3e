#include "support/Color.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace tilec {

std::optional<ColorMode> parseColorMode(std::string_view s) {
  if (s == "auto") return ColorMode::Auto;
  if (s == "always") return ColorMode::Always;
  if (s == "never") return ColorMode::Never;
  return std::nullopt;
}

ColorEnvironment ColorEnvironment::current() {
  ColorEnvironment env;
  env.noColor = std::getenv("NO_COLOR");
  env.cliColorForce = std::getenv("CLICOLOR_FORCE");
  env.term = std::getenv("TERM");
  env.stderrIsTerminal = isatty(STDERR_FILENO) != 0;
  return env;
}

bool shouldUseColor(ColorMode mode, const ColorEnvironment& env) {
  if (mode != ColorMode::Auto) return mode == ColorMode::Always;
  if (env.noColor && *env.noColor) return false;
  if (env.cliColorForce && *env.cliColorForce && std::strcmp(env.cliColorForce, "0") != 0)
    return true;
  return env.stderrIsTerminal && !(env.term && std::strcmp(env.term, "dumb") == 0);
}

}  // namespace tilec
