#pragma once
// The one place the version lives: CMakeLists.txt parses these three lines.
#define SABANDIT_VERSION_MAJOR 0
#define SABANDIT_VERSION_MINOR 2
#define SABANDIT_VERSION_PATCH 0

#define SABANDIT_VERSION_STRING "0.2.0"
