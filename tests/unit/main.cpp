// The doctest runner for every tests/unit/*_test.cpp file.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
