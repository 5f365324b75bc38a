"""Distributed tuning on PostgreSQL: a server of our own in a temporary directory, three worker
processes on one study, the exact trial budget, and a worker killed mid-trial.

initdb refuses to run as root: as root the server runs as the unprivileged user `nobody`
(runuser), on a Unix socket in the temporary directory. The test is skipped, saying why, only
if PostgreSQL 15 or psycopg2 is missing, or if we are root without runuser."""
import datetime
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import pytest

optuna = pytest.importorskip("optuna")
pytest.importorskip("psycopg2", reason="python3-psycopg2 is not installed")

PG_BIN = "/usr/lib/postgresql/15/bin"
BUDGET = 24


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def postgres_url():
    if not os.path.exists(f"{PG_BIN}/initdb"):
        pytest.skip(f"{PG_BIN}/initdb not found: install Debian's postgresql (15)")
    as_user = []
    if os.getuid() == 0:
        runuser = shutil.which("runuser")
        if not runuser:
            pytest.skip("running as root and runuser is missing: initdb refuses to run as root")
        as_user = [runuser, "-u", "nobody", "--"]
    root = tempfile.mkdtemp(prefix="sabandit-pg-", dir="/tmp")
    os.chmod(root, 0o755)
    data, sockets, log = f"{root}/data", f"{root}/run", f"{root}/server.log"
    os.makedirs(sockets)
    if as_user:
        shutil.chown(root, "nobody")
        shutil.chown(sockets, "nobody")
    port = free_port()

    def run(*cmd):
        subprocess.run([*as_user, *cmd], check=True, capture_output=True, text=True)

    run(f"{PG_BIN}/initdb", "-D", data, "-U", "tuner", "-A", "trust", "--no-sync", "-E", "UTF8")
    run(f"{PG_BIN}/pg_ctl", "-D", data, "-l", log, "-w", "-t", "60", "start", "-o",
        f"-k {sockets} -p {port} -c listen_addresses='' -c fsync=off -c max_connections=50")
    try:
        run(f"{PG_BIN}/createdb", "-h", sockets, "-p", str(port), "-U", "tuner", "tune")
        yield f"postgresql+psycopg2://tuner@/tune?host={sockets}&port={port}"
    finally:
        subprocess.run([*as_user, f"{PG_BIN}/pg_ctl", "-D", data, "-m", "immediate", "-w", "stop"],
                       capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


# A slow machine's worker: sabandit.tune with each simulation 10 s longer (a sleep before it),
# under the same budget as the others (a study refuses trials of another budget). It starts its
# first trial only once the others have completed 4: the kill below then lands early in that
# trial whatever the workers' start-up times (a CI run saw this worker start 4 s before the
# others had completed 4, so that no kill window ever opened).
SLOW_WORKER = ("import sys, time, optuna, sabandit\n"
               "from sabandit import tune\n"
               "url = sys.argv[sys.argv.index('--storage') + 1]\n"
               "study = optuna.load_study(study_name=%r, storage=url)\n"
               "complete = optuna.trial.TrialState.COMPLETE\n"
               "while sum(t.state == complete for t in study.get_trials(deepcopy=False)) < 4:\n"
               "    time.sleep(0.05)\n"
               "simulate = sabandit.simulate\n"
               "def slow(*args, **kwargs):\n"
               "    time.sleep(10)\n"
               "    return simulate(*args, **kwargs)\n"
               "sabandit.simulate = slow\n"
               "sys.exit(tune.main(sys.argv[1:]))\n")


STUDY = "sabandit-SGR_gap0.5_K10-TS-SGLD"


def start_worker(url, index, slow=False):
    # TS-SGLD: each trial simulates 8 x 20,000 rounds of 10 chains (about 0.5 s).
    program = ["-c", SLOW_WORKER % STUDY] if slow else ["-m", "sabandit.tune"]
    return subprocess.Popen(
        [sys.executable, *program, "run", "--storage", url, "--quiet", "--worker", str(index),
         "--threads", "1", "--policies", "TS-SGLD", "--trials", str(BUDGET), "--runs", "8",
         "--horizon", "20000", "--heartbeat", "1", "--grace", "8", "--poll", "0.2"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def trials(study, state):
    return {t.number for t in study.get_trials(deepcopy=False) if t.state == state}


def test_three_workers_exact_budget_and_a_killed_worker(postgres_url):
    name = STUDY
    # Create the study first, so that the workers do not race to create the tables.
    optuna.create_study(study_name=name, storage=postgres_url, direction="minimize")
    study = optuna.load_study(study_name=name, storage=postgres_url)
    # Worker 0, the victim, runs trials 10 s longer (SLOW_WORKER): the kill lands at most 4 s
    # into one (in practice its first, while the others complete their first four), so it cannot
    # complete first. Killing trials of the workers' common length (0.5 s) raced with their
    # completion, however early the kill: two CI runs saw the victim complete first.
    workers = [start_worker(postgres_url, 0, slow=True)] + [start_worker(postgres_url, i) for i in (1, 2)]
    complete, running = optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.RUNNING

    # Kill worker 0 while it runs a trial, once some trials have completed (Optuna stamps a
    # trial's start with this machine's clock).
    deadline, victim = time.monotonic() + 120, None
    while time.monotonic() < deadline and victim is None and workers[0].poll() is None:
        done = trials(study, complete)
        now = datetime.datetime.now()
        busy = [t for t in study.get_trials(deepcopy=False)
                if t.state == running and t.user_attrs.get("worker") == 0
                and t.datetime_start is not None
                and (now - t.datetime_start).total_seconds() < 4.0]
        if len(done) >= 4 and busy:
            workers[0].send_signal(signal.SIGKILL)
            victim = busy[0].number
            completed_before_kill = trials(study, complete)
        time.sleep(0.05)
    if victim is None:
        for w in workers:
            w.kill()
        outputs = "\n".join(w.communicate()[0] for w in workers)
        pytest.fail("worker 0 was never seen in the first 4 s of a trial once 4 completed; "
                    "the workers said:\n" + outputs)
    workers[0].wait(timeout=10)
    # Dead now: if its trial is still RUNNING, nothing will complete it; the others must fail it.
    victim_was_running = any(t.number == victim and t.state == running
                             for t in study.get_trials(deepcopy=False))

    for w in workers[1:]:
        out, _ = w.communicate(timeout=600)
        assert w.returncode == 0, out
    final = study.get_trials(deepcopy=False)
    done = trials(study, complete)
    assert len(done) == BUDGET  # no lost and no duplicated trials
    assert completed_before_kill <= done  # nothing that completed was lost
    assert not trials(study, running)  # the killed worker's trial was failed (stale heartbeat)
    state_of_victim = next(t.state for t in final if t.number == victim)
    assert state_of_victim == (optuna.trial.TrialState.FAIL if victim_was_running else complete)
    assert victim_was_running  # the kill landed mid-trial (the victim's trials last about 10 s)
    # The study is usable: its best trial is one of the complete ones.
    assert study.best_trial.number in done
