//===- Main.cpp - Catch2 entry point for tilec's unit tests ---------------===//
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
