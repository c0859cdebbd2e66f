# SPDX-License-Identifier: GPL-2.0-only
"""Shared fixtures: paths to the built scenario programs (./ns3 test builds them first)."""
import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
BUILD = ROOT / "build"


@pytest.fixture(scope="session")
def scenario_bin():
    """Return a function giving the path of a built scenario program, skipping if not built."""

    def get(name):
        path = BUILD / "scenarios" / name
        if not path.exists():
            pytest.skip(f"{path} not built (run ./ns3 build)")
        return path

    return get


@pytest.fixture
def scenario_env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env
