"""The paper's tuning protocol on Optuna: TPE, one study per (setting, policy), trials evaluated
by sabandit's C++ simulator with the GIL released.

    python3 -m sabandit.tune run                                  # one setting, SQLite file
    python3 -m sabandit.tune run --protocol paper --storage postgresql://host/db --worker 3
    python3 -m sabandit.tune report --protocol paper --storage ... --output tuned_params.txt

Every worker process runs the same command against the same storage; studies are shared, so N
processes on any machines cooperate. A study stops at exactly --trials COMPLETE trials (see
`_claim`), and a worker that dies mid-trial loses nothing that completed: its running trial is
failed by the others once its heartbeat is older than --grace seconds, and its slot is run again.
The result is the tuned_params.txt format that `reproduce_paper figure1 --params` reads.
docs/python.md ("Tuning at scale") has the commands.
"""
import argparse
import os
import re
import sys
import time
import warnings

import optuna

import sabandit

#: The stream role of tuning runs, as examples/common/command.hpp (tuning_role, "tune").
TUNING_ROLE = 0x74756E65
POLICIES = ("TS", "eps-TS", "TS-SGLD", "TS-SA", "UCB")
SPACES = ("h-alpha", "h-tau", "wide")
#: The paper's SA coefficients c1, c2, c3 (params::paper()); alpha is searched.
PAPER_C = (144.07, 677.88, 40.02)
# TS's and eps-TS's prior in reproduce_paper (suite_params::paper_ts_prior); the library's is flat.
PAPER_TS_PRIOR = (0.0, 1e4)


def tuning_seed(seed):
    """The simulator seed of every tuning evaluation: a stream key of --seed, never --seed itself,
    so that tuning and the evaluation of `figure1 --seed` never share a trial (as the C++ job)."""
    return sabandit.Engine.stream_key(seed, 1, TUNING_ROLE)


def settings(protocol, env, arms, gap):
    """(env, K, gap) tuples: --protocol single's one, or the paper's K in {10, 50} x gap in {0.1, 0.5}."""
    if protocol == "paper":
        return [(env, k, g) for k in (10, 50) for g in (0.1, 0.5)]
    return [(env, arms, gap)]


def search_space(policy, space):
    """{key: (low, high, log, integer)}: the appendix's spaces, as the C++ tune job
    (examples/reproduce_paper/jobs.hpp, search_space)."""
    tau = {"tau": (0.01, 10.0, True, False)}
    if policy == "TS-SA":
        h = {"h": (0.01, 10.0, True, False)}
        alpha = {"alpha": (0.5, 1.0, False, False)}
        if space == "h-tau":
            return {**h, **tau}
        if space == "h-alpha":
            return {**h, **alpha}
        return {**h, **alpha, **tau, "N": (1, 20, True, True), "B": (1, 100, True, True),
                "Omega": (1, 50, True, True)}
    if policy == "TS-SGLD":
        return {**tau, "h": (0.001, 1.0, True, False)}
    if policy == "eps-TS":
        return {**tau, "epsilon": (0.0, 0.5, False, False)}
    return tau


def make_policy(policy, num_arms, values):
    """The policy of a configuration: the paper's defaults (reproduce_paper's suite) with `values`."""
    tau = values.get("tau", 1.0)
    if policy == "TS":
        return sabandit.thompson(num_arms, temperature=tau, prior=PAPER_TS_PRIOR)
    if policy == "eps-TS":
        epsilon = values.get("epsilon")  # "1/K" in reproduce_paper's files: the default
        return sabandit.epsilon_ts(num_arms, temperature=tau, prior=PAPER_TS_PRIOR,
                                   epsilon=None if epsilon == "1/K" else epsilon)
    if policy == "TS-SGLD":
        return sabandit.ts_sgld(num_arms, temperature=tau, step_size=values.get("h", 0.1))
    if policy == "TS-SA":
        return sabandit.ts_sa(num_arms, preset="paper", temperature=tau, step_size=values.get("h", 0.532),
                              sa_schedule=(*PAPER_C, values.get("alpha", 0.999)),
                              inner_steps=values.get("N"), window=values.get("B"), warmup=values.get("Omega"))
    if policy == "UCB":
        return sabandit.ucb(num_arms, bonus_scale=tau)
    raise ValueError(f"sabandit.tune: policy = {policy!r} (must be one of {', '.join(POLICIES)})")


def _parsed(text):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text  # warm_start, 1/K


def read_params(path, num_arms=None, gap=None):
    """A tuned_params.txt file (what `run --output` and `report` write, or reproduce_paper's) as
    {policy: {key: value}}, for make_policy: the lines before any section, then those of the
    section [K = num_arms, gap = gap] when both are given (--protocol paper writes one per
    setting). Numbers are int or float; other values stay strings.

        values = tune.read_params("tuned_params.txt")["TS-SA"]
        policy = tune.make_policy("TS-SA", 10, values)
    """
    if (num_arms is None) != (gap is None):
        raise ValueError("sabandit.tune: read_params needs both num_arms and gap (a section), or neither")
    params, section = {}, None
    wanted = None if num_arms is None else (int(num_arms), float(gap))
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            line = line.split("#")[0].strip()
            if not line:
                continue
            if heading := re.fullmatch(r"\[K = (\d+), gap = ([^\]]+)\]", line):
                section = (int(heading[1]), float(heading[2]))
                continue
            key, equals, value = line.partition(" = ")
            policy, dot, name = key.partition(".")
            if not equals or not dot:
                raise ValueError(f"sabandit.tune: {path}:{number}: {line!r} (must be POLICY.KEY = VALUE)")
            if section is None or section == wanted:
                params.setdefault(policy, {})[name] = _parsed(value.strip())
    return params


def make_env(env, num_arms, gap):
    if env == "SGR":
        return sabandit.sgr(num_arms=num_arms, gap=gap)
    if env == "MGR":
        return sabandit.mgr(num_arms=num_arms, gap=gap)
    raise ValueError(f"sabandit.tune: env = {env!r} (must be SGR or MGR)")


def study_name(prefix, env, num_arms, gap, policy, space):
    name = f"{prefix}{env}_gap{gap:g}_K{num_arms}-{policy}"
    return name + f"-{space}" if policy == "TS-SA" else name


def open_storage(url, heartbeat, grace, attempts=5):
    """An RDB storage (SQLite file or PostgreSQL URL) with heartbeats, so that the running trial of
    a dead worker is failed after `grace` seconds and its slot is run again. Workers started
    together race to create the tables: a failed attempt is retried."""
    # Several processes on one SQLite file wait for its lock instead of failing at once.
    kwargs = {"connect_args": {"timeout": 60}} if url.startswith("sqlite") else None
    for attempt in range(attempts):
        try:
            return optuna.storages.RDBStorage(url, engine_kwargs=kwargs, heartbeat_interval=heartbeat,
                                              grace_period=grace)
        except Exception:  # sqlalchemy's errors of a concurrent CREATE TABLE  # noqa: BLE001
            if attempt + 1 == attempts:
                raise
            time.sleep(0.5 * (attempt + 1))
    raise AssertionError("unreachable")


def _counts(study):
    complete = running = 0
    for t in study.get_trials(deepcopy=False):
        complete += t.state == optuna.trial.TrialState.COMPLETE
        running += t.state == optuna.trial.TrialState.RUNNING
    return complete, running


def _claim(study, number, budget):
    """Whether trial `number` is within the budget: fewer than `budget` trials of lower number
    are COMPLETE or RUNNING. Lower-numbered trials only leave those states (to FAIL, when stale),
    never enter them, so the k-th COMPLETE trial saw at least k - 1 of them: never more than
    `budget` COMPLETE trials, whatever the number of workers."""
    lower = sum(1 for t in study.get_trials(deepcopy=False)
                if t.number < number and t.state in (optuna.trial.TrialState.COMPLETE,
                                                     optuna.trial.TrialState.RUNNING))
    return lower < budget


def run_study(study, args, env, num_arms, gap, policy, log=print):
    """Runs trials of one study in this process until it holds args.trials COMPLETE trials."""
    space = search_space(policy, args.space)
    environment = make_env(env, num_arms, gap)
    seed = tuning_seed(args.seed)

    def objective(trial):
        if not _claim(study, trial.number, args.trials):
            raise optuna.TrialPruned("the budget is taken by running trials")
        trial.set_user_attr("worker", args.worker)
        values = {}
        for key, (low, high, log_scale, integer) in space.items():
            if integer:
                values[key] = trial.suggest_int(key, low, high, log=log_scale)
            else:
                values[key] = trial.suggest_float(key, low, high, log=log_scale)
        result = sabandit.simulate(environment, make_policy(policy, num_arms, values),
                                   horizon=args.horizon, trials=args.runs, seed=seed,
                                   threads=args.threads, record_points=1)
        return float(result.final_regret)

    while True:
        complete, running = _counts(study)
        if complete >= args.trials:
            return complete
        if complete + running >= args.trials:
            # A dead worker's trial frees its slot. Every waiting worker does this, so two may
            # fail the same stale trial: the second one's loss of that race is harmless.
            try:
                optuna.storages.fail_stale_trials(study)
            except (RuntimeError, AssertionError) as error:
                if not _lost_race_for_stale_trial(error):
                    raise
            time.sleep(args.poll)
            continue
        # ValueError: a configuration that diverges (TS-SGLD with a large h) fails its trial,
        # which does not count towards the budget.
        try:
            study.optimize(objective, n_trials=1, catch=(ValueError,), gc_after_trial=False)
        except (RuntimeError, AssertionError) as error:
            # Another worker failed this trial as stale (no heartbeat for --grace seconds, e.g.
            # on an overloaded machine): its result is discarded and its slot runs again.
            if not _lost_race_for_stale_trial(error):
                raise
            log(f"{study.study_name}: a trial of this worker was failed as stale by another; "
                "its result is discarded", file=sys.stderr)


def _lost_race_for_stale_trial(error):
    """Whether `error` is Optuna 3.1 saying that another worker already finished the trial this
    one tried to update: "Trial#N has already finished", or AssertionError("Should not reach.")
    from the finally block of its _run_trial."""
    return "already finished" in str(error) or "Should not reach" in str(error)


#: What makes two trials' regrets comparable: a study's trials all ran under one of these.
BUDGET = ("horizon", "runs", "seed")


def _budget_text(budget):
    return ", ".join(f"--{key} {budget[key]}" for key in BUDGET)


def open_study(storage, name, args):
    """The study `name`, with this run's budget (--horizon, --runs, --seed) recorded by its first
    worker; ValueError if it was recorded with another one, whose trials a best-of would mix
    with this run's (a 100-round trial "beats" 1,000-round ones)."""
    sampler = optuna.samplers.TPESampler(seed=(args.seed * 1009 + args.worker) % 2**32)
    study = optuna.create_study(study_name=name, storage=storage, sampler=sampler,
                                direction="minimize", load_if_exists=True)
    wanted = {key: getattr(args, key) for key in BUDGET}
    recorded = recorded_budget(study)
    if recorded is None:
        for key, value in wanted.items():
            study.set_user_attr(key, value)
    elif recorded != wanted:
        raise ValueError(f"sabandit.tune: study {name} holds trials of {_budget_text(recorded)}, "
                         f"not {_budget_text(wanted)}: give those, or another --prefix")
    return study


def recorded_budget(study):
    """The budget the study's trials ran under (open_study), or None for a study without one."""
    attrs = study.user_attrs
    return {key: attrs[key] for key in BUDGET} if all(key in attrs for key in BUDGET) else None


def command_run(args):
    storage = open_storage(args.storage, args.heartbeat, args.grace)
    for env, num_arms, gap in settings(args.protocol, args.env, args.arms, args.gap):
        for policy in args.policies:
            name = study_name(args.prefix, env, num_arms, gap, policy, args.space)
            started = time.monotonic()
            complete = run_study(open_study(storage, name, args), args, env, num_arms, gap, policy)
            print(f"{name}: {complete} trials complete ({time.monotonic() - started:.1f} s in this worker)",
                  flush=True)
    if args.output:
        command_report(args, storage)


def tuned_params(args, storage):
    """tuned_params.txt's text and a Markdown table of the best trials. The header states the
    budget the studies' trials ran under (open_study), whatever this command's --horizon,
    --runs and --seed; studies of different budgets are refused."""
    lines = []
    budgets = set()
    table = ["| setting | policy | tuned parameters | mean regret (tuning seeds) | trials |",
             "|---|---|---|---|---|"]
    for env, num_arms, gap in settings(args.protocol, args.env, args.arms, args.gap):
        if args.protocol == "paper":
            lines += ["", f"[K = {num_arms}, gap = {gap!r}]"]
        for policy in args.policies:
            name = study_name(args.prefix, env, num_arms, gap, policy, args.space)
            study = optuna.load_study(study_name=name, storage=storage)
            budget = recorded_budget(study) or {key: getattr(args, key) for key in BUDGET}
            budgets.add(tuple(budget[key] for key in BUDGET))
            if len(budgets) > 1:
                raise ValueError(f"sabandit.tune: study {name} holds trials of {_budget_text(budget)}, "
                                 "unlike the studies before it: report them apart (--policies, --prefix)")
            complete, _ = _counts(study)
            if complete < args.trials:
                raise RuntimeError(f"sabandit.tune: study {name} has {complete} of {args.trials} "
                                   "trials complete; run more workers first")
            best = study.best_trial
            for key in search_space(policy, args.space):
                lines.append(f"{policy}.{key} = {best.params[key]!r}")
            shown = ", ".join(f"{k} = {v:.4g}" for k, v in best.params.items())
            table.append(f"| {env} K = {num_arms}, gap = {gap:g} | {policy} | {shown} | "
                         f"{best.value:.1f} | {complete} |")
    horizon, runs, seed = budgets.pop()
    header = ["# sabandit.tune (Optuna TPE): the best trial of each study; reproduce_paper figure1 "
              "--params reads this file.",
              f"# storage {args.storage.split('@')[-1]}, seed {seed}, {args.trials} trials per study, "
              f"{runs} runs of {horizon} rounds per trial, TS-SA space {args.space}"]
    return "\n".join(header + lines) + "\n", "\n".join(table) + "\n"


def command_report(args, storage=None):
    storage = storage or open_storage(args.storage, args.heartbeat, args.grace)
    text, table = tuned_params(args, storage)
    with open(args.output, "w", encoding="utf-8") as out:
        out.write(text)
    print(table, end="")
    print(f"wrote {args.output}")


def parser():
    p = argparse.ArgumentParser(prog="python3 -m sabandit.tune", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("command", choices=("run", "report"),
                   help="run: work on the studies (one worker); report: write --output from the storage")
    p.add_argument("--storage", default="sqlite:///sabandit-tune.db",
                   help="an SQLAlchemy URL: sqlite:///FILE (default sqlite:///sabandit-tune.db) or "
                        "postgresql://USER@HOST/DB for workers on many machines")
    p.add_argument("--protocol", choices=("single", "paper"), default="single",
                   help="single: one setting (--env, --arms, --gap); paper: K in {10, 50} x gap in {0.1, 0.5}")
    p.add_argument("--env", choices=("SGR", "MGR"), default="SGR")
    p.add_argument("--arms", type=int, default=10, help="K for --protocol single (default 10)")
    p.add_argument("--gap", type=float, default=0.5, help="gap for --protocol single (default 0.5)")
    p.add_argument("--policies", type=lambda s: s.split(","), default=list(POLICIES),
                   help="comma-separated, from " + ",".join(POLICIES) + " (default: all)")
    p.add_argument("--space", choices=SPACES, default="h-alpha", help="TS-SA's search space (default h-alpha)")
    p.add_argument("--trials", type=int, default=100, help="COMPLETE trials per study (default 100)")
    p.add_argument("--runs", type=int, default=50, help="simulated runs per trial (default 50, the paper's)")
    p.add_argument("--horizon", type=int, default=10_000, help="rounds per run (default 10000)")
    p.add_argument("--seed", type=int, default=2026, help="the experiment seed (default 2026)")
    p.add_argument("--worker", type=int, default=0,
                   help="this worker's index, seeds its TPE sampler (e.g. $SLURM_ARRAY_TASK_ID; default 0)")
    p.add_argument("--threads", type=int, default=0, help="simulator threads (default 0: one per hardware thread)")
    p.add_argument("--prefix", default="sabandit-", help="study name prefix (default sabandit-)")
    p.add_argument("--heartbeat", type=int, default=10, help="heartbeat interval, seconds (default 10)")
    p.add_argument("--grace", type=int, default=60,
                   help="a running trial without a heartbeat for this long is failed (default 60)")
    p.add_argument("--poll", type=float, default=1.0, help=argparse.SUPPRESS)
    p.add_argument("--output", default=None,
                   help="write tuned_params.txt here when the studies are complete (run: optional)")
    p.add_argument("--quiet", action="store_true", help="Optuna logs warnings only")
    return p


def main(argv=None):
    args = parser().parse_args(argv)
    for policy in args.policies:
        if policy not in POLICIES:
            parser().error(f"--policies: {policy!r} is not one of {', '.join(POLICIES)}")
    if args.trials < 1 or args.runs < 1 or args.horizon < 1:
        parser().error("--trials, --runs and --horizon must be >= 1")
    if args.quiet:
        optuna.logging.set_verbosity(optuna.logging.WARNING)
    # Heartbeats and fail_stale_trials are marked experimental in Optuna 3.1; they are what makes
    # a dead worker's trial run again.
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    if args.command == "report":
        if not args.output:
            parser().error("report needs --output")
        command_report(args)
    else:
        command_run(args)
    return 0


if __name__ == "__main__":
    # On the command line, the tuner's own refusals (a study of another budget, a study that
    # cannot be completed) are a message and exit status 1, not a traceback; main() itself
    # raises them, for callers and tests.
    try:
        sys.exit(main())
    except (ValueError, RuntimeError) as refusal:
        if not str(refusal).startswith("sabandit.tune:"):
            raise
        sys.exit(str(refusal))
