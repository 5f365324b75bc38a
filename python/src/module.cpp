// The _sabandit extension module: the engine, the models, the environments, UCB and the
// simulation result. The policies over models are bound in conjugate.cpp and langevin.cpp.
#include "bindings.hpp"

#include <cstdio>

#include <pybind11/operators.h>

namespace sabandit::python {

namespace {

/// Python's view of an environment's arms, for its constructor and for pickling.
py::tuple arms_state(const normal_env& e) {
  std::vector<double> means, variances;
  for (Eigen::Index a = 0; a < e.num_arms(); ++a) {
    means.push_back(e.arm(a).mean());
    variances.push_back(e.arm(a).variance());
  }
  return py::make_tuple(means, variances);
}
py::tuple arms_state(const mixture_env& e) {
  std::vector<std::vector<std::tuple<double, double, double>>> arms;
  for (Eigen::Index a = 0; a < e.num_arms(); ++a) {
    auto& arm = arms.emplace_back();
    for (const auto& c : e.arm(a).components()) arm.emplace_back(c.weight, c.mean, c.variance);
  }
  return py::make_tuple(arms);
}
template <class Env>
py::tuple arms_state(const Env& e) {  // Bernoulli, Poisson, exponential: the means
  std::vector<double> means;
  for (Eigen::Index a = 0; a < e.num_arms(); ++a) means.push_back(e.mean(a));
  return py::make_tuple(means);
}

normal_env make_normal(const std::vector<double>& means, const py::object& variance) {
  std::vector<double> variances;
  if (py::isinstance<py::float_>(variance) || py::isinstance<py::int_>(variance)) {
    variances.assign(means.size(), variance.cast<double>());
  } else {
    variances = variance.cast<std::vector<double>>();
    if (variances.size() != means.size())
      detail::throw_invalid("len(variance)", variances.size(),
                            "must equal len(means) = " + std::to_string(means.size()));
  }
  std::vector<normal_arm> arms;
  for (std::size_t a = 0; a < means.size(); ++a) arms.emplace_back(means[a], variances[a]);
  return normal_env(std::move(arms));
}
mixture_env make_mixture(const std::vector<std::vector<std::tuple<double, double, double>>>& arms) {
  std::vector<normal_mixture_arm> built;
  for (const auto& arm : arms) {
    std::vector<normal_mixture_arm::component> components;
    for (const auto& [w, mu, v] : arm) components.push_back({w, mu, v});
    built.emplace_back(std::move(components));
  }
  return mixture_env(std::move(built));
}
template <class Arm>
bandit_env<Arm> make_simple(const std::vector<double>& means) {
  std::vector<Arm> arms;
  for (double mu : means) arms.emplace_back(mu);
  return bandit_env<Arm>(std::move(arms));
}

template <class Env, class Make>
py::class_<Env> bind_env(py::module_& m, const char* name, const char* doc, Make make) {
  py::class_<Env> cls(m, name, doc);
  cls.def_property_readonly("num_arms", &Env::num_arms, "K")
      .def("mean", &Env::mean, py::arg("arm"), "The true mean reward of `arm`.")
      .def_property_readonly("means", [](const Env& e) {
        Eigen::VectorXd means(e.num_arms());
        for (Eigen::Index a = 0; a < e.num_arms(); ++a) means(a) = e.mean(a);
        return means;
      }, "The true means (float64 array of K).")
      .def_property_readonly("best_mean", &Env::best_mean)
      .def("gap", &Env::gap, py::arg("arm"), "best_mean - mean(arm)")
      .def("pull", [](const Env& e, Eigen::Index arm, engine& gen) { return e.pull(arm, gen); },
           py::arg("arm"), py::arg("engine"), "One reward of `arm`, drawn from `engine`.")
      .def(py::pickle([](const Env& e) { return arms_state(e); },
                      [make](const py::tuple& t) { return make(t); }))
      .def("__repr__", [name](const Env& e) {
        // The constructor call that rebuilds it: a one-element tuple's repr would end in ",)".
        const py::tuple state = arms_state(e);
        if (state.size() == 1) return std::string(name) + "(" + std::string(py::repr(state[0])) + ")";
        return std::string(name) + std::string(py::repr(state));
      });
  return cls;
}

// A SimulationResult from a pickle: the shapes simulate() gives, which final_regret, the repr and
// numpy code index by (a tampered pickle with an empty mean_regret read past its end):
// P >= 1 recorded rounds, increasing and positive, with P means, standard errors and fractions;
// trials >= 1, with a final regret and a row of K >= 1 pull counts each.
void require_consistent(const simulation_result& r) {
  const auto fail = [](const std::string& what) {
    throw std::invalid_argument("sabandit: bad pickled SimulationResult: " + what);
  };
  const py::ssize_t points = r.rounds.ndim() == 1 ? r.rounds.shape(0) : 0;
  if (points < 1) fail("rounds must be a 1-D array of at least one round");
  for (py::ssize_t i = 0; i < points; ++i)
    if (r.rounds.at(i) < 1 || (i > 0 && r.rounds.at(i) <= r.rounds.at(i - 1)))
      fail("rounds must be positive and increasing");
  const std::pair<const char*, const py::array_t<double>*> per_point[] = {
      {"mean_regret", &r.mean_regret}, {"standard_error", &r.standard_error},
      {"optimal_fraction", &r.optimal_fraction}};
  for (const auto& [name, array] : per_point)
    if (array->ndim() != 1 || array->shape(0) != points)
      fail(std::string(name) + " must have one value per recorded round");
  if (r.trials < 1) fail("trials = " + std::to_string(r.trials) + " must be at least 1");
  if (r.final_regrets.ndim() != 1 || r.final_regrets.shape(0) != r.trials)
    fail("final_regrets must have one value per trial");
  if (r.pulls.ndim() != 2 || r.pulls.shape(0) != r.trials || r.pulls.shape(1) < 1)
    fail("pulls must be trials x K, K >= 1");
}


// The engine whose state is `given`, four ints in [0, 2**64), not all zero: Engine.from_state
// and a pickle's words alike (a tampered pickle of [0, 0, 0, 0] gave seed 0's engine, which C++'s
// constructor puts in place of the state no engine can have).
engine engine_of_words(const py::handle& given) {
  // Four ints in [0, 2**64), each named when it is not (words[2] = -1).
  const auto sequence = py::reinterpret_borrow<py::object>(given);
  if (!py::isinstance<py::sequence>(sequence) || py::isinstance<py::str>(sequence) ||
      py::isinstance<py::bytes>(sequence) || py::len(sequence) != 4)
    throw py::type_error("sabandit: words = " + std::string(py::repr(sequence)) +
                         " (must be a sequence of four ints)");
  engine::state_type words{};
  for (std::size_t i = 0; i < 4; ++i)
    words[i] = unsigned_of("words[" + std::to_string(i) + "]", sequence[py::int_(i)]);
  // restore() refuses the all-zero state, and so does this, rather than return another state
  // than asked.
  if (words == engine::state_type{})
    detail::throw_invalid("words", std::string_view("[0, 0, 0, 0]"),
                          "xoshiro256++ has no all-zero state; use Engine(seed)");
  return engine(words);
}

}  // namespace


/// sabandit.restored: the policy a saved text describes, made by the maker its type registered
/// (restorers, bindings.hpp). The header is `sabandit-state <version> <type>`; restore itself
/// checks the version and everything after the header.
py::object restored_policy(const std::string& text) {
  std::string first = text.substr(0, text.find('\n'));
  if (!first.empty() && first.back() == '\r') first.pop_back();
  std::istringstream header(first);
  std::string magic, version, type;
  header >> magic >> version >> type;
  if (magic != "sabandit-state" || type.empty())
    throw std::invalid_argument("sabandit: cannot restore: not a sabandit state (the first line "
                                "is '" + sabandit::printable(first) + "')");
  const auto maker = restorers().find(type);
  if (maker != restorers().end()) return maker->second(text);
  if (type.find("<python") != std::string::npos)
    throw std::invalid_argument("sabandit: cannot restore '" + sabandit::printable(type) +
                                "' alone: its model was written in Python, and the saved text "
                                "does not hold it; restore it into a policy made with the model");
  throw std::invalid_argument("sabandit: cannot restore: no policy or engine of type '" +
                              sabandit::printable(type) + "' in this module");
}

void bind_core(py::module_& m) {
  // sabandit.restored reads the table the policy classes fill as they are bound (text_pickle)
  // when it is called, once the module has loaded and every class is bound. The engine, which a
  // service checkpoints beside its policy, is in it too.
  restorers()[state::detail::block<engine>::name()] = [](const std::string& text) {
    engine g;
    restore_text(g, text);
    return py::cast(g);
  };
  m.def("restored", [](const py::handle& state) { return restored_policy(text_of(state)); },
        py::arg("state"),
        "The policy or Engine that `state` (a saved text, str or bytes, from save() or C++'s "
        "state::save) describes, of the class its first line names, multi-armed or contextual: "
        "a checkpoint that needs no object to restore into. ValueError for a damaged state, another object's, "
        "or a policy over a model written in Python (restore it into a policy made with the "
        "model).");
  // ------------------------------------------------------------------------------ engine
  py::class_<engine>(m, "Engine",
                     "xoshiro256++, sabandit's default engine (sabandit::default_engine), seeded "
                     "through splitmix64 as in C++. The caller owns it and passes it to select, "
                     "update and pull.")
      .def(py::init([](const py::handle& seed) { return engine(unsigned_of("seed", seed)); }),
           py::arg("seed") = 0, "The engine seeded by `seed`, an int in [0, 2**64).")
      .def_static("stream", [](const py::handle& seed, const py::handle& trial, const py::handle& role) {
        return make_stream(unsigned_of("seed", seed), unsigned_of("trial", trial),
                           unsigned_of("role", role));
      }, py::arg("seed"), py::arg("trial"), py::arg("role"),
         "The engine of stream (seed, trial, role) as the simulator makes them (role 1: the "
         "policy's engine; 2**32 + a: arm a's rewards).")
      .def_static("stream_key", [](const py::handle& seed, const py::handle& trial, const py::handle& role) {
        return stream_key(unsigned_of("seed", seed), unsigned_of("trial", trial),
                          unsigned_of("role", role));
      }, py::arg("seed"), py::arg("trial"), py::arg("role"),
         "The 64-bit key of stream (seed, trial, role) (sabandit::stream_key).")
      .def_static("from_state", &engine_of_words, py::arg("words"), "The engine whose state is these four 64-bit words (not all zero: ValueError).")
      .def("seed", [](engine& g, const py::handle& seed) { g.seed(unsigned_of("seed", seed)); },
           py::arg("seed") = 0, "Restarts as Engine(seed) starts (C++'s seed(), random.Random's seed).")
      .def("__call__", [](engine& g) { return g(); }, "The next 64 random bits (an int).")
      .def("uniform", [](engine& g) { return uniform01(g); }, "A uniform float in [0, 1).")
      .def("normal", [](engine& g) { return standard_normal(g); }, "A standard normal draw.")
      .def("discard", [](engine& g, const py::handle& count) { g.discard(unsigned_of("count", count)); },
           py::arg("count"), "Advances by `count` outputs, an int in [0, 2**64).")
      .def_property_readonly("state", &engine::state, "The four 64-bit words of the state.")
      .def("save", [](const engine& g) {
        std::ostringstream out;
        state::save(out, g);
        return out.str();
      }, "The state as text (docs/state-format.md).")
      .def("save_bytes", [](const engine& g) {
        std::ostringstream out;
        state::save(out, g);
        return py::bytes(out.str());
      }, "save() as bytes, as a policy's save_bytes().")
      .def("restore", [](engine& g, const py::handle& s) { restore_text(g, text_of(s)); },
           py::arg("state"),
           "Becomes the engine saved in `state` (str or bytes), read as a policy's restore() "
           "reads (CRLF line ends too; nothing may follow the state); unchanged if it raises.")
      .def("copy", [](const engine& g) { return engine(g); })
      .def("__copy__", [](const engine& g) { return engine(g); })
      .def("__deepcopy__", [](const engine& g, const py::handle&) { return engine(g); }, py::arg("memo"))
      .def(py::self == py::self)
      .def(py::pickle([](const engine& g) { return py::make_tuple(g.state()); },
                      [](const py::tuple& t) {
                        if (t.size() != 1) throw std::invalid_argument("sabandit: bad pickled Engine");
                        return engine_of_words(t[0]);
                      }));

  // ------------------------------------------------------------------------------ models
  py::class_<gaussian_model>(m, "GaussianModel", "Gaussian rewards of known variance, identity link.")
      .def(py::init<double>(), py::arg("noise_variance") = 1.0)
      .def_property_readonly("noise_variance", &gaussian_model::noise_variance)
      .def(py::pickle([](const gaussian_model& g) { return py::make_tuple(g.noise_variance()); },
                      [](const py::tuple& t) { return gaussian_model(t[0].cast<double>()); }));
  py::class_<bernoulli_model>(m, "BernoulliModel", "Bernoulli rewards (0 or 1), logistic link.")
      .def(py::init<>())
      .def(py::pickle([](const bernoulli_model&) { return py::make_tuple(); },
                      [](const py::tuple&) { return bernoulli_model{}; }));
  py::class_<poisson_model>(m, "PoissonModel", "Poisson counts, log link.")
      .def(py::init<>())
      .def(py::pickle([](const poisson_model&) { return py::make_tuple(); },
                      [](const py::tuple&) { return poisson_model{}; }));
  py::class_<exponential_model>(m, "ExponentialModel",
                                "Exponential durations (> 0), log link; unit-free defaults.")
      .def(py::init<>())
      .def(py::pickle([](const exponential_model&) { return py::make_tuple(); },
                      [](const py::tuple&) { return exponential_model{}; }));

  // ------------------------------------------------------------------------ environments
  bind_env<normal_env>(m, "NormalEnv", "Arms with normal rewards.",
                       [](const py::tuple& t) { return make_normal(t[0].cast<std::vector<double>>(), t[1]); })
      .def(py::init(&make_normal), py::arg("means"), py::arg("variance") = 1.0,
           "Arm a rewards N(means[a], variance) (variance: one float or one per arm).");
  bind_env<mixture_env>(m, "NormalMixtureEnv", "Arms whose rewards are mixtures of normals.",
                        [](const py::tuple& t) {
                          return make_mixture(t[0].cast<std::vector<std::vector<std::tuple<double, double, double>>>>());
                        })
      .def(py::init(&make_mixture), py::arg("arms"),
           "arms[a] is a list of (weight, mean, variance) components; weights sum to 1.");
  bind_env<bernoulli_env>(m, "BernoulliEnv", "Arms with Bernoulli rewards (clicks, conversions).",
                          [](const py::tuple& t) { return make_simple<bernoulli_arm>(t[0].cast<std::vector<double>>()); })
      .def(py::init(&make_simple<bernoulli_arm>), py::arg("probabilities"));
  bind_env<poisson_env>(m, "PoissonEnv", "Arms with Poisson counts.",
                        [](const py::tuple& t) { return make_simple<poisson_arm>(t[0].cast<std::vector<double>>()); })
      .def(py::init(&make_simple<poisson_arm>), py::arg("means"));
  bind_env<exponential_env>(m, "ExponentialEnv", "Arms with exponential durations (always > 0).",
                            [](const py::tuple& t) { return make_simple<exponential_arm>(t[0].cast<std::vector<double>>()); })
      .def(py::init(&make_simple<exponential_arm>), py::arg("means"));

  m.def("sgr", [](Eigen::Index num_arms, double gap, double best_mean, double noise_variance) {
    return make_sgr({num_arms, gap, best_mean, noise_variance});
  }, py::arg("num_arms") = paper_setting{}.num_arms, py::arg("gap") = paper_setting{}.gap,
     py::arg("best_mean") = paper_setting{}.best_mean,
     py::arg("noise_variance") = paper_setting{}.noise_variance,
     "The paper's single Gaussian rewards setting: K - 1 arms of mean best_mean - gap, one of best_mean.");
  m.def("mgr", [](Eigen::Index num_arms, double gap, double best_mean, double noise_variance) {
    return make_mgr({num_arms, gap, best_mean, noise_variance});
  }, py::arg("num_arms") = paper_setting{}.num_arms, py::arg("gap") = paper_setting{}.gap,
     py::arg("best_mean") = paper_setting{}.best_mean,
     py::arg("noise_variance") = paper_setting{}.noise_variance,
     "The paper's mixture-of-Gaussians setting.");
  m.def("bernoulli_gap", &make_bernoulli_gap, py::arg("num_arms"), py::arg("best") = 0.9,
        py::arg("gap") = 0.5, "K - 1 Bernoulli arms of mean best - gap and one of mean best.");
  m.def("poisson_gap", &make_poisson_gap, py::arg("num_arms"), py::arg("best") = 3.0,
        py::arg("gap") = 0.5, "K - 1 Poisson arms of mean best - gap and one of mean best.");
  m.def("exponential_gap", &make_exponential_gap, py::arg("num_arms"), py::arg("best") = 2.0,
        py::arg("gap") = 0.5, "K - 1 exponential arms of mean best - gap and one of mean best.");
  using matrix_arg = py::array_t<double, py::array::forcecast>;
  m.def("linear_gaussian", [](const matrix_arg& features, const matrix_arg& theta, double noise_variance) {
    Eigen::MatrixXd phi = matrix_of("features", features);  // features named first
    return make_linear_gaussian(phi, matrix_of("theta", theta), noise_variance);
  }, py::arg("features"), py::arg("theta"), py::arg("noise_variance") = 1.0,
     "Arm a: N(<features[:, a], theta[:, a]>, noise_variance); features and theta are d x K.");
  m.def("logistic", [](const matrix_arg& features, const matrix_arg& theta) {
    Eigen::MatrixXd phi = matrix_of("features", features);
    return make_logistic(phi, matrix_of("theta", theta));
  }, py::arg("features"), py::arg("theta"),
     "Arm a: Bernoulli(sigmoid(<features[:, a], theta[:, a]>)); features and theta are d x K.");
  m.def("random_features", [](Eigen::Index d, Eigen::Index k, engine& gen) { return random_features(d, k, gen); },
        py::arg("dimension"), py::arg("num_arms"), py::arg("engine"),
        "A d x K matrix of N(0, 1/d) features.");
  m.def("parameters_with_predictors", [](const matrix_arg& features, const Eigen::VectorXd& eta) {
    return parameters_with_predictors(matrix_of("features", features), eta);
  }, py::arg("features"), py::arg("eta"),
        "theta (d x K) with <features[:, a], theta[:, a]> = eta[a].");

  // ---------------------------------------------------------------------------------- UCB
  bind_policy<ucb>(m, "UCB", "UCB with the paper's index mean + tau sqrt(2 ln t / n_a).",
                   text_pickle<ucb>([](Eigen::Index, Eigen::Index k) { return ucb(k); }))
      .def_property_readonly("parameters", [](const ucb& p) {
        return py::dict(py::arg("bonus_scale") = p.parameters().bonus_scale,
                        py::arg("warmup") = p.parameters().warmup);
      });
  m.def("ucb", [](Eigen::Index num_arms, std::optional<double> bonus_scale, std::optional<Eigen::Index> warmup) {
    ucb::params p;
    set_if(p.bonus_scale, bonus_scale);
    set_if(p.warmup, warmup);
    return ucb(num_arms, p);
  }, py::arg("num_arms"), py::kw_only(), py::arg("bonus_scale") = py::none(), py::arg("warmup") = py::none(),
     ("UCB over K arms. Omitted keywords keep the C++ defaults: bonus_scale (tau) = " +
      detail::value_text(ucb::params{}.bonus_scale) + ", warmup = " + std::to_string(ucb::params{}.warmup) + ".")
         .c_str());

  // ---------------------------------------------------------------------- simulate result
  py::class_<simulation_result>(m, "SimulationResult",
                                "What simulate() returns: numpy arrays over the recorded rounds, "
                                "per trial, and per trial and arm.")
      .def_readonly("rounds", &simulation_result::rounds, "recorded rounds (int64, points; last = horizon)")
      .def_readonly("mean_regret", &simulation_result::mean_regret,
                    "mean cumulative pseudo-regret over trials at each recorded round (float64)")
      .def_readonly("standard_error", &simulation_result::standard_error, "its standard error (float64)")
      .def_readonly("optimal_fraction", &simulation_result::optimal_fraction,
                    "mean fraction of optimal pulls up to each recorded round (float64)")
      .def_readonly("final_regrets", &simulation_result::final_regrets,
                    "each trial's cumulative regret at the horizon (float64, trials)")
      .def_readonly("pulls", &simulation_result::pulls, "pulls of each arm in each trial (int64, trials x K)")
      .def_readonly("trials", &simulation_result::trials)
      .def_property_readonly("final_regret", [](const simulation_result& r) {
        return r.mean_regret.at(r.mean_regret.size() - 1);
      }, "mean_regret[-1]")
      .def_property_readonly("final_standard_error", [](const simulation_result& r) {
        return r.standard_error.at(r.standard_error.size() - 1);
      }, "standard_error[-1]")
      .def("__repr__", [](const simulation_result& r) {
        const auto last = static_cast<py::ssize_t>(r.mean_regret.size() - 1);
        char regret[64];  // four significant digits: a summary; the arrays have every bit
        std::snprintf(regret, sizeof regret, "%.4g +- %.2g", r.mean_regret.at(last),
                      r.standard_error.at(last));
        return "<sabandit.SimulationResult: " + std::to_string(r.trials) + " trials of " +
               std::to_string(r.rounds.at(last)) + " rounds, final regret " + regret + ">";
      })
      // Picklable, so that multiprocessing and joblib can return it from a worker process.
      .def(py::pickle(
          [](const simulation_result& r) {
            return py::make_tuple(r.rounds, r.mean_regret, r.standard_error, r.optimal_fraction,
                                  r.final_regrets, r.pulls, r.trials);
          },
          [](const py::tuple& t) {
            if (t.size() != 7) throw std::invalid_argument("sabandit: bad pickled SimulationResult");
            simulation_result r;
            r.rounds = t[0].cast<py::array_t<std::int64_t>>();
            r.mean_regret = t[1].cast<py::array_t<double>>();
            r.standard_error = t[2].cast<py::array_t<double>>();
            r.optimal_fraction = t[3].cast<py::array_t<double>>();
            r.final_regrets = t[4].cast<py::array_t<double>>();
            r.pulls = t[5].cast<py::array_t<std::int64_t>>();
            r.trials = t[6].cast<std::int64_t>();
            require_consistent(r);
            return r;
          }));
}

}  // namespace sabandit::python

PYBIND11_MODULE(_sabandit, m) {
  namespace sp = sabandit::python;
  m.doc() = "sabandit's C++ policies, engine, environments and simulator (see docs/python.md).";
  // numpy now, under the import lock: imported lazily, by the first call that returns an array,
  // two threads making theirs at once deadlocked (one in pybind11's one-time numpy setup, holding
  // the GIL; the other importing numpy, waiting for it).
  pybind11::module_::import("numpy");
  m.attr("__version__") = std::to_string(SABANDIT_VERSION_MAJOR) + "." +
                          std::to_string(SABANDIT_VERSION_MINOR) + "." +
                          std::to_string(SABANDIT_VERSION_PATCH);
  sp::bind_core(m);
  sp::bind_conjugate(m);
  sp::bind_langevin(m);
  sp::bind_check_model(m);
  sp::bind_contextual(m);
}
