// The text or bytes of one output file, built in memory as a list of pieces. Appending
// never moves what is already written (a 50 MB .pto is not copied as it grows, nor once
// more to reach the file), and a placeholder can be filled after the text that follows
// it: PTO's constants precede the body that discovers them. The driver writes the pieces
// to the output file in one pass (writeFileAtomically).
#pragma once
#include <cstddef>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

class OutputBuffer : public std::ostream {
 public:
  OutputBuffer();
  explicit OutputBuffer(std::string text);
  OutputBuffer(const OutputBuffer&) = delete;
  OutputBuffer& operator=(const OutputBuffer&) = delete;

  // An empty piece at the current end, filled later by fill().
  struct Placeholder {
    size_t piece;
  };
  Placeholder placeholder();
  void fill(Placeholder at, std::string text);

  std::vector<std::string_view> pieces() const;
  size_t size() const;
  std::string str() const;  // the whole text, for tests and small outputs

 private:
  class Buf : public std::streambuf {
   public:
    std::vector<std::string> pieces{1};
    void startPiece();

   protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
  };
  Buf buf_;
};

}  // namespace tilec
