#!/usr/bin/env python3
"""8 cairn apply processes on one state at once, round after round.

Usage: conc.py wait|nowait ROUNDS
Each round copies main.tf and seed.tfstate (serial 1, members []) into a
fresh directory and starts 8 applies there at the same instant (each
waits on a pipe that the script closes once all 8 are running), process i
with -var me=pI.

wait:   -lock-timeout=60s; every apply must succeed.  The final state must
        list exactly the 8 members, as output and as terraform_data.m
        instances, with serial 9: one content change (serial + 1) per
        apply, none lost, none applied on a stale read.
nowait: no -lock-timeout; each apply either succeeds or fails cleanly,
        exit 1 with "Error acquiring the state lock" and nothing else.
        The state must parse and hold exactly the winners' members, with
        serial 1 + the number of winners.

Both check that no lock info, journal or temp file is left over.  Prints
one line per failed check and "ok" when every round passed.  No sleeps:
processes are released by closing a pipe, and the script waits on them.
"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
N = 8


def state_members(d):
    with open(os.path.join(d, "terraform.tfstate")) as f:
        st = json.load(f)
    out = st["outputs"]["members"]["value"]
    inst = []
    for r in st["resources"]:
        if r["mode"] == "managed" and r["type"] == "terraform_data":
            inst += [i["index_key"] for i in r["instances"]]
    return st["version"], st["serial"], sorted(out), sorted(inst)


def one_round(mode, base, k):
    d = os.path.join(base, "r%d" % k)
    os.mkdir(d)
    shutil.copy(os.path.join(HERE, "main.tf"), d)
    shutil.copy(os.path.join(HERE, "seed.tfstate"),
                os.path.join(d, "terraform.tfstate"))
    rfd, wfd = os.pipe()
    procs = []
    for i in range(N):
        args = ["cairn", "apply", "-auto-approve", "-input=false",
                "-no-color", "-var", "me=p%d" % i]
        if mode == "wait":
            args.append("-lock-timeout=60s")
        # The child blocks reading the pipe until every child exists.
        cmd = 'read x <&%d; exec "$@"' % rfd
        procs.append(subprocess.Popen(
            ["sh", "-c", cmd, "sh"] + args, cwd=d, pass_fds=(rfd,),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT))
    os.close(rfd)
    os.close(wfd)
    errs = []
    winners = []
    for i, p in enumerate(procs):
        out = p.communicate()[0].decode("utf-8", "replace")
        if p.returncode == 0 and "Apply complete!" in out:
            winners.append("p%d" % i)
        elif (mode == "nowait" and p.returncode == 1 and
              "Error acquiring the state lock" in out and
              "Apply complete" not in out):
            pass
        else:
            errs.append("round %d: p%d exit %d:\n%s" %
                        (k, i, p.returncode, out[-1500:]))
    try:
        ver, serial, out, inst = state_members(d)
    except (OSError, ValueError, KeyError) as e:
        errs.append("round %d: state unreadable: %s" % (k, e))
        return errs
    want = sorted(winners)
    if mode == "wait" and len(winners) != N:
        errs.append("round %d: %d of %d applies succeeded" %
                    (k, len(winners), N))
    if ver != 4 or out != want or inst != want or \
            serial != 1 + len(winners):
        errs.append("round %d: lost update: winners %s, state members %s, "
                    "instances %s, serial %d" % (k, want, out, inst, serial))
    left = [f for f in os.listdir(d)
            if f.endswith((".lock.info", ".journal")) or ".tmp." in f]
    if left:
        errs.append("round %d: left behind: %s" % (k, left))
    if not errs:
        shutil.rmtree(d)
    return errs


def main():
    mode, rounds = sys.argv[1], int(sys.argv[2])
    base = os.path.abspath("rounds")
    os.mkdir(base)
    errs = []
    for k in range(rounds):
        errs += one_round(mode, base, k)
        if len(errs) > 5:
            break
    for e in errs:
        print(e)
    print("ok" if not errs else "FAILED")
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
