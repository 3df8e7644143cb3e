#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "lsp/CompileFlags.h"

using namespace tilec::lsp;
using Args = std::vector<std::string>;

TEST_CASE("lsp compile flags: a command splits as a shell splits it") {
  CHECK(shellSplit("tilec  k.tile\t-I 'my lib' \"-DN=1\"") == Args{"tilec", "k.tile", "-I", "my lib", "-DN=1"});
  CHECK(shellSplit("a\\ b \"x\\\"y\\z\" 'p\\q' ''") == Args{"a b", "x\"y\\z", "p\\q", ""});
  CHECK(shellSplit("  ").empty());
}

TEST_CASE("lsp compile flags: every spelling of -I -D and --target the command line takes") {
  const CompileFlags f = flagsFromArguments(
      {"tilec", "-I", "lib", "-Iinc", "-I/abs", "-D", "N=1", "-DM=2", "--target", "a5", "-o", "-Iout.pto", "--target=npu1", "k.tile"},
      "/proj", true);
  CHECK(f.includeDirs == Args{"/proj/lib", "/proj/inc", "/abs", "/proj/out.pto"});
  CHECK(f.defines == Args{"N=1", "M=2"});
  CHECK(f.target == std::optional<std::string>("npu1"));
  CHECK(f.problems.empty());
  CHECK(flagsFromArguments({"-I"}, "/p", false).includeDirs.empty());  // a flag without its value
  const CompileFlags bad = flagsFromArguments({"-D", "N", "-D1N=2"}, "/p", false);
  CHECK(bad.defines.empty());
  CHECK(bad.problems == Args{"-D N is not NAME=VALUE with NAME an identifier", "-D 1N=2 is not NAME=VALUE with NAME an identifier"});
}

TEST_CASE("lsp compile flags: compile_flags.txt has one argument a line") {
  const CompileFlags f = flagsFromFlagsFile("-I\r\nlib\n\n-DN=4\n--target=a5", "/proj/sub");
  CHECK(f.includeDirs == Args{"/proj/sub/lib"});
  CHECK(f.defines == Args{"N=4"});
  CHECK(f.target == std::optional<std::string>("a5"));
}

TEST_CASE("lsp compile flags: the database entry of the file, relative to its directory") {
  const std::string db = R"([{"directory": "/p/build", "file": "../a.tile", "arguments": ["tilec", "-I", "inc"]},
                            {"directory": "/p", "file": "/p/b.tile", "command": "tilec -I 'x y' b.tile"}, 7])";
  CHECK(flagsFromDatabase(db, "/p/a.tile")->includeDirs == Args{"/p/build/inc"});
  CHECK(flagsFromDatabase(db, "/p/b.tile")->includeDirs == Args{"/p/x y"});
  CHECK(!flagsFromDatabase(db, "/p/c.tile"));
  CHECK(!flagsFromDatabase("{\"directory\": 1}", "/p/a.tile"));
  CHECK(!flagsFromDatabase("[{\"directory\": 1, \"file\": \"a.tile\"}]", "/p/a.tile"));
}

TEST_CASE("lsp compile flags: the nearest file wins and a database without the file is passed over") {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / "tilec_lsp_compile_flags_test";
  fs::remove_all(root);
  fs::create_directories(root / "a" / "b" / "build");
  auto write = [](const fs::path& p, const std::string& text) { std::ofstream(p) << text; };
  write(root / "compile_flags.txt", "-DTOP=1\n");
  write(root / "a" / "b" / "build" / "compile_commands.json", "[]");
  write(root / "a" / "tilec_compile_commands.json",
        R"([{"directory": ")" + root.string() + R"(", "file": "a/b/k.tile", "arguments": ["tilec", "-DDB=1"]}])");
  const std::string file = (root / "a" / "b" / "k.tile").string();
  std::optional<CompileFlags> found = findCompileFlags(file, "");
  REQUIRE(found);
  CHECK(found->defines == Args{"DB=1"});
  CHECK(found->origin == (root / "a" / "tilec_compile_commands.json").string());
  CHECK(findCompileFlags((root / "a" / "other.tile").string(), "")->defines == Args{"TOP=1"});
  write(root / "given.json", R"([{"directory": "/", "file": ")" + file + R"(", "arguments": ["tilec", "-DGIVEN=1"]}])");
  CHECK(findCompileFlags(file, (root / "given.json").string())->defines == Args{"GIVEN=1"});
  CHECK(!findCompileFlags("untitled:1", ""));
  fs::remove_all(root);
}
