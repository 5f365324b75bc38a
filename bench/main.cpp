// The benchmarks' main: Google Benchmark's own, preceded by one line saying what sabandit's
// code was compiled for. Debian's libbenchmark is built without NDEBUG, so the harness prints
// "***WARNING*** Library was built as DEBUG"; that is about the library, not about the code
// under test (the timed `for (auto _ : state)` loop is inlined from benchmark.h into this
// build), and a reader should not have to guess which one is meant.
#include <benchmark/benchmark.h>

#include <Eigen/Core>

#include <cstdio>

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
#ifdef NDEBUG
  constexpr const char* build = "optimised (NDEBUG)";
#else
  constexpr const char* build = "without NDEBUG (a Debug build: do not quote its timings)";
#endif
  std::fprintf(stderr,
               "sabandit benchmarks: compiled %s; vector instructions: %s.\n"
               "A \"Library was built as DEBUG\" warning below is about Debian's libbenchmark "
               "(built without NDEBUG), not this code.\n",
               build, Eigen::SimdInstructionSetsInUse());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
