# SPDX-License-Identifier: GPL-2.0-only
"""The module's dependency rule, checked on every #include of contrib/clusternet.

Layers, lowest first; a layer includes only layers below it (and itself):

    profile <- host <- ethernet, myrinet <- gm, fm <- mpi <- apps

ethernet and myrinet are siblings (neither includes the other), and so are gm and fm. Within
gm/ and fm/, the firmware (the control programs that run on the LANai) reports upward through
callbacks and never includes the host library it serves. The switches and the Myrinet fabric
reach their ports through a port interface (MyrinetPort, EthernetSwitchPort) and never include
a concrete device. helper/
may include any model layer; model/ never includes helper/. Nothing in contrib/clusternet
includes the harness (headers of the repository outside contrib/, such as harness/ and
scenarios/): the module builds and its TestSuites pass on their own. Nothing in model/ or
helper/ calls Simulator::Run: the program runs the simulator. A helper belongs to the layer of
the technology it builds (HELPER_LAYER) and never casts to a concrete device of another layer (the
MPI helper reaches a device through its attributes, a LANai board checks its own port). Outside the module, no program or
experiment registers the overrides option --set itself: ScenarioArgs::AddOverrides does, once,
its help made from the target table. The module's TestSuites are split by layer: each file is
``<model folder>[-topic]-test-suite.cc``, registers the suite ``clusternet-<folder>[-topic]``
and names a class its folder defines.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULE = ROOT / "contrib" / "clusternet"

RANK = {"profile": 0, "host": 1, "ethernet": 2, "myrinet": 2, "gm": 3, "fm": 3, "mpi": 4,
        "apps": 5}
# Firmware files and the host-library headers they must not include.
FIRMWARE = {"gm-mcp", "fm-mcp"}
HOST_LIBRARY = {"gm-port.h", "gm-ethernet-net-device.h", "fm-context.h", "fm-smt.h"}
# Switch and fabric files and the concrete port devices they must not include.
FABRIC = {"myrinet-switch", "myrinet-worm", "myrinet-channel", "gige-switch-net-device"}
CONCRETE_PORTS = {"myrinet-net-device.h", "gige-net-device.h"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"(?:ns3/)?([\w.-]+\.h)"', re.M)


def _sources(root):
    return sorted(p for p in root.rglob("*") if p.suffix in (".h", ".cc"))


def violations(module, harness_roots=()):
    """Every include of ``module`` that breaks the rule, as ``"file:line: why"`` strings."""
    headers = {p.name: p for p in _sources(module) if p.suffix == ".h"}
    harness = {p.name for r in harness_roots for p in _sources(r) if p.suffix == ".h"}
    found = []
    for path in _sources(module):
        rel = path.relative_to(module)
        parts = rel.parts
        layer = parts[1] if parts[0] == "model" and len(parts) > 2 else None
        text = path.read_text()
        for m in INCLUDE.finditer(text):
            name = m.group(1)
            where = f"{rel}:{text.count(chr(10), 0, m.start()) + 1}"
            if name in harness and name not in headers:
                found.append(f"{where}: includes harness header {name}")
                continue
            target = headers.get(name)
            if target is None or target == path.with_suffix(".h"):
                continue
            tparts = target.relative_to(module).parts
            if path.stem in FIRMWARE and name in HOST_LIBRARY:
                found.append(f"{where}: firmware includes host library {name}")
            elif path.stem in FABRIC and name in CONCRETE_PORTS:
                found.append(f"{where}: switch includes concrete port {name}")
            elif parts[0] == "model" and tparts[0] == "helper":
                found.append(f"{where}: model includes helper/{name}")
            elif layer is None or tparts[0] != "model":
                continue
            elif layer not in RANK:
                found.append(f"{where}: model/{layer}/ is not a known layer")
            else:
                tlayer = tparts[1]
                if tlayer != layer and RANK[tlayer] >= RANK[layer]:
                    found.append(f"{where}: layer {layer} includes {name} of layer {tlayer} "
                                 "(not below it)")
    return found


def test_every_model_folder_is_a_layer():
    folders = {p.name for p in (MODULE / "model").iterdir() if p.is_dir()}
    assert folders == set(RANK)
    assert not [p for p in (MODULE / "model").iterdir() if p.is_file()], \
        "every model file lives in a layer folder"


def test_module_includes_follow_the_layers():
    assert violations(MODULE, [ROOT / "harness", ROOT / "scenarios"]) == []


# Concrete device classes: what applications and MPI transports must not name (they take any
# NetDevice and ask it for what they need: attributes, trace sources).
CONCRETE_DEVICES = re.compile(r"\b(GigeNetDevice|GigeSwitchNetDevice|GmEthernetNetDevice|"
                              r"MyrinetNetDevice)\b")


def test_applications_never_name_a_concrete_device():
    named = [f"{p.relative_to(MODULE)}: {m.group(1)}"
             for layer in ("apps", "mpi") for p in _sources(MODULE / "model" / layer)
             for m in CONCRETE_DEVICES.finditer(p.read_text())]
    assert named == []


def _code(text):
    """``text`` without its comments (a comment may name the devices a port interface serves)."""
    return re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)


def test_switches_never_name_a_concrete_port():
    named = [f"{p.relative_to(MODULE)}: {m.group(1)}"
             for p in _sources(MODULE / "model") if p.stem in FABRIC
             for m in re.finditer(r"\b(GigeNetDevice|GmEthernetNetDevice|MyrinetNetDevice)\b",
                                  _code(p.read_text()))]
    assert named == []



def simulator_runs(module):
    """Every call of Simulator::Run in the module's model/ and helper/ code, as ``file:line``:
    in ns-3 the program runs the simulator; a model or a helper only schedules."""
    found = []
    for folder in ("model", "helper"):
        for path in _sources(module / folder):
            code = _code(path.read_text())
            for m in re.finditer(r"\bSimulator::Run\s*\(", code):
                found.append(f"{path.relative_to(module)}:{code.count(chr(10), 0, m.start()) + 1}")
    return found


def test_models_and_helpers_never_run_the_simulator():
    assert simulator_runs(MODULE) == []


def test_checker_finds_a_simulator_run(tmp_path):
    _tree(tmp_path, {"model/mpi/job.cc": "// Simulator::Run() in a comment\nvoid F()\n{\n"
                                         "    Simulator::Run();\n}\n",
                     "test/job-test.cc": "Simulator::Run();\n"})
    assert simulator_runs(tmp_path) == ["model/mpi/job.cc:4"]

# The layer of the technology each helper builds.
HELPER_LAYER = {"host-helper": "host", "gige-helper": "ethernet", "gige-switch-helper": "ethernet",
                "ethernet-cluster": "ethernet", "myrinet-helper": "myrinet",
                "myrinet-topology": "myrinet", "myrinet-clos-topology": "myrinet", "gm-helper": "gm",
                "fm-helper": "fm", "mpi-helper": "mpi", "netpipe-helper": "apps"}
CAST = re.compile(r"\b(?:DynamicCast|StaticCast|dynamic_cast|static_cast)\s*<\s*(?:const\s+)?(\w+)")


def concrete_devices(module):
    """The net devices the model defines that no other class derives from, each with its layer
    (the model folder of its header)."""
    bases = {}
    layer = {}
    for path in _sources(module / "model"):
        if path.suffix != ".h":
            continue
        for name, base in re.findall(r"^class (\w+)\s*:\s*public\s+(\w+)", path.read_text(), re.M):
            bases[name] = base
            layer[name] = path.parent.name

    def is_device(name):
        while name in bases:
            name = bases[name]
            if name == "NetDevice":
                return True
        return False

    derived = set(bases.values())
    return {name: layer[name] for name in bases if is_device(name) and name not in derived}


def helper_casts(module):
    """Every cast in helper/ to a concrete device of a layer other than the helper's, as
    ``file:line: Class (layer)``; a helper missing from HELPER_LAYER is reported too."""
    devices = concrete_devices(module)
    found = []
    for path in _sources(module / "helper"):
        own = HELPER_LAYER.get(path.stem)
        if own is None:
            found.append(f"{path.relative_to(module)}: not in HELPER_LAYER (say its layer)")
            continue
        code = _code(path.read_text())
        for m in CAST.finditer(code):
            cls = m.group(1)
            if cls in devices and devices[cls] != own:
                line = code.count(chr(10), 0, m.start()) + 1
                found.append(f"{path.relative_to(module)}:{line}: {cls} ({devices[cls]})")
    return found


def test_concrete_devices_are_found():
    assert concrete_devices(MODULE) == {"GigeNetDevice": "ethernet",
                                        "GigeSwitchNetDevice": "ethernet",
                                        "MyrinetNetDevice": "myrinet",
                                        "GmEthernetNetDevice": "gm"}


def test_helpers_never_cast_to_a_device_of_another_layer():
    assert helper_casts(MODULE) == []


def test_checker_finds_a_helper_cast(tmp_path):
    _tree(tmp_path, {
        "model/ethernet/gige-net-device.h": "class GigeNetDevice : public NetDevice\n{\n};\n",
        "model/myrinet/myrinet-net-device.h": "class MyrinetNetDevice : public MyrinetPort\n{\n};\n",
        "model/myrinet/myrinet-port.h": "class MyrinetPort : public NetDevice\n{\n};\n",
        "helper/mpi-helper.cc": "// DynamicCast<GigeNetDevice>(d) in a comment\n"
                                "auto d = DynamicCast<GigeNetDevice>(x);\n",
        "helper/myrinet-helper.cc": "auto p = DynamicCast<MyrinetNetDevice>(x);\n"
                                    "auto q = DynamicCast<MyrinetPort>(x);\n",
        "helper/new-helper.cc": "",
    })
    assert helper_casts(tmp_path) == ["helper/mpi-helper.cc:2: GigeNetDevice (ethernet)",
                                      "helper/new-helper.cc: not in HELPER_LAYER (say its layer)"]


def misplaced_tests(module):
    """Every TestSuite file of the module not split by layer, as ``file: why``."""
    defined = {}
    for path in _sources(module / "model"):
        if path.suffix == ".h":
            for name in re.findall(r"^(?:class|struct) (\w+)\b(?!;)", path.read_text(), re.M):
                defined.setdefault(path.parent.name, set()).add(name)
    found = []
    for path in sorted((module / "test").glob("*.cc")):
        stem = path.name.removesuffix("-test-suite.cc")
        folder = stem.split("-")[0]
        code = _code(path.read_text())
        if not path.name.endswith("-test-suite.cc") or folder not in RANK:
            found.append(f"{path.name}: not <model folder>[-topic]-test-suite.cc")
            continue
        if f'TestSuite("clusternet-{stem}"' not in code:
            found.append(f"{path.name}: does not register TestSuite(\"clusternet-{stem}\")")
        if not any(re.search(rf"\b{name}\b", code) for name in defined.get(folder, ())):
            found.append(f"{path.name}: names no class of model/{folder}/")
    return found


def test_test_suites_are_split_by_layer():
    assert misplaced_tests(MODULE) == []


def test_checker_finds_misplaced_tests(tmp_path):
    _tree(tmp_path, {
        "model/host/pci-bus.h": "class PciBus : public Object\n{\n};\nclass HostCpu;\n",
        "model/fm/fm-smt.h": "class FmSmt : public Object\n{\n};\n",
        "test/host-test-suite.cc": 'PciBus b; TestSuite("clusternet-host", Type::UNIT)\n',
        "test/host-cpu-test-suite.cc": '// PciBus\nHostCpu c; TestSuite("clusternet-host-cpu")\n',
        "test/clusternet-test-suite.cc": 'TestSuite("clusternet")\n',
        "test/fm-test-suite.cc": 'FmSmt s; TestSuite("clusternet-fm-smt")\n',
    })
    assert misplaced_tests(tmp_path) == [
        "clusternet-test-suite.cc: not <model folder>[-topic]-test-suite.cc",
        'fm-test-suite.cc: does not register TestSuite("clusternet-fm")',
        "host-cpu-test-suite.cc: names no class of model/host/",
    ]


def set_registrations(root):
    """Every registration of an overrides option (--set, --baseline-set) in the programs and the
    harness other than ScenarioArgs::AddOverrides itself, as ``file:line``."""
    found = []
    for folder in ("scenarios", "harness"):
        for path in _sources(root / folder):
            if path.name == "scenario-args.cc":
                continue
            code = _code(path.read_text())
            for m in re.finditer(r'\b[Aa]dd\w*\(\s*"(?:[\w-]*-)?set"', code):
                found.append(f"{path.relative_to(root)}:{code.count(chr(10), 0, m.start()) + 1}")
    return found


def test_programs_never_register_set_themselves():
    assert set_registrations(ROOT) == []


def test_checker_finds_a_set_registration(tmp_path):
    _tree(tmp_path, {"scenarios/a.cc": '// args.Add("set", ...) in a comment\n'
                                       'int main()\n{\n    args.Add("set", "overrides", "");\n}\n',
                     "harness/b.cc": 'void F()\n{\n    add(\n        "baseline-set", "x", "");\n'
                                     '    args.AddOverrides(kTargets, "a.B=1");\n}\n',
                     "harness/scenario-args.cc": '    Add(name, "x", "");\n    Add("set", "", "");\n'})
    assert set_registrations(tmp_path) == ["scenarios/a.cc:4", "harness/b.cc:3"]


def _tree(tmp_path, files):
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


@pytest.mark.parametrize("files,expected", [
    # host includes ethernet: upward
    ({"model/host/host-cpu.cc": '#include "ns3/gige-net-device.h"\n',
      "model/ethernet/gige-net-device.h": ""},
     "model/host/host-cpu.cc:1: layer host includes gige-net-device.h of layer ethernet (not below it)"),
    # siblings: myrinet includes ethernet
    ({"model/myrinet/lanai-nic.cc": '// x\n#include "gige-net-device.h"\n',
      "model/ethernet/gige-net-device.h": ""},
     "model/myrinet/lanai-nic.cc:2: layer myrinet includes gige-net-device.h of layer ethernet (not below it)"),
    # model includes a helper
    ({"model/mpi/mpi-rank.cc": '#include "ns3/mpi-helper.h"\n', "helper/mpi-helper.h": ""},
     "model/mpi/mpi-rank.cc:1: model includes helper/mpi-helper.h"),
    # firmware calls the host library
    ({"model/gm/gm-mcp.cc": '#include "gm-port.h"\n', "model/gm/gm-port.h": ""},
     "model/gm/gm-mcp.cc:1: firmware includes host library gm-port.h"),
    # a switch reaches a concrete port
    ({"model/myrinet/myrinet-switch.cc": '#include "myrinet-net-device.h"\n',
      "model/myrinet/myrinet-net-device.h": ""},
     "model/myrinet/myrinet-switch.cc:1: switch includes concrete port myrinet-net-device.h"),
    # the module includes the harness
    ({"helper/gige-helper.cc": '#include "ns3/scenario-args.h"\n'},
     "helper/gige-helper.cc:1: includes harness header scenario-args.h"),
])
def test_checker_finds_a_bad_include(tmp_path, files, expected):
    module = _tree(tmp_path / "module", files)
    harness = _tree(tmp_path / "harness", {"scenario-args.h": ""})
    assert violations(module, [harness]) == [expected]


def test_checker_accepts_downward_includes(tmp_path):
    module = _tree(tmp_path / "module", {
        "model/apps/netpipe-application.cc": '#include "ns3/mpi-rank.h"\n#include "ns3/log.h"\n',
        "model/mpi/mpi-rank.h": '#include "ns3/gm-port.h"\n',
        "model/gm/gm-port.h": '#include "ns3/lanai-nic.h"\n',
        "model/myrinet/lanai-nic.h": '#include "ns3/pci-bus.h"\n',
        "model/host/pci-bus.h": '#include "ns3/profile-catalogue.h"\n',
        "model/profile/profile-catalogue.h": "",
        "helper/gm-helper.cc": '#include "ns3/netpipe-application.h"\n',
    })
    assert violations(module, []) == []
