#pragma once
// What the two Langevin policies (TS-SA, TS-SGLD) share: features Phi (d x K), the per-arm
// parameter iterates Theta (d x K), the reward model, gradient scratch, initialisation of an
// arm once its warm-up is done, and the Gaussian score of each arm used by the decision.
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

#include <Eigen/Core>

#include "sabandit/concepts.hpp"
#include "sabandit/errors.hpp"
#include "sabandit/policies/detail/gaussian_scores.hpp"
#include "sabandit/random/normal.hpp"

namespace sabandit {

/// How a Langevin policy sets an arm's parameter when its warm-up pulls are done.
/// The default is the warm start. With the paper's SA schedule (gamma_19 = 0.011) an iterate
/// moves by about gamma h (xbar - theta) per pull, so a chain started from a N(0, 1) prior draw
/// far from rewards near 3 never reaches them within 10^4 rounds: on SGR and MGR (K = 10,
/// gap 0.5, 50 trials) TS-SA's final regret is 563 +- 143 / 519 +- 111 with the warm start and
/// 4500 +- 209 / 4502 +- 209 (linear) from the prior (examples/policy_table).
enum class initialisation {
  /// theta_a ~ N(prior_mean 1, prior_variance I): Algorithm 1 line 1.
  prior,
  /// The warm-up rewards' maximum-likelihood fit: closed form for models with sufficient
  /// statistics (the Gaussian: window mean), otherwise gradient ascent on the warm-up window.
  /// The paper's experiments call this the warm start.
  warm_start,
};

/// Prior and warm-start settings common to both Langevin policies.
struct langevin_prior {
  initialisation init = initialisation::warm_start;
  double mean = 0.0;      ///< every coordinate of the prior mean
  double variance = 1.0;  ///< > 0, isotropic
  /// Gradient-ascent iterations of the warm start for models without a closed-form fit.
  Eigen::Index warm_start_iterations = 100;
  /// Their step size (> 0).
  double warm_start_step = 0.5;
};

/// Features for the paper's experiments: d = 1 and phi_a = 1, so theta_a is arm a's mean.
[[nodiscard]] inline Eigen::MatrixXd unit_features(Eigen::Index num_arms) {
  detail::require_at_least<Eigen::Index>("num_arms", num_arms, 1);
  return Eigen::MatrixXd::Ones(1, num_arms);
}

namespace detail {

template <RewardModel Model>
class langevin_arms {
 public:
  langevin_arms(Eigen::MatrixXd features, Model model, const langevin_prior& prior)
      : phi_(validated_features(std::move(features))),
        theta_(Eigen::MatrixXd::Constant(phi_.rows(), phi_.cols(), prior.mean)),
        phi_norm_(phi_.colwise().norm().transpose().array()),
        model_(std::move(model)),
        prior_(validated(prior)),
        scores_(phi_.cols()),
        grad_(phi_.rows()),
        work_(phi_.rows()),
        proposal_(phi_.rows()) {}

  [[nodiscard]] Eigen::Index num_arms() const noexcept { return phi_.cols(); }
  [[nodiscard]] Eigen::Index dimension() const noexcept { return phi_.rows(); }
  [[nodiscard]] const Eigen::MatrixXd& features() const noexcept { return phi_; }
  [[nodiscard]] const Eigen::MatrixXd& parameters() const noexcept { return theta_; }
  [[nodiscard]] const Model& model() const noexcept { return model_; }
  [[nodiscard]] gaussian_scores& scores() noexcept { return scores_; }
  [[nodiscard]] const gaussian_scores& scores() const noexcept { return scores_; }

  /// Computes theta_a for the end of arm a's warm-up into the working copy (commit() stores
  /// it): a prior draw, or the fit to the warm-up `rewards`.
  template <class Rewards, std::uniform_random_bit_generator URBG>
  void initialise(Eigen::Index arm, const Rewards& rewards, URBG& gen) {
    if (prior_.init == initialisation::prior) {
      fill_standard_normal(work_, gen);
      work_ = prior_.mean + std::sqrt(prior_.variance) * work_.array();
      return;
    }
    if constexpr (WindowMeanRewardModel<Model>) {
      model_.fit_mean(rewards.mean(), phi_.col(arm), work_);
    } else {
      work_.setConstant(prior_.mean);
      for (Eigen::Index i = 0; i < prior_.warm_start_iterations; ++i) {
        model_.grad_log_likelihood(rewards, phi_.col(arm), work_, grad_);
        work_ += prior_.warm_start_step * grad_;
      }
    }
  }

  /// Working copy of theta_a, for a policy's inner iterations.
  Eigen::VectorXd& load(Eigen::Index arm) {
    work_ = theta_.col(arm);
    return work_;
  }
  [[nodiscard]] Eigen::VectorXd& proposal() noexcept { return proposal_; }

  /// The mean log-likelihood gradient of `rewards` at the working copy: the generic path.
  /// Policies choose it or gradient_at_mean, since only they know whether a mean is at hand
  /// (TS-SA's running window sum) or would cost a pass (TS-SGLD's fresh mini-batch).
  template <class Rewards>
  const Eigen::VectorXd& gradient(Eigen::Index arm, const Rewards& rewards) {
    model_.grad_log_likelihood(rewards, phi_.col(arm), work_, grad_);
    return grad_;
  }
  /// The same from a known window mean (sufficient-statistics models only): O(d).
  const Eigen::VectorXd& gradient_at_mean(Eigen::Index arm, double xbar)
    requires WindowMeanRewardModel<Model>
  {
    model_.grad_log_likelihood_at_mean(xbar, phi_.col(arm), work_, grad_);
    return grad_;
  }

  /// Stores the working copy as theta_a and sets the arm's score distribution
  /// N(<phi_a, theta_a>, spread^2 |phi_a|^2). A non-finite iterate is reported, not stored.
  void commit(Eigen::Index arm, double spread) {
    if (!work_.allFinite()) {
      throw std::domain_error("sabandit: the Langevin iterate of arm " + std::to_string(arm) +
                              " became non-finite; reduce step_size (h) or check the model");
    }
    theta_.col(arm) = work_;
    scores_.set(arm, model_.mean(phi_.col(arm), work_), spread * phi_norm_(arm));
  }

 private:
  static Eigen::MatrixXd validated_features(Eigen::MatrixXd features) {
    require_at_least<Eigen::Index>("features.rows() (dimension d)", features.rows(), 1);
    require_at_least<Eigen::Index>("features.cols() (num_arms K)", features.cols(), 1);
    if (!features.allFinite()) throw_invalid("features", "non-finite entry", "must be finite");
    for (Eigen::Index a = 0; a < features.cols(); ++a) {
      if (features.col(a).squaredNorm() == 0.0)
        throw_invalid("features.col(" + std::to_string(a) + ")", "zero vector", "must be non-zero");
    }
    return features;
  }
  static langevin_prior validated(const langevin_prior& prior) {
    require_finite("prior.mean", prior.mean);
    require_positive("prior.variance", prior.variance);
    require_at_least<Eigen::Index>("prior.warm_start_iterations", prior.warm_start_iterations, 0);
    require_positive("prior.warm_start_step", prior.warm_start_step);
    return prior;
  }

  Eigen::MatrixXd phi_;
  Eigen::MatrixXd theta_;
  Eigen::ArrayXd phi_norm_;
  Model model_;
  langevin_prior prior_;
  gaussian_scores scores_;
  Eigen::VectorXd grad_;
  Eigen::VectorXd work_;
  Eigen::VectorXd proposal_;
};

}  // namespace detail
}  // namespace sabandit
