#pragma once
// contextual_benchmark (issue 21): Statlog Shuttle, Statlog Satellite and the digits as
// contextual bandits, every contextual policy tuned with the same budget on permutations
// disjoint from the reported ones, then evaluated. The protocol: features standardised over
// the whole data set (population sd, constant columns only centred) and a constant 1
// appended; one arm per class, reward 1 for the label, so regret counts the mistakes;
// T = min(n, --horizon); --trials seeded permutations of the rows; regret at T/10 and T
// (mean ± s.e.) and the wall time per round.
// Outputs (staged, like every job's): contextual.md (the command, the summary table the README
// copies, the detailed table), contextual.csv, contextual_tuning.csv, contextual_curves.csv,
// contextual_trials.csv (each permutation's regret) and one plot per data set. Everything but
// the ns-per-round column depends only on the arguments, never on the thread count.
#include <algorithm>
#include <cstdio>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <sabandit/sim/csv.hpp>

#include "contextual_benchmark/data.hpp"
#include "contextual_benchmark/policies.hpp"
#include "common/command.hpp"
#include "common/output.hpp"

namespace repro {

struct contextual_options {
  common_options common;
  Eigen::Index horizon = 10'000;  ///< T = min(n, horizon): the issue's 10,000
  Eigen::Index trials = 10;       ///< permutations per data set and policy: the issue's 10
  Eigen::Index tune_trials = 2;   ///< permutations per candidate setting; 0: no tuning
  fs::path data = default_data_folder();
  std::vector<std::string> datasets;  ///< names of contextual_datasets(); empty: all
  std::vector<std::string> policies;  ///< names of contextual_policies(); empty: all
  std::vector<std::string> args;      ///< the command line, printed in contextual.md
};

struct contextual_result {
  std::string table;  ///< contextual.md
  long long policy_rounds = 0;
};

namespace contextual_detail {

/// One evaluated policy on one data set.
struct evaluated {
  std::string policy;
  std::string setting;  ///< the tuned (or untuned) setting
  sabandit::contextual::run_result run;
};

/// One data set as the job runs it.
struct prepared {
  dataset_spec spec;
  std::shared_ptr<const sabandit::contextual::classification_data> data;
  Eigen::Index horizon = 0;  ///< T
  [[nodiscard]] Eigen::Index tenth() const { return std::max<Eigen::Index>(1, horizon / 10); }
};

template <class Item, class Name>
std::vector<Item> chosen(const std::vector<Item>& all, const std::vector<std::string>& names,
                         const char* option, Name name_of) {
  if (names.empty()) return all;
  std::vector<Item> picked;
  for (const auto& name : names) {
    const auto it = std::find_if(all.begin(), all.end(), [&](const Item& i) { return name_of(i) == name; });
    if (it == all.end()) {
      std::string valid;
      for (const auto& i : all) valid += (valid.empty() ? "" : ", ") + name_of(i);
      throw usage_error(std::string(option) + ": unknown name '" + sabandit::printable(name) +
                        "'; valid: " + valid);
    }
    picked.push_back(*it);
  }
  return picked;
}

/// "12.3 ± 0.4": the regret at a recorded round, mean ± s.e. over the trials.
inline std::string regret_at(const sabandit::contextual::run_result& run, Eigen::Index round) {
  const auto p = static_cast<std::size_t>(run.point_of(round));
  return format("%.1f ± %.1f", run.curve.mean_regret[p], run.curve.standard_error[p]);
}

/// Each policy's colour (Okabe–Ito) and dash; TS-SA, the paper's subject, thick and solid.
inline policy_style contextual_style(const std::string& policy) {
  if (policy == "TS-SA") return {"#D55E00", 1, 3.5, "", true};
  if (policy == "TS-SGLD") return {"#009E73", 5, 2};
  if (policy == "logistic TS (Laplace)") return {"#0072B2", 2, 2};
  if (policy == "linear TS") return {"#56B4E9", 4, 2};
  if (policy == "LinUCB") return {"#CC79A7", 1, 2};
  if (policy == "eps-greedy") return {"#E69F00", 2, 2};
  return {"#000000", 3, 1.5};  // uniform: the reference of no learning
}

}  // namespace contextual_detail

/// Runs the job; throws usage_error for an unknown data set or policy name.
inline contextual_result run_contextual(const contextual_options& o) {
  using namespace contextual_detail;
  const auto specs = chosen(contextual_datasets(), o.datasets, "--datasets",
                            [](const dataset_spec& s) { return s.name; });
  const auto policies = chosen(contextual_policies(), o.policies, "--policies",
                               [](const contextual_policy& p) { return p.name; });
  check_run_size(o.horizon, o.common.record_points);

  std::vector<prepared> sets;
  for (const auto& spec : specs) {
    prepared set{spec, load_dataset(spec, o.data), 0};
    set.horizon = std::min(set.data->contexts.cols(), o.horizon);
    sets.push_back(std::move(set));
  }
  long long trial_runs = 0;
  long long policy_rounds = 0;
  for (const auto& set : sets) {
    for (const auto& p : policies) {
      const long long tuning = p.settings.size() > 1 ? o.tune_trials * static_cast<long long>(p.settings.size()) : 0;
      trial_runs = checked_add(trial_runs, checked_add(tuning, o.trials, "--trials"), "--trials");
      policy_rounds = checked_add(policy_rounds, checked_mul(tuning + o.trials, set.horizon, "--trials x T"),
                                  "--trials x T");
    }
  }
  output_set outputs(o.common.out, "contextual_");  // --out is writable, or we stop here
  progress bar("contextual", trial_runs);
  const std::uint64_t permutations_for_tuning = tuning_seed_of(o.common.seed);

  std::string tuning_csv = "dataset,policy,setting,trials,mean_regret,std_error,chosen\n";
  std::string curves_csv = std::string(sabandit::regret_csv_header) + "\n";
  std::string trials_csv = "dataset,policy,trial,regret_tenth,regret_T\n";
  std::string results_csv =
      "dataset,n,d,K,T,policy,setting,regret_tenth_mean,regret_tenth_se,regret_T_mean,regret_T_se,ns_per_round\n";
  std::vector<std::vector<evaluated>> results;
  for (const auto& set : sets) {
    const sabandit::contextual::classification_env env(set.data);
    const std::vector<Eigen::Index> tenth{set.tenth()};
    auto& row = results.emplace_back();
    for (const auto& p : policies) {
      // Tuning: every setting on the same --tune-trials permutations of the tuning seed; the
      // smallest mean regret at T wins (the first on a tie).
      std::size_t best = p.untuned;
      if (o.tune_trials > 0 && p.settings.size() > 1) {
        const sabandit::run_config tune{.horizon = set.horizon, .trials = o.tune_trials, .seed = permutations_for_tuning,
                                        .threads = o.common.threads, .record_points = 1};
        std::vector<sabandit::regret_curve> candidates;
        for (std::size_t s = 0; s < p.settings.size(); ++s) {
          candidates.push_back(p.run(env, s, tune, {}, bar.hook()).curve);
          if (s == 0 || candidates[s].final_regret() < candidates[best].final_regret()) best = s;
        }
        for (std::size_t s = 0; s < p.settings.size(); ++s) {
          char line[128];
          std::snprintf(line, sizeof line, ",%lld,%.6f,%.6f,%d\n", static_cast<long long>(o.tune_trials),
                        candidates[s].final_regret(), candidates[s].final_standard_error(), s == best ? 1 : 0);
          tuning_csv += set.spec.name + "," + p.name + "," + p.settings[s] + line;
        }
      }
      const sabandit::run_config config{.horizon = set.horizon, .trials = o.trials, .seed = o.common.seed,
                                        .threads = o.common.threads, .record_points = o.common.record_points};
      auto& done = row.emplace_back(evaluated{p.name, p.settings[best], p.run(env, best, config, tenth, bar.hook())});
      std::ostringstream rows;
      sabandit::write_regret_csv_rows(rows, set.spec.name, p.name, done.run.curve);
      curves_csv += rows.str();
      const auto& c = done.run.curve;
      const auto t10 = static_cast<std::size_t>(done.run.point_of(set.tenth()));
      for (Eigen::Index r = 0; r < o.trials; ++r) {
        char cells[96];
        std::snprintf(cells, sizeof cells, ",%lld,%.0f,%.0f\n", static_cast<long long>(r),
                      done.run.trial_regret(static_cast<Eigen::Index>(t10), r), c.final_regrets[static_cast<std::size_t>(r)]);
        trials_csv += set.spec.name + "," + p.name + cells;
      }
      char line[256];
      std::snprintf(line, sizeof line, ",%s,%.6f,%.6f,%.6f,%.6f,%.0f\n", done.setting.c_str(),
                    c.mean_regret[t10], c.standard_error[t10], c.final_regret(), c.final_standard_error(),
                    done.run.ns_per_round());
      results_csv += set.spec.name + "," + std::to_string(set.data->contexts.cols()) + "," +
                     std::to_string(env.context_size()) + "," + std::to_string(env.num_arms()) + "," +
                     std::to_string(set.horizon) + "," + p.name + line;
    }
    if (o.common.plots) {
      panel_spec regret{"cumulative regret = mistakes (mean ± 1 s.e.)", {}, false};
      double learners_top = 0.0;  // the uniform reference's line leaves the top of the plot
      for (const auto& e : row) {
        regret.lines.push_back(to_series(e.policy, e.run.curve, contextual_style(e.policy)));
        if (e.policy != "uniform") learners_top = std::max(learners_top, e.run.curve.final_regret());
      }
      if (learners_top > 0.0) regret.y_max = 1.25 * learners_top;
      plot_png(outputs, "contextual_" + set.spec.name + ".png",
               set.spec.title + " (d = " + std::to_string(env.context_size()) + ", K = " +
                   std::to_string(env.num_arms()) + "): " + run_text(set.horizon, o.trials) +
                   " (permutations), seed " + std::to_string(o.common.seed),
               "round", {regret});
    }
  }

  std::ostringstream md;
  md << "# contextual_benchmark: classification data sets as contextual bandits\n\n"
     << "Command: `" << shell_command("contextual_benchmark", o.args) << "`\n\n"
     << "Regret (mistakes) at T/10 and at T, mean ± s.e. over " << o.trials
     << " permutations of the rows (seed " << o.common.seed << "):\n\n| policy |";
  for (const auto& set : sets) {
    md << ' ' << set.spec.title << " T/10 | " << set.spec.title << " T |";
  }
  md << "\n|---|";
  for (std::size_t i = 0; i < sets.size(); ++i) md << "---|---|";
  md << '\n';
  for (std::size_t pi = 0; pi < policies.size(); ++pi) {
    md << "| " << policies[pi].name << " |";
    for (std::size_t si = 0; si < sets.size(); ++si) {
      const auto& run = results[si][pi].run;
      md << ' ' << regret_at(run, sets[si].tenth()) << " | " << regret_at(run, sets[si].horizon) << " |";
    }
    md << '\n';
  }
  md << "\n| data set | n | d | K | T | policy | setting | regret at T/10 | regret at T | ns per round |\n"
     << "|---|---|---|---|---|---|---|---|---|---|\n";
  for (std::size_t si = 0; si < sets.size(); ++si) {
    const auto& set = sets[si];
    for (const auto& e : results[si]) {
      char ns[32];
      std::snprintf(ns, sizeof ns, "%.0f", e.run.ns_per_round());
      md << "| " << set.spec.title << " | " << set.data->contexts.cols() << " | " << set.data->contexts.rows()
         << " | " << set.data->num_classes << " | " << set.horizon << " (T/10 = " << set.tenth() << ") | "
         << e.policy << " | " << e.setting << " | " << regret_at(e.run, set.tenth()) << " | "
         << regret_at(e.run, set.horizon) << " | " << ns << " |\n";
    }
  }
  md << "\nProtocol (issue 21): each feature standardised over the whole data set (population sd; "
        "constant columns only centred), a constant 1 appended (d = features + 1); one arm per class, "
        "reward 1 when the arm is the label, so regret counts the mistakes; T = min(n, "
     << o.horizon << "); every policy sees the same permutations. Setting: "
     << (o.tune_trials > 0
             ? "the candidate with the least mean regret at T over " + std::to_string(o.tune_trials) +
                   " permutations of the tuning seed (a stream key of --seed: disjoint from the "
                   "reported permutations), every policy with the same number of candidates "
                   "(contextual_tuning.csv)"
             : std::string("each policy's default (--tune-trials 0)"))
     << ". ns per round: wall time of the policy's select and update and the environment's "
        "next_context and pull, averaged over the trials, with --threads "
     << sabandit::resolve_threads(o.common.threads)
     << " on the machine that ran it: the only column that depends on the machine.\n";

  outputs.write("contextual.csv", results_csv);
  outputs.write("contextual_curves.csv", curves_csv);
  outputs.write("contextual_trials.csv", trials_csv);
  outputs.write("contextual_tuning.csv", tuning_csv);  // the header alone when not tuned
  outputs.write("contextual.md", md.str());
  outputs.commit();
  return {md.str(), policy_rounds};
}

/// The program: its options, and the job to run once they are parsed (run_program).
inline int run_contextual_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"Shuttle, Satellite and digits as contextual bandits (data: scripts/contextual-data)",
               "contextual_benchmark"};
  contextual_options o;
  add_common_options(&app, o.common, "results/contextual", o.horizon, &o.trials,
                     "Permutations of the rows per data set and policy", 1, "Most rounds per trial: T = min(n, this)");
  add_integer(app, "--tune-trials", o.tune_trials, "Permutations per candidate setting when tuning; 0: defaults", 0);
  app.add_option("--data", o.data, "scripts/contextual-data's cache folder")->capture_default_str();
  app.add_option("--datasets", o.datasets, "Only these data sets (shuttle, satellite, digits)")->delimiter(',');
  app.add_option("--policies", o.policies, "Only these policies (names as in the tables)")->delimiter(',');
  o.args = args;
  return run_program(app, {{&app, [&](std::ostream& to, const seconds_since_start& seconds) {
                              const auto r = run_contextual(o);
                              char line[128];
                              std::snprintf(line, sizeof line, "contextual: %lld policy-rounds in %.2f s wall; outputs in ",
                                            r.policy_rounds, seconds());
                              to << r.table << '\n' << line << o.common.out.string() << '\n';
                            }}},
                     args, out, err);
}

}  // namespace repro
