// sabandit.check_model: C++'s check_model (models/check_model.hpp) on a built-in model or on one
// written in Python, with the reward sampler a Python callable draw(mean, engine) -> float.
// It runs on the caller's thread, which holds the GIL throughout.
#include "bindings.hpp"

#include <sabandit/models/check_model.hpp>

namespace sabandit::python {

namespace {

/// The Python sampler as a RewardSampler. Each call gets a Python Engine holding the stream's
/// state, and the stream goes on from where the sampler left that engine: the draws are those
/// of C++'s sampler on the same stream, and the Python code may keep the object (it is its own).
/// What it returns is read as update() reads a reward (a number, a bool as 0 or 1, a 0-d
/// array).
class python_sampler {
 public:
  explicit python_sampler(py::object draw) : draw_(std::move(draw)) {}

  double operator()(double mean, engine& gen) const {
    const py::object stream = py::cast(gen);  // a copy owned by Python
    const py::object result = draw_(mean, stream);
    gen = stream.cast<const engine&>();
    // What update() takes as a reward, by the same rule (reward_of), its refusal prefixed.
    try {
      return reward_of(result);
    } catch (const py::type_error& refused) {
      throw py::type_error(prefixed(refused.what()));
    } catch (const py::value_error& refused) {
      throw py::value_error(prefixed(refused.what()));
    }
  }

 private:
  static std::string prefixed(std::string_view message) {
    constexpr std::string_view own = "sabandit: ";
    if (message.starts_with(own)) message.remove_prefix(own.size());
    return "sabandit: draw(mean, engine) returned no reward: " + std::string(message);
  }

  py::object draw_;
};

/// A Python model as check_model sees it: its validate_reward's ValueError is the refusal
/// that the support check counts (C++'s std::invalid_argument); anything else it raises goes
/// on as raised. A policy lets the ValueError through unchanged instead (docs/python.md).
struct refusal_checked_model {
  python_model model;

  [[nodiscard]] double mean(const vector_cref& phi, const vector_cref& theta) const {
    return model.mean(phi, theta);
  }
  [[nodiscard]] double log_likelihood(double x, const vector_cref& phi,
                                      const vector_cref& theta) const {
    return model.log_likelihood(x, phi, theta);
  }
  void grad_log_likelihood(const vector_cref& xs, const vector_cref& phi,
                           const vector_cref& theta, vector_ref grad) const {
    model.grad_log_likelihood(xs, phi, theta, grad);
  }
  void validate_reward(double x) const {
    try {
      model.validate_reward(x);
    } catch (py::error_already_set& raised) {
      if (!raised.matches(PyExc_ValueError)) throw;
      // The message alone: what() adds the traceback, whose line numbers would make two runs'
      // reports differ.
      throw std::invalid_argument("ValueError: " + std::string(py::str(raised.value())));
    }
  }
};
static_assert(RewardModel<refusal_checked_model>);
/// The same for an object with an information method, which check 5 then tests. Without one,
/// check 5 tests the observed information, the fallback that the policies then use.
struct informed_checked_model : refusal_checked_model {
  [[nodiscard]] double information(const vector_cref& phi, const vector_cref& theta) const {
    return model.information(phi, theta);
  }
};
static_assert(!FisherInformationModel<refusal_checked_model> &&
              FisherInformationModel<informed_checked_model>);

// C++'s option errors name `options.points`; here the keyword is `points`.
std::string keyword_named(std::string message) {
  constexpr std::string_view prefix = "options.";
  for (auto at = message.find(prefix); at != std::string::npos; at = message.find(prefix, at))
    message.erase(at, prefix.size());
  return message;
}

model_check_report check(const py::object& model, const py::object& draw,
                         const check_model_options& options) {
  try {
    detail::validate(options);  // check_model validates them again: cheap, and the same rules
  } catch (const std::length_error& refused) {
    throw std::length_error(keyword_named(refused.what()));
  } catch (const std::invalid_argument& refused) {
    throw std::invalid_argument(keyword_named(refused.what()));
  }
  if (!PyCallable_Check(draw.ptr()))
    throw py::type_error("sabandit: draw = " + std::string(py::repr(draw)) +
                         " (must be a callable draw(mean, engine) -> float)");
  const python_sampler sampler(draw);
  switch (kind_of(model)) {
    case model_kind::gaussian:
      return check_model(gaussian_of(model), sampler, options);
    case model_kind::bernoulli:
      return check_model(bernoulli_model{}, sampler, options);
    case model_kind::poisson:
      return check_model(poisson_model{}, sampler, options);
    case model_kind::exponential:
      return check_model(exponential_model{}, sampler, options);
    case model_kind::python:
      break;
  }
  python_model wrapped(model);
  if (wrapped.informs()) return check_model(informed_checked_model{{wrapped}}, sampler, options);
  return check_model(refusal_checked_model{wrapped}, sampler, options);
}

}  // namespace

void bind_check_model(py::module_& m) {
  py::class_<model_check>(m, "ModelCheck", "One check's verdict (docs/concepts.md, check_model).")
      .def_readonly("name", &model_check::name)
      .def_readonly("measure", &model_check::measure, "what `worst` measures")
      .def_readonly("worst", &model_check::worst, "the largest discrepancy over all points")
      .def_readonly("bound", &model_check::bound, "the check passes when worst <= bound")
      .def_readonly("eta", &model_check::eta, "the linear predictor at the worst point")
      .def_readonly("phi", &model_check::phi, "the worst point's features")
      .def_readonly("theta", &model_check::theta, "the worst point's parameter")
      .def_readonly("finding", &model_check::finding, "if it failed: what was seen, and the fix")
      .def_property_readonly("passed", &model_check::passed)
      .def("__repr__", [](const model_check& c) {
        return "<sabandit.ModelCheck " + c.name + ": " + (c.passed() ? "passed" : "FAILED") + ">";
      });
  py::class_<model_check_report>(m, "ModelCheckReport",
                                 "What check_model found: one ModelCheck per requirement; "
                                 "str() prints a line per check.")
      .def_readonly("gradient", &model_check_report::gradient)
      .def_readonly("concavity", &model_check_report::concavity)
      .def_readonly("increasing_mean", &model_check_report::increasing_mean)
      .def_readonly("score_mean", &model_check_report::score_mean)
      .def_readonly("information", &model_check_report::information)
      .def_readonly("support", &model_check_report::support)
      .def_property_readonly("checks", [](const model_check_report& r) {
        py::list checks;
        for (const model_check* c : r.checks()) checks.append(py::cast(*c));
        return checks;
      }, "the checks in the order they are printed")
      .def_property_readonly("ok", &model_check_report::ok, "every check passed")
      .def("__str__", &model_check_report::to_string)
      .def("__repr__", [](const model_check_report& r) {
        return std::string("<sabandit.ModelCheckReport: ") + (r.ok() ? "ok" : "FAILED") + ">";
      });

  const check_model_options defaults;
  m.def(
      "check_model",
      [](const py::object& model, const py::object& draw, int points, Eigen::Index dimension,
         double eta_min, double eta_max, int window, int samples, double tolerance, double z,
         const py::handle& seed) {
        const check_model_options options{.points = points, .dimension = dimension,
                                          .eta_min = eta_min, .eta_max = eta_max,
                                          .window = window, .samples = samples,
                                          .tolerance = tolerance, .z = z,
                                          .seed = unsigned_of("seed", seed)};
        return check(model, draw, options);
      },
      py::arg("model"), py::arg("draw"), py::kw_only(), py::arg("points") = defaults.points,
      py::arg("dimension") = defaults.dimension, py::arg("eta_min") = defaults.eta_min,
      py::arg("eta_max") = defaults.eta_max, py::arg("window") = defaults.window,
      py::arg("samples") = defaults.samples, py::arg("tolerance") = defaults.tolerance,
      py::arg("z") = defaults.z, py::arg("seed") = py::int_(defaults.seed),
      "Checks what a reward model's methods cannot show by their signatures (C++'s "
      "check_model: the gradient, concavity, an increasing mean, the score's mean and "
      "variance, and that draw's rewards are ones the model takes), at `points` random "
      "(phi, theta), drawing rewards with draw(mean, engine) -> float, one reward of the "
      "model's distribution with that mean, from the sabandit.Engine given. `model` is a "
      "built-in model (or its name) or one written in Python. Returns a ModelCheckReport; "
      "the same seed gives the same report.");
}

}  // namespace sabandit::python
