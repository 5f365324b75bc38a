#pragma once
// What the grid jobs share: figure1 and ablation here, models and problems in problem_suite/.
// A grid job runs policies over a list of settings, each run timed and reported to the progress
// display, its curve appended to a long-form CSV; it checks its size before computing, plots each
// setting unless --no-plots, and prints its table and wall times on the terminal. Every policy
// of both programs has one style, so that a line looks the same in every plot.
#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <sabandit/sim.hpp>

#include "common/checked.hpp"
#include "common/command.hpp"
#include "common/output.hpp"

namespace repro {

/// A table cell: final regret, "mean ± s.e." to one decimal (every job's tables).
inline std::string mean_se(const sabandit::regret_curve& curve) {
  return format("%.1f ± %.1f", curve.final_regret(), curve.final_standard_error());
}

/// Each policy's style: the Okabe–Ito palette (distinct under the common colour vision
/// deficiencies) and a dash pattern of its own, so that no two policies share either; TS-SA,
/// the paper's subject, is the thick solid line drawn on top (as is TS-SA's default in the
/// models and problems jobs). The five numbered dash types are not enough for the policies
/// figure1 does not have: they get patterns, and colours no other policy uses.
inline policy_style style_of(const std::string& policy) {
  static const std::map<std::string, policy_style> styles = {
      {"TS", {"#0072B2", 2, 2}},                                // blue, dashed
      {"eps-TS", {"#CC79A7", 4, 2}},                            // reddish purple, dash-dot
      {"TS-SGLD", {"#009E73", 5, 2}},                           // bluish green, dash-dot-dot
      {"TS-SA", {"#D55E00", 1, 3.5, "", true}},                 // vermillion, solid, thick
      {"TS-SA (default)", {"#D55E00", 1, 3.5, "", true}},       // the flagship: figure1's TS-SA line
      {"KL-UCB", {"#56B4E9", 1, 2, "(18,6)"}},                  // sky blue, long dashes
      {"TS-SGLD (Fisher)", {"#009E73", 1, 2, "(2,2)"}},         // TS-SGLD's colour, dotted
      {"TS-SA (paper)", {"#7F7F7F", 1, 2, "(8,3,2,3)"}},        // grey (UCB is black and dotted), dash-dot
      {"TS-SA (sabandit GLM setting)", {"#E69F00", 1, 3, "(10,4,2,4)", true}},  // orange, long dash-dot
      // Wine (Tol's palette: no Okabe–Ito colour left), short dashes.
      {"TS-SA (sabandit robust preset)", {"#882255", 1, 3, "(4,4)", true}},
  };
  const auto it = styles.find(policy);
  return it != styles.end() ? it->second : policy_style{"#000000", 3, 2};  // UCB: black, dotted
}

/// A policy's curve in its style_of().
inline series styled_series(const std::string& policy, const sabandit::regret_curve& curve) {
  return to_series(policy, curve, style_of(policy));
}

/// T x R x `runs` (policy-settings) for a grid job, checked before any computing, with the
/// recorded rounds (check_run_size).
inline long long grid_policy_rounds(Eigen::Index horizon, Eigen::Index trials, long long runs,
                                    Eigen::Index record_points) {
  const long long policy_rounds = checked_mul(
      checked_mul(horizon, trials, "--horizon (T) x --trials (R)"), runs,
      "--horizon (T) x --trials (R) x " + std::to_string(runs) + " policy-settings");
  check_run_size(horizon, record_points);
  return policy_rounds;
}

inline sabandit::run_config grid_config(const common_options& common, Eigen::Index horizon,
                                        Eigen::Index trials) {
  return {.horizon = horizon, .trials = trials, .seed = common.seed, .threads = common.threads,
          .record_points = common.record_points};
}

/// The sentence under a grid job's table: what its numbers are.
inline std::string final_regret_note(Eigen::Index horizon, Eigen::Index trials, std::uint64_t seed) {
  char note[256];
  std::snprintf(note, sizeof note,
                "\nFinal cumulative pseudo-regret at T = %lld, mean ± standard error over %lld "
                "trials, seed %llu.",
                static_cast<long long>(horizon), static_cast<long long>(trials),
                static_cast<unsigned long long>(seed));
  return note;
}

/// A grid job's result (figure1, models, problems): its Markdown, its size, and each policy's
/// wall time, for the terminal only.
struct grid_result {
  std::string table;
  long long policy_rounds = 0;  ///< T x R x settings x policies
  std::vector<std::pair<std::string, double>> seconds_by_policy;  ///< in the order they first ran

  /// Prints the table, then the wall time in total and by policy (the rest of the total is
  /// plotting and writing).
  void print(std::ostream& out, const char* name, double seconds, const common_options& c) const {
    char line[512];
    std::snprintf(line, sizeof line, "%s: %lld policy-rounds in %.2f s wall (%.3g rounds/s) on %u threads; outputs in ",
                  name, policy_rounds, seconds, static_cast<double>(policy_rounds) / seconds,
                  sabandit::resolve_threads(c.threads));
    out << table << '\n' << line << c.out.string() << "\nwall time by policy:";
    for (std::size_t i = 0; i < seconds_by_policy.size(); ++i) {
      std::snprintf(line, sizeof line, " %s %.2f s%s", seconds_by_policy[i].first.c_str(), seconds_by_policy[i].second,
                    i + 1 < seconds_by_policy.size() ? "," : "\n");
      out << line;
    }
  }
};

/// What a grid job accumulates while it runs: the progress display, the long-form CSV of every
/// curve, and the result.
struct grid_run {
  /// The display counts `trials` trials; the CSV starts with `header`.
  grid_run(const char* name, long long trials, std::string header = std::string(sabandit::regret_csv_header) + "\n")
      : bar(name, trials), csv(std::move(header)) {}

  progress bar;
  std::string csv;
  grid_result result;

  /// Writes the CSV as `csv_name`, moves the job's files into --out (output_set::commit) and
  /// returns the result with `table` and the job's size.
  grid_result commit(output_set& outputs, const std::string& csv_name, std::string table, long long policy_rounds) {
    outputs.write(csv_name, csv);
    outputs.commit();
    result.table = std::move(table);
    result.policy_rounds = policy_rounds;
    return result;
  }

  /// `simulate(hook)`, timed as `policy`'s; its curve's rows go to the CSV as `setting`.
  template <class Simulate>
  sabandit::regret_curve add(const std::string& setting, const std::string& policy, Simulate simulate) {
    const double started = bar.seconds();
    const auto timed = [&] {
      auto& by_policy = result.seconds_by_policy;
      auto it = std::find_if(by_policy.begin(), by_policy.end(), [&](const auto& p) { return p.first == policy; });
      if (it == by_policy.end()) it = by_policy.insert(it, {policy, 0.0});
      it->second += bar.seconds() - started;
    };
    sabandit::regret_curve curve;
    try {
      curve = simulate(bar.hook());
    } catch (...) {  // a failed run's time counts too (problems reports the failure)
      timed();
      throw;
    }
    timed();
    std::ostringstream rows;
    sabandit::write_regret_csv_rows(rows, setting, policy, curve);
    csv += rows.str();
    return curve;
  }
};

/// Plots `panels` into `file` unless --no-plots; the title says what ran.
inline void plot_run(output_set& outputs, const common_options& c, const std::string& file, const std::string& title,
                     Eigen::Index horizon, Eigen::Index trials, const std::vector<panel_spec>& panels) {
  if (!c.plots) return;
  plot_png(outputs, file, title + ": " + run_text(horizon, trials) + ", seed " + std::to_string(c.seed), "round",
           panels);
}

/// A Markdown table's header row "| setting | A | B |" and its separator.
inline std::string setting_table_header(const std::vector<std::string>& columns) {
  std::string header = "| setting |";
  for (const auto& c : columns) header += " " + c + " |";
  header += "\n|---|";
  for (std::size_t i = 0; i < columns.size(); ++i) header += "---|";
  return header + "\n";
}

/// A plot's two panels: the regret of `lines` (mean ± 1 s.e.); below, each line minus
/// `reference` (a mean regret), which separates the curves where they crowd (figure1's MGR,
/// gap 0.1, K = 50).
inline std::vector<panel_spec> regret_panels(std::vector<series> lines, const std::vector<double>& reference,
                                             std::string relative_label) {
  panel_spec relative{std::move(relative_label), {}, true};
  for (auto line : lines) {
    line.se.clear();
    for (std::size_t k = 0; k < line.y.size(); ++k) line.y[k] -= reference[k];
    relative.lines.push_back(std::move(line));
  }
  return {{"cumulative pseudo-regret (mean ± 1 s.e.)", std::move(lines), false}, std::move(relative)};
}

}  // namespace repro
