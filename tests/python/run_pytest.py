"""ctest's entry to the Python tests: runs pytest on this folder with the built package first
on sys.path. Exits 77 (ctest's SKIP_RETURN_CODE) when pytest or hypothesis is missing, and
only then: a missing tessera module is a failure.

With --gpu (ctest python_gpu_test, label gpu) it runs the tests marked `gpu` alone (tessera.gemm
against torch.matmul and torch._scaled_mm, tessera.attention against SDPA), and exits 77 unless the module has its CUDA part, PyTorch is installed
and sees a GPU; without --gpu it runs the others.

usage: run_pytest.py PACKAGE_DIR TESSERA_CLI CONFORMANCE_DIR [--gpu] [pytest args...]"""
import os
import sys

SKIP = 77


def main():
    package_dir, cli, conformance = sys.argv[1:4]
    try:
        import hypothesis  # noqa: F401
        import pytest
    except ImportError as e:
        print(f"skipped: {e.name} is not installed for {sys.executable} "
              "(apt-get install python3-pytest python3-hypothesis)")
        return SKIP
    sys.path.insert(0, package_dir)
    os.environ["TESSERA_CLI"] = cli
    os.environ["TESSERA_CONFORMANCE_DIR"] = conformance
    here = os.path.dirname(os.path.abspath(__file__))
    extra = sys.argv[4:]
    if extra[:1] == ["--gpu"]:
        extra = extra[1:]
        import tessera
        if not tessera.has_cuda:
            print("skipped: this tessera was built without CUDA (no tessera._gemm_cuda)")
            return SKIP
        try:
            import torch
        except ImportError:
            print(f"skipped: PyTorch (the reference) is not installed for {sys.executable}")
            return SKIP
        if not torch.cuda.is_available():
            print("skipped: no CUDA device")
            return SKIP
        marker = "gpu"
    else:
        marker = "not gpu"
    return pytest.main(["-q", "-p", "no:cacheprovider", "-m", marker, "--rootdir", here, here] + extra)


if __name__ == "__main__":
    sys.exit(main())
