import glob
import json
import os
import subprocess

import pytest


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs a GPU and PyTorch (ctest python_gpu_test, label gpu)")


def cli_path():
    return os.environ.get("TESSERA_CLI")


@pytest.fixture(scope="session")
def cli():
    """Runs the tessera command: cli(args..., input=None) -> CompletedProcess (text)."""
    path = cli_path()
    if not path or not os.path.exists(path):
        pytest.skip("TESSERA_CLI (the built tessera command) is not set")

    def run(*args, input=None, check=False):
        return subprocess.run([path, *args], input=input, capture_output=True, text=True, check=check)
    return run


def conformance_vectors():
    """Every {"expr", "result"} of tests/data/conformance/*.jsonl."""
    here = os.path.dirname(os.path.abspath(__file__))
    folder = os.environ.get("TESSERA_CONFORMANCE_DIR") or os.path.join(here, "..", "data", "conformance")
    files = sorted(glob.glob(os.path.join(folder, "*.jsonl")))
    vectors = []
    for f in files:
        with open(f, encoding="utf-8") as fh:
            vectors += [json.loads(line) for line in fh if line.strip()]
    return vectors
