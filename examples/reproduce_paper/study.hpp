#pragma once
// The study job: why TS-SA with the appendix's defaults loses to Gaussian TS, and the preset
// chosen from it (docs/ts-sa-study.md). Every table but the last is measured on tuning seeds,
// derived from --seed and disjoint from it; the last evaluates the chosen preset, without
// retuning, on --seed itself, the seed of figure1. Outputs as the other jobs: study.csv (one
// row per variant and setting), study.md (the tables) and one PNG per section, the same bytes
// for any thread count.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <sabandit/sim.hpp>

#include "reproduce_paper/checked.hpp"
#include "reproduce_paper/jobs.hpp"
#include "reproduce_paper/output.hpp"
#include "reproduce_paper/suite.hpp"
#include "reproduce_paper/trials.hpp"

namespace repro {

/// A Figure 1 setting with a reward noise variance (the paper's is 1); the policies are given
/// the matching model, so that "noisy rewards" means noisier data, not a wrong model.
struct study_setting {
  setting where;
  double noise_variance = 1.0;

  [[nodiscard]] std::string title() const {
    return noise_variance == 1.0 ? where.title() : where.title() + ", sigma^2 = " + format_real(noise_variance);
  }
  [[nodiscard]] std::string id() const {
    return noise_variance == 1.0 ? where.id() : where.id() + "_var" + format_real(noise_variance);
  }
};

// ------------------------------------------------------------------------------- the study

/// One TS-SA configuration of a study table; `exact_ts` marks a Gaussian TS reference, with
/// temperature `ts_temperature`.
struct variant {
  std::string label;
  sabandit::ts_sa<>::params params = sabandit::ts_sa<>::params::paper();
  bool exact_ts = false;
  double ts_temperature = 1.0;
};

/// A study section: a claim's table (variants x settings) and its plot.
struct study_section {
  std::string name;   ///< file stem and anchor: study_<name>.png
  std::string title;
  std::vector<variant> variants;
  std::vector<study_setting> settings;
  std::size_t plotted = 1;  ///< the setting of the plot (1: SGR, gap = 0.5, K = 10 of sgr_settings)
};

/// gamma_n = c1 / (c2 n^alpha + c3) with the appendix's c1, c2, c3 and this alpha.
inline sabandit::ts_sa<>::params with_alpha(double alpha) {
  auto p = sabandit::ts_sa<>::params::paper();
  set_sa_coefficient(p, 3, alpha);
  return p;
}
/// The appendix's defaults with this h and SA schedule.
inline sabandit::ts_sa<>::params with_schedule(double h, sabandit::polynomial_decay schedule) {
  auto p = sabandit::ts_sa<>::params::paper();
  p.step_size = h;
  p.sa_schedule = schedule;
  return p;
}
/// gamma_n = 1 / (h n): line 9 then moves the iterate by 1/n of the gradient step, so the
/// iterate is the running mean of the proposals whatever h is.
inline sabandit::ts_sa<>::params running_mean(double h) {
  return with_schedule(h, sabandit::polynomial_decay(1.0, h, 0.0, 1.0));
}

/// The four SGR settings of Figure 1 (the sweeps' columns: MGR shares them, as in tuning).
inline std::vector<study_setting> sgr_settings() {
  std::vector<study_setting> s;
  for (const auto& where : figure1_grid()) {
    if (!where.mixture) s.push_back({where});
  }
  return s;
}
inline std::vector<study_setting> all_settings() {
  std::vector<study_setting> s;
  for (const auto& where : figure1_grid()) s.push_back({where});
  return s;
}

/// The reference row of every table: Gaussian TS at the paper's temperature.
inline variant gaussian_ts_reference() { return {"Gaussian TS (tau = 1)", {}, true}; }

/// The sections of docs/ts-sa-study.md, each one claim (the preset's selection and evaluation
/// are built separately: they depend on the others' outcome only through the candidates).
inline std::vector<study_section> study_sections() {
  using P = sabandit::ts_sa<>::params;
  const variant ts = gaussian_ts_reference();
  const auto paper = P::paper();
  // One parameter at a time around the appendix's defaults; the appendix's own value is marked.
  const auto vary = [&](auto apply, std::initializer_list<double> values, const char* name, double appendix) {
    std::vector<variant> v{ts};
    for (double value : values) {
      auto p = paper;
      apply(p, value);
      v.push_back({std::string(name) + " = " + format_real(value) + (value == appendix ? " (appendix)" : ""), p});
    }
    return v;
  };
  std::vector<study_section> sections;
  sections.push_back({"schedule", "The SA schedule: the appendix's against 1/n", {ts,
      {"appendix: 144.07 / (677.88 n^0.999 + 40.02), h = 0.532", paper},
      {"alpha = 0.7, other coefficients the appendix's", with_alpha(0.7)},
      {"alpha = 0.5, other coefficients the appendix's", with_alpha(0.5)},
      {"gamma_n = 1/n, h = 0.532", with_schedule(0.532, sabandit::polynomial_decay::harmonic())},
      {"gamma_n = 1/(h n), h = 0.532", running_mean(0.532)},
      {"gamma_n = 1/(h n), h = 10", running_mean(10.0)},
      {"gamma_n = 1/(h n), h = 100", running_mean(100.0)}}, sgr_settings()});
  sections.push_back({"N", "Inner iterations N",
                      vary([](P& p, double v) { p.inner_steps = static_cast<Eigen::Index>(v); }, {1, 3, 10, 30}, "N", 1),
                      sgr_settings()});
  sections.push_back({"B", "The window B",
                      vary([](P& p, double v) { p.window = static_cast<Eigen::Index>(v); }, {1, 5, 27, 100}, "B", 27),
                      sgr_settings()});
  sections.push_back({"Omega", "The warm-up Omega",
                      vary([](P& p, double v) { p.warmup = static_cast<Eigen::Index>(v); }, {1, 5, 19, 50}, "Omega", 19),
                      sgr_settings()});
  // Failure mode 1 (Discussion, "Failure Modes"): small B with noisy rewards underestimates the
  // optimal arm. Noisier rewards: sigma^2 = 4 beside the paper's 1, with the model told so.
  std::vector<study_setting> noisy;
  for (const double v : {1.0, 4.0}) {
    for (const Eigen::Index k : {10, 50}) noisy.push_back({{false, 0.5, k}, v});
  }
  sections.push_back({"noisy_B", "Failure mode 1: small B, noisy rewards",
                      vary([](P& p, double v) { p.window = static_cast<Eigen::Index>(v); }, {1, 5, 27}, "B", 27), noisy, 2});
  // Failure mode 2: a large temperature (the Discussion bounds it by 0.1).
  sections.push_back({"tau", "Failure mode 2: a large temperature tau",
                      vary([](P& p, double v) { p.temperature = v; }, {0.1, 0.3, 1, 3, 10}, "tau", 1),
                      sgr_settings()});
  return sections;
}

/// The preset's candidates: gamma_n = 1/(h n) (the schedule section's finding), with h, B,
/// Omega and tau each at two or three values.
inline std::vector<variant> preset_candidates() {
  std::vector<variant> c;
  for (const double h : {1.0, 10.0, 100.0})
    for (const Eigen::Index b : {1, 27})
      for (const Eigen::Index omega : {1, 5})
        for (const double tau : {0.7, 1.0}) {
          auto p = running_mean(h);
          p.window = b;
          p.warmup = omega;
          p.temperature = tau;
          char label[128];
          std::snprintf(label, sizeof label, "h = %g, B = %lld, Omega = %lld, tau = %g", h, static_cast<long long>(b),
                        static_cast<long long>(omega), tau);
          c.push_back({label, p});
        }
  return c;
}

struct study_options {
  common_options common;
  Eigen::Index horizon = 10'000;
  Eigen::Index trials = 50;
  Eigen::Index trial_points = 50;  ///< rounds recorded per trial, for the per-trial plot
  std::string tuned_params;        ///< optional: tune --protocol paper's file, for the comparison
};

/// A variant's colour and dash: Gaussian TS as in figure1 (blue, dashed), then a palette.
inline std::pair<const char*, int> study_style(std::size_t i, bool exact_ts) {
  if (exact_ts) return {"#0072B2", 2};
  static const char* palette[] = {"#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#7F7F7F"};
  return {palette[(i + 6) % 7], static_cast<int>(i % 5) + 1};  // i >= 1 after the TS row: vermillion first
}


struct study_result {
  std::string table;   ///< study.md
  std::string chosen;  ///< the selected candidate's label
};

/// One study run: its configurations, the tables and CSV it builds up, and its output set.
/// Each section of study.md is one member function.
class study_run {
 public:
  explicit study_run(const study_options& o)
      : o_(o), tuned_(load_tuned(o)), runs_(count_runs(o)), outputs_(checked_out(o), "study_"), bar_("study", runs_ * o.trials),
        tuning_(grid_config({.seed = tuning_seed_of(o.common.seed), .threads = o.common.threads,
                             .record_points = o.common.record_points}, o.horizon, o.trials)),
        evaluation_(grid_config(o.common, o.horizon, o.trials)) {}

  study_result operator()() {
    std::snprintf(line_, sizeof line_,
                  "T = %lld, %lld trials per cell. Every table but the last is measured on tuning seeds "
                  "(derived from seed %llu, disjoint from it); the last on seed %llu, figure1's. A trial's "
                  "regret *grows linearly* when R(T) - R(T/2) >= (gap / 2) (T - T/2): an optimal arm gets at "
                  "most half of the late pulls. It is *starved* when an optimal arm gets at most 1/K of them.\n",
                  static_cast<long long>(o_.horizon), static_cast<long long>(o_.trials),
                  static_cast<unsigned long long>(o_.common.seed), static_cast<unsigned long long>(o_.common.seed));
    md_ << line_;
    frozen();
    for (const auto& section : study_sections()) sweep(section);
    md_ << "\nCells: final regret, mean ± s.e. [trials whose regret grows linearly, of " << o_.trials << "].\n";
    study_result result{{}, selection()};
    evaluate();
    outputs_.write("study.csv", csv_);
    outputs_.write("study.md", md_.str());
    outputs_.commit();
    result.table = md_.str();
    return result;
  }

 private:
  static grid_params load_tuned(const study_options& o) {
    grid_params tuned;
    if (!o.tuned_params.empty()) tuned = grid_params::from_file(o.tuned_params);
    tuned.require_sections_in(figure1_grid());
    return tuned;
  }
  /// The frozen table (TS, TS-SA on 8 settings), the sections, the candidates and TS on 8
  /// settings, the evaluation (TS, paper, tuned, preset on 8 settings).
  static long long count_runs(const study_options& o) {
    long long runs = 2 * 8 + static_cast<long long>(preset_candidates().size() + 1) * 8 +
                     (o.tuned_params.empty() ? 4 : 5) * 8;
    for (const auto& s : study_sections()) runs += static_cast<long long>(s.variants.size() * s.settings.size());
    (void)grid_policy_rounds(o.horizon, o.trials, runs, o.common.record_points);
    return runs;
  }
  /// --out, once the sizes are checked (before the output set proves it writable).
  static fs::path checked_out(const study_options& o) {
    (void)checked_mul(o.trials, o.trial_points, "--trials (R) x --trial-points");
    check_run_size(o.horizon, o.trial_points);
    return o.common.out;
  }

  tracked_run run(const variant& v, const study_setting& s, const sabandit::run_config& config) {
    const auto k = s.where.arms;
    const sabandit::gaussian_model model(s.noise_variance);
    return with_env(s.where, [&](const auto& env) {
      if (v.exact_ts) {
        const sabandit::gaussian_ts::params tp{.temperature = v.ts_temperature};
        return run_tracked(env, s.where.gap, [&] { return sabandit::gaussian_ts(k, tp, model); }, config,
                           bar_.hook(), o_.trial_points);
      }
      return run_tracked(env, s.where.gap,
                         [&] { return sabandit::ts_sa<>(sabandit::unit_features(k), v.params, model); }, config,
                         bar_.hook(), o_.trial_points);
    }, s.noise_variance);
  }
  void csv_row(const std::string& section, const std::string& label, const study_setting& s, const tracked_run& r) {
    std::snprintf(line_, sizeof line_, ",%s,%.6f,%.6f,%.6f,%.6f,%d,%d\n", s.id().c_str(), r.curve.final_regret(),
                  r.curve.final_standard_error(), r.median(), r.worst(), r.count(&tracked_run::linear),
                  r.count(&tracked_run::starved));
    std::string quoted = label;
    std::replace(quoted.begin(), quoted.end(), ',', ';');
    csv_ += section + "," + quoted + line_;
  }
  /// Runs `v` on `s` and writes its CSV row.
  tracked_run run_row(const std::string& section, const variant& v, const study_setting& s,
                      const sabandit::run_config& config) {
    auto r = run(v, s, config);
    csv_row(section, v.label, s, r);
    return r;
  }
  void plot(const std::string& name, const std::string& title, std::vector<series> lines, const char* ylabel) {
    if (o_.common.plots && !lines.empty()) plot_png(outputs_, name, title, "round", {{ylabel, std::move(lines), false}});
  }
  // Plot titles name the setting and the seeds; T and the trials are in study.md.
  static std::string sub(const study_setting& s) { return " (" + s.title() + "), tuning seeds"; }

  /// 1. The frozen iterate: per setting, how many trials grow linearly and starve the best arm.
  void frozen() {
    const variant ts = gaussian_ts_reference();
    const variant paper{"TS-SA, appendix defaults", sabandit::ts_sa<>::params::paper()};
    md_ << "\n## frozen: the SA iterate frozen on a bad warm-up estimate\n\n"
        << "| setting | TS: mean ± s.e. | TS: linear | TS: starved | TS-SA: mean ± s.e. | median | worst | linear | "
           "starved |\n|---|---|---|---|---|---|---|---|---|\n";
    std::vector<series> lines;
    for (const auto& s : all_settings()) {
      const auto a = run_row("frozen", ts, s, tuning_);
      const auto b = run_row("frozen", paper, s, tuning_);
      std::snprintf(line_, sizeof line_, "| %s | %s | %d | %d | %s | %.0f | %.0f | %d | %d |\n", s.title().c_str(),
                    mean_se(a.curve).c_str(), a.count(&tracked_run::linear), a.count(&tracked_run::starved),
                    mean_se(b.curve).c_str(), b.median(), b.worst(), b.count(&tracked_run::linear),
                    b.count(&tracked_run::starved));
      md_ << line_;
      if (s.where.id() != "SGR_gap0.5_K10") continue;
      // Each trial of TS-SA: vermillion if its regret grows linearly, grey otherwise.
      bool first_linear = true, first_other = true;
      for (const auto& f : b.curve.per_trial) {
        const bool lin = b.linear(f);
        series t{lin ? (first_linear ? "TS-SA trial whose regret grows linearly" : "")
                     : (first_other ? "other TS-SA trial" : ""),
                 lin ? "#D55E00" : "#9F9F9F", 1, lin ? 2.0 : 1.0, {}, f.curve, {}};
        (lin ? first_linear : first_other) = false;
        t.x.assign(b.curve.trial_rounds.begin(), b.curve.trial_rounds.end());
        t.on_top = lin;
        lines.push_back(std::move(t));
      }
      lines.push_back(to_series("Gaussian TS, mean of the trials", a.curve, {"#0072B2", 2, 3}));
    }
    plot("study_frozen.png", "TS-SA, appendix defaults: every trial" + sub({{false, 0.5, 10}}), std::move(lines),
         "cumulative pseudo-regret");
  }

  /// 2-7. The sweeps and the failure modes: a table of variants x settings and its plot.
  void sweep(const study_section& section) {
    md_ << "\n## " << section.name << ": " << section.title
        << "\n\nEvery parameter but the varied one is the appendix's default.\n\n| variant |";
    for (const auto& s : section.settings) md_ << ' ' << s.title() << " |";
    md_ << "\n|---|";
    for (std::size_t i = 0; i < section.settings.size(); ++i) md_ << "---|";
    md_ << '\n';
    std::vector<series> lines;
    for (std::size_t vi = 0; vi < section.variants.size(); ++vi) {
      const auto& v = section.variants[vi];
      md_ << "| " << v.label << " |";
      for (const auto& s : section.settings) {
        const auto r = run_row(section.name, v, s, tuning_);
        md_ << ' ' << mean_se(r.curve) << " [" << r.count(&tracked_run::linear) << "] |";
        if (&s == &section.settings[section.plotted]) {
          const auto [color, dash] = study_style(vi, v.exact_ts);
          lines.push_back(to_series(v.label, r.curve, {color, dash, v.exact_ts ? 2.0 : 2.5}));
        }
      }
      md_ << '\n';
    }
    plot("study_" + section.name + ".png", section.title + sub(section.settings[section.plotted]), std::move(lines),
         "cumulative pseudo-regret (mean ± 1 s.e.)");
  }

  /// 8. The preset's selection on tuning seeds: worst ratio to TS over the eight settings, among
  /// the candidates with no more linear trials than TS on any setting. Returns the chosen label.
  std::string selection() {
    const auto all = all_settings();
    const auto candidates = preset_candidates();
    std::vector<tracked_run> reference;
    for (const auto& s : all) reference.push_back(run(gaussian_ts_reference(), s, tuning_));
    md_ << "\n## selection: the preset's candidates on the eight settings (tuning seeds)\n\n"
        << "| candidate (gamma_n = 1/(h n), N = 1) | worst ratio to TS | mean ratio | linear trials beyond TS's | "
           "chosen |\n|---|---|---|---|---|\n";
    std::vector<std::pair<std::pair<int, double>, std::size_t>> scores;
    std::vector<std::string> rows;
    for (std::size_t ci = 0; ci < candidates.size(); ++ci) {
      double worst_ratio = 0.0, sum_ratio = 0.0;
      int excess = 0;
      for (std::size_t si = 0; si < all.size(); ++si) {
        const auto r = run_row("selection", candidates[ci], all[si], tuning_);
        const double ratio = r.curve.final_regret() / reference[si].curve.final_regret();
        worst_ratio = std::max(worst_ratio, ratio);
        sum_ratio += ratio;
        excess += std::max(0, r.count(&tracked_run::linear) - reference[si].count(&tracked_run::linear));
      }
      scores.push_back({{excess, worst_ratio}, ci});
      std::snprintf(line_, sizeof line_, "| %s | %.3f | %.3f | %d |", candidates[ci].label.c_str(), worst_ratio,
                    sum_ratio / static_cast<double>(all.size()), excess);
      rows.emplace_back(line_);
    }
    const auto chosen = std::min_element(scores.begin(), scores.end())->second;
    for (std::size_t ci = 0; ci < rows.size(); ++ci) md_ << rows[ci] << (ci == chosen ? " **yes** |\n" : " |\n");
    md_ << "\nChosen: the fewest linear trials beyond TS's, then the smallest worst ratio of mean regret to "
           "Gaussian TS's.\n";
    return candidates[chosen].label;
  }

  /// 9. The evaluation, on figure1's seed: TS, TS-SA's defaults, the per-setting tuned TS-SA (if
  /// a file was given) and the preset, never retuned.
  void evaluate() {
    const auto& robust = sabandit::ts_sa<>::params::robust();
    const bool tuned = !o_.tuned_params.empty();
    std::snprintf(line_, sizeof line_,
                  "\n## evaluation: the preset, without retuning, on seed %llu\n\nPreset "
                  "(`ts_sa<>::params::robust()`): h = %g, gamma_n = %g / (%g n^%g + %g), B = %lld, N = %lld, "
                  "Omega = %lld, tau = %g.\n\n",
                  static_cast<unsigned long long>(o_.common.seed), robust.step_size, robust.sa_schedule.c1(),
                  robust.sa_schedule.c2(), robust.sa_schedule.alpha(), robust.sa_schedule.c3(),
                  static_cast<long long>(robust.window), static_cast<long long>(robust.inner_steps),
                  static_cast<long long>(robust.warmup), robust.temperature);
    md_ << line_ << "| setting | Gaussian TS (tau = 1) | TS-SA, appendix defaults |"
        << (tuned ? " TS-SA, tuned per setting (paper protocol) |" : "")
        << " TS-SA, sabandit robust preset | Gaussian TS (tau = " << format_real(robust.temperature)
        << ") | preset / TS | preset - TS, paired | goal met |\n|---|---|---|" << (tuned ? "---|" : "")
        << "---|---|---|---|---|\n";
    const variant ts = gaussian_ts_reference();
    const variant paper{"TS-SA, appendix defaults", sabandit::ts_sa<>::params::paper()};
    const variant preset{"TS-SA, sabandit robust preset", robust};
    const variant ts_preset_tau{"Gaussian TS (tau = " + format_real(robust.temperature) + ")", {}, true,
                                robust.temperature};
    std::vector<series> lines;
    for (const auto& s : all_settings()) {
      const auto a = run(ts, s, evaluation_);
      const auto b = run(paper, s, evaluation_);
      const auto c = run(preset, s, evaluation_);
      csv_row("evaluation", ts.label, s, a);
      csv_row("evaluation", paper.label, s, b);
      csv_row("evaluation", preset.label, s, c);
      md_ << "| " << s.title() << " | " << cell_with_worst(a) << " | " << cell_with_worst(b) << " |";
      if (tuned) md_ << ' ' << cell_with_worst(run_row("evaluation", {"TS-SA, tuned per setting", tuned_.at(s.where).sa}, s, evaluation_)) << " |";
      // Paired difference: the same trial of both policies sees the same rewards of each arm.
      const auto& ca = a.curve.final_regrets;
      const auto& cc = c.curve.final_regrets;
      double mean = 0.0, sq = 0.0;
      const auto n = static_cast<double>(cc.size());
      for (std::size_t r = 0; r < cc.size(); ++r) mean += (cc[r] - ca[r]) / n;
      for (std::size_t r = 0; r < cc.size(); ++r) sq += std::pow(cc[r] - ca[r] - mean, 2);
      const double se = n > 1 ? std::sqrt(sq / (n - 1) / n) : 0.0;
      const double ratio = c.curve.final_regret() / a.curve.final_regret();
      const bool met = ratio <= 1.1 && c.count(&tracked_run::linear) <= a.count(&tracked_run::linear);
      const auto d = run_row("evaluation", ts_preset_tau, s, evaluation_);
      std::snprintf(line_, sizeof line_, " %s | %s | %.3f | %+.1f ± %.1f | %s |\n", cell_with_worst(c).c_str(),
                    cell_with_worst(d).c_str(), ratio, mean, se, met ? "yes" : "no");
      md_ << line_;
      if (s.where.id() == "SGR_gap0.5_K50") {
        lines.push_back(to_series(ts.label, a.curve, {"#0072B2", 2, 2}));
        lines.push_back(to_series(paper.label, b.curve, {"#D55E00", 1, 3}));
        lines.push_back(to_series(preset.label, c.curve, {"#E69F00", 4, 3}));
      }
    }
    md_ << "\nCells: final regret, mean ± s.e.; the worst trial; trials whose regret grows linearly. Goal: mean "
           "within 10% of Gaussian TS's (ratio <= 1.1) and no more linear trials than Gaussian TS has on the same "
           "seeds.\n";
    plot("study_evaluation.png",
         "Evaluation (SGR, gap = 0.5, K = 50): " + run_text(o_.horizon, o_.trials) + ", seed " +
             std::to_string(o_.common.seed),
         std::move(lines), "cumulative pseudo-regret (mean ± 1 s.e.)");
  }

  static std::string cell_with_worst(const tracked_run& r) {
    char worst[64];
    std::snprintf(worst, sizeof worst, "; worst %.0f; %d linear", r.worst(), r.count(&tracked_run::linear));
    return mean_se(r.curve) + worst;
  }

  const study_options& o_;
  grid_params tuned_;
  long long runs_;
  output_set outputs_;
  progress bar_;
  sabandit::run_config tuning_, evaluation_;
  std::string csv_ = "section,variant,setting,mean_final_regret,std_error,median,worst,linear_trials,starved_trials\n";
  std::ostringstream md_;
  char line_[512];
};

inline study_result run_study(const study_options& o) { return study_run(o)(); }

inline job add_study(CLI::App& app) {
  auto o = std::make_shared<study_options>();
  auto* study = add_job(app, "study",
                        "Why TS-SA loses with the appendix's defaults (docs/ts-sa-study.md): sweeps and failure modes on "
                        "tuning seeds, the preset's selection, and its evaluation on --seed",
                        o->common, "results/study", o->horizon, &o->trials, "Trials per cell", 2);
  add_integer(*study, "--trial-points", o->trial_points, "Rounds recorded per trial (the per-trial plot)", 1, 100000);
  study->add_option("--tuned", o->tuned_params,
                    "tune --protocol paper's tuned_params.txt: adds the per-setting tuned TS-SA to the evaluation");
  return {study, [o](std::ostream& out, const seconds_since_start& seconds) {
            const auto r = run_study(*o);
            out << r.table << '\n' << wall_line("study", seconds(), o->common) << "; chosen candidate: " << r.chosen
                << '\n';
          }};
}

}  // namespace repro
