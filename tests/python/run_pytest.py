"""ctest's entry to the Python tests: runs pytest on this folder with the built package first
on sys.path. Exits 77 (ctest's SKIP_RETURN_CODE) when pytest or hypothesis is missing, and
only then: a missing tessera module is a failure.

usage: run_pytest.py PACKAGE_DIR TESSERA_CLI CONFORMANCE_DIR [pytest args...]"""
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
    return pytest.main(["-q", "-p", "no:cacheprovider", "--rootdir", here, here] + sys.argv[4:])


if __name__ == "__main__":
    sys.exit(main())
