// The text or bytes of one output file, built as a list of pieces. Appending never moves
// what is already written (a 50 MB .pto is not copied as it grows, nor once more to reach
// the file), and a placeholder can be filled after the text that follows it: PTO's
// constants precede the body that discovers them. Beyond 4 MiB, finished pieces
// move to an unnamed temporary file, so a large output costs no memory while the rest of
// it is generated; writeTo() copies everything to the output file in order.
#pragma once
#include <cstddef>
#include <functional>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

namespace tilec {

class OutputBuffer : public std::ostream {
 public:
  OutputBuffer();
  explicit OutputBuffer(std::string text);
  ~OutputBuffer() override;
  OutputBuffer(const OutputBuffer&) = delete;
  OutputBuffer& operator=(const OutputBuffer&) = delete;

  // An empty piece at the current end, filled later by fill().
  struct Placeholder {
    size_t piece;
  };
  Placeholder placeholder();
  void fill(Placeholder at, std::string text);

  // Writes the whole output to `fd`; false with errno set when a write or read fails.
  bool writeTo(int fd) const;
  size_t size() const;
  std::string str() const;  // the whole text, for tests and small outputs

 private:
  struct Piece {
    std::string text;      // empty once spilled
    long spilledAt = -1;   // offset in the spill file, or -1
    size_t spilledSize = 0;
    bool placeholder = false;
  };
  class Buf : public std::streambuf {
   public:
    std::vector<Piece> pieces{1};
    int spill = -1;        // the unnamed temporary file, once opened
    long spillEnd = 0;
    size_t inMemory = 0;   // bytes of finished, unspilled pieces
    void startPiece();
    void spillFinished();

   protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
  };
  bool readSpilled(const Piece& p, const std::function<bool(const char*, size_t)>& take) const;
  Buf buf_;
};

}  // namespace tilec
