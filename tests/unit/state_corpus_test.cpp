// Issue 20, item 1: checkpoints saved by an earlier version still restore. The corpus
// (tests/unit/state_corpus/, written by the library at 51bbfa1: corpus.hpp) holds one checkpoint
// of every policy over every built-in model and schedule, with the 200 decisions that followed
// it; each is restored into a policy of the same shape built with today's defaults, and must
// make the same decisions.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sabandit/sabandit.hpp"
#include "support/catch.hpp"
#include "unit/state_corpus/corpus.hpp"

#ifndef SABANDIT_STATE_CORPUS_DIR
#error "SABANDIT_STATE_CORPUS_DIR must name tests/unit/state_corpus"
#endif

TEST_CASE("a version-1 corpus of every policy restores and replays its decisions",
          "[state][guarantees]") {
  int cases = 0;
  corpus::for_each_case([&](const std::string& name, auto target, corpus::rewards kind) {
    INFO("corpus case " << name);
    ++cases;
    const std::string base = std::string(SABANDIT_STATE_CORPUS_DIR) + "/" + name;
    std::ifstream state(base + ".state");
    std::ifstream arms_file(base + ".arms");
    REQUIRE(state);
    REQUIRE(arms_file);
    std::vector<Eigen::Index> expected;
    for (Eigen::Index arm = 0; arms_file >> arm;) expected.push_back(arm);
    REQUIRE(expected.size() == static_cast<std::size_t>(corpus::rounds_after));

    sabandit::xoshiro256pp gen(1), env(2);
    // The three blocks were written one by one; restore_all reads them as one checkpoint.
    sabandit::state::restore_all(state, target, gen, env);
    std::vector<Eigen::Index> arms;
    for (int t = 0; t < corpus::rounds_after; ++t) {
      const Eigen::Index arm = target.select(gen);
      target.update(arm, corpus::draw(kind, arm, env), gen);
      arms.push_back(arm);
    }
    CHECK(arms == expected);
  });
  CHECK(cases == 22);
}
