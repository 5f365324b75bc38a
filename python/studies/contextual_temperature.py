"""Contextual TS-SA's default temperature: a lower one chosen on tuning problems, then reported
on others (docs/contextual-temperature.md):

    PYTHONPATH=build/python/python python3 python/studies/contextual_temperature.py \\
        --out docs/contextual-temperature

Line 4 of contextual TS-SA samples theta ~ N(theta_SA, tau J^-1). At tau = 1 that is the
posterior's own spread, which often explores more than a finite horizon repays (Chapelle and
Li, 2011, saw it in display advertising). The study picks tau from a grid by this rule:

  on every *tuning* problem (its own theta* and seed), each candidate's mean regret at T is
  divided by the least candidate's on that problem; the choice is the candidate whose largest
  ratio over the tuning problems is least (no tuning problem far from its best), the larger
  tau on an exact tie.

It then reports every candidate, and the ridge baselines at their textbook defaults, on
*report* problems that the choice never saw (other shapes, rates, theta* and seed). Two
follow-ups probe the report problem where the chosen tau loses most to tau = 1:
  - exact Laplace TS at v = sqrt(tau) and at v = 1 (the same spreads) tells whether the loss
    is TS-SA's approximation (its SA iterate and one-pass information) or Thompson
    sampling's own;
  - the same shape, and one with fewer arms, on new theta* draws tells whether the loss is
    that one theta*'s.
A trial is counted as "growing linearly" when its regret over the second half of the rounds is
at least that over the first half: it catches trials that stopped learning late, not trials
that learn slowly throughout (their first half, with its exploration, costs more).

Outputs: temperature.md (the tables), temperature.csv (one row per problem and policy) and
temperature_trials.csv (each trial's regret at T, for paired comparisons: every policy on a
problem runs on the same seed, so trial r sees the same contexts and rewards). Everything
depends only on the arguments, not on --threads.
"""
import argparse
import csv
import io
import math
import os

import numpy as np

import sabandit
from sabandit import contextual

CANDIDATES = [1.0, 0.3, 0.1, 0.03, 0.01]

# name, rewards, K, d (with the constant), rate (logistic: the click rate at z = 0, where the
# arms' logits are the constant's coefficient) or noise sd (Gaussian), the spread of theta*'s
# feature coefficients, the seed of theta*.
PROBLEMS = {
    "tuning": [
        ("clicks 3 %, K 5, d 5", "logistic", 5, 5, 0.03, 0.5, 101),
        ("clicks 1 %, K 3, d 3", "logistic", 3, 3, 0.01, 1.0, 102),
        ("clicks 20 %, K 10, d 8", "logistic", 10, 8, 0.20, 0.5, 103),
        ("Gaussian sd 1, K 5, d 5", "gaussian", 5, 5, 1.0, 1.0, 104),
        ("Gaussian sd 1, K 10, d 10, small effects", "gaussian", 10, 10, 1.0, 0.3, 105),
        ("Gaussian sd 0.3, K 4, d 6", "gaussian", 4, 6, 0.3, 1.0, 106),
    ],
    "report": [
        ("clicks 2 %, K 8, d 6", "logistic", 8, 6, 0.02, 0.7, 201),
        ("clicks 5 %, K 4, d 10", "logistic", 4, 10, 0.05, 0.5, 202),
        ("clicks 10 %, K 20, d 4", "logistic", 20, 4, 0.10, 1.0, 203),
        ("clicks 50 %, K 2, d 20", "logistic", 2, 20, 0.50, 0.3, 204),
        ("Gaussian sd 1, K 6, d 8", "gaussian", 6, 8, 1.0, 0.5, 205),
        ("Gaussian sd 2, K 3, d 4", "gaussian", 3, 4, 2.0, 1.0, 206),
        ("Gaussian sd 0.5, K 12, d 3", "gaussian", 12, 3, 0.5, 1.0, 207),
    ],
}
DRAWS = 4            # new theta* draws per shape in the follow-up
DRAW_SEED = 300      # their seeds: DRAW_SEED + 10 i + j for shape i, draw j


def environment(kind, k, d, level, spread, seed):
    """theta* (d x K): feature coefficients ~ N(0, spread^2); the constant's row is the logit of
    the click rate (logistic) or 0 (Gaussian)."""
    theta = np.random.default_rng(seed).normal(0.0, spread, size=(d, k))
    if kind == "logistic":
        theta[-1, :] = math.log(level / (1.0 - level))
        return contextual.LogisticEnv(theta)
    theta[-1, :] = 0.0
    return contextual.LinearGaussianEnv(theta, noise_sd=level)


def shape(kind, level):
    """A problem's rewards as its name states them."""
    return f"clicks {100 * level:g} %" if kind == "logistic" else f"Gaussian sd {level:g}"


def model_of(kind, level):
    """The rewards' model, as docs/contextual.md asks (the Gaussian noise's variance)."""
    return "bernoulli" if kind == "logistic" else sabandit.GaussianModel(level * level)


class Runner:
    """Runs a policy on a problem: T rounds, the trials, the simulator's seed and threads."""

    def __init__(self, horizon, trials, threads):
        self.horizon, self.trials, self.threads = horizon, trials, threads

    def row(self, label, tau, env, policy, seed):
        """(label, tau or None, mean and s.e. of the regret at T, linearly growing trials, each
        trial's regret at T)."""
        result = contextual.simulate(env, policy, horizon=self.horizon, trials=self.trials,
                                     seed=seed, threads=self.threads, record_points=2)
        assert len(result.rounds) == 2  # the rounds nearest T/2 (ceil(T/2)) and T
        first = result.trial_regret[0, :]
        second = result.trial_regret[1, :] - first
        return (label, tau, result.final_regret, result.final_standard_error,
                int(np.sum(second >= first)), result.final_regrets)

    def problem(self, problem, seed, with_baselines):
        """Every candidate on `problem`, and the ridge baselines if asked."""
        _, kind, k, d, level, spread, theta_seed = problem
        env = environment(kind, k, d, level, spread, theta_seed)
        rows = [self.row(f"TS-SA tau = {tau:g}", tau, env,
                         contextual.ts_sa(k, d, model=model_of(kind, level), temperature=tau), seed)
                for tau in CANDIDATES]
        if with_baselines:
            rows.append(self.row("LinUCB alpha = 1", None, env, contextual.linucb(k, d), seed))
            rows.append(self.row("linear TS v = 1", None, env, contextual.linear_ts(k, d), seed))
        return rows

    def laplace(self, problem, tau, seed):
        """Exact Laplace TS at v = sqrt(tau) and at v = 1 on `problem`."""
        _, kind, k, d, level, spread, theta_seed = problem
        env = environment(kind, k, d, level, spread, theta_seed)
        return [self.row(f"Laplace TS v = {v:.4g}", None, env,
                         contextual.laplace_ts(k, d, model=model_of(kind, level), v=v), seed)
                for v in (math.sqrt(tau), 1.0)]


def ratio(regret, best):
    """regret / best, where a best of 0 (a run too short to err) gives 1 for 0 and inf else."""
    return regret / best if best > 0 else (1.0 if regret == 0 else math.inf)


def ratios(rows):
    """{tau: mean regret / the least candidate's} on one problem."""
    best = min(r[2] for r in rows if r[1] is not None)
    return {r[1]: ratio(r[2], best) for r in rows if r[1] is not None}


def worst_ratios(tables):
    """{tau: its largest ratio over the problems of `tables` ({problem: rows})}."""
    return {tau: max(ratios(rows)[tau] for rows in tables.values()) for tau in CANDIDATES}


def choose(tables):
    """The rule of the module's docstring."""
    worst = worst_ratios(tables)
    least = min(worst.values())
    return max(tau for tau in CANDIDATES if worst[tau] == least), worst


def cell(row):
    mean, se, linear = row[2], row[3], row[4]
    return f"{mean:.1f} ± {se:.1f}" + (f" ({linear} lin.)" if linear else "")


def table(tables, mark):
    """Markdown: a row per problem, a column per policy, the candidate `mark` in bold."""
    labels = [r[0] for r in next(iter(tables.values()))]
    out = "| problem | " + " | ".join(labels) + " |\n|---|" + "---|" * len(labels) + "\n"
    for problem, rows in tables.items():
        best = min(r[2] for r in rows if r[1] is not None)
        cells = [cell(r) + (f" [{ratio(r[2], best):.2f}]" if r[1] is not None else "")
                 for r in rows]
        cells = [f"**{c}**" if r[1] == mark else c for c, r in zip(cells, rows)]
        out += f"| {problem} | " + " | ".join(cells) + " |\n"
    return out


def worst_line(tables):
    return ", ".join(f"tau = {t:g}: {w:.2f}" for t, w in worst_ratios(tables).items())


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--horizon", type=int, default=10000, help="rounds per trial (T)")
    parser.add_argument("--trials", type=int, default=50, help="trials per problem and policy")
    parser.add_argument("--tuning-seed", type=int, default=11,
                        help="simulate's seed on the tuning problems")
    parser.add_argument("--seed", type=int, default=2026,
                        help="simulate's seed on the report problems and the follow-ups")
    parser.add_argument("--threads", type=int, default=0, help="0: one per hardware thread")
    parser.add_argument("--out", help="folder for temperature.md, temperature.csv and "
                        "temperature_trials.csv")
    a = parser.parse_args()
    if a.horizon < 2 or a.trials < 2:  # T/2 and T are two rounds; a standard error needs 2
        parser.error(f"--horizon and --trials must be at least 2 (got {a.horizon}, {a.trials})")
    run = Runner(a.horizon, a.trials, a.threads)

    tuning = {p[0]: run.problem(p, a.tuning_seed, False) for p in PROBLEMS["tuning"]}
    chosen, worst = choose(tuning)
    report = {p[0]: run.problem(p, a.seed, True) for p in PROBLEMS["report"]}
    sets = {"tuning": tuning, "report": report}

    runs = f"T = {a.horizon}, {a.trials} trials per problem and policy"
    md = ("# Contextual TS-SA's default temperature\n\n"
          "Command: `python3 python/studies/contextual_temperature.py --horizon "
          f"{a.horizon} --trials {a.trials} --tuning-seed {a.tuning_seed} --seed {a.seed}`\n\n"
          f"Tuning problems ({runs}, seed {a.tuning_seed}): regret at T, mean ± s.e., "
          "[ratio to the problem's least candidate], (trials whose regret grows linearly):\n\n"
          + table(tuning, chosen) +
          f"\nLargest ratio over the tuning problems: {worst_line(tuning)}. "
          f"Chosen (least largest ratio): **tau = {chosen:g}**.\n\n"
          f"Report problems ({runs}, seed {a.seed}; not seen by the choice), with the ridge "
          "baselines at their textbook defaults:\n\n" + table(report, chosen) +
          f"\nLargest ratio over the report problems: {worst_line(report)}.\n")
    if chosen != 1.0:
        # The report problem where the choice loses most to tau = 1, probed further.
        lost = max(report, key=lambda n: ratios(report[n])[chosen] / ratios(report[n])[1.0])
        problem = next(p for p in PROBLEMS["report"] if p[0] == lost)
        check = run.laplace(problem, chosen, a.seed)
        sets["laplace"] = {lost: check}
        md += (f"\nWhere tau = {chosen:g} loses most to tau = 1 ({lost}), exact Laplace TS with "
               "the same spreads (v = sqrt(tau)):\n\n| policy | regret at T |\n|---|---|\n" +
               "".join(f"| {r[0]} | {cell(r)} |\n" for r in check))
        _, kind, k, d, level, spread, _ = problem
        draws = {}
        for i, arms in enumerate(sorted({max(2, k // 3), k})):
            for j in range(DRAWS):
                seed = DRAW_SEED + 10 * i + j
                draws[f"{shape(kind, level)}, K {arms}, d {d}, theta* seed {seed}"] = run.problem(
                    (lost, kind, arms, d, level, spread, seed), a.seed, False)
        sets["draws"] = draws
        md += (f"\nThe same shape, and one with a third of the arms, on {DRAWS} new theta* draws "
               f"each (seed {a.seed}):\n\n" + table(draws, chosen) +
               f"\nLargest ratio over these draws: {worst_line(draws)}.\n")

    summary = io.StringIO()
    trials = io.StringIO()
    summary_csv, trials_csv = csv.writer(summary, lineterminator="\n"), csv.writer(
        trials, lineterminator="\n")
    summary_csv.writerow(["set", "problem", "policy", "tau", "mean_regret", "std_error",
                          "linear_trials"])
    trials_csv.writerow(["set", "problem", "policy", "trial", "regret_T"])
    for label, tables in sets.items():
        for problem, rows in tables.items():
            for r in rows:
                tau = "" if r[1] is None else f"{r[1]:g}"
                summary_csv.writerow([label, problem, r[0], tau, f"{r[2]:.6f}", f"{r[3]:.6f}", r[4]])
                for trial, regret in enumerate(r[5]):
                    trials_csv.writerow([label, problem, r[0], trial, f"{regret:.6f}"])
    print(md, end="")
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        for name, text in (("temperature.md", md), ("temperature.csv", summary.getvalue()),
                           ("temperature_trials.csv", trials.getvalue())):
            with open(os.path.join(a.out, name), "w", encoding="utf-8") as f:
                f.write(text)


if __name__ == "__main__":
    main()
