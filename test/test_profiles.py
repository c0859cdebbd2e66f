# SPDX-License-Identifier: GPL-2.0-only
"""Profiles are data: user profile files change results without a rebuild, bad files are refused
before anything runs, and C++ and Python read the same values."""

import re
from pathlib import Path

import programs
import pytest

ROOT = Path(__file__).resolve().parents[1]

from analysis.catalogue import (ProfileError, load_profiles, profile_names,
                                  profile_value)

PROFILES_BIN = ROOT / "build" / "utils" / "profiles"

# A NIC of one's own: the Pro/1000 MT with a driver that costs 20 us more per received frame.
MYNIC = """\
[mynic]
kind = "nic"
base = "pro1000mt"
description = "Pro/1000 MT behind a slow driver (test)"

[mynic.driver]
RxCycles = ["43056", "test: 20 us more than pro1000mt's 1656 cycles at 2070 MHz-equivalent (20 x 2070 = 41400 cycles)"]
"""

WHATIF_ARGS = ["--host=athlonxp2800-fbsd47", "--mtu=1500", "--max-block=64", "--report=0"]


def test_user_profile_changes_what_if_without_rebuild(tmp_path, run_csv):
    (tmp_path / "mynic.toml").write_text(MYNIC)
    data = run_csv("what-if", tmp_path / "whatif", f"--profile-file={tmp_path / 'mynic.toml'}",
                   "--nic=mynic", "--baseline-nic=pro1000mt", *WHATIF_ARGS)
    assert set(data["nic"]) == {"mynic", "pro1000mt"}
    mine = data[data["nic"] == "mynic"].set_index("block_bytes")["oneway_us"]
    base = data[data["nic"] == "pro1000mt"].set_index("block_bytes")["oneway_us"]
    # One frame each way per NetPIPE one-way message: the receive-side driver cost adds once.
    # (The ping-pong's ACKs are piggybacked or delayed, so they add no frame of their own.)
    diff = (mine - base).loc[[1, 2, 3]]
    assert diff.min() > 19.0 and diff.max() < 21.0, diff


def test_user_profile_is_listed_in_help(tmp_path, run_program):
    (tmp_path / "mynic.toml").write_text(MYNIC)
    proc = run_program("what-if", f"--profile-file={tmp_path}", "--help")
    nic_line = next(line for line in proc.stdout.splitlines() if line.strip().startswith("--nic:"))
    assert "mynic" in nic_line and "pro1000mt-nocoal" in nic_line


GOOD_VALUE = 'RxCycles = ["450", "test"]'

# (name, file text, what the one stderr line must contain besides file:line)
BAD_FILES = [
    ("malformed", '[mynic\nkind = "nic"\n', "malformed TOML"),
    ("no-kind", '[mynic]\ndescription = "x"\n', "needs kind"),
    ("unknown-kind", '[mynic]\nkind = "router"\ndescription = "x"\n', "unknown kind 'router'"),
    ("no-description", '[mynic]\nkind = "nic"\n', "needs a description"),
    ("unknown-target", '[mynic]\nkind = "nic"\ndescription = "x"\n[mynic.cpu]\n' + GOOD_VALUE,
     "has no target 'cpu'"),
    ("unknown-attribute",
     '[mynic]\nkind = "nic"\ndescription = "x"\n[mynic.device]\nBogus = ["1", "test"]\n',
     "GigeNetDevice has no attribute Bogus"),
    ("refused-value",
     '[mynic]\nkind = "nic"\ndescription = "x"\n[mynic.device]\nMtu = ["99999", "test"]\n',
     "value not allowed"),
    ("bad-number",
     '[mynic]\nkind = "nic"\ndescription = "x"\n[mynic.device]\nMtu = ["lots", "test"]\n',
     "a whole number"),
    ("bad-enum",
     '[lib]\nkind = "mpi"\ndescription = "x"\n[lib.mpi]\nProgress = ["Sometimes", "test"]\n',
     "one of"),
    ("no-source",
     '[mynic]\nkind = "nic"\ndescription = "x"\n[mynic.device]\nMtu = ["9000", " "]\n',
     "has no source"),
    ("value-only",
     '[mynic]\nkind = "nic"\ndescription = "x"\n[mynic.device]\nMtu = "9000"\n',
     "needs [value, source]"),
    ("unknown-base", '[mynic]\nkind = "nic"\nbase = "nosuch"\ndescription = "x"\n',
     "unknown base profile 'nosuch'"),
    ("base-of-other-kind", '[mynic]\nkind = "nic"\nbase = "lanai9"\ndescription = "x"\n',
     "is a lanai profile"),
    ("cycle",
     '[a]\nkind = "nic"\nbase = "b"\ndescription = "x"\n'
     '[b]\nkind = "nic"\nbase = "a"\ndescription = "y"\n', "cycle"),
    ("duplicate", '[sknet]\nkind = "nic"\ndescription = "again"\n', "already defined"),
    ("parts-set-one-value-twice",
     '[mynic]\nkind = "nic"\nparts = ["xmac2", "mychip"]\ndescription = "x"\n'
     '[mychip]\nkind = "chip"\ndescription = "y"\n[mychip.device]\n'
     'RxFifoSize = ["32768", "test"]\n', "parts 'xmac2' and 'mychip' both set device.RxFifoSize"),
    ("part-of-wrong-kind", '[mynic]\nkind = "nic"\nparts = ["xmac2", "linux22"]\n'
     'description = "x"\n', "part 'linux22' is not a profile of a part kind of a nic"),
    ("parts-on-a-library", '[lib]\nkind = "mpi"\nparts = ["lam"]\ndescription = "x"\n',
     "a mpi profile has no parts"),
    ("unknown-property",
     '[mynic]\nkind = "nic"\ndescription = "x"\n[mynic.properties]\nColour = ["red", "test"]\n',
     "no such property"),
    ("property-names-no-profile",
     '[lib]\nkind = "mpi"\ndescription = "x"\n[lib.properties]\nNics = ["sknet,nope", "t"]\n',
     "'nope' is not a nic profile"),
    ("unknown-key", '[mynic]\nkind = "nic"\ndescription = "x"\ncolour = "red"\n',
     "unknown key"),
]


@pytest.mark.parametrize("name,text,message", BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_bad_profile_file_refused(tmp_path, run_program, name, text, message):
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    out = tmp_path / "out"
    proc = run_program("what-if", f"--profile-file={path}", f"--out={out}", status=2, timeout=60)
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr
    assert f"{path}:" in lines[0] or (name == "duplicate" and "contrib/clusternet/profiles/nics.toml" in lines[0])
    assert message in lines[0], lines[0]
    assert "terminate" not in proc.stderr and "Traceback" not in proc.stderr
    assert not out.exists(), "a refused profile file must not create results"


def test_bad_file_names_its_line(tmp_path, run_program):
    path = tmp_path / "lines.toml"
    path.write_text('# a comment\n\n[mynic]\nkind = "nic"\ndescription = "x"\n\n'
                    '[mynic.device]\nMtu = ["9000", "ok"]\nBogus = ["1", "test"]\n')
    proc = run_program("what-if", f"--profile-file={path}", status=2, timeout=60)
    assert proc.stderr.strip().split(": ")[2] == f"{path}:9"


def test_missing_profile_file_refused(tmp_path, run_program):
    proc = run_program("gige-mtu-sweep", f"--profile-file={tmp_path / 'nope.toml'}", status=2,
                       timeout=60)
    assert proc.stderr.strip() == (f"gige-mtu-sweep: --profile-file: {tmp_path / 'nope.toml'}: "
                                   "no such profile file or folder")


def test_profile_path_environment_replaces_catalogue(tmp_path, scenario_env, run_program):
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "x.toml").write_text('[x]\nkind = "nic"\n')
    env = dict(scenario_env, CLUSTERNET_PROFILE_PATH=str(bad))
    proc = run_program("what-if", "--help", status=2, env=env, timeout=60)
    assert f"{bad / 'x.toml'}:1" in proc.stderr


def _cpp_values(name):
    """A profile's resolved values as the C++ loader gives them (./ns3 profiles --show)."""
    proc = programs.run(PROFILES_BIN, f"--show={name}", timeout=60)
    values = {}
    for line in proc.stdout.splitlines()[2:]:
        if not line.startswith("    #"):
            key, _, value = line.partition(" = ")
            target, _, attribute = key.partition(".")
            values[(target, attribute)] = value
    return values


def test_python_and_cpp_read_the_same_values():
    profiles = load_profiles()
    for name in ("pro1000mt-nocoal", "lanai72", "lampi-tcp-ed", "piii450-nt5", "hpvm19"):
        python = {k: v for k, (v, _) in profiles[name].values.items()}
        assert python == _cpp_values(name), name


def test_derived_profile_values():
    profiles = load_profiles()
    # pro1000mt-nocoal is pro1000mt with interrupt coalescing off.
    assert profile_value("nic", "pro1000mt", "coalescer", "Enabled") == "true"
    assert profile_value("nic", "pro1000mt-nocoal", "coalescer", "GapTimeout") == "28672ns"
    assert profile_value("nic", "pro1000mt", "txcoalescer", "Enabled") == "true"
    assert profile_value("nic", "pro1000mt-nocoal", "txcoalescer", "Enabled") == "false"
    mt, nocoal = profiles["pro1000mt"].values, profiles["pro1000mt-nocoal"].values
    assert {k for k in mt if mt[k] != nocoal.get(k)} == {("coalescer", "Enabled"),
                                                          ("txcoalescer", "Enabled")}
    # LA-MPI-TCP-ED is LA-MPI-TCP with an event thread.
    assert profile_value("mpi", "lampi-tcp-ed", "mpi", "Progress") == "EventThread"
    assert profile_value("mpi", "lampi-tcp", "mpi", "Progress") == "Polling"
    # Abstract bases are not choices.
    assert "gm15-lanai" not in profile_names("lanai")
    assert profile_names("lanai") == ["lanai9", "lanai72", "lanai4"]


def test_python_reader_refuses_bad_bases(tmp_path):
    for text, message in [
        ('[a]\nkind = "nic"\nbase = "b"\ndescription = "x"\n'
         '[b]\nkind = "nic"\nbase = "a"\ndescription = "y"\n', "cycle"),
        ('[sknet]\nkind = "nic"\ndescription = "again"\n', "already defined"),
        ('[m]\nkind = "nic"\ndescription = "x"\n[m.device]\nMtu = ["9000", ""]\n', "no source"),
        ('[m]\nkind = "nic"\nparts = ["xmac2", "tigon2"]\ndescription = "x"\n',
         "parts 'xmac2' and 'tigon2' both set device.RxFifoSize"),
        ('[m]\nkind = "nic"\nparts = ["xmac2", "linux22"]\ndescription = "x"\n',
         "part 'linux22' is not a profile of a part kind of a nic"),
    ]:
        path = tmp_path / "bad.toml"
        path.write_text(text)
        with pytest.raises(ProfileError, match=message):
            load_profiles(extra=[path])


def test_profiles_command_lists_every_profile(run_program):
    proc = run_program(PROFILES_BIN, timeout=60)
    listed = {line.split()[0] for line in proc.stdout.splitlines() if line.startswith("  ")}
    assert listed == set(load_profiles())
    assert "pro1000mt-nocoal" in proc.stdout and "[parts: 82545em, em13-fbsd47-nocoal]" in proc.stdout
    assert "em13-fbsd47-nocoal" in proc.stdout and "[base: em13-fbsd47]" in proc.stdout


# A profile value written as a C++ literal: {"target", "Attribute", "value", "source" or kSeed...
# with a target of the catalogue (or one of the property groups the C++ catalogue used).
TARGETS = sorted({t for p in load_profiles().values() for t, _ in p.values}
                 | {"board", "boot", "machine", "market", "library"})
PROFILE_LITERAL = re.compile(r'\{"(?:' + "|".join(TARGETS)
                             + r')",\s*"[A-Z]\w+",\s*"[^"]*",\s*(?:"|kSeed)')


def profile_literals(text):
    return PROFILE_LITERAL.findall(text)


def test_profile_literal_pattern_finds_the_old_catalogue_form():
    old = '{"bus", "Width", "32", kSeed000 + " sec. 3"},\n{"cpu", "Speed", "1.0",\n "ref"},'
    assert len(profile_literals(old)) == 2
    assert not profile_literals('{"host", "Chipset", "a chipset profile", nullptr, "chipset"}')


def test_no_profile_values_in_cpp():
    """The catalogue lives in contrib/clusternet/profiles/: no C++ file holds a profile's values."""
    sources = [p for d in ("contrib", "scenarios", "utils") for p in (ROOT / d).rglob("*")
               if p.suffix in (".cc", ".h")]
    assert len(sources) > 100
    assert not [p for p in sources if p.stem == "profile-registry"], "the C++ catalogue is gone"
    for path in sources:
        assert not profile_literals(path.read_text()), path
