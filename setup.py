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


def cached_interpreter(build_dir):
    """The Python3_EXECUTABLE of an existing CMake build directory, or None."""
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt"), encoding="utf-8") as cache:
            for line in cache:
                if line.startswith("Python3_EXECUTABLE:"):
                    return line.split("=", 1)[1].strip()
    except FileNotFoundError:
        pass
    return None


class CMakeBuild(build_ext):
    """Configures and builds the CMake target sabandit_python, then copies the module where
    setuptools packs it."""

    def build_extension(self, ext):
        build_dir = os.environ.get("SABANDIT_CMAKE_BUILD_DIR", os.path.join(HERE, "build", "python"))
        configure = ["cmake", "-S", HERE, "-B", build_dir, "-DSABANDIT_PYTHON=ON"]
        cached = cached_interpreter(build_dir)
        if cached is None:  # a new build directory: the README's configuration
            configure += ["-DCMAKE_BUILD_TYPE=Release", "-DSABANDIT_BUILD_TESTS=OFF",
                          "-DSABANDIT_BUILD_EXAMPLES=OFF"]
        # A venv's python is a link to the interpreter the directory was configured with: keep
        # the cache (and the compiled module). Another interpreter rebuilds the module for it.
        if cached is None or os.path.realpath(cached) != os.path.realpath(sys.executable):
            configure.append(f"-DPython3_EXECUTABLE={sys.executable}")
        try:
            import pybind11  # pip's pybind11 where Debian's CMake package is not installed
            configure.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
        except ImportError:
            pass
        jobs = os.environ.get("SABANDIT_BUILD_JOBS", str(os.cpu_count() or 1))
        subprocess.run(configure, check=True)
        subprocess.run(["cmake", "--build", build_dir, "--target", "sabandit_python", "-j", jobs],
                       check=True)
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
