# SPDX-License-Identifier: GPL-2.0-only
"""Loading ns-3's cppyy bindings and the clusternet library into this Python process."""

import contextlib
import os
import sys
import tempfile
from pathlib import Path

BUILD_ENV = "CLUSTERNET_BUILD"
# The module's headers (published under build/include/ns3) and the harness's (harness/).
HEADERS = ("ns3/profile-catalogue.h", "netpipe-experiment.h", "netpipe-scenario.h")
HARNESS = Path(__file__).resolve().parent.parent / "harness"
# A message the wheel's own bindings print on import; harmless, and not ours to fix.
_KNOWN_NOISE = "runStaticInitializersOnce"

_module = None


class NotBuiltError(RuntimeError):
    """The clusternet library has not been built yet (run ``./ns3 build``)."""


def build_dir():
    """Return the build directory: ``$CLUSTERNET_BUILD`` if set, else ``<repo>/build``."""
    env = os.environ.get(BUILD_ENV, "").strip()
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent / "build"


def _libraries(build):
    """The module's library and the harness's, built under ``build``."""
    module = sorted((build / "lib").glob("libns3*-clusternet.so"))
    harness = build / "lib" / "libclusternet-harness.so"
    if not module or not harness.exists() or not (build / "include" / "ns3").is_dir():
        raise NotBuiltError(
            f"clusternet: no built libraries under {build} (lib/libns3*-clusternet.so, "
            "lib/libclusternet-harness.so and include/ns3/); run ./ns3 build, or set "
            "CLUSTERNET_BUILD to the build directory"
        )
    return [module[-1], harness]


@contextlib.contextmanager
def _filtered_stderr():
    """Hold back what C++ code writes to stderr; pass on all but the wheel's known noise."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile(mode="w+b") as tmp:
        os.dup2(tmp.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            tmp.seek(0)
            for line in tmp.read().decode(errors="replace").splitlines():
                if _KNOWN_NOISE not in line:
                    print(line, file=sys.stderr)


def load():
    """Load ns-3's bindings and the clusternet library once; return ``ns3::clusternet``."""
    global _module
    if _module is not None:
        return _module
    build = build_dir()
    libs = _libraries(build)
    with _filtered_stderr():
        from ns import ns  # noqa: F401  (loads the ns-3 libraries and cppyy)
        import cppyy

        cppyy.add_include_path(str(build / "include"))
        cppyy.add_include_path(str(HARNESS))
        for lib in libs:
            cppyy.load_library(str(lib))
        for header in HEADERS:
            cppyy.include(header)
    _module = cppyy.gbl.ns3.clusternet
    return _module
