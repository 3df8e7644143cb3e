// A main() for the libFuzzer harnesses in the ordinary (GCC) test build: runs the harness
// once on every file under the given directories whose name ends in one of the given
// suffixes, in sorted order. The test suite replays the fuzzers' seed inputs this way, so
// a harness that no longer compiles, or a seed that now crashes, fails the ordinary tests
// and not only the clang fuzz run.
//   fuzz_replay_<harness> DIR... -- SUFFIX...
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

bool endsWithAny(const std::string& name, const std::vector<std::string>& suffixes) {
  return std::any_of(suffixes.begin(), suffixes.end(), [&](const std::string& s) {
    return name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
  });
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> dirs, suffixes;
  bool inSuffixes = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") inSuffixes = true;
    else (inSuffixes ? suffixes : dirs).push_back(arg);
  }
  std::vector<std::string> files;
  for (const std::string& dir : dirs)
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
      if (entry.is_regular_file() && endsWithAny(entry.path().string(), suffixes))
        files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::fprintf(stderr, "replay: no input ends in any of the given suffixes\n");
    return 2;
  }
  for (const std::string& file : files) {
    std::ifstream in(file, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::fprintf(stderr, "replay: %s\n", file.c_str());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  }
  std::printf("replayed %zu inputs\n", files.size());
  return 0;
}
