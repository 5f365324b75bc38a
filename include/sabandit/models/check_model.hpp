#pragma once
// check_model: tests, on a user's reward model, the semantic requirements of RewardModel that
// the compiler cannot check (concepts.hpp, docs/concepts.md), at random points and with random
// rewards, and says what to fix:
//   1. gradient:        grad_log_likelihood is the gradient of the MEAN log-likelihood of a
//                       window (central differences of log_likelihood);
//   2. concavity:       log p(x | theta) is concave along phi (the paper's analysis and the
//                       warm start's line search assume it);
//   3. increasing mean: mean(phi, theta) increases with eta = <phi, theta> (every policy
//                       decides on eta, Alg. 1 line 5: a decreasing link inverts every decision
//                       and gives worse-than-uniform regret, silently);
//   4. score mean:      E[d/d eta log p(x | eta)] = 0 when x is drawn at the model's own mean:
//                       mean() and log_likelihood describe the same distribution;
//   5. information:     E[(d/d eta log p(x | eta))^2] = fisher_information(model, phi, theta)
//                       (the model's `information`, or the fallback of information.hpp);
//   6. support:         every reward `draw` returns is one the model accepts (the numeric
//                       contract and the model's validate_reward: every policy throws on the
//                       others) and lies in its declared reward_range() (a restore refuses a
//                       checkpoint whose sums leave it): a sampler of another family, or a
//                       range narrower than the support, passes checks 1-5 and fails there.
//
// The data-driven checks (1, 2, 4, 5, 6) need rewards, and RewardModel has no sampler; the caller
// passes one as `draw(mean, gen) -> double`: one reward of the model's distribution whose
// expected value is `mean`. Why this signature rather than `sample(phi, theta, gen)`:
//  - the link is then written once, in the model: check_model asks the model for the mean at
//    (phi, theta) and the sampler only knows the family, so check 4 tests that mean() and
//    log_likelihood agree, instead of comparing the model with a second copy of its link;
//  - a RewardModel's link is increasing, hence one-to-one, so the mean identifies the
//    distribution of a one-parameter family (the model's other parameters, such as a known
//    variance, are the sampler's captures);
//  - it is what a simulation's arm already is (envs/arms.hpp: `normal_arm(mean, variance)`,
//    `bernoulli_arm(p)`, `poisson_arm(mean)`, the example's `exponential_arm{mean}`), so the
//    sampler is usually a one-line lambda over the arm the user simulates with.
// The engine is sabandit's default_engine, one stream per (point, check) from the options'
// seed (random/streams.hpp): the report is the same for a fixed seed, on every platform, and
// adding points does not change the rewards of the first ones.
#include <algorithm>
#include <array>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <iomanip>
#include <limits>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/models/information.hpp"
#include "sabandit/models/support.hpp"
#include "sabandit/random/bits.hpp"
#include "sabandit/random/normal.hpp"
#include "sabandit/random/streams.hpp"

namespace sabandit {

/// A reward sampler for check_model: `draw(mean, gen)` returns one reward, a double, of the
/// model's distribution with expected value `mean`, drawn from `gen` only.
template <class Draw>
concept RewardSampler =
    std::invocable<Draw&, double, default_engine&> &&
    std::convertible_to<std::invoke_result_t<Draw&, double, default_engine&>, double>;

/// Where and how hard check_model looks. The defaults take about 0.1 s for a cheap model.
struct check_model_options {
  /// Random (phi, theta) points; every check visits each.
  int points = 20;
  /// The feature dimension d of phi and theta.
  Eigen::Index dimension = 3;
  /// The linear predictors eta = <phi, theta> checked, uniform in [eta_min, eta_max]: where
  /// the policies will work (the built-in models' default priors put 95% of their mass in
  /// [-4, 4]).
  double eta_min = -3.0;
  double eta_max = 3.0;  ///< the upper end of that range
  /// Rewards in a window, for the gradient check (and per point, for the concavity check).
  int window = 8;
  /// Rewards per point for the statistical checks (score mean, information). 20,000 detects
  /// an information wrong by a factor of 2 wherever n > (2 z sd(s^2) / i)^2, with s the score
  /// and i the information: 800 rewards for the exponential model, about 2,000 for Bernoulli
  /// or Poisson at |eta| = 3.
  int samples = 20'000;
  /// Relative tolerance of the deterministic checks (gradient, concavity, increasing mean):
  /// far above their rounding and truncation errors (about 1e-10, see each check), far below
  /// any wrong term.
  double tolerance = 1e-5;
  /// Cut-off of the statistical checks, in Monte Carlo standard errors: |Z| > 5 has two-sided
  /// probability 5.7e-7 per point and check.
  double z = 5.0;
  /// The seed of every stream check_model draws from.
  std::uint64_t seed = 1;
};

/// One check's verdict: the worst discrepancy found, its bound, and where it was.
struct model_check {
  /// "gradient", "concavity", "increasing mean", "score mean", "information", "support"
  std::string name;
  std::string measure;  ///< what `worst` measures, e.g. "relative error"
  double worst = 0.0;   ///< the largest discrepancy over all points (+inf or NaN: not finite)
  double bound = 0.0;   ///< the check passes when worst <= bound
  /// eta at the worst point (for the increasing mean: where the worst step along phi starts)
  double eta = std::numeric_limits<double>::quiet_NaN();
  Eigen::VectorXd phi;    ///< the worst point, to reproduce it (empty when nothing was found)
  Eigen::VectorXd theta;  ///< (idem)
  std::string finding;    ///< if it failed: what was seen at the worst point, and the fix

  /// worst <= bound (false for a NaN).
  [[nodiscard]] bool passed() const noexcept { return worst <= bound; }
};

/// What check_model found: one model_check per requirement.
struct model_check_report {
  model_check gradient;         ///< grad_log_likelihood against differences of log_likelihood
  model_check concavity;        ///< log p concave along phi
  model_check increasing_mean;  ///< the mean increases with eta (the link's direction)
  model_check score_mean;       ///< E[score] = 0 at the model's own parameter
  model_check information;      ///< fisher_information against E[score^2]
  model_check support;          ///< the drawn rewards against the model's support and range

  /// The checks in the order they are printed.
  [[nodiscard]] std::array<const model_check*, 6> checks() const noexcept {
    return {&gradient, &concavity, &increasing_mean, &score_mean, &information, &support};
  }
  /// Every check passed.
  [[nodiscard]] bool ok() const noexcept {
    return std::ranges::all_of(checks(), [](const model_check* c) { return c->passed(); });
  }
  /// A heading line, then one line per check: "[ ok ]" or "[FAIL]", its name, the worst
  /// discrepancy against its bound and where, and for a failure what to fix.
  [[nodiscard]] std::string to_string() const {
    std::ostringstream out;
    out << std::setprecision(3);
    const auto failed = std::ranges::count_if(checks(), [](const model_check* c) {
      return !c->passed();
    });
    out << "check_model: ";
    if (failed == 0) {
      out << "all " << checks().size() << " checks passed\n";
    } else {
      out << failed << " of " << checks().size() << " checks failed\n";
    }
    for (const model_check* c : checks()) {
      out << (c->passed() ? "  [ ok ] " : "  [FAIL] ") << c->name << ": worst " << c->measure
          << ' ' << c->worst << (c->passed() ? " <= " : " > ") << c->bound;
      if (!std::isnan(c->eta)) out << " at eta = " << c->eta;
      if (!c->passed()) out << ": " << c->finding;
      out << '\n';
    }
    return out.str();
  }
};

/// Prints report.to_string().
inline std::ostream& operator<<(std::ostream& out, const model_check_report& report) {
  return out << report.to_string();
}

namespace detail {

/// Stream roles of check_model: one per check that draws (and one for the points), so that a
/// check's rewards do not depend on what the others drew.
struct check_model_role {
  static constexpr std::uint64_t point = 0;
  static constexpr std::uint64_t gradient = 1;
  static constexpr std::uint64_t concavity = 2;
  static constexpr std::uint64_t score = 3;
};

/// A random point: phi of uniform direction and length in [0.5, 1.5] (bounded away from 0, so
/// that moving eta moves theta by a bounded amount), theta random then shifted along phi so
/// that <phi, theta> = eta, uniform in [eta_min, eta_max].
struct check_point {
  Eigen::VectorXd phi, theta;
  double eta = 0.0;

  check_point(const check_model_options& options, default_engine& gen)
      : phi(options.dimension), theta(options.dimension) {
    fill_standard_normal(phi, gen);
    fill_standard_normal(theta, gen);
    phi *= (0.5 + uniform01(gen)) / phi.norm();
    theta = at(options.eta_min + (options.eta_max - options.eta_min) * uniform01(gen));
    eta = phi.dot(theta);
  }

  /// theta moved along phi to the linear predictor `target`: only eta changes.
  [[nodiscard]] Eigen::VectorXd at(double target) const {
    return theta + ((target - phi.dot(theta)) / phi.squaredNorm()) * phi;
  }
};

/// Keeps a check's worst discrepancy and where it was. A NaN discrepancy is the worst of all
/// (it fails the check). `describe` builds the finding only when a point becomes the worst
/// and fails the check.
class check_recorder {
 public:
  explicit check_recorder(model_check& check) : check_(check) {}

  template <class Describe>
  void record(double discrepancy, const check_point& point, double eta,
              const Describe& describe) {
    const bool first = check_.phi.size() == 0;
    if (!first && !(discrepancy > check_.worst || std::isnan(discrepancy))) return;
    if (std::isnan(check_.worst)) return;  // already poisoned by a NaN: keep the first
    check_.worst = discrepancy;
    check_.eta = eta;
    check_.phi = point.phi;
    check_.theta = point.theta;
    check_.finding = check_.passed() ? std::string() : describe();
  }

 private:
  model_check& check_;
};

/// a / b for a discrepancy a >= 0 measured in units of b >= 0: 0 when both vanish, +inf for
/// a > 0 against b = 0 (a degenerate sample that still shows a discrepancy).
[[nodiscard]] inline double in_units_of(double a, double b) noexcept {
  if (b > 0.0) return a / b;
  return a == 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
}

[[nodiscard]] inline std::string format_number(double x) {
  std::ostringstream out;
  out << std::setprecision(3) << x;
  return out.str();
}

template <class Draw>
[[nodiscard]] Eigen::VectorXd draw_rewards(Draw& draw, double mean, Eigen::Index count,
                                           default_engine& gen) {
  Eigen::VectorXd rewards(count);
  for (Eigen::Index i = 0; i < count; ++i) rewards(i) = static_cast<double>(draw(mean, gen));
  return rewards;
}


/// max that keeps a NaN (std::max would drop one on the right).
[[nodiscard]] inline double max_keeping_nan(double a, double b) noexcept {
  return std::isnan(a) || a > b ? a : b;
}

/// Check 1 at one point: the window gradient against central differences of the window's mean
/// log-likelihood f. They err by eps^2 |f'''| / 6 (truncation) + u |f| / eps (rounding,
/// u = 2^-52); eps = u^(1/3) times the scale of theta_i balances the two at about
/// u^(2/3) = 4e-11 times the scale of f and its derivatives. The tolerance (1e-5 by default)
/// is far above that, and a wrong term (a sign, a factor 2, a sum for a mean) gives a relative
/// error of order 1.
template <RewardModel Model, class Draw>
void check_gradient_at(const Model& model, Draw& draw, const check_point& point,
                       default_engine gen, const check_model_options& options,
                       check_recorder& recorder) {
  const Eigen::Index d = point.phi.size();
  const Eigen::VectorXd rewards =
      draw_rewards(draw, model.mean(point.phi, point.theta), options.window, gen);
  const auto mean_log_likelihood = [&](const Eigen::VectorXd& theta) {
    double sum = 0.0;
    for (const double x : rewards) sum += model.log_likelihood(x, point.phi, theta);
    return sum / static_cast<double>(rewards.size());
  };
  Eigen::VectorXd numeric(d);
  const double eps_unit = std::cbrt(std::numeric_limits<double>::epsilon());
  for (Eigen::Index i = 0; i < d; ++i) {
    Eigen::VectorXd up = point.theta, down = point.theta;
    const double eps = eps_unit * std::max(1.0, std::abs(point.theta(i)));
    up(i) += eps;
    down(i) -= eps;
    numeric(i) = (mean_log_likelihood(up) - mean_log_likelihood(down)) / (up(i) - down(i));
  }
  const auto compare = [&](const Eigen::VectorXd& grad, const char* function) {
    double error = 0.0;
    for (Eigen::Index i = 0; i < d; ++i) {
      error = max_keeping_nan(error,
                              std::abs(grad(i) - numeric(i)) / std::max(1.0, std::abs(numeric(i))));
    }
    recorder.record(error, point, point.eta, [&] {
      const double ratio = grad.dot(numeric) / numeric.squaredNorm();
      return std::string(function) + " / central differences of log_likelihood = " +
             format_number(ratio) + " (-1: a sign error; 2 or 0.5: a factor 2; " +
             std::to_string(options.window) +
             ": a sum for a mean): it must be the gradient in theta of the MEAN log-likelihood"
             " (1/m) sum_i log p(x_i | theta) of the window";
    });
  };
  Eigen::VectorXd grad(d);
  model.grad_log_likelihood(rewards, point.phi, point.theta, grad);
  compare(grad, "grad_log_likelihood");
  if constexpr (WindowMeanRewardModel<Model>) {
    model.grad_log_likelihood_at_mean(rewards.mean(), point.phi, point.theta, grad);
    compare(grad, "grad_log_likelihood_at_mean");
  }
}

/// Check 2 at one point: the second difference f(eta + h) - 2 f(eta) + f(eta - h) of
/// f = log p(x | theta moved along phi), for rewards x drawn at the point, must be <= 0 (a
/// continuous function is concave iff every such midpoint difference is). A finite step
/// h = 0.25 sees the curvature averaged over [eta - h, eta + h] as h^2 f'', far above the
/// rounding of about u (|f(eta + h)| + 2 |f(eta)| + |f(eta - h)|), to which it is compared.
template <RewardModel Model, class Draw>
void check_concavity_at(const Model& model, Draw& draw, const check_point& point,
                        default_engine gen, const check_model_options& options,
                        check_recorder& recorder) {
  constexpr double step = 0.25;
  const Eigen::VectorXd below = point.at(point.eta - step), above = point.at(point.eta + step);
  const Eigen::VectorXd rewards =
      draw_rewards(draw, model.mean(point.phi, point.theta), options.window, gen);
  for (const double x : rewards) {
    const double low = model.log_likelihood(x, point.phi, below);
    const double mid = model.log_likelihood(x, point.phi, point.theta);
    const double high = model.log_likelihood(x, point.phi, above);
    const double second = high - 2.0 * mid + low;
    const double scale = std::max(1.0, std::abs(high) + 2.0 * std::abs(mid) + std::abs(low));
    recorder.record(second / scale, point, point.eta, [&] {
      return "log p(x = " + format_number(x) + " | theta) is convex along phi (curvature about " +
             format_number(second / (step * step)) +
             " in eta): the paper's analysis and the warm start's line search need log p(x | "
             "theta) concave in theta for every x; use a log-concave family or link";
    });
  }
}

/// Check 3 along one point's phi: the mean on a grid of 9 linear predictors spanning
/// [eta_min, eta_max] must not fall from one to the next (by more than the tolerance, relative
/// to the means: eta itself is recomputed with rounding), and must not be the same at both ends
/// (a constant mean gives the policies nothing to decide on).
template <RewardModel Model>
void check_increasing_mean_at(const Model& model, const check_point& point,
                              const check_model_options& options, check_recorder& recorder) {
  constexpr int grid = 9;
  const double spacing = (options.eta_max - options.eta_min) / (grid - 1);
  const auto mean_at = [&](double eta) { return model.mean(point.phi, point.at(eta)); };
  const double first = mean_at(options.eta_min);
  double previous = first;
  for (int k = 1; k < grid; ++k) {
    const double from = options.eta_min + (k - 1) * spacing, to = from + spacing;
    const double current = mean_at(to);
    const double fall = previous - current;
    recorder.record(fall / std::max(std::abs(previous), std::abs(current)), point, from, [&] {
      if (!std::isfinite(previous) || !std::isfinite(current)) {
        return "mean is not finite between eta = " + format_number(from) + " and " +
               format_number(to) + " (" + format_number(previous) + ", " +
               format_number(current) + ")";
      }
      return "mean falls from " + format_number(previous) + " at eta = " + format_number(from) +
             " to " + format_number(current) + " at eta = " + format_number(to) +
             ": mean decreases with eta; the link must be increasing (every policy decides on "
             "eta); flip the sign of eta in mean, log_likelihood and grad_log_likelihood";
    });
    previous = current;
  }
  if (previous == first) {  // a fall, or a non-finite mean, was recorded above
    recorder.record(std::numeric_limits<double>::infinity(), point, options.eta_min, [&] {
      return "mean does not rise from eta = " + format_number(options.eta_min) + " (" +
             format_number(first) + ") to eta = " + format_number(options.eta_max) + " (" +
             format_number(previous) + "): the link must be strictly increasing";
    });
  }
}

/// Checks 4 and 5 at one point, from the scores s_j = d/d eta log p(x_j | eta) of n rewards
/// drawn at the model's mean. For a GLM the gradient in theta is phi times that derivative, so
/// s = <phi, grad> / |phi|^2 recovers it from one-reward windows.
///
/// The bounds are the central limit theorem's. For iid s_j with finite fourth moment:
///  - score mean: E[s] = 0 at the true parameter, and sbar is about N(0, Var(s) / n), so
///    |sbar| <= z sd(s) / sqrt(n);
///  - information: ibar = (1/n) sum_j s_j^2 estimates E[s^2] = i(eta) with variance
///    Var(s^2) / n, so |ibar - i| <= z sd(s^2) / sqrt(n);
/// with the sample standard deviations in place of the true ones (consistent, so the limit is
/// still N(0, 1): Slutsky). At z = 5 each bound fails by chance with probability 5.7e-7, so
/// all 2 x points of them at most 2 x 20 x 5.7e-7 = 2.3e-5 with the default options; a
/// heavy-tailed score (infinite E[s^4]) makes sd(s^2) unreliable, and the check with it.
template <RewardModel Model, class Draw>
void check_score_at(const Model& model, Draw& draw, const check_point& point, default_engine gen,
                    const check_model_options& options, check_recorder& score_mean,
                    check_recorder& information) {
  const double mean = model.mean(point.phi, point.theta);
  const double phi_norm2 = point.phi.squaredNorm();
  Eigen::ArrayXd score(options.samples);
  Eigen::Matrix<double, 1, 1> reward;
  Eigen::VectorXd grad(point.phi.size());
  for (Eigen::Index j = 0; j < score.size(); ++j) {
    reward(0) = static_cast<double>(draw(mean, gen));
    model.grad_log_likelihood(reward, point.phi, point.theta, grad);
    score(j) = point.phi.dot(grad) / phi_norm2;
  }
  const double n = static_cast<double>(score.size());
  const std::string gradient_first =
      "; the scores come from grad_log_likelihood: if the gradient check fails, fix it first";
  // E[score^2] is measured on draw's rewards: a sampler of another family with the same mean
  // and support passes checks 1-4 and 6 and shows only here (a newcomer's exponential draws
  // for a Gamma model read as a wrong information, which a wrong "fix" then silenced).
  const std::string or_sampler =
      "; if it is right, `draw` may sample another family with the same mean (the score's "
      "variance is measured on its rewards)";
  const auto mean_and_standard_error = [n](const Eigen::ArrayXd& values) {
    const double average = values.mean();
    const double variance = (values - average).square().sum() / (n - 1.0);
    return std::array<double, 2>{average, std::sqrt(variance / n)};
  };

  // Plain variables, not structured bindings: clang 14 (the fuzzing compiler) cannot capture
  // those in the lambdas below.
  const auto score_moments = mean_and_standard_error(score);
  const double score_average = score_moments[0], score_se = score_moments[1];
  score_mean.record(in_units_of(std::abs(score_average), score_se), point, point.eta, [&] {
    return "E[d/d eta log p(x | eta)] = " + format_number(score_average) + " +- " +
           format_number(score_se) + ", not 0, for x drawn at mean() = " + format_number(mean) +
           ": mean() and log_likelihood describe different distributions (or `draw` samples "
           "another one); make the mean of log_likelihood's distribution equal mean()" +
           gradient_first;
  });

  const auto square_moments = mean_and_standard_error(score.square());
  const double squares_average = square_moments[0], squares_se = square_moments[1];
  const double info = fisher_information(model, point.phi, point.theta);
  information.record(in_units_of(std::abs(squares_average - info), squares_se), point, point.eta,
                     [&] {
    const std::string found = " = " + format_number(info) + " but E[(d/d eta log p)^2] = " +
                              format_number(squares_average) + " +- " +
                              format_number(squares_se) + " (ratio " +
                              format_number(info / squares_average) + ")";
    if constexpr (FisherInformationModel<Model>) {
      return "information(phi, theta)" + found +
             ": it must be i(eta) = E[(d/d eta log p(x | theta))^2], the information of ONE "
             "reward about eta = <phi, theta> (not about theta, nor of a window)" + or_sampler +
             gradient_first;
    } else {
      return "the fallback information (observed information at x = mean())" + found +
             ": it is exact only for a log-likelihood affine in x; give the model an "
             "information(phi, theta) member" + or_sampler + gradient_first;
    }
  });
}

/// Check 6: sees every reward `draw` returns at one point, for every other check, and counts
/// those the model refuses: outside the numeric contract or the model's validate_reward (what
/// every policy's update checks first, models/support.hpp), or outside its declared
/// reward_range(). Keeps the first refusal and why, for the finding.
template <RewardModel Model>
class support_tally {
 public:
  explicit support_tally(const Model& model) : model_(model) {}

  /// Tests `reward`, drawn at `mean`.
  void test(double reward, double mean) {
    ++drawn_;
    std::string why = refusal(reward);
    if (why.empty()) return;
    if (refused_++ == 0) {
      first_reward_ = reward;
      first_mean_ = mean;
      why_ = std::move(why);
    }
  }
  /// The share of the rewards drawn so far that the model refuses (0 before any draw).
  [[nodiscard]] double refused_share() const noexcept {
    return drawn_ == 0 ? 0.0 : static_cast<double>(refused_) / static_cast<double>(drawn_);
  }
  /// What the first refusal was, and the fix.
  [[nodiscard]] std::string finding() const {
    return std::to_string(refused_) + " of " + std::to_string(drawn_) +
           " drawn rewards refused, the first draw(mean = " + format_number(first_mean_) +
           ") = " + format_number(first_reward_) + ": " + why_;
  }

 private:
  // Empty when the model takes `reward`, else why not and what to fix.
  [[nodiscard]] std::string refusal(double reward) const {
    try {
      require_supported_reward(model_, reward);
    } catch (const std::invalid_argument& refused) {
      return std::string(refused.what()) +
             "; every policy over the model throws on such a reward: make `draw` sample the "
             "model's own distribution (or widen validate_reward, if the model is the one at "
             "fault)";
    }
    if constexpr (RangeDeclaringModel<Model>) {
      const reward_interval range = Model::reward_range();
      const bool below = range.lower_excluded ? !(reward > range.lower) : !(reward >= range.lower);
      if (below || !(reward <= range.upper)) {
        return "outside reward_range() = " + std::string(range.lower_excluded ? "(" : "[") +
               format_number(range.lower) + ", " + format_number(range.upper) +
               "], which must hold every reward the model accepts (a restore refuses a "
               "checkpoint whose reward sums leave it): widen reward_range()";
      }
      if (range.whole && reward != std::floor(reward)) {
        return "not a whole number, though reward_range() declares every reward one (.whole; "
               "a restore refuses a checkpoint whose reward sums are not): drop .whole";
      }
    }
    return {};
  }

  const Model& model_;
  long long drawn_ = 0, refused_ = 0;
  double first_reward_ = 0.0, first_mean_ = 0.0;
  std::string why_;
};

inline void validate(const check_model_options& options) {
  require_at_least("options.points", options.points, 1);
  require_at_least("options.dimension", options.dimension, Eigen::Index{1});
  // A point holds phi and theta, and a check a few more d-vectors: before allocating them
  // (a dimension of 2^40 passed and ended in std::bad_alloc).
  require_state_size("check_model (options.dimension = " + std::to_string(options.dimension) + ")",
                     options.dimension, 8, 0, "coordinates");
  require_finite("options.eta_min", options.eta_min);
  require_finite("options.eta_max", options.eta_max);
  if (!(options.eta_max > options.eta_min)) {
    throw_invalid("options.eta_max", options.eta_max, "must be > options.eta_min");
  }
  require_at_least("options.window", options.window, 1);
  // The statistical checks' bounds are asymptotic (central limit theorem).
  require_at_least("options.samples", options.samples, 100);
  require_positive("options.tolerance", options.tolerance);
  require_positive("options.z", options.z);
}

}  // namespace detail

/// Checks the semantic requirements of a RewardModel (the header comment lists them) at
/// `options.points` random points, drawing rewards with `draw(mean, gen)`, and returns what it
/// found. A wrong model is reported, not thrown; bad options throw std::invalid_argument naming
/// the option and its value. The same seed gives the same report.
///
///   const auto report = sabandit::check_model(my_model{}, [](double mean, auto& gen) {
///     return my_arm{mean}(gen);
///   });
///   std::cout << report;  // one line per check
///   if (!report.ok()) return 1;
template <RewardModel Model, RewardSampler Draw>
[[nodiscard]] model_check_report check_model(const Model& model, Draw draw,
                                             const check_model_options& options = {}) {
  detail::validate(options);
  const auto check = [](const char* name, const char* measure, double bound) {
    model_check c;
    c.name = name;
    c.measure = measure;
    c.bound = bound;
    return c;
  };
  model_check_report report{
      .gradient = check("gradient", "relative error", options.tolerance),
      .concavity = check("concavity", "relative second difference", options.tolerance),
      .increasing_mean = check("increasing mean", "relative fall of the mean (< 0: it rose)",
                               options.tolerance),
      .score_mean = check("score mean", "|mean score| in standard errors", options.z),
      .information =
          check("information", "|E[score^2] - information| in standard errors", options.z),
      .support = check("support", "share of the drawn rewards the model refuses", 0.0),
  };
  detail::check_recorder gradient(report.gradient), concavity(report.concavity),
      increasing_mean(report.increasing_mean), score_mean(report.score_mean),
      information(report.information), support(report.support);
  using role = detail::check_model_role;
  for (int p = 0; p < options.points; ++p) {
    const auto stream = [&](std::uint64_t r) {
      return make_stream(options.seed, static_cast<std::uint64_t>(p), r);
    };
    auto point_gen = stream(role::point);
    const detail::check_point point(options, point_gen);
    // Check 6 sees the rewards the others draw, as they are drawn (the same rewards, and the
    // same streams, as without it).
    detail::support_tally<Model> tally(model);
    auto tallied = [&](double mean, default_engine& gen) {
      const auto reward = static_cast<double>(draw(mean, gen));
      tally.test(reward, mean);
      return reward;
    };
    detail::check_gradient_at(model, tallied, point, stream(role::gradient), options, gradient);
    detail::check_concavity_at(model, tallied, point, stream(role::concavity), options,
                               concavity);
    detail::check_increasing_mean_at(model, point, options, increasing_mean);
    detail::check_score_at(model, tallied, point, stream(role::score), options, score_mean,
                           information);
    support.record(tally.refused_share(), point, point.eta, [&] { return tally.finding(); });
  }
  return report;
}

}  // namespace sabandit
