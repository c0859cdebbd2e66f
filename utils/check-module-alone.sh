#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# contrib/clusternet on its own: copy the module, and nothing else of the repository, into an
# empty folder, build it in ns-3's build_lib form against the pinned ns-3 wheel (cmake/ns3-wheel.cmake
# stands in for ns-3-dev's build system), and run every TestSuite it registers. Fails if the
# module needs the harness, the scenarios or any other file outside contrib/clusternet.
#
#   utils/check-module-alone.sh            (after ./ns3 configure: uses .venv's ns-3 wheel)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
py="$root/.venv/bin/python"
[ -x "$py" ] || { echo "check-module-alone: run ./ns3 configure first (no .venv)" >&2; exit 2; }
wheel=$("$py" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")/ns3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src/contrib" "$work/src/build-support"
cp -r "$root/contrib/clusternet" "$work/src/contrib/clusternet"
cp "$root/cmake/ns3-wheel.cmake" "$work/src/build-support/"
cp "$root/utils/test-runner.cc" "$work/src/build-support/"
cat > "$work/src/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(clusternet-alone LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_BUILD_TYPE Release)
include(build-support/ns3-wheel.cmake)
add_subdirectory(contrib/clusternet)
get_property(test_libs GLOBAL PROPERTY NS3_TEST_LIBRARIES)
add_executable(test-runner build-support/test-runner.cc)
target_link_libraries(test-runner PRIVATE ${test_libs} ns3::core)
CMAKE
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
echo "check-module-alone: building contrib/clusternet alone in $work"
cmake -S "$work/src" -B "$work/build" "${gen[@]}" -DNS3_WHEEL_DIR="$wheel" >/dev/null
cmake --build "$work/build" -j "$(nproc)" >/dev/null
runner="$work/build/test-runner"
suites=$("$runner" --list)
[ -n "$suites" ] || { echo "check-module-alone: the module registers no TestSuite" >&2; exit 1; }
failed=0
passed=0
for s in $suites; do
  if (cd "$work" && "$runner" --suite="$s"); then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "module alone: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
