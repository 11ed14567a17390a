#!/usr/bin/env python3
"""End-to-end test runner: cram-style transcripts run against a cairn binary.

Each case is a directory tests/e2e/cases/NAME/ holding fixture files and a
transcript `test.t`.  The runner copies the directory to a fresh scratch
directory, then runs the transcript's commands there one by one with
`sh -c`, stdout and stderr merged, and compares what they print.

Transcript format (as in cram):
    Lines starting with "  $ " are commands ("  > " continues one).
    The indented lines after a command are its expected output.
    "  [N]" after the output is the expected non-zero exit status.
    An expected line ending in " (re)" is a Python regular expression
    matched against the whole actual line; " (glob)" allows * and ?.
    Any other line (not indented by two spaces) is commentary.

The binary under test is first on PATH as `cairn`; CAIRN_BIN holds its
path, CAIRN_FLAVOUR its flavour (rel, san or tst), TESTDIR the case's
source directory, E2E_LIB the directory of helper scripts shared by
several cases (tests/e2e/lib).  HOME is the scratch directory, TZ=UTC, NO_COLOR=1.
CAIRN_TESTPEER_NULL (the real provider plugins, scripts/testpeers) is passed
on from the runner's environment when set.

A case may hold a file `flavours` naming, on one line separated by
spaces, the flavours it runs on (e.g. "san tst" for cases that need the
misbehaving test provider compiled only into test builds); under any
other flavour the case is not run and is reported as "n/a", which is
neither a pass nor a failure.  The file is not copied to the scratch
directory.

Usage: run.py [-j N] [--times[=N]] BINARY FLAVOUR [CASE...]
(prints one line per case, in the order of the names, and ends with
"e2e[FLAVOUR]: N passed, N failed"; exit 1 when any failed).
  -j N        runs N cases at once, each in its own worker process (default
              1; E2E_JOBS sets the default).  The output is the same as
              with -j 1: lines come in name order whatever finishes first.
  --times[=N] after the cases, the N slowest (default: all) with their
              wall time and the CPU time (user + system) of the processes
              they ran, slowest first: "time: e2e[FLAVOUR] CASE 12.3 s wall,
              4.5 s cpu".  Cases are independent: each has its own scratch
              directory and HOME, servers listen on port 0 (or on a free
              port they probe), caches live in the scratch directory.
With CRAM_UPDATE=1 it rewrites failing transcripts with the actual output,
for authoring; review the diff before committing.
"""
import concurrent.futures
import difflib
import fnmatch
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "cases")
LIB = os.path.join(HERE, "lib")
TIMEOUT = int(os.environ.get("CRAM_TIMEOUT", "120"))


def parse(path):
    """Returns a list of (prelude_lines, command, expected_lines, status)."""
    items = []
    pre = []
    cur = None
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for line in lines:
        if line.startswith("  $ "):
            if cur:
                items.append(cur)
            cur = {"pre": pre, "cmd": line[4:], "out": [], "status": 0}
            pre = []
        elif line.startswith("  > ") and cur and not cur["out"]:
            cur["cmd"] += "\n" + line[4:]
        elif line.startswith("  ") and cur:
            m = re.fullmatch(r"  \[(\d+)\]", line)
            if m:
                cur["status"] = int(m.group(1))
            else:
                cur["out"].append(line[2:])
        else:
            if cur:
                items.append(cur)
                cur = None
            pre.append(line)
    if cur:
        items.append(cur)
    return items, pre


def line_matches(exp, act):
    if exp == act:
        return True
    if exp.endswith(" (re)"):
        try:
            return re.fullmatch(exp[:-5], act) is not None
        except re.error:
            return False
    if exp.endswith(" (glob)"):
        return fnmatch.fnmatchcase(act, exp[:-7])
    return False


def outputs_match(expected, actual):
    if len(expected) != len(actual):
        return False
    return all(line_matches(e, a) for e, a in zip(expected, actual))


def keep_patterns(expected, actual):
    """The actual lines as CRAM_UPDATE writes them, except that where an
    expected (re) or (glob) line matches an actual line (in order), the
    pattern is kept instead of the text it matched this time."""
    res = list(actual)
    j = 0
    for i, a in enumerate(actual):
        for k in range(j, len(expected)):
            if line_matches(expected[k], a):
                res[i] = expected[k]
                j = k + 1
                break
    return res


def case_flavours(src):
    """The flavours a case runs on, or None for all of them."""
    path = os.path.join(src, "flavours")
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as f:
        return f.read().split()


def run_command(cmd, wdir, env):
    """Runs one transcript command; returns (output, exit status).

    The command runs in a session of its own so that on a timeout the
    whole process group goes (a background server holding the output pipe
    open would otherwise keep communicate() waiting for ever).  Processes
    a command leaves running on purpose (servers a later command uses)
    stay: the case's own scripts stop them."""
    p = subprocess.Popen(["sh", "-c", cmd], cwd=wdir, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=TIMEOUT)
        return out.decode("utf-8", "replace"), p.returncode
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
        try:
            p.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            # A process that left the group still holds the pipe.
            p.stdout.close()
            p.wait()
        return "*** timed out after %ds ***\n" % TIMEOUT, -1


def run_case(name, binary, flavour):
    """Runs one case; returns (ok, report) where report is the unified diff
    of a failing transcript ("" when it passed)."""
    src = os.path.join(CASES, name)
    tpath = os.path.join(src, "test.t")
    items, tail = parse(tpath)
    work = tempfile.mkdtemp(prefix="cairn-e2e-")
    try:
        wdir = os.path.join(work, "w")
        shutil.copytree(src, wdir, ignore=shutil.ignore_patterns("test.t",
                                                             "flavours"))
        bindir = os.path.join(work, "bin")
        os.mkdir(bindir)
        os.symlink(os.path.abspath(binary), os.path.join(bindir, "cairn"))
        env = {
            "PATH": bindir + ":/usr/local/bin:/usr/bin:/bin",
            "HOME": wdir,
            "TZ": "UTC",
            "LANG": "C.UTF-8",
            "NO_COLOR": "1",
            "CAIRN_BIN": os.path.abspath(binary),
            "CAIRN_FLAVOUR": flavour,
            "TESTDIR": src,
            "E2E_LIB": LIB,
            "ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0",
            "UBSAN_OPTIONS": "print_stacktrace=1",
        }
        if os.environ.get("CAIRN_TESTPEER_NULL"):
            env["CAIRN_TESTPEER_NULL"] = os.environ["CAIRN_TESTPEER_NULL"]
        ok = True
        out_lines = []
        for it in items:
            out_lines.extend(it["pre"])
            actual, status = run_command(it["cmd"], wdir, env)
            alines = actual.split("\n")
            if alines and alines[-1] == "":
                alines.pop()
            cmdlines = it["cmd"].split("\n")
            out_lines.append("  $ " + cmdlines[0])
            out_lines.extend("  > " + c for c in cmdlines[1:])
            if outputs_match(it["out"], alines) and status == it["status"]:
                out_lines.extend("  " + l for l in it["out"])
            else:
                ok = False
                out_lines.extend("  " + l
                                 for l in keep_patterns(it["out"], alines))
            if status != 0:
                out_lines.append("  [%d]" % status)
        out_lines.extend(tail)
        report = ""
        if not ok:
            with open(tpath, encoding="utf-8") as f:
                old = f.read().split("\n")
            if old and old[-1] == "":
                old.pop()
            diff = difflib.unified_diff(old, out_lines, "expected", "actual",
                                        lineterm="")
            report = "\n".join(diff) + "\n"
            if os.environ.get("CRAM_UPDATE") == "1":
                with open(tpath, "w", encoding="utf-8") as f:
                    f.write("\n".join(out_lines) + "\n")
        return ok, report
    finally:
        shutil.rmtree(work, ignore_errors=True)


def cpu_of_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed_case(name, binary, flavour):
    """run_case with its wall time and the CPU time of the processes it ran
    (this process runs one case at a time, so the growth of its children's
    CPU time is the case's).  Returns (ok, report, wall, cpu)."""
    t0, c0 = time.monotonic(), cpu_of_children()
    ok, report = run_case(name, binary, flavour)
    return ok, report, time.monotonic() - t0, cpu_of_children() - c0


def usage():
    sys.stderr.write("usage: run.py [-j N] [--times[=N]] BINARY FLAVOUR "
                     "[CASE...]\n")
    return 2


def main():
    args = sys.argv[1:]
    jobs = os.environ.get("E2E_JOBS", "1")
    times = None
    while args and args[0].startswith("-"):
        a = args.pop(0)
        if a == "-j" and args:
            jobs = args.pop(0)
        elif a.startswith("-j") and len(a) > 2:
            jobs = a[2:]
        elif a == "--times":
            times = 0
        elif a.startswith("--times="):
            try:
                times = int(a[8:])
            except ValueError:
                return usage()
        else:
            return usage()
    try:
        jobs = int(jobs)
    except ValueError:
        return usage()
    if len(args) < 2 or jobs < 1:
        return usage()
    binary, flavour = args[0], args[1]
    names = args[2:] or sorted(
        d for d in os.listdir(CASES)
        if os.path.isfile(os.path.join(CASES, d, "test.t")))
    for n in names:
        if not os.path.isfile(os.path.join(CASES, n, "test.t")):
            sys.stderr.write("run.py: no case %s (%s/test.t)\n" % (
                n, os.path.join(CASES, n)))
            return 2
    run = []
    for n in names:
        fl = case_flavours(os.path.join(CASES, n))
        if fl is None or flavour in fl:
            run.append(n)
    pool = None
    if jobs > 1 and len(run) > 1:
        pool = concurrent.futures.ProcessPoolExecutor(max_workers=jobs)
        futs = {n: pool.submit(timed_case, n, binary, flavour) for n in run}
    passed = failed = na = 0
    durations = []
    try:
        for n in names:
            if n not in run:
                na += 1
                print("n/a  %s [%s] (runs on %s)" % (
                    n, flavour, " ".join(case_flavours(os.path.join(CASES, n)))))
                continue
            if pool:
                ok, report, wall, cpu = futs[n].result()
            else:
                ok, report, wall, cpu = timed_case(n, binary, flavour)
            durations.append((wall, cpu, n))
            sys.stdout.write(report)
            if ok:
                passed += 1
                print("ok   %s [%s]" % (n, flavour))
            else:
                failed += 1
                print("FAIL %s [%s]" % (n, flavour))
            sys.stdout.flush()
    finally:
        if pool:
            pool.shutdown(cancel_futures=True)
    if times is not None:
        durations.sort(reverse=True)
        for wall, cpu, n in durations[:times or None]:
            print("time: e2e[%s] %s %.1f s wall, %.1f s cpu" % (
                flavour, n, wall, cpu))
    print("e2e[%s]: %d passed, %d failed%s" % (
        flavour, passed, failed,
        ", %d not for this flavour" % na if na else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
