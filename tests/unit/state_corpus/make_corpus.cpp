// Writes the version-1 corpus (corpus.hpp) into the current directory: for each case,
// <name>.state (the policy's block, then its engine's, then the rewards' engine's, saved after
// corpus::rounds_before rounds) and <name>.arms (the next corpus::rounds_after decisions, one
// per line). Run once, at commit 51bbfa1, from this folder:
//   g++ -std=c++20 -O1 -I../../../include -I/usr/include/eigen3 make_corpus.cpp -o /tmp/mc
//   /tmp/mc
// Not built by CMake: the corpus records what an older library wrote, so regenerating it with
// today's library would test nothing.
#include <fstream>
#include <string>

#include "corpus.hpp"

int main() {
  corpus::for_each_case([](const std::string& name, auto policy, corpus::rewards kind) {
    sabandit::xoshiro256pp gen(2026), env(7);
    const auto round = [&] {
      const Eigen::Index arm = policy.select(gen);
      policy.update(arm, corpus::draw(kind, arm, env), gen);
      return arm;
    };
    for (int t = 0; t < corpus::rounds_before; ++t) round();
    std::ofstream state(name + ".state");
    sabandit::state::save(state, policy);
    sabandit::state::save(state, gen);
    sabandit::state::save(state, env);
    std::ofstream arms(name + ".arms");
    for (int t = 0; t < corpus::rounds_after; ++t) arms << round() << '\n';
  });
}
