#include <doctest/doctest.h>

#include <set>
#include <string>

#include "support/StringSet.h"

using tilec::StringSet;

TEST_CASE("StringSet: insert reports whether a string is new") {
  StringSet set;
  CHECK_FALSE(set.contains("a"));
  CHECK(set.insert("a"));
  CHECK_FALSE(set.insert("a"));
  CHECK(set.insert(""));
  CHECK_FALSE(set.insert(""));
  CHECK(set.insert("ab"));
  CHECK(set.contains("a"));
  CHECK(set.contains(""));
  CHECK_FALSE(set.contains("b"));
  CHECK(set.size() == 3);
}

TEST_CASE("StringSet: agrees with std::set over many growths") {
  StringSet set;
  std::set<std::string> reference;
  // Names like an emitter's, with prefixes of one another and repeats.
  for (unsigned i = 0; i < 20000; ++i) {
    std::string name = "%t_" + std::to_string((i * 7919u) % 12000u);
    if (i % 5 == 0) name = name.substr(0, name.size() - 1);
    CHECK(set.insert(name) == reference.insert(name).second);
  }
  CHECK(set.size() == reference.size());
  for (unsigned i = 0; i < 13000; ++i) {
    std::string name = "%t_" + std::to_string(i);
    CHECK(set.contains(name) == (reference.count(name) == 1));
  }
}
