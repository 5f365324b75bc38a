#pragma once
// The five policies of the paper's Figure 1 with every one of their parameters, the parameter
// file that records them, and the grid of settings.
#include <algorithm>
#include <array>
#include <concepts>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <fstream>
#include <map>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <sabandit/sim.hpp>

#include "common/cancel.hpp"
#include "common/checked.hpp"

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

namespace detail {

/// A prior variance in the parameter file: a finite number, or "inf" for the flat prior.
struct variance {
  double& value;
};
/// One coefficient of TS-SA's SA schedule (set_sa_coefficient's `which`).
struct sa_coefficient {
  sabandit::ts_sa<>::params& params;
  std::size_t which;
};

inline double real_value(std::string_view text) {
  if (const auto value = parse_real(text)) return *value;
  throw usage_error("'" + sabandit::printable(text) + "' is not a finite decimal number");
}

// A parameter's text, and its value read from text (usage_error with the reason), by type.
inline std::string text_of(double v) { return format_real(v); }
template <std::integral I>
std::string text_of(I v) { return std::to_string(static_cast<long long>(v)); }
inline std::string text_of(const std::optional<double>& epsilon) { return epsilon ? format_real(*epsilon) : "1/K"; }
inline std::string text_of(sabandit::initialisation init) {
  return init == sabandit::initialisation::prior ? "prior" : "warm_start";
}
inline std::string text_of(const variance& v) { return format_real(v.value); }  // +infinity: "inf"
inline std::string text_of(const sa_coefficient& c) {
  const auto& s = c.params.sa_schedule;
  return format_real(std::array<double, 4>{s.c1(), s.c2(), s.c3(), s.alpha()}[c.which]);
}

inline void read(double& v, std::string_view text) { v = real_value(text); }
template <std::integral I>
void read(I& v, std::string_view text) {
  const auto value = parse_integer(text);
  if (!value) throw usage_error("'" + sabandit::printable(text) + "' is not an integer");
  v = static_cast<I>(*value);
}
inline void read(std::optional<double>& epsilon, std::string_view text) {
  epsilon = text == "1/K" ? std::nullopt : std::optional<double>(real_value(text));
}
inline void read(sabandit::initialisation& init, std::string_view text) {
  if (text != "prior" && text != "warm_start") {
    throw usage_error("'" + sabandit::printable(text) + "' is not warm_start or prior");
  }
  init = text == "prior" ? sabandit::initialisation::prior : sabandit::initialisation::warm_start;
}
inline void read(variance v, std::string_view text) {
  v.value = text == "inf" ? std::numeric_limits<double>::infinity() : real_value(text);
}
inline void read(sa_coefficient c, std::string_view text) { set_sa_coefficient(c.params, c.which, real_value(text)); }

}  // namespace detail

/// Every parameter of every policy: the library's defaults unless set, but for TS-SA's (the
/// paper's configuration) and TS's and epsilon-TS's prior (below). The parameter file
/// ("POLICY.PARAM = VALUE" lines) names each of them, so a run is repeated exactly from it.
struct suite_params {
  /// TS's and epsilon-TS's prior N(0, 10^4): the reproduction's since its first version (the
  /// paper states none), kept when the library's default became flat (models/gaussian.hpp).
  static constexpr sabandit::normal_prior paper_ts_prior{0.0, 1.0e4};
  sabandit::gaussian_ts::params ts{.prior = paper_ts_prior};
  sabandit::epsilon_ts<>::params eps_ts{.epsilon = std::nullopt, .posterior = {.prior = paper_ts_prior}};  ///< epsilon unset: 1/K, written "1/K"
  sabandit::ts_sgld<>::params sgld{};
  double sgld_noise_variance = sabandit::gaussian_model{}.noise_variance();
  sabandit::ts_sa<>::params sa = sabandit::ts_sa<>::params::paper();
  double sa_noise_variance = sabandit::gaussian_model{}.noise_variance();
  sabandit::ucb::params ucb{};

  /// Calls `visit(key, field)` for every parameter, in the file's order: `field` is the member
  /// (a number, epsilon, init) or a detail:: wrapper saying how it is written.
  template <class Visit>
  void visit_fields(Visit visit) {
    const auto langevin = [&](const std::string& name, auto& p, double& noise_variance) {
      visit(name + ".tau", p.temperature);
      visit(name + ".h", p.step_size);
      if constexpr (std::is_same_v<std::decay_t<decltype(p)>, sabandit::ts_sgld<>::params>) {
        visit(name + ".N", p.inner_steps);
        visit(name + ".batch_size", p.batch_size);
        visit(name + ".warmup", p.warmup);
      } else {
        visit(name + ".Omega", p.warmup);
        visit(name + ".B", p.window);
        visit(name + ".N", p.inner_steps);
        for (std::size_t c = 0; c < 4; ++c) visit(name + "." + sa_coefficient_names[c], detail::sa_coefficient{p, c});
      }
      visit(name + ".noise_variance", noise_variance);
      visit(name + ".init", p.init);
      visit(name + ".prior.mean", p.prior.mean);
      visit(name + ".prior.variance", detail::variance{p.prior.variance});
      visit(name + ".warm_start.max_iterations", p.warm_start.max_iterations);
      visit(name + ".warm_start.tolerance", p.warm_start.tolerance);
    };
    for (auto [name, p] : {std::pair<std::string, sabandit::gaussian_ts::params*>{"TS", &ts}, {"eps-TS", &eps_ts.posterior}}) {
      if (name == "eps-TS") visit(std::string("eps-TS.epsilon"), eps_ts.epsilon);
      visit(name + ".tau", p->temperature);
      visit(name + ".prior_mean", p->prior.mean);
      visit(name + ".prior_variance", detail::variance{p->prior.variance});  // "inf": flat
      visit(name + ".warmup", p->warmup);
    }
    langevin("TS-SGLD", sgld, sgld_noise_variance);
    langevin("TS-SA", sa, sa_noise_variance);
    visit(std::string("UCB.tau"), ucb.bonus_scale);
    visit(std::string("UCB.warmup"), ucb.warmup);
  }
  static constexpr const char* sa_coefficient_names[4] = {"c1", "c2", "c3", "alpha"};

  /// Every (key, value as text), in the file's order.
  [[nodiscard]] std::vector<std::pair<std::string, std::string>> values() const {
    std::vector<std::pair<std::string, std::string>> all;
    auto copy = *this;  // visit_fields hands out references to change
    copy.visit_fields([&](const std::string& key, auto&& field) { all.emplace_back(key, detail::text_of(field)); });
    return all;
  }
  /// Whether `key` names a parameter.
  [[nodiscard]] static bool known(std::string_view key) {
    for (const auto& [k, v] : suite_params{}.values()) {
      if (k == key) return true;
    }
    return false;
  }

  [[nodiscard]] std::string get_text(const std::string& key) const {
    for (auto& [k, v] : values()) {
      if (k == key) return v;
    }
    throw std::invalid_argument("unknown parameter " + key);
  }
  /// Sets `key` from text; usage_error with the reason if the text is not a value of its type.
  void set_text(const std::string& key, std::string_view value) {
    if (!known(key)) throw std::invalid_argument("unknown parameter " + key);
    visit_fields([&](const std::string& k, auto&& field) {
      if (k == key) detail::read(field, value);
    });
  }
  /// Real-valued parameters, as the tuning searches them.
  [[nodiscard]] double get(const std::string& key) const { return *parse_real(get_text(key)); }
  void set(const std::string& key, double value) { set_text(key, format_real(value)); }

  /// The parameter file: every key, in legend order.
  [[nodiscard]] std::string to_text() const {
    std::string text =
        "# sabandit reproduce_paper parameters: POLICY.PARAM = VALUE, every parameter of every "
        "policy.\n# Reals are written in the shortest form that reads back exactly.\n";
    for (const auto& [key, value] : values()) text += key + " = " + value + "\n";
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
    const std::string cannot = "cannot open parameter file " + path;
    if (status.type() == std::filesystem::file_type::not_found) throw usage_error(cannot + ": no such file");
    if (ec) throw usage_error(cannot + ": " + ec.message());
    if (!std::filesystem::is_regular_file(status)) throw usage_error(cannot + ": not a regular file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw usage_error(cannot);
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
  /// what it would reject in a job, but before any computing. `only`: the checks of that
  /// policy ("TS-SA") alone, else all.
  void validate(std::string_view only = {}) const {
    const auto mine = [&](std::string_view key) { return only.empty() || key.starts_with(std::string(only) + "."); };
    for (const auto& [key, size] : {std::pair<const char*, Eigen::Index>{"TS-SA.B", sa.window},
                                    {"TS-SGLD.batch_size", sgld.batch_size}}) {
      if (mine(key) && size > max_per_arm_size)
        throw usage_error(std::string(key) + " = " + std::to_string(size) + " is above " +
                          std::to_string(max_per_arm_size) +
                          " (2^20, this program's memory cap for a size allocated per arm)");
    }
    for (const auto& [keys, steps, size] :
         {std::tuple<const char*, Eigen::Index, Eigen::Index>{"TS-SA.N x TS-SA.B", sa.inner_steps, sa.window},
          {"TS-SGLD.N x TS-SGLD.batch_size", sgld.inner_steps, sgld.batch_size}}) {
      Eigen::Index work = 0;
      if (mine(keys) && steps > 0 && size > 0 && (__builtin_mul_overflow(steps, size, &work) || work > max_step_work))
        throw usage_error(std::string(keys) + " = " + std::to_string(steps) + " x " + std::to_string(size) +
                          " is above " + std::to_string(max_step_work) +
                          " (2^22, this program's bound on the rewards an arm's step visits in a "
                          "round, so that SIGINT stops a job within a second)");
    }
    // Each policy's own checks, said with the policy's name: "prior.variance = 1e-300" alone did
    // not say whose (a probe's finding). from_text adds the lines of that policy's keys.
    const auto check = [&](const char* policy, auto&& make) {
      if (!only.empty() && only != policy) return;
      try {
        (void)make();
      } catch (const std::invalid_argument& error) {
        std::string why = error.what();  // the policy's name in place of the library's
        if (why.starts_with("sabandit: ")) why.erase(0, 10);
        throw usage_error(std::string(policy) + ": " + why);
      }
    };
    check("TS", [&] { return sabandit::gaussian_ts(2, ts); });
    check("eps-TS", [&] { return sabandit::epsilon_ts<>(2, eps_ts); });
    check("TS-SGLD", [&] {
      return sabandit::ts_sgld<>(sabandit::unit_features(2), sgld, sabandit::gaussian_model(sgld_noise_variance));
    });
    check("TS-SA", [&] {
      return sabandit::ts_sa<>(sabandit::unit_features(2), sa, sabandit::gaussian_model(sa_noise_variance));
    });
    check("UCB", [&] { return sabandit::ucb(2, ucb); });
  }
};

/// One cell of the Figure 1 grid.
struct setting {
  bool mixture = false;  ///< MGR if true, SGR otherwise
  double gap = 0.5;
  Eigen::Index arms = 10;

  [[nodiscard]] std::string id() const { return text("%s_gap%.1f_K%lld"); }
  [[nodiscard]] std::string title() const { return text("%s, gap = %.1f, K = %lld"); }
  /// `format` (a printf format) applied to the reward model's name, the gap and K.
  [[nodiscard]] std::string text(const char* format) const {
    char out[64];
    std::snprintf(out, sizeof out, format, mixture ? "MGR" : "SGR", gap, static_cast<long long>(arms));
    return out;
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
    const auto base_values = base.values();
    for (const auto& [key, params] : sections) {
      text += "\n" + key.header() + "\n";
      const auto values = params.values();
      for (std::size_t i = 0; i < values.size(); ++i) {
        if (values[i].second != base_values[i].second) text += values[i].first + " = " + values[i].second + "\n";
      }
    }
    return text;
  }

  /// Parses a file's text: "KEY = VALUE" lines, '#' starts a comment, blank lines are skipped;
  /// the lines after a section header "[K = INT, gap = REAL]" (refused unless `sections_allowed`)
  /// change the base for the settings of the section. Every value is read whole; unknown and
  /// repeated keys, and values the policies reject, are usage_errors naming `source` and the line.
  static grid_params from_text(const std::string& text, const std::string& source, bool sections_allowed = true);
  static grid_params from_file(const std::string& path) { return from_text(suite_params::read_text(path), path); }

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

namespace detail {

/// `s` without leading and trailing blanks (spaces, tabs, carriage returns).
inline std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

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
    const auto name = trim(item.substr(0, eq));
    const auto value = trim(item.substr(eq + 1));
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

}  // namespace detail

inline grid_params grid_params::from_text(const std::string& text, const std::string& source, bool sections_allowed) {
  grid_params grid;
  std::vector<int> section_lines;
  std::map<std::string, int> seen;  // keys of the current section, with their line
  const auto current = [&]() -> suite_params& { return grid.sections.empty() ? grid.base : grid.sections.back().second; };
  const auto validate = [&] {  // the base, or the section just read
    try {
      current().validate();
    } catch (const std::exception& error) {
      // "TS-SA: step_size (h) = -1 ...": the library names its own field (temperature, where
      // the file says tau), so the keys to blame are found by undoing each of that policy's keys
      // this section set, one at a time, back to what it had before (the base, or the defaults):
      // a key is blamed when its undoing alone passes that policy's checks (the others may fail
      // on other mistakes of the file). An undoing that throws or fails them blames nothing (it
      // may make an error of its own: B back to a base of 2^20 beside N = 8). When no key alone
      // is to blame, every such key's line is listed.
      const std::string what = error.what();
      const auto previous = (grid.sections.empty() ? suite_params{} : grid.base).values();
      const auto colon = what.find(": ");
      const std::string policy = colon == std::string::npos ? std::string() : what.substr(0, colon);
      const auto valid_without = [&](const std::string& key) {
        try {
          suite_params undone = current();
          for (const auto& [k, value] : previous)
            if (k == key) undone.set_text(k, value);
          undone.validate(policy);
          return true;
        } catch (const std::exception&) {
          return false;
        }
      };
      std::vector<std::pair<int, std::string>> all, blamed;
      if (!policy.empty()) {
        const std::string prefix = policy + ".";
        for (const auto& [key, line] : seen) {
          if (!key.starts_with(prefix)) continue;
          all.emplace_back(line, key);
          if (valid_without(key)) blamed.emplace_back(line, key);
        }
      }
      std::string lines;
      if (!blamed.empty()) {  // "(TS.tau, set on line 2)"
        std::sort(blamed.begin(), blamed.end());
        for (const auto& [line, key] : blamed)
          lines += (lines.empty() ? " (" : "; ") + key + ", set on line " + std::to_string(line);
        lines += ")";
      } else if (!all.empty()) {
        std::sort(all.begin(), all.end());
        for (const auto& [line, key] : all) lines += (lines.empty() ? "" : ", ") + std::to_string(line);
        lines = " (its parameters are set on line(s) " + lines + ")";
      }
      throw usage_error(source + (grid.sections.empty() ? "" : ", section " + grid.sections.back().first.header()) +
                        ": " + what + lines);
    }
  };
  std::istringstream in(text);
  std::string raw;
  for (int number = 1; std::getline(in, raw); ++number) {
    const auto where = source + ":" + std::to_string(number) + ": ";
    const std::string_view line = detail::trim(std::string_view(raw).substr(0, raw.find('#')));
    if (line.empty()) continue;
    if (line.front() == '[' && line.back() == ']') {
      if (!sections_allowed) throw usage_error(where + "sections are for figure1's per-setting parameters, not here");
      const auto key = detail::parse_section_header(line, where);
      for (std::size_t i = 0; i < grid.sections.size(); ++i) {
        if (grid.sections[i].first == key) {
          throw usage_error(where + "section " + key.header() + " already starts on line " +
                            std::to_string(section_lines[i]));
        }
      }
      validate();
      grid.sections.emplace_back(key, grid.base);
      section_lines.push_back(number);
      seen.clear();
      continue;
    }
    const auto eq = line.find('=');
    if (eq == std::string_view::npos || line.find('=', eq + 1) != std::string_view::npos) {
      throw usage_error(where + "expected POLICY.PARAM = VALUE, got '" + sabandit::printable(raw, 80) + "'");
    }
    const std::string key(detail::trim(line.substr(0, eq)));
    const std::string_view value = detail::trim(line.substr(eq + 1));
    if (key.empty() || key.find_first_of(" \t") != std::string::npos) {
      throw usage_error(where + "expected one POLICY.PARAM before '=', got '" + sabandit::printable(key) + "'");
    }
    if (value.empty() || value.find_first_of(" \t") != std::string_view::npos) {
      throw usage_error(where + "expected one value after '=', got '" + sabandit::printable(value) + "'");
    }
    if (!suite_params::known(key)) {
      std::string valid;
      for (const auto& [k, v] : suite_params{}.values()) valid += (valid.empty() ? "" : ", ") + k;
      throw usage_error(where + "unknown parameter '" + sabandit::printable(key) + "'; valid: " + valid);
    }
    if (const auto [it, fresh] = seen.emplace(key, number); !fresh) {
      throw usage_error(where + "'" + key + "' is already set on line " + std::to_string(it->second));
    }
    try {
      current().set_text(key, value);
    } catch (const std::exception& error) {
      throw usage_error(where + key + ": " + error.what());
    }
  }
  validate();
  return grid;
}

inline suite_params suite_params::from_text(const std::string& text, const std::string& source) {
  return grid_params::from_text(text, source, false).base;
}

/// Runs `policy` with `params` on `where` (SGR or MGR, the paper's unit noise variance),
/// reporting each finished trial to `on_trial`.
template <class Progress>
sabandit::regret_curve run_policy(const std::string& policy, const suite_params& params,
                                  const setting& where, const sabandit::run_config& config,
                                  Progress on_trial) {
  using namespace sabandit;
  const Eigen::Index k = where.arms;
  const paper_setting s{.num_arms = k, .gap = where.gap};
  const auto go = [&](auto factory) {
    return where.mixture ? simulate_cancellable(make_mgr(s), factory, config, on_trial)
                         : simulate_cancellable(make_sgr(s), factory, config, on_trial);
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
