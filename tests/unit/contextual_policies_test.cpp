// The contextual policies (issue 21): the ridge baselines against straightforward
// implementations of their formulas written here, regret on a synthetic linear problem with a
// known best policy, the feature maps, bad input and copies as checkpoints.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "sabandit/contextual/epsilon_greedy_ridge.hpp"
#include "sabandit/contextual/linear_ts.hpp"
#include "sabandit/contextual/linucb.hpp"
#include "sabandit/random/normal.hpp"
#include "support/catch.hpp"
#include "support/contextual_problems.hpp"

using namespace sabandit;
using namespace sabandit::contextual;
using sabandit::test::linear_problem;

namespace {

// --- Straightforward implementations of issue 21's formulas, sharing no code with the
// library's: A_a as a plain matrix, inverted each time. Only the random primitives
// (standard_normal, uniform_index) are the library's, so that both consume the same draws.

// argmax with ties broken uniformly: the tied arms in index order, one uniform index among them.
template <class URBG>
Eigen::Index reference_argmax(const Eigen::VectorXd& scores, URBG& gen) {
  const double best = scores.maxCoeff();
  std::vector<Eigen::Index> ties;
  for (Eigen::Index a = 0; a < scores.size(); ++a)
    if (scores(a) == best) ties.push_back(a);
  if (ties.size() == 1) return ties.front();
  return ties[static_cast<std::size_t>(uniform_index(static_cast<Eigen::Index>(ties.size()), gen))];
}

struct reference_ridge {
  reference_ridge(Eigen::Index k, Eigen::Index d)
      : A(static_cast<std::size_t>(k), Eigen::MatrixXd::Identity(d, d)),
        b(static_cast<std::size_t>(k), Eigen::VectorXd::Zero(d)) {}
  void update(const Eigen::VectorXd& x, Eigen::Index arm, double r) {
    A[static_cast<std::size_t>(arm)] += x * x.transpose();
    b[static_cast<std::size_t>(arm)] += r * x;
  }
  std::vector<Eigen::MatrixXd> A;
  std::vector<Eigen::VectorXd> b;
};

// LinUCB (Li et al. 2010): x^T A^-1 b + alpha sqrt(x^T A^-1 x).
struct reference_linucb : reference_ridge {
  reference_linucb(Eigen::Index k, Eigen::Index d, double alpha_)
      : reference_ridge(k, d), alpha(alpha_) {}
  template <class URBG>
  Eigen::Index select(const Eigen::VectorXd& x, URBG& gen) {
    Eigen::VectorXd scores(static_cast<Eigen::Index>(A.size()));
    for (std::size_t a = 0; a < A.size(); ++a) {
      const Eigen::MatrixXd inverse = A[a].inverse();
      scores(static_cast<Eigen::Index>(a)) =
          x.dot(inverse * b[a]) + alpha * std::sqrt(x.dot(inverse * x));
    }
    return reference_argmax(scores, gen);
  }
  double alpha;
};

// Linear TS (Agrawal & Goyal 2013): theta ~ N(A^-1 b, v^2 A^-1), argmax x^T theta. The
// decision sees theta only through x^T theta ~ N(x^T A^-1 b, v^2 x^T A^-1 x), drawn here as
// the policy documents it: one standard normal per arm, in arm order.
struct reference_linear_ts : reference_ridge {
  reference_linear_ts(Eigen::Index k, Eigen::Index d, double v_) : reference_ridge(k, d), v(v_) {}
  template <class URBG>
  Eigen::Index select(const Eigen::VectorXd& x, URBG& gen) {
    Eigen::VectorXd scores(static_cast<Eigen::Index>(A.size()));
    for (std::size_t a = 0; a < A.size(); ++a) {
      const Eigen::MatrixXd inverse = A[a].inverse();
      const double mean = x.dot(inverse * b[a]);
      const double sd = v * std::sqrt(x.dot(inverse * x));
      scores(static_cast<Eigen::Index>(a)) = mean + sd * standard_normal(gen);
    }
    return reference_argmax(scores, gen);
  }
  double v;
};

// Runs a policy and a reference on the same contexts, rewards and decision draws (each has
// its own copy of the decision engine); returns the number of rounds they disagree on.
template <class Policy, class Reference>
int disagreements(Policy policy, Reference reference, const linear_problem& problem, int rounds) {
  xoshiro256pp world(11), policy_gen(12), reference_gen(12);
  int differ = 0;
  for (int t = 0; t < rounds; ++t) {
    const Eigen::VectorXd x = problem.context(world);
    const auto arm = policy.select(x, policy_gen);
    const auto expected = reference.select(x, reference_gen);
    if (arm != expected) ++differ;
    const double r = problem.reward(x, arm, world);
    policy.update(x, arm, r, policy_gen);
    reference.update(x, arm, r);
  }
  return differ;
}

}  // namespace

TEST_CASE("LinUCB makes the decisions of a straightforward implementation of its formula",
          "[contextual][linucb]") {
  const linear_problem problem(4, 6, 3);
  for (const double alpha : {0.0, 0.5, 2.0}) {
    CAPTURE(alpha);
    // Ties are exact at the start (every index alpha |x|): both break them with the same draw.
    CHECK(disagreements(linucb<>(4, 6, {.alpha = alpha}), reference_linucb(4, 6, alpha), problem,
                        2000) == 0);
  }
}

TEST_CASE("linear TS makes the decisions of a straightforward implementation of its formula",
          "[contextual][linear_ts]") {
  const linear_problem problem(4, 6, 3);
  for (const double v : {0.1, 1.0, 3.0}) {
    CAPTURE(v);
    CHECK(disagreements(linear_ts<>(4, 6, {.v = v}), reference_linear_ts(4, 6, v), problem, 2000) ==
          0);
  }
}

TEST_CASE("LinUCB breaks its initial ties uniformly", "[contextual][linucb]") {
  // Before any pull every arm's index is alpha |x|: the first decision is uniform over the K
  // arms. 4000 first decisions: each count is Binomial(4000, 1/4), sd 27.4; 5 sd is 137.
  const Eigen::VectorXd x = Eigen::VectorXd::Ones(3);
  Eigen::ArrayXd counts = Eigen::ArrayXd::Zero(4);
  xoshiro256pp gen(3);
  for (int i = 0; i < 4000; ++i) {
    linucb<> policy(4, 3);
    counts(policy.select(x, gen)) += 1.0;
  }
  CHECK(((counts - 1000.0).abs() <= 137.0).all());
}

TEST_CASE("epsilon-greedy ridge explores with probability epsilon", "[contextual][epsilon]") {
  // After learning, the greedy arm is the best arm; a round explores with probability
  // epsilon, and then hits each arm with probability 1/K. So the best arm's share is
  // 1 - epsilon + epsilon / K. 20000 rounds at epsilon = 0.2, K = 4: 0.85, binomial sd
  // sqrt(0.85 * 0.15 / 20000) = 0.0025; 5 sd = 0.0126.
  const linear_problem problem(4, 6, 5);
  epsilon_greedy_ridge<> policy(4, 6, {.epsilon = 0.2});
  xoshiro256pp world(1), gen(2);
  for (int t = 0; t < 5000; ++t) {  // learn
    const Eigen::VectorXd x = problem.context(world);
    const auto arm = policy.select(x, gen);
    policy.update(x, arm, problem.reward(x, arm, world), gen);
  }
  int best = 0;
  const int rounds = 20000;
  for (int t = 0; t < rounds; ++t) {
    const Eigen::VectorXd x = problem.context(world);
    const auto arm = policy.select(x, gen);
    if (arm == problem.best_arm(x)) ++best;
  }
  CHECK(std::abs(best / double(rounds) - 0.85) <= 0.0126);
}

TEMPLATE_TEST_CASE("the ridge policies' regret is sublinear on a linear problem",
                   "[contextual][regret]", linucb<>, linear_ts<>) {
  // The known best policy plays argmax_a <x, theta*_a>. LinUCB's and linear TS's regret is
  // O(d sqrt(K T) log T) (Chu et al. 2011; Agrawal & Goyal 2013): a regret growing like t^p
  // has increments R(T) - R(T/2) = 2^p (R(T/2) - R(T/4)), so p = 1/2 gives a ratio of 1.41
  // (1.46 with the log factor at T = 4000) and linear regret (p = 1) gives 2. We require
  // p <= 3/4, a ratio <= 2^0.75 = 1.68, over 8 seeds' summed regret.
  const int T = 4000;
  double first = 0.0, second = 0.0;
  for (int seed = 0; seed < 8; ++seed) {
    const linear_problem problem(4, 6, static_cast<std::uint64_t>(100 + seed));
    TestType policy(4, 6);
    xoshiro256pp world(static_cast<std::uint64_t>(seed)), gen(static_cast<std::uint64_t>(50 + seed));
    double regret = 0.0;
    for (int t = 1; t <= T; ++t) {
      const Eigen::VectorXd x = problem.context(world);
      const auto arm = policy.select(x, gen);
      regret += problem.gap(x, arm);
      policy.update(x, arm, problem.reward(x, arm, world), gen);
      if (t == T / 4) first -= regret;
      if (t == T / 2) {
        first += regret;
        second -= regret;
      }
    }
    second += regret;
  }
  CAPTURE(first, second);
  CHECK(second <= std::pow(2.0, 0.75) * first);
}

TEST_CASE("a shared feature map that places each arm in its own coordinates is the disjoint model",
          "[contextual][features]") {
  // phi(x, a) = e_a (x) x: one theta of dimension K d whose a-th block is theta_a. A = I +
  // sum phi phi^T is then block-diagonal with the disjoint A_a as blocks, so the indices are
  // the disjoint ones up to rounding.
  const Eigen::Index k = 3, d = 4;
  const auto kron = [d](const vector_cref& x, Eigen::Index arm, vector_ref out) {
    out.setZero();
    out.segment(arm * d, d) = x;
  };
  linucb<shared_features<>> shared(k, shared_features<>(d, k * d, kron));
  linucb<> disjoint(k, d);
  const linear_problem problem(k, d, 9);
  xoshiro256pp world(4), gen_shared(5), gen_disjoint(5);
  for (int t = 0; t < 500; ++t) {
    const Eigen::VectorXd x = problem.context(world);
    const auto arm = disjoint.select(x, gen_disjoint);
    REQUIRE(shared.select(x, gen_shared) == arm);
    REQUIRE(((shared.scores() - disjoint.scores()).abs() <= 1e-9).all());
    const double r = problem.reward(x, arm, world);
    shared.update(x, arm, r, gen_shared);
    disjoint.update(x, arm, r, gen_disjoint);
  }
  CHECK(shared.statistics().blocks() == 1);
  CHECK(shared.statistics().counts()(0) == 500);
}

TEST_CASE("a shared feature map that writes a non-finite entry is named",
          "[contextual][features][errors]") {
  const auto broken = [](const vector_cref& x, Eigen::Index arm, vector_ref out) {
    out = x;
    if (arm == 1) out(0) = std::numeric_limits<double>::infinity();
  };
  linucb<shared_features<>> policy(2, shared_features<>(2, 2, broken));
  xoshiro256pp gen(1);
  CHECK_THROWS_WITH(policy.select(Eigen::VectorXd::Ones(2), gen), Catch::Contains("features(x, 1)"));
  CHECK_THROWS_WITH(policy.update(Eigen::VectorXd::Ones(2), 1, 0.0, gen),
                    Catch::Contains("features(x, 1)"));
  CHECK(policy.statistics().counts()(0) == 0);
}

TEST_CASE("the ridge policies reject bad parameters by name", "[contextual][errors]") {
  CHECK_THROWS_WITH(linucb<>(0, 3), Catch::Contains("num_arms = 0"));
  CHECK_THROWS_WITH(linucb<>(2, 0), Catch::Contains("context_size = 0"));
  CHECK_THROWS_WITH(linucb<>(2, 3, {.alpha = -1.0}), Catch::Contains("alpha = -1"));
  CHECK_THROWS_WITH(linucb<>(2, 3, {.alpha = std::nan("")}), Catch::Contains("alpha = nan"));
  CHECK_THROWS_WITH(linear_ts<>(2, 3, {.v = 0.0}), Catch::Contains("v = 0"));
  CHECK_THROWS_WITH(epsilon_greedy_ridge<>(2, 3, {.epsilon = 1.5}), Catch::Contains("epsilon = 1.5"));
  CHECK_THROWS_AS(linucb<>(1 << 20, 1 << 10), std::length_error);  // 2^20 arms x 2^20 doubles
}

// --- Properties every contextual policy shares ----------------------------------------------

namespace {

struct make_linucb {
  static linucb<> make() { return linucb<>(3, 4, {.alpha = 0.7}); }
};
struct make_linear_ts {
  static linear_ts<> make() { return linear_ts<>(3, 4, {.v = 0.5}); }
};
struct make_epsilon_greedy {
  static epsilon_greedy_ridge<> make() { return epsilon_greedy_ridge<>(3, 4, {.epsilon = 0.2}); }
};

// Plays `rounds` rounds of a linear problem (K = 3, d = 4) and returns the arms played.
template <class P>
std::vector<Eigen::Index> play(P& policy, xoshiro256pp& world, xoshiro256pp& gen, int rounds) {
  static const linear_problem problem(3, 4, 21);
  std::vector<Eigen::Index> arms;
  for (int t = 0; t < rounds; ++t) {
    const Eigen::VectorXd x = problem.context(world);
    arms.push_back(policy.select(x, gen));
    policy.update(x, arms.back(), problem.reward(x, arms.back(), world), gen);
  }
  return arms;
}

// The arms the policy plays next, on a copy of it and of both engines.
template <class P>
std::vector<Eigen::Index> next_decisions(P policy, xoshiro256pp world, xoshiro256pp gen) {
  return play(policy, world, gen, 50);
}

}  // namespace

TEMPLATE_TEST_CASE("a contextual policy rejects bad input by name and stays unchanged",
                   "[contextual][errors]", make_linucb, make_linear_ts, make_epsilon_greedy) {
  auto policy = TestType::make();
  xoshiro256pp world(1), gen(2);
  play(policy, world, gen, 60);
  const auto expected = next_decisions(policy, world, gen);
  const xoshiro256pp untouched_gen = gen;
  const Eigen::VectorXd good = Eigen::VectorXd::Ones(4);
  Eigen::VectorXd nan_context = good;
  nan_context(2) = std::numeric_limits<double>::quiet_NaN();

  CHECK_THROWS_WITH(policy.select(Eigen::VectorXd::Ones(5), gen),
                    Catch::Contains("context.size() = 5"));
  CHECK_THROWS_WITH(policy.select(nan_context, gen), Catch::Contains("context[2] = nan"));
  CHECK_THROWS_WITH(policy.update(Eigen::VectorXd::Ones(3), 0, 1.0, gen),
                    Catch::Contains("context.size() = 3"));
  CHECK_THROWS_WITH(policy.update(nan_context, 0, 1.0, gen), Catch::Contains("context[2] = nan"));
  CHECK_THROWS_AS(policy.update(good, 3, 1.0, gen), std::out_of_range);
  CHECK_THROWS_AS(policy.update(good, -1, 1.0, gen), std::out_of_range);
  CHECK_THROWS_WITH(policy.update(good, 0, std::numeric_limits<double>::infinity(), gen),
                    Catch::Contains("reward = inf"));
  CHECK_THROWS_WITH(policy.update(good, 0, 1e200, gen), Catch::Contains("reward = 9.99"));
  // A context and reward whose product overflows the statistics: reported, not stored.
  CHECK_THROWS_AS(policy.update(Eigen::VectorXd::Constant(4, 1e300), 0, 1e10, gen),
                  std::domain_error);

  CHECK(gen == untouched_gen);  // no draw was taken
  CHECK(next_decisions(policy, world, gen) == expected);
}

TEMPLATE_TEST_CASE("a copy of a contextual policy is a checkpoint", "[contextual][checkpoint]",
                   make_linucb, make_linear_ts, make_epsilon_greedy) {
  auto policy = TestType::make();
  xoshiro256pp world(3), gen(4);
  play(policy, world, gen, 80);
  auto checkpoint = policy;
  xoshiro256pp world_copy = world, gen_copy = gen;
  const auto first = play(policy, world, gen, 100);
  CHECK(play(checkpoint, world_copy, gen_copy, 100) == first);
}
