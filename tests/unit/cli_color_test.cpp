#include <doctest/doctest.h>

#include "support/Color.h"

using namespace tilec;

namespace {

ColorEnvironment env(const char* noColor, const char* force, const char* term, bool tty) {
  ColorEnvironment e;
  e.noColor = noColor;
  e.cliColorForce = force;
  e.term = term;
  e.stderrIsTerminal = tty;
  return e;
}

}  // namespace

TEST_CASE("color: an explicit flag wins over the environment") {
  CHECK(shouldUseColor(ColorMode::Always, env("1", nullptr, "dumb", false)));
  CHECK_FALSE(shouldUseColor(ColorMode::Never, env(nullptr, "1", "xterm", true)));
}

TEST_CASE("color: auto follows NO_COLOR, then CLICOLOR_FORCE, then the terminal") {
  CHECK(shouldUseColor(ColorMode::Auto, env(nullptr, nullptr, "xterm", true)));
  CHECK_FALSE(shouldUseColor(ColorMode::Auto, env(nullptr, nullptr, "xterm", false)));
  CHECK_FALSE(shouldUseColor(ColorMode::Auto, env(nullptr, nullptr, "dumb", true)));
  CHECK(shouldUseColor(ColorMode::Auto, env(nullptr, nullptr, nullptr, true)));
  CHECK_FALSE(shouldUseColor(ColorMode::Auto, env("1", nullptr, "xterm", true)));
  CHECK(shouldUseColor(ColorMode::Auto, env("", nullptr, "xterm", true)));  // empty NO_COLOR: unset
  CHECK_FALSE(shouldUseColor(ColorMode::Auto, env("1", "1", "xterm", true)));
  CHECK(shouldUseColor(ColorMode::Auto, env(nullptr, "1", "dumb", false)));
  CHECK_FALSE(shouldUseColor(ColorMode::Auto, env(nullptr, "0", "xterm", false)));
}

TEST_CASE("color: mode names") {
  CHECK(parseColorMode("auto") == ColorMode::Auto);
  CHECK(parseColorMode("always") == ColorMode::Always);
  CHECK(parseColorMode("never") == ColorMode::Never);
  CHECK_FALSE(parseColorMode("sometimes"));
}
