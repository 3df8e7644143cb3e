// tilec: compiles a .tile kernel (or .tir IR) to PTO assembly. See docs/cli.md.
#include <csignal>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <string_view>

#include "cli/Driver.h"
#include "cli/Fmt.h"
#include "cli/Options.h"
#include "lsp/Server.h"

namespace {

// Under AddressSanitizer, whose leak checker would report it, the IR is freed at exit.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kLeakChecked = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kLeakChecked = true;
#else
constexpr bool kLeakChecked = false;
#endif
#else
constexpr bool kLeakChecked = false;
#endif

// Deeply nested input recurses deeply in the parsers and tree walks. The compiler
// runs on a thread whose stack is reserved large (pages are committed only when
// touched), so such input is compiled or rejected, not a stack overflow.
constexpr size_t kStackBytes = size_t(512) << 20;

// A large program's IR spans hundreds of megabytes, and walking it with 4 KiB pages is
// mostly TLB misses: glibc's malloc does much better with one arena backed by transparent
// huge pages (measured on a 1M-step kernel: 47 s -> 26 s, 2.7 -> 2.3 s at 100k steps), but
// only its tunables, read at process start, can ask for that. So when an input on the
// command line is large, tilec runs itself again with them. Small compiles are untouched
// (the second start would cost more than it saves). TILEC_HEAP_TUNED set in the
// environment, by this or by the user, turns it off.
constexpr off_t kLargeInputBytes = off_t(64) << 10;

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() > suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool namesLargeInput(char** argv) {
  for (char** arg = argv + 1; *arg; ++arg) {
    const bool source = endsWith(*arg, ".tile") || endsWith(*arg, ".tir");
    struct stat st;
    if (source && ::stat(*arg, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= kLargeInputBytes) return true;
  }
  return false;
}

void rerunWithLargeHeap(char** argv) {
  if (std::getenv("TILEC_HEAP_TUNED") || !namesLargeInput(argv)) return;
  std::string tunables = "glibc.malloc.hugetlb=1";
  if (const char* given = std::getenv("GLIBC_TUNABLES"); given && *given) tunables = std::string(given) + ":" + tunables;
  ::setenv("GLIBC_TUNABLES", tunables.c_str(), 1);
  ::setenv("MALLOC_ARENA_MAX", "1", 1);
  ::setenv("TILEC_HEAP_TUNED", "1", 1);
  ::execv("/proc/self/exe", argv);  // returns only on failure: compile as we are
}

struct Invocation {
  int argc;
  char** argv;
  int exitCode = 0;
};

int compile(int argc, char** argv) {
  // The language server analyses documents with the compiler, so it gets the same big stack.
  if (argc > 1 && std::string_view(argv[1]) == "lsp") return tilec::lsp::runLsp(argc - 1, argv + 1);
  if (argc > 1 && std::string_view(argv[1]) == "fmt") return tilec::cli::runFmt(argc - 1, argv + 1);
  tilec::cli::ParseResult parsed = tilec::cli::parseOptions(argc, argv);
  if (const int* exitCode = std::get_if<int>(&parsed)) return *exitCode;
  tilec::cli::Driver driver(std::move(std::get<tilec::cli::Options>(parsed)));
  const int code = driver.run();
  if (!kLeakChecked) driver.abandonIr();
  return code;
}

void* compileOnThread(void* arg) {
  auto* inv = static_cast<Invocation*>(arg);
  inv->exitCode = compile(inv->argc, inv->argv);
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  // A reader that stops early (`tilec k.tile -o - | head -1`) makes the write fail with
  // EPIPE, which writeFileAtomically takes as written, rather than killing the process
  // mid-write: the exit status is the same whether the reader left before the write or not.
  std::signal(SIGPIPE, SIG_IGN);
  rerunWithLargeHeap(argv);
  Invocation inv{argc, argv};
  pthread_attr_t attr;
  pthread_t thread;
  bool started = pthread_attr_init(&attr) == 0 && pthread_attr_setstacksize(&attr, kStackBytes) == 0 &&
                 pthread_create(&thread, &attr, &compileOnThread, &inv) == 0;
  if (!started) return compile(argc, argv);  // no big stack to be had: compile on this one
  pthread_join(thread, nullptr);
  return inv.exitCode;
}
