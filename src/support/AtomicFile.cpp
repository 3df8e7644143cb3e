#include "support/AtomicFile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

namespace tilec {

bool writeAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

namespace {

std::string errnoText() {
  std::string text = std::strerror(errno);
  if (!text.empty()) text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  return text;
}

// mkstemp creates files 0600; give the output the permissions a plain open() would.
void applyUmaskPermissions(int fd) {
  mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
}

// Devices and pipes (/dev/null, /dev/stdout, a fifo) cannot be replaced by a
// rename, and must not be: they are written in place.
bool isSpecialFile(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

// A pipe whose reader has stopped reading (`tilec k.tile -o - | head -1`) fails the write
// with EPIPE, or not, depending only on whether the reader exited before the write: the
// reader took what it wanted either way, so both count as written, and the exit status
// does not depend on that timing.
bool written(bool ok) { return ok || errno == EPIPE; }

bool writeInPlace(const std::string& path, const FileWriter& write, std::string& error) {
  int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC);
  bool ok = fd >= 0 && written(write(fd));
  if (!ok) error = errnoText();
  if (fd >= 0) ::close(fd);
  return ok;
}

}  // namespace

bool writeFileAtomically(const std::string& path, std::string_view contents, std::string& error) {
  return writeFileAtomically(path, [&](int fd) { return writeAll(fd, contents); }, error);
}

bool writeFileAtomically(const std::string& path, const FileWriter& write, std::string& error) {
  if (path == "-") {
    if (written(write(STDOUT_FILENO))) return true;
    error = "cannot write to standard output: " + errnoText();
    return false;
  }
  if (isSpecialFile(path)) return writeInPlace(path, write, error);
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    error = "it is a directory";
    return false;
  }
  std::filesystem::path target(path);
  std::filesystem::path dir = target.parent_path();
  std::string pattern =
      (dir.empty() ? std::string() : dir.string() + "/") + "." + target.filename().string() + ".tmp.XXXXXX";
  std::vector<char> tempName(pattern.begin(), pattern.end());
  tempName.push_back('\0');
  int fd = ::mkstemp(tempName.data());
  if (fd < 0) {
    error = errnoText();
    return false;
  }
  applyUmaskPermissions(fd);
  bool ok = write(fd);
  if (!ok) error = errnoText();
  if (::close(fd) != 0 && ok) {
    ok = false;
    error = errnoText();
  }
  if (ok && ::rename(tempName.data(), path.c_str()) != 0) {
    ok = false;
    error = errnoText();
  }
  if (!ok) ::unlink(tempName.data());
  return ok;
}

}  // namespace tilec
