"""The benchmarks' virtual environment (default bench/.venv): PyPI packages
for the side a benchmark compares amp with, never a dependency of the build
or the tests. Shared by cpu_backend_bench.py and onnx_light_training.py."""
import os
import subprocess
import sys

DEFAULT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ".venv")


def python(venv):
    return os.path.join(venv, "bin", "python")


def setup(venv, packages):
    """Creates `venv` if needed and pip-installs `packages` into it."""
    if not os.path.exists(python(venv)):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    subprocess.run([python(venv), "-m", "pip", "install", "-q"] + packages,
                   check=True)
