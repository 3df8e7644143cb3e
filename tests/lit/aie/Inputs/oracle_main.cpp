// The equivalence oracle's driver: calls a generated builder (BUILD, a build_<kernel>_from
// function of the header given with -include) on the sizes on its command line and prints
// the words as tilec --emit=txn-text does, or "refused: <why>" with exit status 3.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <variant>
#include <vector>

int main(int argc, char** argv) {
  std::vector<int64_t> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::strtoll(argv[i], nullptr, 10));
  auto result = BUILD(sizes);
  if (const std::string* why = std::get_if<std::string>(&result)) {
    std::printf("refused: %s\n", why->c_str());
    return 3;
  }
  for (uint32_t w : std::get<std::vector<uint32_t>>(result)) std::printf("%08" PRIX32 "\n", w);
  return 0;
}
