#include "support/OutputBuffer.h"

namespace tilec {
namespace {

// Pieces are filled to about this size; a larger write goes into one piece whole.
constexpr size_t kPieceBytes = size_t(1) << 20;

}  // namespace

OutputBuffer::OutputBuffer() : std::ostream(nullptr) {
  buf_.pieces.back().reserve(kPieceBytes);
  rdbuf(&buf_);
}

OutputBuffer::OutputBuffer(std::string text) : OutputBuffer() { buf_.pieces.back() = std::move(text); }

void OutputBuffer::Buf::startPiece() {
  pieces.emplace_back();
  pieces.back().reserve(kPieceBytes);
}

OutputBuffer::Buf::int_type OutputBuffer::Buf::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  const char ch = traits_type::to_char_type(c);
  xsputn(&ch, 1);
  return c;
}

std::streamsize OutputBuffer::Buf::xsputn(const char* s, std::streamsize n) {
  const size_t count = size_t(n);
  if (pieces.back().size() + count > pieces.back().capacity() && !pieces.back().empty()) startPiece();
  pieces.back().append(s, count);
  return n;
}

OutputBuffer::Placeholder OutputBuffer::placeholder() {
  flush();
  buf_.pieces.emplace_back();  // stays empty until fill()
  const Placeholder at{buf_.pieces.size() - 1};
  buf_.startPiece();
  return at;
}

void OutputBuffer::fill(Placeholder at, std::string text) { buf_.pieces[at.piece] = std::move(text); }

std::vector<std::string_view> OutputBuffer::pieces() const {
  std::vector<std::string_view> out;
  for (const std::string& p : buf_.pieces)
    if (!p.empty()) out.emplace_back(p);
  return out;
}

size_t OutputBuffer::size() const {
  size_t n = 0;
  for (const std::string& p : buf_.pieces) n += p.size();
  return n;
}

std::string OutputBuffer::str() const {
  std::string out;
  out.reserve(size());
  for (const std::string& p : buf_.pieces) out += p;
  return out;
}

}  // namespace tilec
