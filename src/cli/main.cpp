// tilec: compiles a .tile kernel (or .tir IR) to PTO assembly. See docs/cli.md.
#include "cli/Driver.h"
#include "cli/Options.h"

int main(int argc, char** argv) {
  tilec::cli::ParseResult parsed = tilec::cli::parseOptions(argc, argv);
  if (const int* exitCode = std::get_if<int>(&parsed)) return *exitCode;
  return tilec::cli::Driver(std::move(std::get<tilec::cli::Options>(parsed))).run();
}
