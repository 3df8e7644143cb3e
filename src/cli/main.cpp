// tilec: compiles a .tile kernel (or .tir IR) to PTO assembly. See docs/cli.md.
#include <pthread.h>

#include <string_view>

#include "cli/Driver.h"
#include "cli/Options.h"
#include "lsp/Server.h"

namespace {

// Deeply nested input recurses deeply in the parsers and tree walks. The compiler
// runs on a thread whose stack is reserved large (pages are committed only when
// touched), so such input is compiled or rejected, not a stack overflow.
constexpr size_t kStackBytes = size_t(512) << 20;

struct Invocation {
  int argc;
  char** argv;
  int exitCode = 0;
};

int compile(int argc, char** argv) {
  // The language server analyses documents with the compiler, so it gets the same big stack.
  if (argc > 1 && std::string_view(argv[1]) == "lsp") return tilec::lsp::runLsp(argc - 1, argv + 1);
  tilec::cli::ParseResult parsed = tilec::cli::parseOptions(argc, argv);
  if (const int* exitCode = std::get_if<int>(&parsed)) return *exitCode;
  return tilec::cli::Driver(std::move(std::get<tilec::cli::Options>(parsed))).run();
}

void* compileOnThread(void* arg) {
  auto* inv = static_cast<Invocation*>(arg);
  inv->exitCode = compile(inv->argc, inv->argv);
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  Invocation inv{argc, argv};
  pthread_attr_t attr;
  pthread_t thread;
  bool started = pthread_attr_init(&attr) == 0 && pthread_attr_setstacksize(&attr, kStackBytes) == 0 &&
                 pthread_create(&thread, &attr, &compileOnThread, &inv) == 0;
  if (!started) return compile(argc, argv);  // no big stack to be had: compile on this one
  pthread_join(thread, nullptr);
  return inv.exitCode;
}
