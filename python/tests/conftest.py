"""Shared fixtures of the sabandit Python tests: the C++ reference program's output."""
import os
import subprocess

import pytest


@pytest.fixture(scope="session")
def cpp_reference():
    """{case: {"decisions": [...], "simulate": [...]}} printed by decisions.cpp, which ctest
    names in SABANDIT_DECISIONS; skipped when the tests run without it (a pip install)."""
    program = os.environ.get("SABANDIT_DECISIONS")
    if not program:
        pytest.skip("SABANDIT_DECISIONS is not set: the C++ reference program was not built")
    out = subprocess.run([program], check=True, capture_output=True, text=True).stdout
    table = {}
    for line in out.splitlines():
        case, kind, *values = line.split()
        table.setdefault(case, {})[kind] = values
    return table
