#include "support/OutputBuffer.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <functional>

#include "support/AtomicFile.h"

namespace tilec {
namespace {

// Pieces are filled to about this size; a larger write goes into one piece whole.
constexpr size_t kPieceBytes = size_t(1) << 20;
// Finished pieces stay in memory up to this much; beyond it they are spilled.
constexpr size_t kKeepInMemory = size_t(4) << 20;

// An unnamed file in $TMPDIR (or /tmp), gone when closed; -1 if none can be made.
int openSpillFile() {
  const char* dir = std::getenv("TMPDIR");
  std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/tilec-output.XXXXXX";
  int fd = ::mkstemp(pattern.data());
  if (fd >= 0) ::unlink(pattern.c_str());
  return fd;
}

}  // namespace

OutputBuffer::OutputBuffer() : std::ostream(nullptr) {
  buf_.pieces.back().text.reserve(kPieceBytes);
  rdbuf(&buf_);
}

OutputBuffer::OutputBuffer(std::string text) : OutputBuffer() { buf_.pieces.back().text = std::move(text); }

OutputBuffer::~OutputBuffer() {
  if (buf_.spill >= 0) ::close(buf_.spill);
}

void OutputBuffer::Buf::startPiece() {
  if (!pieces.back().placeholder) inMemory += pieces.back().text.size();
  if (inMemory > kKeepInMemory) spillFinished();
  pieces.emplace_back();
  pieces.back().text.reserve(kPieceBytes);
}

// Moves every finished piece but the placeholders to the spill file. Without one (no
// temporary directory), or after a failed write, the pieces simply stay in memory.
void OutputBuffer::Buf::spillFinished() {
  if (spill < 0) spill = openSpillFile();
  if (spill < 0) return;
  for (Piece& p : pieces) {
    if (p.placeholder || p.spilledAt >= 0 || p.text.empty()) continue;
    if (::lseek(spill, spillEnd, SEEK_SET) != spillEnd || !writeAll(spill, p.text)) return;
    p.spilledAt = spillEnd;
    p.spilledSize = p.text.size();
    spillEnd += long(p.spilledSize);
    inMemory -= p.spilledSize;
    std::string().swap(p.text);
  }
}

OutputBuffer::Buf::int_type OutputBuffer::Buf::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  const char ch = traits_type::to_char_type(c);
  xsputn(&ch, 1);
  return c;
}

std::streamsize OutputBuffer::Buf::xsputn(const char* s, std::streamsize n) {
  const size_t count = size_t(n);
  std::string& last = pieces.back().text;
  if (last.size() + count > last.capacity() && !last.empty()) startPiece();
  pieces.back().text.append(s, count);
  return n;
}

OutputBuffer::Placeholder OutputBuffer::placeholder() {
  flush();
  buf_.startPiece();
  buf_.pieces.back().placeholder = true;
  const Placeholder at{buf_.pieces.size() - 1};
  buf_.startPiece();
  return at;
}

void OutputBuffer::fill(Placeholder at, std::string text) { buf_.pieces[at.piece].text = std::move(text); }

bool OutputBuffer::readSpilled(const Piece& p, const std::function<bool(const char*, size_t)>& take) const {
  std::string chunk(kPieceBytes, '\0');
  for (size_t done = 0; done < p.spilledSize;) {
    const ssize_t n = ::pread(buf_.spill, chunk.data(), std::min(chunk.size(), p.spilledSize - done),
                              off_t(p.spilledAt + long(done)));
    if (n <= 0) return false;
    if (!take(chunk.data(), size_t(n))) return false;
    done += size_t(n);
  }
  return true;
}

bool OutputBuffer::writeTo(int fd) const {
  for (const Piece& p : buf_.pieces) {
    const bool ok = p.spilledAt >= 0
                        ? readSpilled(p, [&](const char* data, size_t n) { return writeAll(fd, {data, n}); })
                        : writeAll(fd, p.text);
    if (!ok) return false;
  }
  return true;
}

size_t OutputBuffer::size() const {
  size_t n = 0;
  for (const Piece& p : buf_.pieces) n += p.spilledAt >= 0 ? p.spilledSize : p.text.size();
  return n;
}

std::string OutputBuffer::str() const {
  std::string out;
  out.reserve(size());
  for (const Piece& p : buf_.pieces) {
    if (p.spilledAt < 0) out += p.text;
    else readSpilled(p, [&](const char* data, size_t n) { return out.append(data, n), true; });
  }
  return out;
}

}  // namespace tilec
