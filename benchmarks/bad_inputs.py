"""Time and memory of every crafted bad input's answer (issue 8: each in under a second
and 200 MB).

Each case of tests/data/bad (README.md there) runs in a fresh subprocess: a file case
loads its file the way tests/test_bad_inputs.py does, a command case runs its command
line. Reported per case: wall time of the whole subprocess (interpreter start and
imports included), the time of the load alone for file cases, peak RSS of that
subprocess (os.wait4's rusage, so each case is measured alone), and whether the answer
matched. Cases over 1 s or 200 MB are flagged.

    .venv/bin/python benchmarks/bad_inputs.py [--only SUBSTRING]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import test_bad_inputs as walk  # noqa: E402 - after the path is set

WALL_LIMIT_S = 1.0
RSS_LIMIT_MB = 200.0

# the child for a file case: prepare and load it as the test does, print what happened
CHILD = r"""
import json, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[3])
import test_bad_inputs as walk
case = walk.FileCase(**json.loads(sys.argv[1]))
path, root = walk.prepare(case, Path(sys.argv[2]))
t = time.perf_counter()
try:
    walk.load(case, path, root)
    err = None
except BaseException as e:
    err = e
load_s = time.perf_counter() - t
print(json.dumps({"load_s": load_s, "type": type(err).__name__ if err else None,
                  "message": str(err) if err else ""}))
"""


def run_measured(argv: list[str], cwd: Path, stdin: str = "", timeout: float = 120.0
                 ) -> tuple[int, str, str, float, float]:
    """Exit code, stdout, stderr, wall seconds and peak RSS (MB) of one subprocess."""
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=walk.command_env())
    out: dict[str, bytes] = {}

    def drain(name: str, stream: Any) -> None:
        out[name] = stream.read()

    readers = [threading.Thread(target=drain, args=(n, s))
               for n, s in (("out", p.stdout), ("err", p.stderr))]
    for r in readers:
        r.start()
    killer = threading.Timer(timeout, p.kill)
    killer.start()
    try:
        assert p.stdin is not None
        p.stdin.write(stdin.encode())
        p.stdin.close()
    except BrokenPipeError:
        pass
    for r in readers:
        r.join()
    _, status, usage = os.wait4(p.pid, 0)  # this child's own rusage, not all children's
    wall = time.perf_counter() - t0
    killer.cancel()
    p.returncode = os.waitstatus_to_exitcode(status)
    rss_mb = usage.ru_maxrss / 1024  # KiB on Linux
    return (p.returncode, out["out"].decode(errors="replace"),
            out["err"].decode(errors="replace"), wall, rss_mb)


def file_rows(only: str) -> list[dict[str, Any]]:
    rows = []
    for folder in walk.FILE_FOLDERS:
        if not (walk.BAD / folder).is_dir() or walk.read_answers(folder) is None:
            continue
        for case in walk.file_cases(folder):
            if only not in case.id:
                continue
            with tempfile.TemporaryDirectory() as tmp:
                arg = json.dumps({"folder": case.folder, "name": case.name,
                                  "answer": case.answer, "generated": case.generated})
                code, out, err, wall, rss = run_measured(
                    [sys.executable, "-c", CHILD, arg, tmp, str(ROOT / "tests")], Path(tmp))
            try:
                got = json.loads(out.strip().splitlines()[-1])
            except (ValueError, IndexError):
                got = {"load_s": None, "type": f"crash (exit {code})",
                       "message": (err.strip().splitlines() or [""])[-1]}
            msg = got["message"]
            ok = got["type"] is not None and "\n" not in msg and case.answer in msg
            rows.append({"case": case.id, "wall_s": wall, "load_s": got["load_s"],
                         "rss_mb": rss, "ok": ok, "got": f"{got['type']}: {msg}"})
    return rows


def command_rows(only: str) -> list[dict[str, Any]]:
    rows = []
    for case in walk.command_cases():
        what = "cmd: " + " ".join(map(str, case["args"])).replace(str(walk.BAD), "{bad}")
        if only not in what:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            code, _, err, wall, rss = run_measured(walk.command_argv(case), Path(tmp),
                                                   case.get("stdin", ""))
        lines = err.strip("\n").split("\n")
        ok = (code != 0 if "exit" not in case else code == case["exit"]) and len(lines) == 1 \
            and str(case["answer"]) in lines[0] and "Traceback" not in err
        rows.append({"case": what, "wall_s": wall, "load_s": None, "rss_mb": rss, "ok": ok,
                     "got": f"exit {code}: {lines[-1]}"})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="only the cases whose name contains this")
    args = ap.parse_args()
    rows = file_rows(args.only) + command_rows(args.only)
    width = max((len(r["case"]) for r in rows), default=10)
    print(f"{'case':<{width}}  {'wall s':>6}  {'load s':>6}  {'peak MB':>7}  answer")
    flagged = wrong = 0
    for r in rows:
        over = r["wall_s"] > WALL_LIMIT_S or r["rss_mb"] > RSS_LIMIT_MB
        flagged += over
        wrong += not r["ok"]
        load = f"{r['load_s']:6.3f}" if r["load_s"] is not None else "     -"
        mark = ("OVER " if over else "") + ("ok" if r["ok"] else "WRONG: " + r["got"][:100])
        print(f"{r['case']:<{width}}  {r['wall_s']:6.2f}  {load}  {r['rss_mb']:7.0f}  {mark}")
    if rows:
        print(f"\n{len(rows)} cases; slowest {max(r['wall_s'] for r in rows):.2f} s, "
              f"largest {max(r['rss_mb'] for r in rows):.0f} MB; {flagged} over "
              f"{WALL_LIMIT_S:g} s or {RSS_LIMIT_MB:g} MB; {wrong} without their answer")


if __name__ == "__main__":
    main()
