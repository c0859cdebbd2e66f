# SPDX-License-Identifier: GPL-2.0-only
"""The refusal contract the batteries check, in one place: a program given bad input exits with
status 2 and exactly one line on stderr, with no abort or traceback."""

import os
import signal
import subprocess

CRASH_MARKS = ("Traceback", "terminate called", "NS_FATAL", "aborted", "NS_ASSERT",
               "Segmentation", "core dumped", "Assertion")


def run_refused(cmd, *, cwd=None, env=None, timeout=60):
    """Run ``cmd`` in a session of its own (on timeout its whole process group is killed).

    Return ``(problem, stdout, line)``: ``problem`` is "" when the program exited with status 2
    and printed exactly one non-empty line on stderr (``line``) and no crash mark; else it says
    what broke the contract."""
    proc = subprocess.Popen([str(c) for c in cmd], cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return f"still running after {timeout} s (the input was accepted)", "", ""
    lines = [line for line in stderr.splitlines() if line.strip()]
    if proc.returncode != 2:
        return f"exit status {proc.returncode}, not 2: {stderr.strip()[-300:]!r}", stdout, ""
    if len(lines) != 1:
        return f"{len(lines)} lines on stderr, not 1: {stderr.strip()[-300:]!r}", stdout, ""
    if any(mark in stderr for mark in CRASH_MARKS):
        return f"crashed: {lines[0]!r}", stdout, lines[0]
    return "", stdout, lines[0]
