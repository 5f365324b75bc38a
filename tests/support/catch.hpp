#pragma once
// The one include of Catch2 for every test file (Debian 12 ships Catch2 v2.13).
#include <catch2/catch.hpp>
