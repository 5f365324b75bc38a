// The contextual environments: the classification protocol (standardisation, the constant 1,
// the seeded permutation, reward 1 only for the label), the synthetic linear problems, the
// data sets' CSV reader, and their errors on bad input.
#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "contextual_benchmark/data.hpp"
#include "sabandit/contextual/classification_env.hpp"
#include "sabandit/contextual/concepts.hpp"
#include "sabandit/contextual/linear_env.hpp"
#include "sabandit/random.hpp"
#include "support/catch.hpp"
#include "support/files.hpp"
#include "support/stat_checks.hpp"

using namespace sabandit;
using namespace sabandit::contextual;

static_assert(ContextualEnvironment<classification_env>);
static_assert(ContextualEnvironment<linear_env<gaussian_rewards>>);
static_assert(ContextualEnvironment<linear_env<logistic_rewards>>);

namespace {

/// The committed excerpt: the first 300 rows of the digits set (64 features, 10 classes).
repro::labelled_table digits_excerpt() {
  const std::string path = SABANDIT_TEST_DATA_DIR "/digits_excerpt.csv";
  return repro::parse_labelled_csv(test_files::slurp(path), 64, 10, path);
}

std::string message_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const std::exception& error) {
    return error.what();
  }
  return "(no exception)";
}

}  // namespace

TEST_CASE("The protocol standardises each feature with the population sd and appends a 1",
          "[contextual][envs]") {
  const auto table = digits_excerpt();
  REQUIRE(table.features.rows() == 300);
  REQUIRE(table.features.cols() == 64);
  const auto data = prepare_classification_data(table.features, table.labels, 10);
  REQUIRE(data.contexts.rows() == 65);
  REQUIRE(data.contexts.cols() == 300);
  CHECK(data.labels == table.labels);
  int constant = 0;
  for (Eigen::Index j = 0; j < 64; ++j) {
    const auto raw = table.features.col(j).array();
    const auto row = data.contexts.row(j).array();
    if (raw.minCoeff() == raw.maxCoeff()) {
      // Only centred: x - x is exactly 0 (no division by a zero sd).
      ++constant;
      CHECK((row == 0.0).all());
      continue;
    }
    // Mean 0 and population sd 1, up to the rounding of 300 terms of magnitude <= 1 / sd.
    const double mean = row.mean();
    const double population_sd = std::sqrt((row - mean).square().mean());
    CHECK(std::abs(mean) < 1e-12);
    CHECK(population_sd == Approx(1.0).epsilon(1e-12));
    // The map is affine and increasing: the raw order of two entries is kept.
    Eigen::Index lo = 0;
    Eigen::Index hi = 0;
    raw.minCoeff(&lo);
    raw.maxCoeff(&hi);
    CHECK(row(lo) < row(hi));
  }
  // digits' first pixel column (and eight others) is 0 in every one of these 300 rows.
  CHECK(constant == 9);
  CHECK((data.contexts.row(64).array() == 1.0).all());
}

TEST_CASE("A constant column is centred, not scaled, whatever its value", "[contextual][envs]") {
  Eigen::MatrixXd x(4, 2);
  x << 0.1, 1.0,  //
      0.1, 2.0,   //
      0.1, 3.0,   //
      0.1, 4.0;
  const auto data = prepare_classification_data(x, {0, 1, 0, 1}, 2);
  // 0.1 four times: its rounded mean need not be 0.1, but the column is exactly 0.
  CHECK((data.contexts.row(0).array() == 0.0).all());
  // 1..4: mean 2.5, population sd sqrt(1.25).
  for (Eigen::Index i = 0; i < 4; ++i) {
    CHECK(data.contexts(1, i) == Approx((static_cast<double>(i) + 1.0 - 2.5) / std::sqrt(1.25)));
  }
  CHECK((data.contexts.row(2).array() == 1.0).all());
}

TEST_CASE("The rows come in a seeded permutation, a new one after n rounds",
          "[contextual][envs]") {
  const auto table = digits_excerpt();
  const auto data = std::make_shared<const classification_data>(
      prepare_classification_data(table.features, table.labels, 10));
  const classification_env env(data);
  CHECK(env.num_arms() == 10);
  CHECK(env.context_size() == 65);
  CHECK(env.size() == 300);

  const auto order_of = [&](std::uint64_t seed, int passes) {
    classification_env copy = env;
    default_engine gen(seed);
    std::vector<Eigen::Index> rows;
    for (int t = 0; t < passes * 300; ++t) {
      const auto x = copy.next_context(gen);
      rows.push_back(copy.row());
      CHECK(x == data->contexts.col(copy.row()));
      CHECK(copy.label() == data->labels[static_cast<std::size_t>(copy.row())]);
    }
    return rows;
  };
  const auto first = order_of(11, 2);
  for (const std::size_t pass : {0U, 1U}) {
    std::vector<Eigen::Index> sorted(first.begin() + static_cast<long>(300 * pass),
                                     first.begin() + static_cast<long>(300 * (pass + 1)));
    std::sort(sorted.begin(), sorted.end());
    std::vector<Eigen::Index> all(300);
    std::iota(all.begin(), all.end(), Eigen::Index{0});
    CHECK(sorted == all);  // each pass shows every row exactly once
  }
  CHECK(order_of(11, 2) == first);  // seeded: the same engine, the same order
  const auto other = order_of(12, 1);
  CHECK(!std::equal(other.begin(), other.end(), first.begin()));
  // Not the identity, and the second pass is a new permutation, not a repeat of the first: the
  // chance that a uniform permutation of 300 equals a given one is 1 / 300!.
  CHECK(!std::is_sorted(first.begin(), first.begin() + 300));
  CHECK(!std::equal(first.begin(), first.begin() + 300, first.begin() + 300));
}

TEST_CASE("The reward is 1 for the label's arm only", "[contextual][envs]") {
  const auto table = digits_excerpt();
  classification_env env(std::make_shared<const classification_data>(
      prepare_classification_data(table.features, table.labels, 10)));
  CHECK_THROWS_AS(env.mean(0), std::logic_error);  // no current example yet
  default_engine gen(3);
  for (int t = 0; t < 50; ++t) {
    (void)env.next_context(gen);
    for (Eigen::Index a = 0; a < 10; ++a) {
      const double expected = a == env.label() ? 1.0 : 0.0;
      CHECK(env.mean(a) == expected);
      CHECK(env.pull(a, gen) == expected);
    }
  }
  CHECK_THROWS_AS(env.mean(10), std::out_of_range);
  CHECK_THROWS_AS(env.mean(-1), std::out_of_range);
}

TEST_CASE("Bad data is rejected, naming the entry", "[contextual][envs][errors]") {
  Eigen::MatrixXd x = Eigen::MatrixXd::Ones(3, 2);
  x(2, 1) = std::nan("");
  CHECK_THAT(message_of([&] { (void)prepare_classification_data(x, {0, 1, 0}, 2); }),
             Catch::Contains("features(2, 1)") && Catch::Contains("finite"));
  x(2, 1) = -HUGE_VAL;
  CHECK_THAT(message_of([&] { (void)prepare_classification_data(x, {0, 1, 0}, 2); }),
             Catch::Contains("features(2, 1)"));
  x(2, 1) = 0.0;
  CHECK_THAT(message_of([&] { (void)prepare_classification_data(x, {0, 2, 0}, 2); }),
             Catch::Contains("labels[1] = 2") && Catch::Contains("[0, num_classes = 2)"));
  CHECK_THAT(message_of([&] { (void)prepare_classification_data(x, {0, -1, 0}, 2); }),
             Catch::Contains("labels[1] = -1"));
  CHECK_THAT(message_of([&] { (void)prepare_classification_data(x, {0, 1}, 2); }),
             Catch::Contains("labels.size() = 2"));
  CHECK_THAT(message_of([&] { (void)prepare_classification_data(x, {0, 0, 0}, 1); }),
             Catch::Contains("num_classes = 1"));
  CHECK_THROWS_AS(classification_env(nullptr), std::invalid_argument);
  // Finite features whose standardisation leaves the doubles (a probe's findings: NaN and inf
  // contexts, or a column silently zeroed), and hand-built data that skipped the checks.
  for (const auto& column : {std::vector<double>{0.0, 5e-324, 0.0}, {1e200, -1e200, 0.0},
                             {1.7e308, 1.7e308, -1.7e308}}) {
    Eigen::MatrixXd extreme = Eigen::MatrixXd::Ones(3, 2);
    for (Eigen::Index i = 0; i < 3; ++i) extreme(i, 1) = column[static_cast<std::size_t>(i)];
    CHECK_THAT(message_of([&] { (void)prepare_classification_data(extreme, {0, 1, 0}, 2); }),
               Catch::Contains("standard deviation of features.col(1)"));
  }
  auto hand_built = std::make_shared<classification_data>(prepare_classification_data(x, {0, 1, 0}, 2));
  hand_built->labels[1] = 5;
  CHECK_THAT(message_of([&] { classification_env env(hand_built); }),
             Catch::Contains("data.labels[1] = 5"));
  hand_built->labels[1] = 1;
  hand_built->contexts(0, 2) = std::nan("");
  CHECK_THAT(message_of([&] { classification_env env(hand_built); }),
             Catch::Contains("data.contexts"));
  // linear_env's own constructor checks the noise (make_linear_gaussian_env always did).
  CHECK_THAT(message_of([] { linear_env<gaussian_rewards> env(Eigen::MatrixXd::Ones(2, 2), {std::nan("")}); }),
             Catch::Contains("noise_sd = nan"));
  CHECK_THAT(message_of([] { linear_env<gaussian_rewards> env(Eigen::MatrixXd::Ones(2, 2), {-1.0}); }),
             Catch::Contains("noise_sd = -1"));

  // The CSV reader names the file, the line and the column.
  const auto parse = [](const std::string& text) {
    return message_of([&] { (void)repro::parse_labelled_csv(text, 2, 3, "t.csv"); });
  };
  CHECK(parse("a,b,label\n1,2,0\n3,4,2\n") == "(no exception)");
  CHECK_THAT(parse("a,b,label\n1,2,0\n3,nan,2\n"), Catch::Contains("t.csv:3: column 2: 'nan'"));
  CHECK_THAT(parse("1,2,0\n3,1e999,2\n"), Catch::Contains("t.csv:2: column 2"));
  CHECK_THAT(parse("1,2,0\n3,4,3\n"), Catch::Contains("t.csv:2: column 3 (the class): '3'"));
  CHECK_THAT(parse("1,2,0\n3,4,1.5\n"), Catch::Contains("t.csv:2: column 3 (the class)"));
  CHECK_THAT(parse("1,2,0\n3,4\n"), Catch::Contains("t.csv:2: 2 columns, expected 3"));
  CHECK_THAT(parse("1,2,0,7\n"), Catch::Contains("t.csv:1: more than 3 columns"));
  CHECK_THAT(parse("a,b,label\n"), Catch::Contains("t.csv: no example"));
  CHECK_THAT(message_of([] { (void)repro::load_dataset(repro::contextual_datasets()[0], "/nonexistent"); }),
             Catch::Contains("/nonexistent/shuttle.csv") && Catch::Contains("scripts/contextual-data"));
}

TEST_CASE("A linear problem's contexts end in 1 and its means are g(<x, theta_a>)",
          "[contextual][envs]") {
  Eigen::MatrixXd theta(3, 2);
  theta << 1.0, -1.0,  //
      0.5, 0.0,        //
      0.0, 0.25;
  auto gaussian = make_linear_gaussian_env(theta, 0.5);
  auto logistic = make_logistic_env(theta);
  CHECK(gaussian.num_arms() == 2);
  CHECK(gaussian.context_size() == 3);
  default_engine gen(5);
  // No context yet, so no mean: it read 0 and pulled rewards of mean 0 (a probe's finding).
  CHECK_THROWS_AS(gaussian.mean(0), std::logic_error);
  CHECK_THROWS_AS(gaussian.best_arm(), std::logic_error);
  CHECK_THROWS_AS(logistic.pull(1, gen), std::logic_error);
  for (int t = 0; t < 20; ++t) {
    const Eigen::VectorXd x = gaussian.next_context(gen);
    CHECK(x(2) == 1.0);
    (void)logistic.next_context(gen);
    const Eigen::VectorXd y = logistic.context();
    for (Eigen::Index a = 0; a < 2; ++a) {
      CHECK(gaussian.mean(a) == Approx(x.dot(theta.col(a))));
      CHECK(logistic.mean(a) == Approx(1.0 / (1.0 + std::exp(-y.dot(theta.col(a))))));
    }
    CHECK(gaussian.mean(gaussian.best_arm()) >= gaussian.mean(1 - gaussian.best_arm()));
  }
  CHECK_THROWS_AS(gaussian.mean(2), std::out_of_range);
  CHECK_THROWS_AS(make_linear_gaussian_env(theta, 0.0), std::invalid_argument);
  theta(1, 1) = HUGE_VAL;
  CHECK_THAT(message_of([&] { (void)make_logistic_env(theta); }), Catch::Contains("theta(1, 1)"));
  CHECK_THROWS_AS(make_logistic_env(Eigen::MatrixXd::Zero(1, 2)), std::invalid_argument);
}

TEST_CASE("A linear problem whose <x, theta_a> overflows says so, and keeps its context",
          "[contextual][envs][errors]") {
  // theta(:, 0) = (1e308, 1e308): finite, but <x, theta_0> = 1e308 (z + 1) overflows for
  // z > 0.797 (probability 0.21 a round). The means were then NaN or infinite, and the first
  // reward said only "p = -nan" (a probe's finding). The context before stays current.
  Eigen::MatrixXd theta = Eigen::MatrixXd::Constant(2, 2, 1e308);
  theta(0, 1) = -1e308;
  auto env = make_logistic_env(theta);
  default_engine gen(3);
  Eigen::VectorXd last;  // the last context drawn, none yet
  std::string message = "(no exception)";
  for (int t = 0; t < 100 && message == "(no exception)"; ++t) {
    message = message_of([&] { last = env.next_context(gen); });
  }
  CHECK_THAT(message, Catch::Contains("<x, theta(:, ") && Catch::Contains("scale theta down"));
  if (last.size() == 0) {
    CHECK_THROWS_AS(env.mean(0), std::logic_error);
  } else {
    CHECK(env.context() == last);
    CHECK(std::isfinite(env.mean(0)));
  }
}

TEST_CASE("A linear problem's rewards have its means", "[contextual][envs][statistical]") {
  // At one fixed context, n = 200,000 pulls: the sample mean is within 5 sd / sqrt(n) of the
  // mean (CLT), with sd = 0.5 (Gaussian noise) and sqrt(p (1 - p)) (Bernoulli).
  Eigen::MatrixXd theta(2, 2);
  theta << 0.3, -0.7,  //
      0.2, 0.4;
  auto gaussian = make_linear_gaussian_env(theta, 0.5);
  auto logistic = make_logistic_env(theta);
  default_engine gen(17);
  (void)gaussian.next_context(gen);
  (void)logistic.next_context(gen);
  constexpr int n = 200'000;
  for (Eigen::Index a = 0; a < 2; ++a) {
    double sum_g = 0.0;
    double sum_l = 0.0;
    for (int i = 0; i < n; ++i) {
      sum_g += gaussian.pull(a, gen);
      sum_l += logistic.pull(a, gen);
    }
    const double p = logistic.mean(a);
    CHECK(std::abs(sum_g / n - gaussian.mean(a)) < test::z_five_sigma * 0.5 / std::sqrt(n));
    CHECK(std::abs(sum_l / n - p) < test::z_five_sigma * std::sqrt(p * (1 - p) / n));
  }
}
