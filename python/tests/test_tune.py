"""sabandit.tune: the search spaces, the parameter file, and the exact trial budget with several
worker processes on one SQLite file (test_postgres.py does the same on PostgreSQL)."""
import os
import subprocess
import sys

import optuna
import pytest

import sabandit
from sabandit import tune


def test_search_spaces_are_the_cpp_tune_jobs():
    assert tune.search_space("TS-SA", "h-alpha") == {"h": (0.01, 10.0, True, False), "alpha": (0.5, 1.0, False, False)}
    assert set(tune.search_space("TS-SA", "wide")) == {"h", "alpha", "tau", "N", "B", "Omega"}
    assert tune.search_space("TS-SGLD", "h-alpha") == {"tau": (0.01, 10.0, True, False), "h": (0.001, 1.0, True, False)}
    assert set(tune.search_space("eps-TS", "h-alpha")) == {"tau", "epsilon"}
    assert set(tune.search_space("UCB", "h-alpha")) == set(tune.search_space("TS", "h-alpha")) == {"tau"}
    # The tuning seed is the C++ job's: stream_key(seed, 1, "tune").
    assert tune.tuning_seed(2026) == sabandit.Engine.stream_key(2026, 1, 0x74756E65)


def test_make_policy_is_the_papers_configuration():
    sa = tune.make_policy("TS-SA", 10, {"h": 2.0, "alpha": 0.8}).parameters
    assert (sa["step_size"], sa["window"], sa["warmup"], sa["metric"]) == (2.0, 27, 19, "identity")
    assert sa["sa_schedule"] == (144.07, 677.88, 40.02, 0.8)
    wide = tune.make_policy("TS-SA", 10, {"h": 1.0, "alpha": 0.9, "tau": 0.5, "N": 2, "B": 3, "Omega": 4}).parameters
    assert (wide["temperature"], wide["inner_steps"], wide["window"], wide["warmup"]) == (0.5, 2, 3, 4)
    assert tune.make_policy("eps-TS", 10, {"tau": 0.3, "epsilon": 0.1}).parameters["epsilon"] == 0.1
    assert tune.make_policy("TS-SGLD", 10, {"tau": 0.3, "h": 0.05}).parameters["step_size"] == 0.05
    with pytest.raises(ValueError, match="policy = 'LinUCB'"):
        tune.make_policy("LinUCB", 10, {})


def worker(storage, index, *extra):
    return subprocess.Popen(
        [sys.executable, "-m", "sabandit.tune", "run", "--storage", storage, "--quiet", "--worker", str(index),
         "--threads", "1", "--policies", "TS,UCB", "--trials", "12", "--runs", "4", "--horizon", "500", *extra],
        env=os.environ.copy(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def test_two_workers_on_sqlite_meet_the_budget_exactly(tmp_path):
    storage = f"sqlite:///{tmp_path}/tune.db"
    output = tmp_path / "tuned_params.txt"
    workers = [worker(storage, i) for i in range(2)]
    for w in workers:
        out, _ = w.communicate(timeout=300)
        assert w.returncode == 0, out
    for policy in ("TS", "UCB"):
        study = optuna.load_study(study_name=f"sabandit-SGR_gap0.5_K10-{policy}", storage=storage)
        states = [t.state for t in study.get_trials(deepcopy=False)]
        assert states.count(optuna.trial.TrialState.COMPLETE) == 12
        assert optuna.trial.TrialState.RUNNING not in states
    subprocess.run([sys.executable, "-m", "sabandit.tune", "report", "--storage", storage, "--quiet",
                    "--policies", "TS,UCB", "--trials", "12", "--output", str(output)], check=True,
                   capture_output=True)
    text = output.read_text()
    assert "4 runs of 500 rounds per trial" in text  # the studies' budget, not report's defaults
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert [line.split(" = ")[0] for line in lines] == ["TS.tau", "UCB.tau"]
    assert all(0.01 <= float(line.split(" = ")[1]) <= 10 for line in lines)


def test_a_study_holds_trials_of_one_budget(tmp_path):
    # Trials of 100 rounds "beat" trials of 1,000: a study records its --horizon, --runs and
    # --seed, and a run asking for others is refused (a Python user's probe mixed them).
    storage = f"sqlite:///{tmp_path}/tune.db"
    run = ["run", "--storage", storage, "--quiet", "--threads", "1", "--policies", "UCB", "--trials", "2"]
    assert tune.main(run + ["--runs", "2", "--horizon", "100"]) in (0, None)
    for other in (["--runs", "2", "--horizon", "50"], ["--runs", "3", "--horizon", "100"],
                  ["--runs", "2", "--horizon", "100", "--seed", "7"]):
        with pytest.raises(ValueError, match="holds trials of --horizon 100, --runs 2, --seed"):
            tune.main(run + other)
    study = optuna.load_study(study_name="sabandit-SGR_gap0.5_K10-UCB", storage=storage)
    assert [t.state for t in study.get_trials(deepcopy=False)].count(optuna.trial.TrialState.COMPLETE) == 2
    # More trials of the same budget are fine.
    assert tune.main(run[:-1] + ["3", "--runs", "2", "--horizon", "100"]) in (0, None)
    # On the command line the refusal is a message and exit status 1, not a traceback.
    package_dir = os.path.dirname(os.path.dirname(tune.__file__))
    env = dict(os.environ, PYTHONPATH=package_dir + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-m", "sabandit.tune"] + run + ["--runs", "3", "--horizon", "100"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "holds trials of --horizon 100, --runs 2, --seed" in done.stderr


def test_paper_protocol_writes_one_section_per_setting(tmp_path):
    storage = f"sqlite:///{tmp_path}/tune.db"
    output = tmp_path / "tuned_params.txt"
    subprocess.run([sys.executable, "-m", "sabandit.tune", "run", "--protocol", "paper", "--storage", storage,
                    "--quiet", "--threads", "1", "--policies", "TS-SA", "--trials", "2", "--runs", "2",
                    "--horizon", "100", "--output", str(output)], check=True, capture_output=True)
    text = output.read_text()
    for header in ["[K = 10, gap = 0.1]", "[K = 10, gap = 0.5]", "[K = 50, gap = 0.1]", "[K = 50, gap = 0.5]"]:
        assert header in text
    assert text.count("TS-SA.h = ") == 4 and text.count("TS-SA.alpha = ") == 4


def waiting_worker_args():
    """run's options for one worker on a study whose budget (one trial) another worker's
    RUNNING trial holds, so that this worker waits and fails stale trials."""
    args = tune.parser().parse_args(["run", "--policies", "TS", "--trials", "1", "--runs", "2",
                                     "--horizon", "50", "--threads", "1", "--quiet"])
    args.poll = 0.0
    return args


def test_a_worker_that_loses_the_race_to_fail_a_stale_trial_goes_on(monkeypatch):
    # Every waiting worker fails stale trials, so two can fail the same one; Optuna tells the
    # later one "Trial#N has already finished" (a CI run of 3 workers on PostgreSQL saw this
    # end the worker). Here the other worker wins the race inside our fake.
    study = optuna.create_study(direction="minimize")
    stale = study.ask()  # a dead worker's trial: RUNNING, never told
    calls = []

    def fail_stale_trials_after_another_worker(s):
        calls.append(s)
        study.tell(stale, state=optuna.trial.TrialState.FAIL)  # the other worker wins...
        raise RuntimeError(f"Trial#{stale.number} has already finished and can not be updated.")

    monkeypatch.setattr(optuna.storages, "fail_stale_trials", fail_stale_trials_after_another_worker)
    complete = tune.run_study(study, waiting_worker_args(), "SGR", 10, 0.5, "TS")
    assert complete == 1 and len(calls) == 1  # ...and this one took the freed slot
    states = [t.state for t in study.get_trials(deepcopy=False)]
    assert states == [optuna.trial.TrialState.FAIL, optuna.trial.TrialState.COMPLETE]


def test_other_errors_from_failing_stale_trials_still_end_the_worker(monkeypatch):
    study = optuna.create_study(direction="minimize")
    study.ask()

    def broken_storage(s):
        raise RuntimeError("could not connect to server")

    monkeypatch.setattr(optuna.storages, "fail_stale_trials", broken_storage)
    with pytest.raises(RuntimeError, match="could not connect"):
        tune.run_study(study, waiting_worker_args(), "SGR", 10, 0.5, "TS")


def test_read_params_gives_make_policy_the_tuned_values():
    # reproduce_paper's file: every parameter first, then a section per Figure 1 setting.
    path = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "tune", "tuned_params.txt")
    everywhere = tune.read_params(path)
    assert everywhere["TS-SA"]["h"] == 0.532 and everywhere["TS-SA"]["B"] == 27
    assert everywhere["TS-SA"]["init"] == "warm_start" and everywhere["eps-TS"]["epsilon"] == "1/K"
    cell = tune.read_params(path, num_arms=10, gap=0.5)
    assert cell["TS-SA"]["h"] == 3.588855960329013 and cell["TS-SA"]["B"] == 27  # section over the rest
    policy = tune.make_policy("TS-SA", 10, cell["TS-SA"])
    assert policy.parameters["step_size"] == 3.588855960329013
    assert policy.parameters["sa_schedule"][3] == 0.7853319597862517
    assert tune.make_policy("eps-TS", 4, everywhere["eps-TS"]).parameters["epsilon"] == 0.25  # 1/K
    assert tune.make_policy("UCB", 10, cell["UCB"]).parameters["bonus_scale"] == 0.5411131094613308


def test_read_params_names_a_bad_line(tmp_path):
    bad = tmp_path / "tuned_params.txt"
    bad.write_text("TS.tau = 1\nTS-SA h 3\n")
    with pytest.raises(ValueError, match=r"tuned_params.txt:2: 'TS-SA h 3'"):
        tune.read_params(str(bad))
    with pytest.raises(ValueError, match="both num_arms and gap"):
        tune.read_params(str(bad), num_arms=10)


def test_the_own_problem_example_of_python_md_runs():
    # docs/python.md's Optuna objective for a user's problem, run as written.
    page = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "python.md")
    with open(page, encoding="utf-8") as f:
        blocks = f.read().split("```python\n")[1:]
    example = next(block.split("```")[0] for block in blocks if "def objective" in block)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    namespace = {}
    exec(compile(example, "docs/python.md", "exec"), namespace)
    study = namespace["study"]
    assert 0.1 <= study.best_params["tau"] <= 2.0 and len(study.trials) == 20
    assert namespace["check"].trials == 10
    assert all(t.state == optuna.trial.TrialState.COMPLETE for t in study.trials)
