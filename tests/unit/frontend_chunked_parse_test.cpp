// The chunked fast path (ChunkedParse.h) against the whole-file parse: on every .tile
// file of the repository it must build the same AST, ranges included, or decline; it
// must take every file without errors (or compile time silently falls back); and it
// must decline every file with a lexical, syntax or AST-builder error.
#include <doctest/doctest.h>

#include <pthread.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "frontend/Ast.h"
#include "frontend/ChunkedParse.h"
#include "frontend/Frontend.h"
#include "frontend/TokenRanges.h"

using namespace tilec;

namespace {

std::string printed(const ast::Module& m, const SourceManager& sm) {
  std::ostringstream os;
  frontend::printAst(m, sm, os);
  return os.str();
}

struct Both {
  explicit Both(const std::string& name, const std::string& text) : diags(sm) {
    file = sm.addBuffer(name, text);
    chunked = frontend::parseChunked(sm, sm.contents(file), frontend::TokenRanges(file, sm.contents(file)));
    whole = frontend::parseWholeFile(sm, file, diags);
  }
  SourceManager sm;
  DiagnosticEngine diags;
  FileId file = 0;
  std::unique_ptr<ast::Module> chunked, whole;
};

bool notUtf8(const DiagnosticEngine& diags) {
  for (const Diagnostic& d : diags.all())
    if (d.message.find("not valid UTF-8") != std::string::npos) return true;
  return false;
}

std::vector<std::filesystem::path> tileFiles() {
  std::vector<std::filesystem::path> files;
  for (const char* dir : {"samples", "tests", "bench"})
    for (const auto& e : std::filesystem::recursive_directory_iterator(std::filesystem::path(TILEC_SOURCE_DIR) / dir))
      if (e.is_regular_file() && e.path().extension() == ".tile") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string readAll(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

}  // namespace

TEST_CASE("chunked parse: the same AST as the whole-file parse on every .tile file, or none") {
  size_t taken = 0, files = 0;
  for (const auto& path : tileFiles()) {
    ++files;
    Both both(path.string(), readAll(path));
    CAPTURE(path.string());
    if (both.whole && !both.diags.errorCount()) {
      REQUIRE(both.chunked);  // a file without errors takes the fast path
      CHECK(printed(*both.chunked, both.sm) == printed(*both.whole, both.sm));
      ++taken;
    } else if (!notUtf8(both.diags)) {  // parse() checks UTF-8 before either path
      CHECK_FALSE(both.chunked);
    }
  }
  CHECK(files > 100);
  CHECK(taken > 50);
}

TEST_CASE("chunked parse: declines what the whole-file parse reports") {
  const char* inputs[] = {
      "kernel k() { let a = 1 $ 2; }",                      // bad character
      "kernel k() { let a = 1; /* open",                     // unterminated comment
      "kernel k() { let a = ; }",                            // syntax error
      "kernel k() { let a = 1; ",                            // unclosed block
      "kernel k() { let a = 1; } }",                         // stray brace
      "kernel k() { if a { } else }",                        // else without a block
      "kernel k() { let a = 99999999999999999999; }",        // literal out of range (AST builder)
      "kernel k() { region r { } }",                         // reserved syntax (AST builder)
      "pattern p;",                                          // reserved at file level
  };
  for (const char* text : inputs) {
    CAPTURE(text);
    Both both("t.tile", text);
    CHECK_FALSE(both.chunked);
    CHECK(both.diags.errorCount() > 0);
  }
}

// Runs `f` on a thread with the compiler's big stack (src/cli/main.cpp): the parser recurses
// as deep as the nesting bound before the bound is seen to be passed, deeper than a test
// thread's stack holds under AddressSanitizer.
template <class F>
void onBigStack(F f) {
  pthread_attr_t attr;
  pthread_t thread;
  REQUIRE(pthread_attr_init(&attr) == 0);
  REQUIRE(pthread_attr_setstacksize(&attr, size_t(512) << 20) == 0);
  auto run = [](void* arg) -> void* {
    (*static_cast<F*>(arg))();
    return nullptr;
  };
  REQUIRE(pthread_create(&thread, &attr, run, &f) == 0);
  pthread_join(thread, nullptr);
}

TEST_CASE("chunked parse: nesting past the bound is declined") {
  std::string deep = "kernel k() { let a = ";
  deep += std::string(5000, '(') + "1" + std::string(5000, ')') + "; }";
  bool chunked = true;
  unsigned errors = 0;
  onBigStack([&] {
    Both both("t.tile", deep);
    chunked = both.chunked != nullptr;
    errors = both.diags.errorCount();
  });
  CHECK_FALSE(chunked);
  CHECK(errors == 1);
}

TEST_CASE("chunked parse: heads, else-if chains and nested blocks keep their ranges") {
  const std::string text =
      "const N = 4;\n"
      "aiv kernel k(x: in f32[16, 16], y: out f32[16, 16]) where S: dyn {\n"
      "  unroll for i in 0 .. N step 2 {\n"
      "    if i == 0 { let a = 1; } else if i == 2 { { let b = 2; } } else { let c = 3; }\n"
      "  }\n"
      "  store(y, [0, 0], load(x, [0, 0], [16, 16]));\n"
      "}\n";
  Both both("t.tile", text);
  REQUIRE(both.chunked);
  REQUIRE(both.whole);
  CHECK(printed(*both.chunked, both.sm) == printed(*both.whole, both.sm));
}
