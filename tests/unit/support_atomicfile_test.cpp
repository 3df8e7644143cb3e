#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "support/AtomicFile.h"

using namespace tilec;
namespace fs = std::filesystem;

namespace {

// A fresh directory per test case, removed afterwards.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "tilec-atomic-XXXXXX").string();
    path = mkdtemp(pattern.data());
  }
  ~TempDir() { fs::remove_all(path); }
  size_t entries() const { return static_cast<size_t>(std::distance(fs::directory_iterator(path), {})); }
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("atomic file: writes the contents and leaves no temporary file") {
  TempDir dir;
  std::string error;
  fs::path out = dir.path / "k.pto";
  REQUIRE(writeFileAtomically(out.string(), "module {}\n", error));
  CHECK(slurp(out) == "module {}\n");
  CHECK(dir.entries() == 1);
  REQUIRE(writeFileAtomically(out.string(), "replaced", error));
  CHECK(slurp(out) == "replaced");
  CHECK(dir.entries() == 1);
}

TEST_CASE("atomic file: the result gets umask permissions, not mkstemp's 0600") {
  TempDir dir;
  std::string error;
  fs::path out = dir.path / "perm.pto";
  mode_t old = umask(022);
  REQUIRE(writeFileAtomically(out.string(), "x", error));
  umask(old);
  struct stat st;
  REQUIRE(stat(out.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0644);
}

TEST_CASE("atomic file: a missing directory is an error and nothing is created") {
  TempDir dir;
  std::string error;
  fs::path out = dir.path / "missing" / "k.pto";
  CHECK_FALSE(writeFileAtomically(out.string(), "x", error));
  CHECK(error == "no such file or directory");
  CHECK(dir.entries() == 0);
}

TEST_CASE("atomic file: a relative path in the current directory works") {
  TempDir dir;
  fs::path old = fs::current_path();
  fs::current_path(dir.path);
  std::string error;
  bool ok = writeFileAtomically("rel.pto", "r", error);
  fs::current_path(old);
  REQUIRE(ok);
  CHECK(slurp(dir.path / "rel.pto") == "r");
  CHECK(dir.entries() == 1);
}

TEST_CASE("atomic file: a device such as /dev/null is written in place, not replaced") {
  std::string error;
  CHECK(writeFileAtomically("/dev/null", "discarded", error));
  struct stat st;
  REQUIRE(stat("/dev/null", &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
}

TEST_CASE("atomic file: a directory as the output path is an error") {
  TempDir dir;
  std::string error;
  CHECK_FALSE(writeFileAtomically(dir.path.string(), "x", error));
  CHECK_FALSE(error.empty());
  CHECK(dir.entries() == 0);
}
