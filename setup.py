"""pip install --no-build-isolation --no-index .  builds the sabandit Python module with CMake, the
build that -DSABANDIT_PYTHON=ON makes (python/CMakeLists.txt: its flags, link-time optimisation and
per-source options live there alone), in build/python, the directory docs/python.md's and the
README's CMake commands build: whoever follows both compiles the module once (docs/python.md)."""
import os
import re
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "include/sabandit/version.hpp"), encoding="utf-8") as header:
    VERSION = ".".join(re.findall(r"#define SABANDIT_VERSION_(?:MAJOR|MINOR|PATCH) (\d+)", header.read()))


def cached_interpreter(cache_path):
    """The interpreter a configured build directory uses: the Python3_EXECUTABLE that was given,
    else the one FindPython found (_Python3_EXECUTABLE)."""
    found = {}
    with open(cache_path, encoding="utf-8") as cache:
        for line in cache:
            name = line.split(":", 1)[0]
            if name in ("Python3_EXECUTABLE", "_Python3_EXECUTABLE"):
                found[name] = line.split("=", 1)[1].strip()
    return found.get("Python3_EXECUTABLE") or found.get("_Python3_EXECUTABLE")


def lasting_interpreter():
    """The interpreter to record in a new build directory. A venv's python is a link that lives
    as long as the venv: record the interpreter it links to, which outlives it, when that one
    imports numpy (python/CMakeLists.txt checks it) as a venv with --system-site-packages does."""
    real = os.path.realpath(sys.executable)
    if real != sys.executable and subprocess.run(
            [real, "-c", "import numpy"], capture_output=True, check=False).returncode == 0:
        return real
    return sys.executable


def run(command):
    """Runs a build command; a failure ends the build with one line that names it."""
    try:
        subprocess.run(command, check=True)
    except (OSError, subprocess.CalledProcessError) as error:
        raise SystemExit(f"sabandit's setup.py: {' '.join(command)} failed ({error}); "
                         "docs/python.md, 'Build and import', lists what the build needs") from None


class CMakeBuild(build_ext):
    """Configures and builds the CMake target sabandit_python, then copies the module where
    setuptools packs it."""

    def build_extension(self, ext):
        build_dir = os.environ.get("SABANDIT_CMAKE_BUILD_DIR", os.path.join(HERE, "build", "python"))
        jobs = os.environ.get("SABANDIT_BUILD_JOBS", str(os.cpu_count() or 1))
        if not jobs.isdigit() or int(jobs) < 1:
            raise SystemExit(f"sabandit's setup.py: SABANDIT_BUILD_JOBS = '{jobs}' must be a "
                             "positive integer (the sources compiled at once)")
        configure = ["cmake", "-S", HERE, "-B", build_dir, "-DSABANDIT_PYTHON=ON"]
        cache = os.path.join(build_dir, "CMakeCache.txt")
        if not os.path.exists(cache):  # a new build directory: the README's configuration
            configure += ["-DCMAKE_BUILD_TYPE=Release", "-DSABANDIT_BUILD_TESTS=OFF",
                          "-DSABANDIT_BUILD_EXAMPLES=OFF", f"-DPython3_EXECUTABLE={lasting_interpreter()}"]
        else:
            # Keep an existing directory's configuration, and its compiled module, when this
            # interpreter is the one it was configured with (a venv's python links to it);
            # another interpreter reconfigures it for itself, and the module is rebuilt.
            cached = cached_interpreter(cache)
            if cached is None or os.path.realpath(cached) != os.path.realpath(sys.executable):
                configure.append(f"-DPython3_EXECUTABLE={lasting_interpreter()}")
        if subprocess.run(configure, check=False).returncode != 0:
            # CMake found no pybind11 (Debian's pybind11-dev is missing): try the Python package's
            # CMake files. Only then, since switching between the two changes the include flags
            # and recompiles the module.
            try:
                import pybind11
            except ImportError:
                pybind11 = None
            if pybind11 is None:
                raise SystemExit(f"sabandit's setup.py: {' '.join(configure)} failed; "
                                 "docs/python.md, 'Build and import', lists what the build needs")
            run(configure + [f"-Dpybind11_DIR={pybind11.get_cmake_dir()}"])
        run(["cmake", "--build", build_dir, "--target", "sabandit_python", "-j", jobs])
        built = os.path.join(build_dir, "python", "sabandit",
                             "_sabandit" + sysconfig.get_config_var("EXT_SUFFIX"))
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(built, target)


setup(
    name="sabandit",
    version=VERSION,
    description="Multi-armed bandit policies (TS-SA, TS-SGLD, Thompson, epsilon-TS, UCB, KL-UCB) in C++",
    license="see LICENSE",
    packages=["sabandit"],
    package_dir={"sabandit": "python/sabandit"},
    ext_modules=[Extension("sabandit._sabandit", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    # Keep setuptools' own files out of the CMake presets' build/<preset> directories.
    options={"build": {"build_base": "build/pip"}, "egg_info": {"egg_base": "build/pip"}},
    python_requires=">=3.9",
    install_requires=["numpy"],
    zip_safe=False,
)
