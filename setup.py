"""pip install --no-build-isolation --no-index .  builds the sabandit Python module with Debian's
setuptools, pybind11 and Eigen, without the network (docs/python.md). CMake builds the same module
with -DSABANDIT_PYTHON=ON."""
import os
import re

from pybind11.setup_helpers import ParallelCompile, Pybind11Extension, build_ext
from setuptools import setup

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "include/sabandit/version.hpp"), encoding="utf-8") as header:
    VERSION = ".".join(re.findall(r"#define SABANDIT_VERSION_(?:MAJOR|MINOR|PATCH) (\d+)", header.read()))
EIGEN = os.environ.get("EIGEN3_INCLUDE_DIR", "/usr/include/eigen3")

ParallelCompile("SABANDIT_BUILD_JOBS", default=1).install()  # the sources, in parallel if asked
setup(
    name="sabandit",
    version=VERSION,
    description="Multi-armed bandit policies (TS-SA, TS-SGLD, Thompson, epsilon-TS, UCB, KL-UCB) in C++",
    license="see LICENSE",
    packages=["sabandit"],
    package_dir={"sabandit": "python/sabandit"},
    ext_modules=[Pybind11Extension(
        "sabandit._sabandit",
        sorted(f"python/src/{name}" for name in os.listdir(os.path.join(HERE, "python/src"))
               if name.endswith(".cpp")),
        include_dirs=["include", EIGEN],
        cxx_std=20,
        # -O3, as CMake's Release build. The --param compiles each source as a small unit for
        # GCC's inliner, so that a policy's update() is inlined into simulate()'s round loop as
        # in a C++ program (python/CMakeLists.txt says why); without it Gaussian TS's simulate()
        # took 1.2 times the C++ program's time (1.7 at -O2). Clang ignores it, with a warning.
        extra_compile_args=["-O3", "-g0", "--param=large-unit-insns=1000000"],
    )],
    cmdclass={"build_ext": build_ext},
    # Keep setuptools' files out of the CMake presets' build/<preset> directories.
    options={"build": {"build_base": "build/pip"}, "egg_info": {"egg_base": "build/pip"}},
    python_requires=">=3.9",
    install_requires=["numpy"],
    zip_safe=False,
)
