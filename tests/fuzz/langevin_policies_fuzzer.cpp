// libFuzzer target: the Langevin policies (TS-SA with the paper's, a constant and the horizon
// SA schedule; TS-SGLD) over the Gaussian, Bernoulli and Poisson models, with arbitrary
// parameters and features, driven by policy_driver.hpp.
//
// The parameters that set work per call (N, the horizon T, the warm start's iterations) are
// kept small: they cost time as documented, and a fuzzer would only time out on them.
#include <cstddef>
#include <cstdint>

#include "policy_driver.hpp"

namespace {

using namespace sabandit;
using sabandit_fuzz::input;

constexpr Eigen::Index max_arms = 6;

template <class Model>
Model any_model(input& in) {
  if constexpr (std::is_same_v<Model, gaussian_model>) {
    return gaussian_model(in.any_double());
  } else {
    (void)in;
    return Model{};
  }
}

template <class Model>
normal_prior any_prior(input& in) {
  if (in.coin()) return default_prior<Model>();
  return {in.any_double(), in.any_double()};
}

template <class Schedule>
Schedule any_schedule(input& in) {
  if constexpr (std::is_same_v<Schedule, polynomial_decay>) {
    if (in.coin()) return polynomial_decay::paper_default();
    if (in.coin()) return polynomial_decay::harmonic();
    return polynomial_decay(in.any_double(), in.any_double(), in.any_double(), in.any_double());
  } else if constexpr (std::is_same_v<Schedule, constant_schedule>) {
    return constant_schedule(in.any_double());
  } else {
    return horizon_schedule(in.size(12, false));
  }
}

// The features matrix d x K, built by the caller (so with small K only); any entries.
Eigen::MatrixXd any_features(input& in) {
  const auto d = in.in_range<Eigen::Index>(0, 3);
  const auto k = in.in_range<Eigen::Index>(0, max_arms);
  Eigen::MatrixXd phi(d, k);
  for (Eigen::Index j = 0; j < k; ++j)
    for (Eigen::Index i = 0; i < d; ++i) phi(i, j) = in.coin() ? 1.0 : in.any_double();
  return phi;
}

// The parameters both Langevin policies have, then the policy with K unit features or with
// any features and model.
template <class Policy, class Model>
Policy build(input& in, typename Policy::params p) {
  p.warmup = in.any_count(6);
  p.inner_steps = in.size(3, false);
  p.step_size = in.any_double();
  p.temperature = in.any_double();
  p.init = in.coin() ? initialisation::prior : initialisation::warm_start;
  p.prior = any_prior<Model>(in);
  p.warm_start = {.max_iterations = in.size(200, false), .tolerance = in.any_double()};
  if (in.coin()) return Policy(in.size(max_arms, true), p);
  auto features = any_features(in);
  return Policy(std::move(features), p, any_model<Model>(in));
}

template <class Model, class Schedule>
void drive_ts_sa(input& in) {
  sabandit_fuzz::construct_and_drive(in, [&] {
    using policy = ts_sa<Model, Schedule>;
    if constexpr (std::is_same_v<Schedule, polynomial_decay>) {
      if (in.coin()) return policy(in.size(max_arms, true));
    }
    const Eigen::Index window = in.size(16, true);
    const auto metric = in.coin() ? step_metric::fisher : step_metric::identity;
    return build<policy, Model>(
        in, {.window = window, .sa_schedule = any_schedule<Schedule>(in), .metric = metric});
  });
}

template <class Model>
void drive_ts_sgld(input& in) {
  sabandit_fuzz::construct_and_drive(in, [&] {
    using policy = ts_sgld<Model>;
    if (in.coin()) return policy(in.size(max_arms, true));
    return build<policy, Model>(in, {.batch_size = in.size(16, true)});
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  input in(data, size);
  switch (in.in_range<int>(0, 9)) {
    case 0: drive_ts_sa<gaussian_model, polynomial_decay>(in); break;
    case 1: drive_ts_sa<bernoulli_model, polynomial_decay>(in); break;
    case 2: drive_ts_sa<poisson_model, polynomial_decay>(in); break;
    case 3: drive_ts_sa<gaussian_model, constant_schedule>(in); break;
    case 4: drive_ts_sa<gaussian_model, horizon_schedule>(in); break;
    case 5: drive_ts_sgld<gaussian_model>(in); break;
    case 6: drive_ts_sgld<bernoulli_model>(in); break;
    case 7: drive_ts_sa<exponential_model, polynomial_decay>(in); break;
    case 8: drive_ts_sgld<exponential_model>(in); break;
    default: drive_ts_sgld<poisson_model>(in); break;
  }
  return 0;
}
