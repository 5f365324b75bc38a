// reproduce_paper: the paper's experiments — the Figure 1 grid, the TS-SA ablations and the
// standardized tuning — as CSV, PNG plots and Markdown tables. `reproduce_paper --help`.
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>

#include "reproduce_paper/jobs.hpp"

namespace {

/// Options every job has. The output folder's default is set first, so that --help shows it.
void add_common(CLI::App& app, repro::common_options& c, const char* out_folder,
                Eigen::Index& horizon) {
  c.out = out_folder;
  app.add_option("--horizon,-T", horizon, "Rounds per trial")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--seed", c.seed, "Experiment seed")->capture_default_str();
  app.add_option("--threads", c.threads, "Worker threads (0: one per core); results do not depend on it")
      ->capture_default_str();
  app.add_option("--out", c.out, "Output folder")->capture_default_str();
  app.add_flag("!--no-plots", c.plots, "Skip the PNG plots (no gnuplot needed)");
  app.add_option("--record-points", c.record_points, "Rounds recorded per curve")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Reproduce the TS-SA paper's experiments with sabandit"};
  app.require_subcommand(1);

  repro::figure1_options fig;
  std::string params_file;
  auto* figure1 = app.add_subcommand("figure1", "Figure 1: {SGR, MGR} x gap {0.1, 0.5} x K {10, 50}, five policies");
  add_common(*figure1, fig.common, "results/figure1", fig.horizon);
  figure1->add_option("--trials,-R", fig.trials, "Trials per setting")->check(CLI::PositiveNumber)->capture_default_str();
  figure1->add_option("--params", params_file, "Parameter file (as written by `tune`)")->check(CLI::ExistingFile);

  repro::ablation_options abl;
  auto* ablation = app.add_subcommand("ablation", "TS-SA ablations around the appendix's default configuration");
  add_common(*ablation, abl.common, "results/ablation", abl.horizon);
  ablation->add_option("--trials,-R", abl.trials, "Trials per value")->check(CLI::PositiveNumber)->capture_default_str();

  repro::tune_options tun;
  std::string env_name = "SGR";
  auto* tune = app.add_subcommand("tune", "Standardized tuning: the same search budget for every policy");
  add_common(*tune, tun.common, "results/tune", tun.horizon);
  tune->add_option("--env", env_name, "Setting to tune on")->check(CLI::IsMember({"SGR", "MGR"}))->capture_default_str();
  tune->add_option("--arms,-K", tun.where.arms, "Arms")->check(CLI::Range(2, 100000))->capture_default_str();
  tune->add_option("--gap", tun.where.gap, "Gap between the best and the other means")->check(CLI::PositiveNumber)->capture_default_str();
  tune->add_option("--configs", tun.configs, "Random configurations per policy")->check(CLI::PositiveNumber)->capture_default_str();
  tune->add_option("--initial-trials", tun.initial_trials, "Trials per configuration at the first rung")->check(CLI::PositiveNumber)->capture_default_str();
  tune->add_option("--eta", tun.eta, "Halving factor")->check(CLI::Range(2, 100))->capture_default_str();
  tune->add_option("--rungs", tun.rungs, "Halving rungs")->check(CLI::PositiveNumber)->capture_default_str();
  tune->add_option("--eval-trials", tun.eval_trials, "Trials of the final evaluation (disjoint seeds)")->check(CLI::PositiveNumber)->capture_default_str();

  CLI11_PARSE(app, argc, argv);

  try {
    const auto start = std::chrono::steady_clock::now();
    const auto wall = [&] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    if (figure1->parsed()) {
      if (!params_file.empty()) fig.params = repro::suite_params::from_file(params_file);
      const auto result = repro::run_figure1(fig);
      const double seconds = wall();
      std::cout << result.table << '\n';
      std::printf("figure1: %lld policy-rounds in %.2f s wall (%.3g rounds/s) on %u threads; "
                  "outputs in %s\n",
                  result.policy_rounds, seconds, static_cast<double>(result.policy_rounds) / seconds,
                  sabandit::resolve_threads(fig.common.threads), fig.common.out.c_str());
      std::printf("wall time by policy:");
      for (std::size_t i = 0; i < repro::policy_names.size(); ++i)
        std::printf(" %s %.2f s%s", repro::policy_names[i].c_str(), result.seconds_per_policy[i],
                    i + 1 < repro::policy_names.size() ? "," : "\n");
    } else if (ablation->parsed()) {
      std::cout << repro::run_ablation(abl) << '\n';
      std::printf("ablation: %.2f s wall; outputs in %s\n", wall(), abl.common.out.c_str());
    } else if (tune->parsed()) {
      tun.where.mixture = env_name == "MGR";
      std::cout << repro::run_tune(tun) << '\n';
      std::printf("tune: %.2f s wall; outputs in %s (rerun figure1 with --params %s)\n", wall(),
                  tun.common.out.c_str(), (tun.common.out / "tuned_params.txt").c_str());
    }
  } catch (const std::exception& error) {
    std::cerr << "reproduce_paper: " << error.what() << '\n';
    return 1;
  }
}
