# SPDX-License-Identifier: GPL-2.0-only
"""The Python side as one installed package (pyproject.toml, installed editable by ./ns3).

- ``import clusternet, analysis`` works from any directory with .venv's python and no
  PYTHONPATH;
- one direction of dependency: ``clusternet`` uses ``analysis``, ``analysis`` never imports
  ``clusternet`` (read from the sources, and seen at run time);
- importing any module of either reads no file of the project (only Python sources).
"""

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("analysis", "clusternet")
# Modules that run a program when imported (``python -m`` entry points), not libraries.
ENTRY_POINTS = {"analysis.__main__"}


def modules(package):
    return sorted(f"{package}.{p.stem}" if p.stem != "__init__" else package
                  for p in (ROOT / package).glob("*.py")
                  if f"{package}.{p.stem}" not in ENTRY_POINTS)


def clean_env():
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return env


def run_python(code, cwd):
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=clean_env(),
                          capture_output=True, text=True, timeout=300)


def test_both_packages_import_from_any_directory(tmp_path):
    proc = run_python("import clusternet, analysis; print(clusternet.__file__); "
                      "print(analysis.__file__)", tmp_path)
    assert proc.returncode == 0, proc.stderr
    files = [Path(line) for line in proc.stdout.split()]
    assert files == [ROOT / "clusternet" / "__init__.py", ROOT / "analysis" / "__init__.py"]


def imported_names(path):
    """Every module name ``path`` imports, at module level or inside a function."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


@pytest.mark.parametrize("path", sorted((ROOT / "analysis").glob("*.py")), ids=lambda p: p.name)
def test_analysis_never_imports_clusternet(path):
    bad = [n for n in imported_names(path) if n == "clusternet" or n.startswith("clusternet.")]
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}: analysis is below clusternet"


def test_importing_analysis_loads_no_clusternet_module(tmp_path):
    code = ("import importlib, sys\n"
            f"for m in {modules('analysis')!r}:\n"
            "    importlib.import_module(m)\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'clusternet'))\n")
    proc = run_python(code, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_importing_reads_no_project_file(tmp_path):
    """An audit hook records every file opened while every module of both packages is
    imported; none under the project may be anything but Python source."""
    code = ("import importlib, sys\n"
            "opened = []\n"
            "def hook(event, args):\n"
            "    if event == 'open' and isinstance(args[0], str):\n"
            "        opened.append(args[0])\n"
            "sys.addaudithook(hook)\n"
            f"for m in {modules('analysis') + modules('clusternet')!r}:\n"
            "    importlib.import_module(m)\n"
            "print('\\n'.join(opened))\n")
    proc = run_python(code, tmp_path)
    assert proc.returncode == 0, proc.stderr
    root = str(ROOT) + os.sep
    read = sorted({p for p in proc.stdout.splitlines()
                   if os.path.abspath(p).startswith(root) and not p.endswith((".py", ".pyc"))
                   and "/.venv/" not in p})
    assert not read, f"importing read {read}: read files when a function is called"
