// TS-SA and TS-SGLD over the built-in models and over a model written in Python.
#include "bindings.hpp"

namespace sabandit::python {

namespace {

using prior_pair = std::optional<std::pair<double, double>>;

/// The keywords TS-SA and TS-SGLD share (langevin::validate_common checks them).
struct common_keywords {
  std::optional<Eigen::Index> warmup, inner_steps, warm_start_max_iterations;
  std::optional<double> step_size, temperature, warm_start_tolerance;
  std::optional<std::string> init, metric;
  prior_pair prior;

  template <class Params>
  void apply(Params& p) const {
    set_if(p.warmup, warmup);
    set_if(p.inner_steps, inner_steps);
    set_if(p.step_size, step_size);
    set_if(p.temperature, temperature);
    if (init) p.init = parse_init(*init);
    if (metric) p.metric = parse_metric(*metric);
    if (prior) p.prior = normal_prior{prior->first, prior->second};
    set_if(p.warm_start.max_iterations, warm_start_max_iterations);
    set_if(p.warm_start.tolerance, warm_start_tolerance);
  }
};

/// The prior a Python model declares with default_prior() -> (mean, variance), as a C++ model
/// does with its static default_prior(): the policy's default, which `prior=` then overrides.
template <class Model, class Params>
void apply_declared_prior(Params& p, const py::object& model) {
  if constexpr (std::is_same_v<Model, python_model>) {
    if (!py::hasattr(model, "default_prior")) return;
    const py::object declared = model.attr("default_prior")();
    std::pair<double, double> pair;
    try {
      pair = declared.cast<std::pair<double, double>>();
    } catch (const py::cast_error&) {
      throw py::type_error("sabandit: the model's default_prior() returned " +
                           std::string(py::repr(declared)) +
                           ", not a (mean, variance) pair of floats");
    }
    p.prior = normal_prior{pair.first, pair.second};
    try {  // said here, where the prior comes from (the constructor would name prior= alone)
      detail::validate(p.prior, false);
    } catch (const std::invalid_argument& refused) {
      throw std::invalid_argument(std::string(refused.what()) +
                                  ", from the model's default_prior()");
    }
  }
}

template <class Params>
py::dict common_dict(const Params& p) {
  return py::dict(py::arg("warmup") = p.warmup, py::arg("inner_steps") = p.inner_steps,
                  py::arg("step_size") = p.step_size, py::arg("temperature") = p.temperature,
                  py::arg("init") = init_name(p.init), py::arg("metric") = metric_name(p.metric),
                  py::arg("prior") = std::make_pair(p.prior.mean, p.prior.variance),
                  py::arg("warm_start_max_iterations") = p.warm_start.max_iterations,
                  py::arg("warm_start_tolerance") = p.warm_start.tolerance);
}

template <class Model>
py::dict ts_sa_dict(const typename ts_sa<Model>::params& p) {
  py::dict d = common_dict(p);
  d["window"] = p.window;
  d["prior_rewards"] = std::make_pair(p.prior_rewards.sum, p.prior_rewards.count);
  const auto& s = p.sa_schedule;
  d["sa_schedule"] = py::make_tuple(s.c1(), s.c2(), s.c3(), s.alpha());
  return d;
}
template <class Model>
py::dict ts_sgld_dict(const typename ts_sgld<Model>::params& p) {
  py::dict d = common_dict(p);
  d["batch_size"] = p.batch_size;
  return d;
}

/// The features: `features` (d x K, matrix_of) if given, else phi_a = 1 for `num_arms` arms.
inline Eigen::MatrixXd features_of(std::optional<Eigen::Index> num_arms,
                                   std::optional<py::array_t<double, py::array::forcecast>> features, Eigen::Index per_arm) {
  if (features.has_value() == num_arms.has_value())
    throw std::invalid_argument("sabandit: invalid argument: give num_arms or features (a d x K "
                                "array), exactly one of them");
  if (features) {
    return matrix_of("features", *features);
  }
  // Before allocating: the constructor's own check comes after the features exist.
  detail::require_at_least<Eigen::Index>("num_arms", *num_arms, 1);
  detail::require_state_size("a Langevin policy", *num_arms, per_arm + 1);
  return unit_features(*num_arms);
}

template <class Model>
Model model_of(const py::object& model) {
  if constexpr (std::is_same_v<Model, gaussian_model>) return gaussian_of(model);
  else if constexpr (std::is_same_v<Model, python_model>) return python_model(model);
  else return Model{};
}

template <class F>
py::object dispatch_model(const py::object& model, F&& f) {
  switch (kind_of(model)) {
    case model_kind::gaussian: return f(gaussian_model{});
    case model_kind::bernoulli: return f(bernoulli_model{});
    case model_kind::poisson: return f(poisson_model{});
    case model_kind::exponential: return f(exponential_model{});
    case model_kind::python: break;
  }
  return f(static_cast<python_model*>(nullptr));
}
template <class Tag> struct model_type { using type = Tag; };
template <> struct model_type<python_model*> { using type = python_model; };

/// Pickling of a policy over a model written in Python: its saved text and the model object.
template <class P>
auto python_model_pickle() {
  return py::pickle(
      [](const P& p) { return py::make_tuple(saved_text(p), p.model().object()); },
      [](const py::tuple& t) {
        if (t.size() != 2) throw std::invalid_argument("sabandit: bad pickled state");
        const std::string text = text_of(t[0]);
        const auto [d, k] = saved_shape(text);
        return restored(P(Eigen::MatrixXd::Ones(d, k), {}, python_model(t[1])), text);
      });
}

template <class Model>
void bind_model(py::module_& m, const std::string& suffix) {
  using sa = ts_sa<Model>;
  using sgld = ts_sgld<Model>;
  auto sa_cls = [&] {
    if constexpr (std::is_same_v<Model, python_model>)
      return bind_policy<sa>(m, ("TSSA" + suffix).c_str(), "TS-SA (Algorithm 1).", python_model_pickle<sa>());
    else
      return bind_policy<sa>(m, ("TSSA" + suffix).c_str(), "TS-SA (Algorithm 1).",
                             text_pickle<sa>([](Eigen::Index d, Eigen::Index k) {
                               return sa(Eigen::MatrixXd::Ones(d, k), {});
                             }));
  }();
  sa_cls.def_property_readonly("parameters", [](const sa& p) { return ts_sa_dict<Model>(p.parameters()); })
      .def_property_readonly("theta", [](const sa& p) -> Eigen::MatrixXd { return p.parameter_estimates(); },
                             "The SA iterates theta_a (d x K).");
  auto sgld_cls = [&] {
    if constexpr (std::is_same_v<Model, python_model>)
      return bind_policy<sgld>(m, ("TSSGLD" + suffix).c_str(), "TS-SGLD (Mazumdar et al. 2020).",
                               python_model_pickle<sgld>());
    else
      return bind_policy<sgld>(m, ("TSSGLD" + suffix).c_str(), "TS-SGLD (Mazumdar et al. 2020).",
                               text_pickle<sgld>([](Eigen::Index d, Eigen::Index k) {
                                 return sgld(Eigen::MatrixXd::Ones(d, k), {});
                               }));
  }();
  sgld_cls.def_property_readonly("parameters", [](const sgld& p) { return ts_sgld_dict<Model>(p.parameters()); })
      .def_property_readonly("theta", [](const sgld& p) -> Eigen::MatrixXd { return p.parameter_estimates(); },
                             "The chains' last iterates (d x K).");
}

std::string common_doc(double h, double tau, Eigen::Index warmup, Eigen::Index n, const char* init,
                       const char* metric) {
  return "warmup (Omega) = " + std::to_string(warmup) + ", inner_steps (N) = " + std::to_string(n) +
         ", step_size (h) = " + detail::value_text(h) + ", temperature (tau) = " + detail::value_text(tau) + ", init = '" + init +
         "' (or 'prior'), metric = '" + metric +
         "' ('fisher' or 'identity'), prior = (mean, variance) of the normal prior on theta (the "
         "model's default: flat (0, inf) for Gaussian and exponential, (0, 4) for Bernoulli and Poisson, "
         "for a Python model its default_prior() or else (0, 1)), warm_start_max_iterations = 500, warm_start_tolerance = 1e-9";
}

}  // namespace

void bind_langevin(py::module_& m) {
  bind_model<gaussian_model>(m, "Gaussian");
  bind_model<bernoulli_model>(m, "Bernoulli");
  bind_model<poisson_model>(m, "Poisson");
  bind_model<exponential_model>(m, "Exponential");
  bind_model<python_model>(m, "Python");

  const ts_sa<>::params sad;
  const ts_sa<>::params paper = ts_sa<>::params::paper();
  const auto& sch = sad.sa_schedule;
  const auto& psch = paper.sa_schedule;
  m.def("ts_sa", [](std::optional<Eigen::Index> num_arms, std::optional<py::array_t<double, py::array::forcecast>> features,
                    const py::object& model, const std::string& preset, std::optional<Eigen::Index> window,
                    std::optional<std::tuple<double, double, double, double>> sa_schedule,
                    std::optional<Eigen::Index> warmup, std::optional<Eigen::Index> inner_steps,
                    std::optional<double> step_size, std::optional<double> temperature,
                    std::optional<std::string> init, std::optional<std::string> metric, prior_pair prior,
                    std::optional<Eigen::Index> warm_start_max_iterations,
                    std::optional<double> warm_start_tolerance, prior_pair prior_rewards) {
    const common_keywords kw{warmup, inner_steps, warm_start_max_iterations, step_size, temperature,
                             warm_start_tolerance, init, metric, prior};
    return dispatch_model(model, [&](auto tag) -> py::object {
      using Model = typename model_type<decltype(tag)>::type;
      using P = ts_sa<Model>;
      typename P::params p;
      if (preset == "paper") p = P::params::paper();
      else if (preset == "robust") p = P::params::robust();
      else if (preset != "default")
        detail::throw_invalid("preset", preset, "must be 'default', 'paper' or 'robust'");
      apply_declared_prior<Model>(p, model);
      kw.apply(p);
      set_if(p.window, window);
      if (prior_rewards) p.prior_rewards = {prior_rewards->first, prior_rewards->second};
      if (sa_schedule) {
        const auto [c1, c2, c3, alpha] = *sa_schedule;
        p.sa_schedule = polynomial_decay(c1, c2, c3, alpha);
      }
      auto phi = features_of(num_arms, std::move(features),
                             detail::saturating_add<Eigen::Index>(p.window, 9));
      return py::cast(P(std::move(phi), p, model_of<Model>(model)));
    });
  }, py::arg("num_arms") = py::none(), py::kw_only(), py::arg("features") = py::none(),
     py::arg("model") = "gaussian", py::arg("preset") = "default", py::arg("window") = py::none(),
     py::arg("sa_schedule") = py::none(), py::arg("warmup") = py::none(), py::arg("inner_steps") = py::none(),
     py::arg("step_size") = py::none(), py::arg("temperature") = py::none(), py::arg("init") = py::none(),
     py::arg("metric") = py::none(), py::arg("prior") = py::none(),
     py::arg("warm_start_max_iterations") = py::none(), py::arg("warm_start_tolerance") = py::none(),
     py::arg("prior_rewards") = py::none(),
     ("TS-SA (Algorithm 1; C++ ts_sa<Model>) over num_arms arms with phi_a = 1, or over "
      "`features` (d x K). model: 'gaussian' (or GaussianModel(noise_variance)), 'bernoulli', "
      "'poisson', 'exponential', or an object written in Python (docs/python.md). preset: 'default' (scale-free, "
      "params{}), 'paper' (params::paper(): Algorithm 1 as printed with the appendix's values "
      "Omega = 19, B = 27, h = 0.532, sa_schedule = (" + detail::value_text(psch.c1()) + ", " + detail::value_text(psch.c2()) +
      ", " + detail::value_text(psch.c3()) + ", " + detail::value_text(psch.alpha()) + "), metric 'identity') or 'robust'. "
      "Keywords given override the preset; omitted ones keep its C++ values, for 'default': "
      "window (B) = " + std::to_string(sad.window) + ", sa_schedule = (c1, c2, c3, alpha) of "
      "gamma_n = c1 / (c2 n^alpha + c3) = (" + detail::value_text(sch.c1()) + ", " + detail::value_text(sch.c2()) + ", " +
      detail::value_text(sch.c3()) + ", " + detail::value_text(sch.alpha()) + "), prior_rewards = (sum, count) of the conjugate "
      "prior as pseudo-rewards (the model's: (1, 2) for 'bernoulli', (1, 1e-4) for 'poisson', "
      "none otherwise; the normal prior is then flat), " +
      common_doc(sad.step_size, sad.temperature, sad.warmup, sad.inner_steps, init_name(sad.init),
                 metric_name(sad.metric)) + ".").c_str());

  const ts_sgld<>::params sgd;
  m.def("ts_sgld", [](std::optional<Eigen::Index> num_arms, std::optional<py::array_t<double, py::array::forcecast>> features,
                      const py::object& model, std::optional<Eigen::Index> batch_size,
                      std::optional<Eigen::Index> warmup, std::optional<Eigen::Index> inner_steps,
                      std::optional<double> step_size, std::optional<double> temperature,
                      std::optional<std::string> init, std::optional<std::string> metric, prior_pair prior,
                      std::optional<Eigen::Index> warm_start_max_iterations,
                      std::optional<double> warm_start_tolerance) {
    const common_keywords kw{warmup, inner_steps, warm_start_max_iterations, step_size, temperature,
                             warm_start_tolerance, init, metric, prior};
    return dispatch_model(model, [&](auto tag) -> py::object {
      using Model = typename model_type<decltype(tag)>::type;
      using P = ts_sgld<Model>;
      typename P::params p;
      apply_declared_prior<Model>(p, model);
      kw.apply(p);
      set_if(p.batch_size, batch_size);
      auto phi = features_of(num_arms, std::move(features),
                             detail::saturating_add<Eigen::Index>(p.batch_size, 9));
      return py::cast(P(std::move(phi), p, model_of<Model>(model)));
    });
  }, py::arg("num_arms") = py::none(), py::kw_only(), py::arg("features") = py::none(),
     py::arg("model") = "gaussian", py::arg("batch_size") = py::none(), py::arg("warmup") = py::none(),
     py::arg("inner_steps") = py::none(), py::arg("step_size") = py::none(), py::arg("temperature") = py::none(),
     py::arg("init") = py::none(), py::arg("metric") = py::none(), py::arg("prior") = py::none(),
     py::arg("warm_start_max_iterations") = py::none(), py::arg("warm_start_tolerance") = py::none(),
     ("TS-SGLD (C++ ts_sgld<Model>) over num_arms arms or `features` (d x K); model as for ts_sa(). "
      "Omitted keywords keep the C++ defaults: batch_size = " + std::to_string(sgd.batch_size) + ", " +
      common_doc(sgd.step_size, sgd.temperature, sgd.warmup, sgd.inner_steps, init_name(sgd.init),
                 metric_name(sgd.metric)) + ".").c_str());
}

}  // namespace sabandit::python
