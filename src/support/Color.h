// Terminal colors for diagnostics: when to use them (the --color flag and the
// NO_COLOR / CLICOLOR_FORCE / TERM conventions) and the ANSI sequences.
#pragma once
#include <optional>
#include <string_view>

namespace tilec {

enum class ColorMode { Auto, Always, Never };
std::optional<ColorMode> parseColorMode(std::string_view s);  // "auto" | "always" | "never"

// The environment facts the decision depends on, gathered separately so the rule is testable.
struct ColorEnvironment {
  const char* noColor = nullptr;        // $NO_COLOR
  const char* cliColorForce = nullptr;  // $CLICOLOR_FORCE
  const char* term = nullptr;           // $TERM
  bool stderrIsTerminal = false;
  static ColorEnvironment current();
};

// An explicit always/never wins; otherwise a non-empty NO_COLOR disables colors, a
// CLICOLOR_FORCE other than "" or "0" enables them, and else colors need a terminal
// whose TERM is not "dumb".
bool shouldUseColor(ColorMode mode, const ColorEnvironment& env);

namespace ansi {
constexpr std::string_view reset = "\033[0m";
constexpr std::string_view bold = "\033[1m";
constexpr std::string_view boldRed = "\033[1;31m";
constexpr std::string_view boldMagenta = "\033[1;35m";
constexpr std::string_view boldCyan = "\033[1;36m";
constexpr std::string_view boldGreen = "\033[1;32m";
}  // namespace ansi

}  // namespace tilec
