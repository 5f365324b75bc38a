# Installs the Debian packages named as arguments that are not installed yet.
# Sourced by the scripts in scripts/; uses sudo when not root. Never touches anything else.
ensure_packages() {
  local missing=()
  local pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  echo "sabandit: installing Debian packages: ${missing[*]}" >&2
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# What every build of sabandit's own targets needs.
SABANDIT_BUILD_PACKAGES=(cmake g++ make git python3 pkg-config doxygen libeigen3-dev catch2 libbenchmark-dev libcli11-dev gnuplot-nox)

# The second supported compiler, Debian 12's Clang 14, and its runtime, which holds the
# sanitizers' libraries and libFuzzer: scripts/test's asan and tsan steps, and scripts/fuzz.
SABANDIT_CLANG_PACKAGES=(clang-14 libclang-rt-14-dev)

# What the Python module (-DSABANDIT_PYTHON=ON, pip install .), sabandit.tune and their tests
# need besides (scripts/test-python): pybind11, numpy, pytest, Optuna, PostgreSQL 15 and its
# driver, pip and venv for the pip install test.
SABANDIT_PYTHON_PACKAGES=(python3-dev pybind11-dev python3-pybind11 python3-numpy python3-pytest python3-optuna
                          python3-psycopg2 postgresql-15 python3-pip python3-setuptools python3-venv)
