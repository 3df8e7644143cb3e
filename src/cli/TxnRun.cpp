#include "cli/TxnRun.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "backend/aie/AieModel.h"
#include "backend/aie/TxnExecutor.h"
#include "interp/Npy.h"
#include "ir/Describe.h"
#include "support/Wording.h"

namespace tilec::cli {

namespace {

const char* const kStreamForms = "a stream as tilec --emit=txn, --emit=txn-text (or a builder's driver printing "
                                 "its words) or --decode writes it";

std::optional<std::string> readFile(const std::string& path, DiagnosticEngine& diags) {
  std::error_code ec;
  std::ifstream in(path, std::ios::binary);
  if (std::filesystem::is_directory(path, ec) || !in) {
    std::string why = in ? "it is a directory" : std::strerror(errno);
    if (!why.empty()) why[0] = char(std::tolower(static_cast<unsigned char>(why[0])));
    diags.report(Diag::InputNotFound, {},
                 "cannot read --stream file '" + path + "': " + why + "; name " + std::string(kStreamForms));
    return std::nullopt;
  }
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The whole of line `line` of `file`, for a diagnostic at a line of a text stream.
SourceRange lineRange(const SourceManager& sources, FileId file, size_t line) {
  const uint32_t begin = sources.offsetOf(file, uint32_t(line), 0);
  return {file, begin, begin + uint32_t(sources.lineText(file, uint32_t(line)).size())};
}

// Where op `index` starts in the binary form of the stream: after the 16-byte header and the
// ops before it.
size_t byteOfOp(const aie::TxnStream& s, size_t index) {
  size_t at = 16;
  for (size_t i = 0; i < index && i < s.ops.size(); ++i) at += s.ops[i].words.size() * 4;
  return at;
}

// "0 is tensor 'x' (i32[16], 64 bytes)": what the executor's argument numbers are.
std::string argumentList(const ir::Function& f, const std::vector<interp::RtValue>& args) {
  std::vector<std::string> items;
  for (unsigned i = 0; i < f.numParams() && i < args.size(); ++i) {
    const auto* t = std::get_if<interp::Tensor>(&args[i]);
    if (!t) continue;
    items.push_back(std::to_string(i) + " is tensor '" + f.param(i)->name() + "' (" +
                    ir::dtypeName(t->data->dtype) + ir::shapeText(t->dims) + ", " +
                    std::to_string(interp::tensorBytes(*t).size()) + " bytes)");
  }
  return items.empty() ? "the kernel has no tensor parameters" : "argument " + listText(items);
}

}  // namespace

std::optional<aie::TxnStream> readStreamFile(const std::string& path, SourceManager& sources,
                                             DiagnosticEngine& diags) {
  std::optional<std::string> contents = readFile(path, diags);
  if (!contents) return std::nullopt;
  aie::TxnForm form;
  aie::TxnError error;
  std::optional<aie::TxnStream> stream = aie::readTxnAnyForm(*contents, form, error);
  if (stream) return stream;
  if (form == aie::TxnForm::Binary) {
    diags.report(Diag::BadStream, {},
                 "--stream file '" + path + "' is no TXN stream: at byte " + std::to_string(error.position) + ", " + error.message +
                     "; give " + kStreamForms);
    return std::nullopt;
  }
  const char* what = form == aie::TxnForm::Listing ? "the TXN listing does not encode" : "the words are no TXN stream";
  const FileId file = sources.addBuffer(path, std::move(*contents));
  diags.report(Diag::BadStream, lineRange(sources, file, error.position),
               std::string(what) + ": " + error.message + "; give " + kStreamForms);
  return std::nullopt;
}

bool streamFitsTarget(const aie::TxnStream& stream, const std::string& streamName, const ir::TargetModel& target,
                      DiagnosticEngine& diags) {
  const tilec_txn::Device header{stream.devGen, stream.numRows, stream.numCols, stream.numMemTileRows};
  auto same = [&](const tilec_txn::Device& d) {
    return d.devGen == header.devGen && d.numRows == header.numRows && d.numCols == header.numCols &&
           d.numMemTileRows == header.numMemTileRows;
  };
  const aie::NpuDevice want = aie::npuOf(target);
  if (stream.major != 0 || same(aie::npuDevice(want))) return true;  // the executor refuses legacy streams
  std::string fix = "no target has that device; give a stream written for " + std::string(aie::npuName(want));
  for (aie::NpuDevice d : aie::npuDevices())
    if (same(aie::npuDevice(d))) fix = "give --target=" + std::string(aie::npuName(d)) + ", the device it was written for";
  diags.report(Diag::StreamOtherDevice, {},
               "the stream '" + streamName + "' was written for a device of generation " +
                   std::to_string(header.devGen) + " with " + std::to_string(header.numCols) + " columns of " +
                   std::to_string(header.numRows) + " rows (its header), not for " + aie::npuName(want) + "; " + fix);
  return false;
}

bool runStream(const aie::TxnStream& stream, const std::string& streamName, const ir::Function& f,
               std::vector<interp::RtValue>& args, DiagnosticEngine& diags) {
  std::vector<std::vector<uint8_t>> buffers(args.size());
  for (size_t i = 0; i < args.size(); ++i)
    if (const auto* t = std::get_if<interp::Tensor>(&args[i])) buffers[i] = interp::tensorBytes(*t);
  size_t failed = 0;
  const std::string why = aie::executeTxn(stream, buffers, aie::kMaxTxnBytesMoved, &failed);
  if (!why.empty()) {
    const std::string op = failed < stream.ops.size() ? aie::txnOpName(stream.ops[failed]) : "?";
    diags.report(Diag::StreamRunFault, {},
                 "the stream '" + streamName + "' does not run on these buffers: its op " + std::to_string(failed) +
                     " (" + op + ", at byte " + std::to_string(byteOfOp(stream, failed)) + " of the binary): " + why +
                     "; give the arrays and sizes the stream was built for (the host runs it with the device as a "
                     "loopback: S2MM channel n of a column writes back the bytes MM2S channel n of that column read)")
        .notes.push_back({"the host buffers by argument index: " + argumentList(f, args), {}});
    return false;
  }
  for (size_t i = 0; i < args.size(); ++i)
    if (auto* t = std::get_if<interp::Tensor>(&args[i])) interp::setTensorBytes(*t, buffers[i]);
  return true;
}

}  // namespace tilec::cli
