// PointerMap: every inserted key is found with its value, through growth; absent keys are not.
#include <doctest/doctest.h>

#include <memory>
#include <vector>

#include "support/PointerMap.h"

using namespace tilec;

TEST_CASE("pointer map: finds every key through growth, and no absent one") {
  std::vector<std::unique_ptr<int>> keys;
  for (int i = 0; i < 100000; ++i) keys.push_back(std::make_unique<int>(i));
  PointerMap<int, long> map;
  for (const auto& k : keys) map[k.get()] = *k * 3L;
  CHECK(map.size() == keys.size());
  for (const auto& k : keys) {
    REQUIRE(map.find(k.get()));
    CHECK(*map.find(k.get()) == *k * 3L);
  }
  int absent = 0;
  CHECK_FALSE(map.find(&absent));
  CHECK_FALSE(map.contains(&absent));
  CHECK_THROWS_AS(map.at(&absent), std::out_of_range);
  map[keys[7].get()] = -1;  // an existing key is updated, not added
  CHECK(map.at(keys[7].get()) == -1);
  CHECK(map.size() == keys.size());
}
