"""Builds tessera's Python extension with the project's CMake (pyproject.toml has the
metadata). The version is the CMake project's, so the module and the C++ package agree.

Environment: TESSERA_CMAKE_ARGS (extra CMake arguments), TESSERA_BUILD_JOBS (parallel jobs,
default 1: the build machines here are small). The build is without CUDA unless
TESSERA_CMAKE_ARGS says -DTESSERA_ENABLE_CUDA=ON: then tessera.gemm's launch extension
(tessera._gemm_cuda) and the kernels it links are built too (docs/python.md, GEMM)."""
import os
import re
import shlex
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        m = re.search(r"project\(tessera\s+VERSION\s+([0-9.]+)", f.read())
    if not m:
        raise RuntimeError("CMakeLists.txt: project(tessera VERSION x.y.z) not found")
    return m.group(1)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        out_dir = os.path.abspath(os.path.dirname(self.get_ext_fullpath(ext.name)))  # .../tessera
        build_dir = os.path.abspath(os.path.join(self.build_temp, "cmake"))
        os.makedirs(build_dir, exist_ok=True)
        config = [
            "cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
            f"-DPython3_EXECUTABLE={sys.executable}", "-DTESSERA_BUILD_PYTHON=ON",
            "-DTESSERA_BUILD_TESTS=OFF", "-DTESSERA_ENABLE_CUDA=OFF",
            f"-DTESSERA_PYTHON_PACKAGE_DIR={os.path.dirname(out_dir)}",
        ] + shlex.split(os.environ.get("TESSERA_CMAKE_ARGS", ""))
        subprocess.run(config, check=True)
        jobs = os.environ.get("TESSERA_BUILD_JOBS", "1")
        subprocess.run(["cmake", "--build", build_dir, "--target", "tessera_python_modules", "-j", jobs], check=True)


setup(
    version=project_version(),
    ext_modules=[Extension("tessera._core", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
)
