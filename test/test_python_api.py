# SPDX-License-Identifier: GPL-2.0-only
"""The clusternet Python package (cppyy) gives the C++ scenario's numbers for the same point."""
import json
import os
import subprocess
import sys
import textwrap

import pandas as pd
import pytest

from conftest import BUILD
from test_profiles import MYNIC

SCRIPT = textwrap.dedent("""
    import json, sys
    import clusternet
    out = sys.argv[1]
    clusternet.netpipe(nic="sknet", mtu=9000, sockbuf=131072, max_block=4096).to_csv(
        out + "/plain.csv", index=False)
    clusternet.netpipe(nic="acenic", mtu=4500, sockbuf=65536, max_block=4096, pci="64x66",
                       overrides={"cpu.CopyBandwidth": "1200Mbps"}).to_csv(
        out + "/what-if.csv", index=False)
    errors = {}
    for name, kw in [("mtu", dict(mtu=100)), ("mtu", dict(mtu=20000)),
                     ("sockbuf", dict(sockbuf=-5)), ("nic", dict(nic="foo")),
                     ("pci", dict(pci="48x33")), ("overrides", dict(overrides="cpu.NoSuch=1")),
                     ("mtu", dict(mtu="big"))]:
        try:
            clusternet.netpipe(**kw)
            errors[repr(kw)] = None
        except ValueError as e:
            errors[repr(kw)] = [name, str(e)]
    with open(out + "/mynic.toml", "w") as f:
        f.write(MYNIC)
    mine = clusternet.netpipe(nic="mynic", host="athlonxp2800-fbsd47", max_block=3,
                              profile_file=out + "/mynic.toml")
    base = clusternet.netpipe(nic="pro1000mt", host="athlonxp2800-fbsd47", max_block=3)
    again = clusternet.netpipe(nic="mynic", host="athlonxp2800-fbsd47", max_block=3,
                               profile_file=out + "/mynic.toml")  # the same file twice: fine
    assert again.equals(mine)
    try:
        clusternet.netpipe(profile_file=out + "/missing.toml")
        errors["profile_file"] = None
    except ValueError as e:
        errors["profile_file"] = ["profile_file", str(e)]
    print(json.dumps({"errors": errors, "nics": clusternet.profiles("nic"),
                      "user_nics": clusternet.profiles("nic", out + "/mynic.toml"),
                      "user_minus_base_us": list(mine.oneway_us - base.oneway_us)}))
""").replace("MYNIC", repr(MYNIC))


def scenario(scenario_bin, env, out, *args):
    proc = subprocess.run([scenario_bin("gige-tcp-netpipe"), "--max-block=4096", "--report=0",
                           "--jobs=1", f"--out={out}", *args],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return pd.read_csv(out / "data.csv")


@pytest.fixture(scope="module")
def python_run(tmp_path_factory):
    if not list((BUILD / "lib").glob("libns3*-clusternet*.so")):
        pytest.skip("clusternet library not built (run ./ns3 build)")
    out = tmp_path_factory.mktemp("py")
    env = dict(os.environ)
    proc = subprocess.run([sys.executable, "-c", SCRIPT, str(out)], capture_output=True,
                          text=True, env=env, timeout=600, cwd=out)
    assert proc.returncode == 0, proc.stderr
    return out, json.loads(proc.stdout.strip().splitlines()[-1]), proc.stderr


def test_python_point_equals_cpp_scenario(python_run, scenario_bin, scenario_env, tmp_path):
    out, _, _ = python_run
    cpp = scenario(scenario_bin, scenario_env, tmp_path / "a", "--cases=sknet@9000",
                   "--sockbuf=131072")
    py = pd.read_csv(out / "plain.csv")
    assert len(py) > 20 and py.block_bytes.max() == 4096
    pd.testing.assert_frame_equal(py, cpp)


def test_python_overrides_and_pci_reach_the_model(python_run, scenario_bin, scenario_env,
                                                  tmp_path):
    out, _, _ = python_run
    cpp = scenario(scenario_bin, scenario_env, tmp_path / "b", "--cases=acenic@4500",
                   "--sockbuf=65536", "--pci=64x66", "--set=cpu.CopyBandwidth=1200Mbps")
    py = pd.read_csv(out / "what-if.csv")
    pd.testing.assert_frame_equal(py, cpp)
    assert set(py.pci) == {"64x66"}
    plain = scenario(scenario_bin, scenario_env, tmp_path / "c", "--cases=acenic@4500",
                     "--sockbuf=65536", "--pci=64x66")
    assert not py.mbps.equals(plain.mbps)  # the override changed the result


def test_python_bad_input_raises_value_error_naming_the_parameter(python_run):
    _, report, stderr = python_run
    for kw, result in report["errors"].items():
        assert result is not None, f"{kw} accepted"
        name, message = result
        assert message.startswith(name + ":"), message
    assert report["nics"][:3] == ["sknet", "acenic", "gnic2"]
    assert {"pro1000mt", "pro1000mt-nocoal"} <= set(report["nics"])
    assert "runStaticInitializersOnce" not in stderr


def test_python_user_profile_file(python_run):
    _, report, _ = python_run
    assert "mynic" not in report["nics"] and report["user_nics"][-1] == "mynic"
    # mynic's driver takes 20 us more per received frame than pro1000mt's (test_profiles).
    assert report["user_minus_base_us"] == pytest.approx([20.0] * 3, abs=1.0)
