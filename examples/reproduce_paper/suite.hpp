#pragma once
// The five policies of the paper's Figure 1 with every one of their parameters, the parameter
// file that records them, and the grid of settings.
#include <array>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <fstream>
#include <map>
#include <optional>
#include <tuple>
#include <utility>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <sabandit/sim.hpp>

#include "reproduce_paper/cancel.hpp"
#include "reproduce_paper/checked.hpp"

namespace repro {

/// Figure 1's legend order.
inline const std::vector<std::string> policy_names = {"TS", "eps-TS", "TS-SGLD", "TS-SA", "UCB"};

/// Replaces one coefficient of the SA schedule gamma_n = c1 / (c2 n^alpha + c3):
/// 0 = c1, 1 = c2, 2 = c3, 3 = alpha.
inline void set_sa_coefficient(sabandit::ts_sa<>::params& p, std::size_t which, double value) {
  const auto& s = p.sa_schedule;
  std::array<double, 4> c{s.c1(), s.c2(), s.c3(), s.alpha()};
  c[which] = value;
  p.sa_schedule = sabandit::polynomial_decay(c[0], c[1], c[2], c[3]);
}

/// Every parameter of every policy, the library's defaults unless set. The parameter file
/// ("POLICY.PARAM = VALUE" lines) names each of them, so a run is repeated exactly from it.
struct suite_params {
  sabandit::gaussian_ts::params ts{};
  sabandit::epsilon_ts<>::params eps_ts{};  ///< epsilon unset: 1/K, written "1/K"
  sabandit::ts_sgld<>::params sgld{};
  double sgld_noise_variance = sabandit::gaussian_model{}.noise_variance();
  sabandit::ts_sa<>::params sa = sabandit::ts_sa<>::params::paper();
  double sa_noise_variance = sabandit::gaussian_model{}.noise_variance();
  sabandit::ucb::params ucb{};

  /// One line of the parameter file: its key, its value as text, and how to set it from text
  /// (throwing usage_error with the reason).
  struct field {
    std::string key;
    std::string (*get)(const suite_params&);
    void (*set)(suite_params&, std::string_view);
  };
  static const std::vector<field>& fields();

  [[nodiscard]] std::string get_text(const std::string& key) const { return find(key).get(*this); }
  void set_text(const std::string& key, std::string_view value) { find(key).set(*this, value); }
  /// Real-valued parameters, as the tuning searches them.
  [[nodiscard]] double get(const std::string& key) const { return *parse_real(get_text(key)); }
  void set(const std::string& key, double value) { set_text(key, format_real(value)); }

  /// The parameter file: every key, in legend order.
  [[nodiscard]] std::string to_text() const {
    std::string text =
        "# sabandit reproduce_paper parameters: POLICY.PARAM = VALUE, every parameter of every "
        "policy.\n# Reals are written in the shortest form that reads back exactly.\n";
    for (const auto& f : fields()) text += f.key + " = " + f.get(*this) + "\n";
    return text;
  }

  /// Parses a parameter file's text without sections: "KEY = VALUE" lines, '#' starts a
  /// comment, blank lines are skipped. Every value is read whole; unknown and repeated keys,
  /// and values the policies reject, are errors naming `source` and the line.
  static suite_params from_text(const std::string& text, const std::string& source);

  static suite_params from_file(const std::string& path) { return from_text(read_text(path), path); }

  /// A parameter file's whole text; a usage_error naming `path` if it cannot be read.
  static std::string read_text(const std::string& path) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (status.type() == std::filesystem::file_type::not_found) {
      throw usage_error("cannot open parameter file " + path + ": no such file");
    }
    if (ec) throw usage_error("cannot open parameter file " + path + ": " + ec.message());
    if (!std::filesystem::is_regular_file(status)) {
      throw usage_error("cannot open parameter file " + path + ": not a regular file");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) throw usage_error("cannot open parameter file " + path);
    std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (in.bad()) throw usage_error("cannot read parameter file " + path);
    return text;
  }

  /// Largest TS-SA window B and TS-SGLD batch size a parameter file may ask for: a memory
  /// cap. TS-SA allocates its window for each of K arms, TS-SGLD draws up to K x N x
  /// batch_size indices a round in one block, and without the cap B = 10^9 passed the library's own bound (2^31
  /// doubles) in the 2-arm check below, after allocating 16 GB there, to fail in a job.
  static constexpr Eigen::Index max_per_arm_size = Eigen::Index{1} << 20;

  /// Largest N x B (TS-SA) and N x batch_size (TS-SGLD) a parameter file may ask for: the
  /// gradient terms one arm's step computes in a round, which no cancellation interrupts. At
  /// 2^22 a round of 50 arms stays below the library's bounds::round_work (2^28), well under a
  /// second; 10^8 inner steps made SIGINT wait 20 s or more.
  static constexpr Eigen::Index max_step_work = Eigen::Index{1} << 22;

  /// Checks the sizes above, then builds each policy once (with 2 arms): the library rejects
  /// what it would reject in a job, but before any computing.
  void validate() const {
    for (const auto& [key, size] : {std::pair<const char*, Eigen::Index>{"TS-SA.B", sa.window},
                                    {"TS-SGLD.batch_size", sgld.batch_size}}) {
      if (size > max_per_arm_size)
        throw usage_error(std::string(key) + " = " + std::to_string(size) + " is above " +
                          std::to_string(max_per_arm_size) +
                          " (2^20, this program's memory cap for a size allocated per arm)");
    }
    for (const auto& [keys, steps, size] :
         {std::tuple<const char*, Eigen::Index, Eigen::Index>{"TS-SA.N x TS-SA.B", sa.inner_steps, sa.window},
          {"TS-SGLD.N x TS-SGLD.batch_size", sgld.inner_steps, sgld.batch_size}}) {
      Eigen::Index work = 0;
      if (steps > 0 && size > 0 && (__builtin_mul_overflow(steps, size, &work) || work > max_step_work))
        throw usage_error(std::string(keys) + " = " + std::to_string(steps) + " x " + std::to_string(size) +
                          " is above " + std::to_string(max_step_work) +
                          " (2^22, this program's bound on the rewards an arm's step visits in a "
                          "round, so that SIGINT stops a job within a second)");
    }
    (void)sabandit::gaussian_ts(2, ts);
    (void)sabandit::epsilon_ts<>(2, eps_ts);
    (void)sabandit::ts_sgld<>(sabandit::unit_features(2), sgld, sabandit::gaussian_model(sgld_noise_variance));
    (void)sabandit::ts_sa<>(sabandit::unit_features(2), sa, sabandit::gaussian_model(sa_noise_variance));
    (void)sabandit::ucb(2, ucb);
  }

  [[nodiscard]] static bool known(const std::string& key) {
    for (const auto& f : fields()) {
      if (f.key == key) return true;
    }
    return false;
  }

 /// `s` without leading and trailing blanks (spaces, tabs, carriage returns).
  static std::string_view trim(std::string_view s) {
    const auto first = s.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) return {};
    return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
  }

 private:
  [[nodiscard]] const field& find(const std::string& key) const {
    for (const auto& f : fields()) {
      if (f.key == key) return f;
    }
    throw std::invalid_argument("unknown parameter " + key);
  }
};

namespace detail {

inline double real_value(std::string_view text) {
  if (const auto value = parse_real(text)) return *value;
  throw usage_error("'" + sabandit::printable(text) + "' is not a finite decimal number");
}
inline Eigen::Index integer_value(std::string_view text) {
  if (const auto value = parse_integer(text)) return static_cast<Eigen::Index>(*value);
  throw usage_error("'" + sabandit::printable(text) + "' is not an integer");
}

template <auto... Member>
suite_params::field real_field(std::string key) {
  return {std::move(key), [](const suite_params& s) { return format_real((s.*....*Member)); },
          [](suite_params& s, std::string_view v) { (s.*....*Member) = real_value(v); }};
}
/// A prior variance: a finite positive number, or "inf" for the flat prior.
template <auto... Member>
suite_params::field variance_field(std::string key) {
  return {std::move(key),
          [](const suite_params& s) {
            const double v = (s.*....*Member);
            return std::isinf(v) ? std::string("inf") : format_real(v);
          },
          [](suite_params& s, std::string_view v) {
            (s.*....*Member) = v == "inf" ? std::numeric_limits<double>::infinity() : real_value(v);
          }};
}
template <auto... Member>
suite_params::field integer_field(std::string key) {
  return {std::move(key),
          [](const suite_params& s) { return std::to_string(static_cast<long long>((s.*....*Member))); },
          [](suite_params& s, std::string_view v) { (s.*....*Member) = integer_value(v); }};
}
/// The prior of a Langevin policy: `Policy` is &suite_params::sgld or &suite_params::sa.
template <auto Policy, class Params>
void add_prior_fields(std::vector<suite_params::field>& fields, const std::string& name) {
  fields.push_back({name + ".init",
                    [](const suite_params& s) -> std::string {
                      return (s.*Policy).init == sabandit::initialisation::prior ? "prior" : "warm_start";
                    },
                    [](suite_params& s, std::string_view v) {
                      if (v == "prior") {
                        (s.*Policy).init = sabandit::initialisation::prior;
                      } else if (v == "warm_start") {
                        (s.*Policy).init = sabandit::initialisation::warm_start;
                      } else {
                        throw usage_error("'" + sabandit::printable(v) + "' is not warm_start or prior");
                      }
                    }});
  using prior = sabandit::normal_prior;
  using map = sabandit::map_options;
  fields.push_back(real_field<Policy, &Params::prior, &prior::mean>(name + ".prior.mean"));
  fields.push_back(variance_field<Policy, &Params::prior, &prior::variance>(name + ".prior.variance"));
  fields.push_back(integer_field<Policy, &Params::warm_start, &map::max_iterations>(
      name + ".warm_start.max_iterations"));
  fields.push_back(real_field<Policy, &Params::warm_start, &map::tolerance>(name + ".warm_start.tolerance"));
}

template <std::size_t Which>
suite_params::field sa_coefficient_field(std::string key) {
  return {std::move(key),
          [](const suite_params& s) {
            const auto& c = s.sa.sa_schedule;
            return format_real(std::array<double, 4>{c.c1(), c.c2(), c.c3(), c.alpha()}[Which]);
          },
          [](suite_params& s, std::string_view v) { set_sa_coefficient(s.sa, Which, real_value(v)); }};
}

}  // namespace detail

inline const std::vector<suite_params::field>& suite_params::fields() {
  static const std::vector<field> table = [] {
    using namespace detail;
    using S = suite_params;
    using TS = sabandit::gaussian_ts::params;
    using EPS = sabandit::epsilon_ts<>::params;
    using NP = sabandit::normal_prior;
    using SGLD = sabandit::ts_sgld<>::params;
    using SA = sabandit::ts_sa<>::params;
    using UCB = sabandit::ucb::params;
    std::vector<field> f;
    f.push_back(real_field<&S::ts, &TS::temperature>("TS.tau"));
    f.push_back(real_field<&S::ts, &TS::prior, &NP::mean>("TS.prior_mean"));
    f.push_back(real_field<&S::ts, &TS::prior, &NP::variance>("TS.prior_variance"));
    f.push_back(integer_field<&S::ts, &TS::warmup>("TS.warmup"));

    f.push_back({"eps-TS.epsilon",
                 [](const S& s) { return s.eps_ts.epsilon ? format_real(*s.eps_ts.epsilon) : std::string("1/K"); },
                 [](S& s, std::string_view v) {
                   if (v == "1/K") {
                     s.eps_ts.epsilon.reset();
                   } else {
                     s.eps_ts.epsilon = real_value(v);
                   }
                 }});
    f.push_back(real_field<&S::eps_ts, &EPS::posterior, &TS::temperature>("eps-TS.tau"));
    f.push_back(real_field<&S::eps_ts, &EPS::posterior, &TS::prior, &NP::mean>("eps-TS.prior_mean"));
    f.push_back(real_field<&S::eps_ts, &EPS::posterior, &TS::prior, &NP::variance>("eps-TS.prior_variance"));
    f.push_back(integer_field<&S::eps_ts, &EPS::posterior, &TS::warmup>("eps-TS.warmup"));

    f.push_back(real_field<&S::sgld, &SGLD::temperature>("TS-SGLD.tau"));
    f.push_back(real_field<&S::sgld, &SGLD::step_size>("TS-SGLD.h"));
    f.push_back(integer_field<&S::sgld, &SGLD::inner_steps>("TS-SGLD.N"));
    f.push_back(integer_field<&S::sgld, &SGLD::batch_size>("TS-SGLD.batch_size"));
    f.push_back(integer_field<&S::sgld, &SGLD::warmup>("TS-SGLD.warmup"));
    f.push_back(real_field<&S::sgld_noise_variance>("TS-SGLD.noise_variance"));
    add_prior_fields<&S::sgld, SGLD>(f, "TS-SGLD");

    f.push_back(real_field<&S::sa, &SA::temperature>("TS-SA.tau"));
    f.push_back(real_field<&S::sa, &SA::step_size>("TS-SA.h"));
    f.push_back(integer_field<&S::sa, &SA::warmup>("TS-SA.Omega"));
    f.push_back(integer_field<&S::sa, &SA::window>("TS-SA.B"));
    f.push_back(integer_field<&S::sa, &SA::inner_steps>("TS-SA.N"));
    f.push_back(sa_coefficient_field<0>("TS-SA.c1"));
    f.push_back(sa_coefficient_field<1>("TS-SA.c2"));
    f.push_back(sa_coefficient_field<2>("TS-SA.c3"));
    f.push_back(sa_coefficient_field<3>("TS-SA.alpha"));
    f.push_back(real_field<&S::sa_noise_variance>("TS-SA.noise_variance"));
    add_prior_fields<&S::sa, SA>(f, "TS-SA");

    f.push_back(real_field<&S::ucb, &UCB::bonus_scale>("UCB.tau"));
    f.push_back(integer_field<&S::ucb, &UCB::warmup>("UCB.warmup"));
    return f;
  }();
  return table;
}

/// One cell of the Figure 1 grid.
struct setting {
  bool mixture = false;  ///< MGR if true, SGR otherwise
  double gap = 0.5;
  Eigen::Index arms = 10;

  [[nodiscard]] std::string id() const {
    char text[64];
    std::snprintf(text, sizeof text, "%s_gap%.1f_K%lld", mixture ? "MGR" : "SGR", gap,
                  static_cast<long long>(arms));
    return text;
  }
  [[nodiscard]] std::string title() const {
    char text[64];
    std::snprintf(text, sizeof text, "%s, gap = %.1f, K = %lld", mixture ? "MGR" : "SGR", gap,
                  static_cast<long long>(arms));
    return text;
  }
};

/// The paper's Figure 1 order: rows K = 10 then 50; within a row gap 0.1 SGR, MGR, 0.5 SGR, MGR.
inline std::vector<setting> figure1_grid() {
  std::vector<setting> grid;
  for (Eigen::Index k : {10, 50})
    for (double gap : {0.1, 0.5})
      for (bool mixture : {false, true}) grid.push_back({mixture, gap, k});
  return grid;
}

// ------------------------------------------------------------------ per-setting parameters

/// Where a section of a parameter file applies: the Figure 1 settings with these K and gap, SGR
/// and MGR alike. The appendix ("Additional Experimental Details") tunes per K in {10, 50} and
/// gap in {0.1, 0.5} on "Gaussian bandit problems" and names no separate MGR tuning, so the two
/// reward models of one (K, gap) share one set of parameters.
struct setting_key {
  Eigen::Index arms = 10;
  double gap = 0.5;

  [[nodiscard]] bool matches(const setting& where) const { return where.arms == arms && where.gap == gap; }
  /// "[K = 10, gap = 0.1]": the section header, exact (the gap in its shortest exact form).
  [[nodiscard]] std::string header() const {
    return "[K = " + std::to_string(static_cast<long long>(arms)) + ", gap = " + format_real(gap) + "]";
  }
  friend bool operator==(const setting_key&, const setting_key&) = default;
};

namespace detail {

/// One "KEY = VALUE" line of a parameter file, checked for form only.
struct assignment {
  int line;
  std::string key;
  std::string value;
};

/// A parameter file split into its base lines and its sections, every line checked for form,
/// known keys and keys set once per section; values are not yet applied.
struct parsed_parameter_file {
  std::vector<assignment> base;
  struct section {
    int line;
    setting_key key;
    std::vector<assignment> lines;
  };
  std::vector<section> sections;
};

/// "[K = 10, gap = 0.1]" (blanks free): K an integer >= 2, gap a decimal number > 0.
inline setting_key parse_section_header(std::string_view header, const std::string& where) {
  const auto bad = [&](const std::string& why) {
    return usage_error(where + "expected a section [K = INT, gap = REAL], got '" + sabandit::printable(header, 80) +
                       "' (" + why + ")");
  };
  std::string_view inner = header.substr(1, header.size() - 2);
  std::optional<long long> arms;
  std::optional<double> gap;
  while (!inner.empty()) {
    const auto comma = inner.find(',');
    const auto item = inner.substr(0, comma);
    inner = comma == std::string_view::npos ? std::string_view{} : inner.substr(comma + 1);
    const auto eq = item.find('=');
    if (eq == std::string_view::npos) throw bad("no '='");
    const auto name = suite_params::trim(item.substr(0, eq));
    const auto value = suite_params::trim(item.substr(eq + 1));
    if (name == "K" && !arms) {
      arms = parse_integer(value);
      if (!arms || *arms < 2) throw bad("K must be an integer >= 2");
    } else if (name == "gap" && !gap) {
      gap = parse_real(value);
      if (!gap || !(*gap > 0)) throw bad("gap must be a decimal number > 0");
    } else {
      throw bad("'" + sabandit::printable(name) + "' is not K or gap, or is repeated");
    }
  }
  if (!arms || !gap) throw bad("both K and gap are needed");
  return {static_cast<Eigen::Index>(*arms), *gap};
}

inline parsed_parameter_file parse_parameter_file(const std::string& text, const std::string& source) {
  parsed_parameter_file file;
  std::vector<assignment>* current = &file.base;
  std::map<std::string, int> seen;  // keys of the current section, with their line
  std::istringstream in(text);
  std::string raw;
  int number = 0;
  while (std::getline(in, raw)) {
    ++number;
    const auto where = source + ":" + std::to_string(number) + ": ";
    const std::string_view line = suite_params::trim(std::string_view(raw).substr(0, raw.find('#')));
    if (line.empty()) continue;
    if (line.front() == '[' && line.back() == ']') {
      const auto key = parse_section_header(line, where);
      for (const auto& s : file.sections) {
        if (s.key == key) {
          throw usage_error(where + "section " + key.header() + " already starts on line " + std::to_string(s.line));
        }
      }
      file.sections.push_back({number, key, {}});
      current = &file.sections.back().lines;
      seen.clear();
      continue;
    }
    const auto eq = line.find('=');
    if (eq == std::string_view::npos || line.find('=', eq + 1) != std::string_view::npos) {
      throw usage_error(where + "expected POLICY.PARAM = VALUE, got '" + sabandit::printable(raw, 80) + "'");
    }
    const std::string key(suite_params::trim(line.substr(0, eq)));
    const std::string_view value = suite_params::trim(line.substr(eq + 1));
    if (key.empty() || key.find_first_of(" \t") != std::string::npos) {
      throw usage_error(where + "expected one POLICY.PARAM before '=', got '" + sabandit::printable(key) + "'");
    }
    if (value.empty() || value.find_first_of(" \t") != std::string_view::npos) {
      throw usage_error(where + "expected one value after '=', got '" + sabandit::printable(value) + "'");
    }
    if (!suite_params::known(key)) {
      std::string valid;
      for (const auto& f : suite_params::fields()) valid += (valid.empty() ? "" : ", ") + f.key;
      throw usage_error(where + "unknown parameter '" + sabandit::printable(key) + "'; valid: " + valid);
    }
    if (const auto [it, fresh] = seen.emplace(key, number); !fresh) {
      throw usage_error(where + "'" + key + "' is already set on line " + std::to_string(it->second));
    }
    current->push_back({number, key, std::string(value)});
  }
  return file;
}

/// `params` with `lines` applied, then validated; errors name `source` and the line.
inline suite_params apply(suite_params params, const std::vector<assignment>& lines, const std::string& source,
                          const std::string& section) {
  for (const auto& a : lines) {
    try {
      params.set_text(a.key, a.value);
    } catch (const std::exception& error) {
      throw usage_error(source + ":" + std::to_string(a.line) + ": " + a.key + ": " + error.what());
    }
  }
  try {
    params.validate();
  } catch (const std::exception& error) {
    throw usage_error(source + section + ": " + error.what());
  }
  return params;
}

}  // namespace detail

inline suite_params suite_params::from_text(const std::string& text, const std::string& source) {
  const auto file = detail::parse_parameter_file(text, source);
  if (!file.sections.empty()) {
    throw usage_error(source + ":" + std::to_string(file.sections.front().line) +
                      ": sections are for figure1's per-setting parameters, not here");
  }
  return detail::apply(suite_params{}, file.base, source, "");
}

/// The parameters of a grid job: `base` for every setting, and per-(K, gap) sections that
/// override some of its keys (what `tune --protocol paper` writes, and `figure1 --params`
/// reads). The file is the base file followed by sections:
///     TS.tau = 1            <- base: every key, as suite_params::to_text writes it
///     ...
///     [K = 10, gap = 0.1]   <- applies to SGR and MGR with K = 10, gap = 0.1
///     TS.tau = 0.52         <- only the keys that differ from the base
struct grid_params {
  suite_params base;
  std::vector<std::pair<setting_key, suite_params>> sections;

  /// The parameters of `where`: its section's, or the base.
  [[nodiscard]] const suite_params& at(const setting& where) const {
    for (const auto& [key, params] : sections) {
      if (key.matches(where)) return params;
    }
    return base;
  }

  /// Sets the parameters of the settings with `key`, replacing an earlier section.
  void set_section(const setting_key& key, const suite_params& params) {
    for (auto& [k, p] : sections) {
      if (k == key) {
        p = params;
        return;
      }
    }
    sections.emplace_back(key, params);
  }

  /// The file: the base with every key, then each section with the keys whose value differs.
  [[nodiscard]] std::string to_text() const {
    std::string text = base.to_text();
    for (const auto& [key, params] : sections) {
      text += "\n" + key.header() + "\n";
      for (const auto& f : suite_params::fields()) {
        const auto value = f.get(params);
        if (value != f.get(base)) text += f.key + " = " + value + "\n";
      }
    }
    return text;
  }

  static grid_params from_text(const std::string& text, const std::string& source) {
    const auto file = detail::parse_parameter_file(text, source);
    grid_params grid;
    grid.base = detail::apply(suite_params{}, file.base, source, "");
    for (const auto& s : file.sections) {
      grid.sections.emplace_back(
          s.key, detail::apply(grid.base, s.lines, source, ", section " + s.key.header()));
    }
    return grid;
  }
  static grid_params from_file(const std::string& path) {
    return from_text(suite_params::read_text(path), path);
  }

  /// Every section must name a setting of `grid`: a section that applies nowhere is a mistake
  /// (a file tuned for another grid), not something to ignore.
  void require_sections_in(const std::vector<setting>& grid) const {
    for (const auto& [key, params] : sections) {
      bool used = false;
      for (const auto& where : grid) used = used || key.matches(where);
      if (!used) throw usage_error("parameter section " + key.header() + " matches no setting of the grid");
    }
  }
};

/// Calls `body(env)` with the environment of `where` (SGR or MGR), rewards of variance
/// `noise_variance` (the paper's: 1): written once for both.
template <class Body>
decltype(auto) with_env(const setting& where, Body body, double noise_variance = 1.0) {
  const sabandit::paper_setting s{.num_arms = where.arms, .gap = where.gap, .noise_variance = noise_variance};
  if (where.mixture) return body(sabandit::make_mgr(s));
  return body(sabandit::make_sgr(s));
}

/// Simulates on `env`, stopping at the next pull after a SIGINT or SIGTERM (see cancel.hpp).
template <class Env, class Factory, class Progress>
sabandit::regret_curve simulate_cancellable(const Env& env, Factory factory,
                                            const sabandit::run_config& config, Progress on_trial) {
  throw_if_cancelled();
  return sabandit::simulate(cancellable<Env>{env}, factory, config, on_trial);
}

/// Runs `policy` with `params` on `where`, reporting each finished trial to `on_trial`.
template <class Progress>
sabandit::regret_curve run_policy(const std::string& policy, const suite_params& params,
                                  const setting& where, const sabandit::run_config& config,
                                  Progress on_trial) {
  using namespace sabandit;
  const Eigen::Index k = where.arms;
  const auto go = [&](auto factory) {
    return with_env(where, [&](const auto& env) { return simulate_cancellable(env, factory, config, on_trial); });
  };
  if (policy == "UCB") return go([&](Eigen::Index) { return ucb(k, params.ucb); });
  if (policy == "TS") return go([&](Eigen::Index) { return gaussian_ts(k, params.ts); });
  if (policy == "eps-TS") return go([&](Eigen::Index) { return epsilon_ts<>(k, params.eps_ts); });
  if (policy == "TS-SGLD") {
    return go([&](Eigen::Index) {
      return ts_sgld<>(unit_features(k), params.sgld, gaussian_model(params.sgld_noise_variance));
    });
  }
  if (policy == "TS-SA") {
    return go([&](Eigen::Index) {
      return ts_sa<>(unit_features(k), params.sa, gaussian_model(params.sa_noise_variance));
    });
  }
  throw std::invalid_argument("unknown policy " + policy);
}

}  // namespace repro
