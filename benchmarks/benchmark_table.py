"""docs/benchmark.md, generated: every agent in the benchmark seats of a family and ruleset,
with intervals (issue 25, item 6), in the spirit of RL Baselines3 Zoo's benchmark table.

Two steps, so that slow agents can be run apart and the page written from what is kept:

    # play: each agent in each seat of the family's suite (built-in and held-out maps and
    # the mirror, wasteland/bestiary/seats/; in a mirror the agent plays side 0 on even
    # seeds and side 1 on odd ones against the packet on the same creatures), the packet in
    # the same seats on the same seeds; results are
    # merged into the JSON file seat by seat, as each is played (an agent run again in a
    # seat replaces that row; --seats a,b plays only those seats), and saved every 50
    # fights: the same command run again after a stop resumes the seat where it was
    .venv/bin/python benchmarks/benchmark_table.py run super_mutants f2d20 \\
        --agents 'random,scripted,packet,easy,policy:/tmp/pol/x.json#ppo_warm_s0' -n 1000 \\
        --results docs/benchmark-runs/super_mutants_f2d20.json
    # or take a policy's rows from its acceptance sweep (benchmarks/policy_seats.py's
    # output, the same seats and seeds 0..N-1), with the packet's rows of that sweep
    .venv/bin/python benchmarks/benchmark_table.py import \\
        docs/training-runs/sweeps/robot_pnp_v1.txt --policy wasteland/policies/robot_pnp.json \\
        --label ppo_warm_seats_shipped --results docs/benchmark-runs/robots_pnp.json
    # rows of fewer fights than the packet's row (slow agents: 200) are compared with the
    # packet on the same seeds: play it under a label with the same -n
    .venv/bin/python benchmarks/benchmark_table.py run robots pnp \\
        --agents 'packet#packet_200,deadly' -n 200 --results docs/benchmark-runs/robots_pnp.json
    # or take a search agent's rows from benchmarks/search.py --json (its packet must have
    # won what the packet_200 row won: the same fights)
    .venv/bin/python benchmarks/benchmark_table.py import-search \\
        docs/search-runs/f2d20_deadly_guided_robots_substation_200.json robots f2d20 \\
        --label deadly --results docs/benchmark-runs/robots_f2d20.json
    # write the page from every results file
    .venv/bin/python benchmarks/benchmark_table.py write docs/benchmark-runs/*.json \\
        --out docs/benchmark.md

An agent is any name `wasteland fight --agents` takes (random, scripted, packet, easy,
normal, hard, deadly, search:..., policy:PATH); the list is split as `fight` splits it, so
a search budget keeps its commas (``search:rollouts=8,candidates=3,packet`` is two agents).
``AGENT#LABEL`` names an agent's row (``=`` belongs to search budgets; results files made
with the old ``AGENT=LABEL`` stay readable, they hold the label and the agent apart). A
label is an id (letters, digits, ``_``, ``-``): it is printed into the page. Without one,
the row is named by the agent with every other character made ``_``
(``search:rollouts=8`` -> ``search_rollouts_8``). A learned policy's row shows the training
steps and wall time its manifest records.

Results and sweep files are checked whole before anything is played or written
(results_schema.py); a bad one is one line naming the file, the field and what is accepted.
Two `run`s (or an `import`) may share a results file: each write takes a lock on the
file's folder, reads the file as it is now, merges its own rows and replaces the file
atomically, so neither loses the other's rows; a write waits up to LOCK_WAIT seconds for
another, then stops with one line.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
if str(Path(__file__).resolve().parent) not in sys.path:  # results_schema.py, beside it;
    sys.path.append(str(Path(__file__).resolve().parent))  # last: its names shadow nothing

from results_schema import (  # noqa: E402
    MAX_FIGHTS,
    Results,
    ResultsError,
    Training,
    check,
    read_results,
    read_search_run,
    read_sweep,
)

from wasteland.agents.names import split_agents  # noqa: E402
from wasteland.limits import ID_PATTERN, ID_RULE  # noqa: E402
from wasteland.rules.errors import WastelandError, one_line  # noqa: E402
from wasteland.training.seats import Record, difference_interval, mirror, seat  # noqa: E402
from wasteland.training.stats import wilson  # noqa: E402

# fights per block: a seat's fights are played and saved in blocks, so that a run of hours
# stopped midway (a session ends) resumes from its last block
BLOCK = 50
# the agents every seat should have a row for (the learned ones vary by family); a section
# lists the seats where one of these has none yet
STANDARD_AGENTS = ("random", "scripted", "packet", "easy", "hard", "deadly")


def seats_of(family: str, ruleset: str) -> list[tuple[str, Any, int | None, list[str]]]:
    """(test, scenario, side, kinds) of each seat with a bar for the family and ruleset; a
    mirror's side is None (the agent plays side 0 on even seeds, side 1 on odd ones)."""
    from wasteland.bestiary.suite import FAMILIES, load_suite, select

    if family not in FAMILIES:
        raise SystemExit(f"unknown family {family!r}; families: {', '.join(sorted(FAMILIES))}")
    test = {"built-in": "seat", "held-out": "unseen", "mirror": "mirror"}
    return [(test[s.kind], s.load(), s.side, list(FAMILIES[family]))
            for s in select(load_suite(), family, ruleset, bar_only=True)]


def _chunk(args: tuple[str, Any, str, list[str], int | None, int, int]) -> dict[str, int]:
    agent, scenario, ruleset, kinds, side, first, n = args
    maker: Any = agent
    if agent.startswith("policy:"):
        from wasteland.agents.policy import PolicyAgent, load_policy

        pol = load_policy(Path(agent[len("policy:"):]))

        def maker(s: int) -> Any:
            return PolicyAgent(pol, s)
    if side is None:  # a mirror: against the packet playing the same creatures
        r = mirror(maker, scenario, ruleset, kinds, fights=n, first_seed=first)
    else:
        r = seat(maker, scenario, ruleset, kinds, seat_side=side, fights=n, first_seed=first)
    return {"fights": r.fights, "wins": r.wins, "losses": r.losses, "draws": r.draws}


def play(pool: ProcessPoolExecutor, agent: str, sc: Any, ruleset: str, kinds: list[str],
         side: int | None, n: int, done: dict[int, dict[str, int]],
         saved: Any = None) -> Record:
    """The seat's record over seeds 0..n-1, played in blocks of BLOCK fights; ``done``
    holds the blocks already played (by first seed), and ``saved(done)`` is called after
    each new one, so that a run stopped midway resumes where it was (each fight is seeded
    by its index, so the blocks add up to the same record as one run)."""
    todo = {pool.submit(_chunk, (agent, sc, ruleset, kinds, side, i, min(BLOCK, n - i))): i
            for i in range(0, n, BLOCK) if i not in done}
    for fut in as_completed(todo):
        done[todo[fut]] = fut.result()
        if saved is not None:
            saved(done)
    r = Record()
    for d in done.values():
        for f in ("fights", "wins", "losses", "draws"):
            setattr(r, f, getattr(r, f) + d[f])
    return r


# seconds a write waits for another process's write in the same folder (a write takes
# milliseconds; a lock held longer is a process stopped while holding it)
LOCK_WAIT = 60.0


def _pause(seconds: float) -> None:
    time.sleep(seconds)


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Held while a results file is read, merged and replaced, so two runs on one file
    keep each other's rows. The lock is on the file's folder: the file itself is replaced
    at each write, and a lock file beside it would be left behind. Waits up to LOCK_WAIT
    seconds for another holder, then ResultsError."""
    import fcntl

    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as e:
        raise ResultsError(f"{path}: cannot use its folder {folder}: {e.strerror}") from None
    try:
        deadline = time.monotonic() + LOCK_WAIT
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise ResultsError(
                        f"{path}: another process has held the lock on {folder} for over "
                        f"{LOCK_WAIT:.0f} s (a benchmark_table run writing there); wait for it "
                        f"or stop it, then run again") from None
                _pause(0.05)
        yield
    finally:
        os.close(fd)  # releases the lock


def _save(path: Path, data: dict[str, Any]) -> None:
    """Written whole or not at all: a run stopped while saving keeps the file it had.
    Checked first, so what is written reads back."""
    check(Results, data, f"{path} (about to be written)")
    replace_file(path, json.dumps(data, indent=1) + "\n", str(path))


def replace_file(path: Path, text: str, where: str) -> None:
    """``path`` replaced by ``text`` atomically (a unique temporary file beside it, fsync,
    rename), keeping the permissions it had (a new file: rw-r--r--), or ResultsError."""
    tmp = None
    try:
        mode = path.stat().st_mode & 0o777 if path.is_file() else 0o644
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w") as f:
            os.fchmod(f.fileno(), mode)  # mkstemp makes it rw------- whatever the umask
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        tmp = None
    except OSError as e:
        raise ResultsError(f"{where}: cannot write: {e.strerror}") from None
    finally:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)


def load_results(path: Path, family: str, ruleset: str) -> dict[str, Any]:
    """The results file as it is now, checked, or a new one; it must hold ``family`` under
    ``ruleset``."""
    if not os.path.lexists(path):
        return {"family": family, "ruleset": ruleset, "rows": []}
    data = read_results(path)
    if (data["family"], data["ruleset"]) != (family, ruleset):
        raise ResultsError(f"{path} holds {data['family']} {data['ruleset']}, not "
                           f"{family} {ruleset}")
    return data


def check_writable(path: Path) -> None:
    """Refuses, before hours of fights, a results path that could never be written: one
    under a file, or in a folder this user cannot write."""
    if os.path.lexists(path) and not path.is_file():
        read_results(path)  # names what it is (a folder, a pipe...) in one line
    folder = path.absolute().parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise ResultsError(f"{path}: {folder} is a file, not a folder; results are written "
                           f"in a folder")
    if not os.access(folder, os.W_OK):
        raise ResultsError(f"{path}: cannot write in {folder}")


def update(path: Path, family: str, ruleset: str,
           change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    """``change`` applied to the results file as it is now, under the lock, and saved:
    rows another process wrote since this one read the file are kept."""
    with locked(path):
        data = load_results(path, family, ruleset)
        change(data)
        _save(path, data)
    return data


def _blocks(data: dict[str, Any], key: str, spec: str, n: int) -> tuple[dict[int, Any], float]:
    """The blocks a stopped run of the same agent, seat and number of fights left in the
    results file, and the seconds it had spent; nothing for any other run. The file is
    checked (results_schema.py): left to decide is which blocks fit this run's blocks."""
    p = data.get("partial", {}).get(key)
    if p is None or p["spec"] != spec or p["fights"] != n:
        return {}, 0.0
    done = {int(i): dict(b) for i, b in p["blocks"].items()
            if int(i) % BLOCK == 0 and int(i) < n and b["fights"] == min(BLOCK, n - int(i))}
    return done, float(p.get("seconds", 0.0))


def training_of(agent: str) -> dict[str, Any] | None:
    """The training summary of a ``policy:`` agent's manifest (None for other agents),
    checked as a results file's row is: its algorithm is printed into the page."""
    if not agent.startswith("policy:"):
        return None
    from wasteland.agents.policy import load_policy

    tr = load_policy(Path(agent[len("policy:"):])).training()
    check(Training, tr, "the training its manifest records")
    return tr


def trained_text(tr: dict[str, Any] | None) -> str:
    """The row's training cell: algorithm, seed, labels (expert iteration), PPO steps, wall."""
    if not tr:
        return "-"
    labels = f"{tr['labels']:,} labels + " if tr.get("labels") else ""
    return (f"{tr['algorithm']} seed {tr['seed']}: {labels}{tr['steps'] or 0:,} steps, "
            f"{(tr['wall_s'] or 0) / 60:.0f} min")


def parse_agents(text: str) -> list[tuple[str, str]]:
    """(agent, label) of each agent in ``--agents``: split as `wasteland fight` splits it
    (a search budget keeps its commas), ``AGENT#LABEL`` naming the row. Without a label the
    row is named by the agent, every character an id may not hold made ``_``."""
    out: list[tuple[str, str]] = []
    for piece in split_agents(text):
        agent, mark, label = piece.rpartition("#")
        if not mark:
            agent = piece
            label = re.sub(r"[^A-Za-z0-9_-]+", "_", piece).strip("_")
            if not re.match(ID_PATTERN, label):
                raise ResultsError(f"--agents {one_line(piece)[:80]}: name its row with "
                                   f"AGENT#LABEL, a label of {ID_RULE}")
        elif not re.match(ID_PATTERN, label) or not agent:
            raise ResultsError(f"--agents {one_line(piece)[:80]}: AGENT#LABEL needs an agent "
                               f"and a label of {ID_RULE}")
        if label in (x[1] for x in out):
            raise ResultsError(f"--agents: two agents with the row label {label!r}; name "
                               f"them apart with AGENT#LABEL")
        out.append((agent, label))
    if not out:
        raise ResultsError("--agents: no agent named")
    return out


def check_agent(agent: str) -> dict[str, Any] | None:
    """Fails here, in one line, not in a worker after hours: the agent can be made (its
    policy read); its training summary, for a policy."""
    from wasteland.agents.make import make_agent

    try:
        if agent.startswith("policy:"):
            return training_of(agent)
        make_agent(agent)
        return None
    except WastelandError as e:
        hint = ("; a row's label is written AGENT#LABEL (= belongs to search budgets)"
                if "=" in agent and not agent.startswith("search") else "")
        raise ResultsError(f"--agents {one_line(agent)[:80]}: {e}{hint}") from None


def run(args: argparse.Namespace) -> None:
    if not 1 <= args.fights <= MAX_FIGHTS:
        raise SystemExit(f"--fights must be 1 to {MAX_FIGHTS:,}")
    if not 1 <= args.jobs <= 64:
        raise SystemExit("--jobs must be 1 to 64")
    specs = parse_agents(args.agents)
    training = {agent: check_agent(agent) for agent, _ in specs}
    path = Path(args.results)
    family, ruleset = args.family, args.ruleset
    load_results(path, family, ruleset)
    check_writable(path)
    seats = pick_seats(seats_of(family, ruleset), args.seats)
    with ProcessPoolExecutor(args.jobs) as pool:
        for agent, name in specs:
            for test, sc, side, kinds in seats:
                t = time.time()
                key = f"{name}|{sc.id}"
                # the file as it is now: another run may have played part of this seat
                done, before = _blocks(load_results(path, family, ruleset), key, agent,
                                       args.fights)
                if done:
                    print(f"{name:<24} {sc.id}: resuming, {sum(d['fights'] for d in done.values())}"
                          f" of {args.fights} fights played before", flush=True)

                def saved(done: dict[int, Any], key: str = key, t: float = t, spec: str = agent,
                          before: float = before) -> None:
                    part = {"spec": spec, "fights": args.fights,
                            "seconds": round(before + time.time() - t, 1),
                            "blocks": {str(i): d for i, d in sorted(done.items())}}
                    update(path, family, ruleset,
                           lambda data: data.setdefault("partial", {}).__setitem__(key, part))

                r = play(pool, agent, sc, ruleset, kinds, side, args.fights, done, saved)
                seconds = before + time.time() - t
                row = {"agent": name, "spec": agent, "test": test, "seat": sc.id,
                       "first_seed": 0, **r.as_dict(), "seconds": round(seconds, 1),
                       "training": training[agent]}
                print(f"{name:<24} {test:<7} {sc.id:<22} {r.win_rate:6.1%} "
                      f"(W{r.wins}/L{r.losses}/D{r.draws}) {seconds:6.0f} s", flush=True)

                def merge(data: dict[str, Any], row: dict[str, Any] = row, key: str = key
                          ) -> None:
                    data["rows"] = [x for x in data["rows"]
                                    if (x["agent"], x["seat"]) != (row["agent"], row["seat"])
                                    ] + [row]
                    (data.get("partial") or {}).pop(key, None)
                    if not data.get("partial"):
                        data.pop("partial", None)

                # saved seat by seat: a run of hours stopped midway keeps the seats it played
                update(path, family, ruleset, merge)


def pick_seats(seats: list[Any], names: str | None) -> list[Any]:
    """The seats named in ``--seats`` (comma-separated ids), in the family's order; all of
    them when none are named. An unknown id exits naming the family's seats."""
    if not names:
        return seats
    known = [s[1].id for s in seats]
    wanted = [n.strip() for n in names.split(",") if n.strip()]
    unknown = [n for n in wanted if n not in known]
    if unknown or not wanted:
        raise SystemExit(f"--seats: unknown seat {', '.join(unknown) or repr(names)}; this "
                         f"family and ruleset has {', '.join(known)}")
    return [s for s in seats if s[1].id in wanted]


def import_sweep(args: argparse.Namespace) -> None:
    """Rows of a policy and of the packet from a policy_seats sweep: its last JSON line."""
    from wasteland.agents.policy import load_policy
    from wasteland.bestiary.suite import FAMILIES

    if not re.match(ID_PATTERN, args.label):
        raise ResultsError(f"--label {args.label[:80]!r}: a label is {ID_RULE}")
    sweep = read_sweep(args.sweep)
    try:
        pol = load_policy(Path(args.policy))
    except WastelandError as e:
        raise ResultsError(f"cannot import {args.sweep}: {e}") from None
    ruleset = pol.ruleset
    family = next((f for f, kinds in FAMILIES.items() if pol.kinds <= set(kinds)), None)
    if family is None or sweep["ruleset"] != ruleset:
        raise ResultsError(f"{args.sweep}: not a sweep of {args.policy}'s creatures and "
                           f"ruleset")
    if sweep.get("first_seed", 0) != 0:
        raise ResultsError(f"{args.sweep}: played from seed {sweep['first_seed']}; the "
                           f"table's rows are seeds 0..N-1, the packet's on the same seeds")
    spec = f"policy:{args.policy}"
    training = check_agent(spec)
    path = Path(args.results)
    load_results(path, family, ruleset)
    check_writable(path)
    counts = ("fights", "wins", "losses", "draws", "win_rate", "wilson95")
    rows: list[dict[str, Any]] = []

    def merge(data: dict[str, Any]) -> None:
        have = {(r["agent"], r["test"], r["seat"]) for r in data["rows"]}
        rows.clear()
        for test in ("seat", "unseen"):
            for s in sweep[test]:
                for who, name in (("policy", args.label), ("packet", "packet")):
                    if who == "packet" and ("packet", test, s["scenario"]) in have:
                        continue
                    r = s[who]
                    rows.append({"agent": name, "spec": spec if who == "policy" else "packet",
                                 "test": test, "seat": s["scenario"], "first_seed": 0,
                                 **{k: r[k] for k in counts}, "seconds": s["seconds"],
                                 "training": training if who == "policy" else None})
        for m in sweep["mirror"]:
            rows.append({"agent": args.label, "spec": spec, "test": "mirror",
                         "seat": f"{family}_mirror_{ruleset}", "first_seed": 0,
                         **{k: m[k] for k in counts}, "seconds": None, "training": training})
        data["rows"] = [x for x in data["rows"] if x["agent"] != args.label] + rows

    update(path, family, ruleset, merge)
    print(f"{path}: {len(rows)} rows from {args.sweep}")


def import_search(args: argparse.Namespace) -> None:
    """An agent's rows from benchmarks/search.py's --json (the same seats, seeds 0..N-1):
    its wins are its share of the fights, its losses the decided fights it did not win.
    Each seat must have the packet's row of the same number of fights (`run --agents
    'packet#packet_200' -n 200`) that won what the search run's packet won, so the rows
    compare fights on the same seeds under the same code; a mirror is the agent against
    the packet itself."""
    if not re.match(ID_PATTERN, args.label):
        raise ResultsError(f"--label {args.label[:80]!r}: a label is {ID_RULE}")
    run_ = read_search_run(args.search)
    path = Path(args.results)
    family, ruleset = args.family, args.ruleset
    load_results(path, family, ruleset)
    check_writable(path)
    tests = {sc.id: test for test, sc, _, _ in seats_of(family, ruleset)}
    mirror_id = f"{family}_mirror_{ruleset}"
    rows: list[dict[str, Any]] = []

    def merge(data: dict[str, Any]) -> None:
        rows.clear()
        packets = {(r["seat"], r["fights"]): r for r in data["rows"] if is_packet(r)}
        for s in run_["rows"]:
            seat_id, n = s["seat"], s["fights"]
            test = "mirror" if s.get("mirror", False) else tests.get(seat_id)
            if test is None or (test == "mirror" and seat_id != mirror_id):
                raise ResultsError(f"{args.search}: seat {seat_id} is not one of {family}'s "
                                   f"under {ruleset}: {', '.join([*tests, mirror_id])}")
            wins = round(s["agent"] * n)
            if test != "mirror":
                base = packets.get((seat_id, n))
                if base is None:
                    raise ResultsError(
                        f"{args.search}: {seat_id} has no packet row of {n} fights in "
                        f"{path}; play it first: run {family} {ruleset} --agents "
                        f"'packet#packet_{n}' -n {n} --seats {seat_id}")
                if base["wins"] != round(s["packet"] * n):
                    raise ResultsError(
                        f"{args.search}: in {seat_id} its packet won {round(s['packet'] * n)}"
                        f" of {n}, the packet's row {base['wins']}: not the same fights "
                        f"(another seat, seed or version); play the search again")
            rows.append({"agent": args.label, "spec": run_["agent"], "test": test,
                         "seat": seat_id, "first_seed": 0, "fights": n, "wins": wins,
                         "losses": s["decided"] - wins, "draws": n - s["decided"],
                         "seconds": None, "training": None})
        done = {(r["agent"], r["seat"]) for r in rows}
        data["rows"] = [x for x in data["rows"] if (x["agent"], x["seat"]) not in done] + rows

    update(path, family, ruleset, merge)
    print(f"{path}: {len(rows)} rows from {args.search}")


def _pct(x: float) -> str:
    return f"{x * 100:.1f}"


def not_played(family: str, ruleset: str, rows: list[dict[str, Any]]) -> str:
    """One line naming, per standard agent, the seats of the family's suite it has no row
    in ("" when none is missing)."""
    from wasteland.bestiary.suite import FAMILIES

    if family not in FAMILIES:  # a results file of a family the suite no longer has
        return ""
    have = {(r["agent"], r["seat"]) for r in rows}
    seats = [(sc.id, test) for test, sc, _, _ in seats_of(family, ruleset)]
    parts = []
    for agent in STANDARD_AGENTS:
        # a mirror is the agent against the packet: the packet's own row there says nothing
        missing = [s for s, test in seats if (agent, s) not in have
                   and not (agent == "packet" and test == "mirror")]
        if missing:
            parts.append(f"{agent} in {', '.join(missing)}")
    return ("Not played yet: " + "; ".join(parts) + ".") if parts else ""


def in_progress(data: dict[str, Any]) -> str:
    """One line naming the seats a stopped run left partly played ("" when none), with
    how far each got: `run` with the same agent, seat and -n resumes them."""
    parts = []
    for key, p in sorted(data.get("partial", {}).items()):
        n = p["fights"]
        done, _ = _blocks(data, key, p["spec"], n)
        name, _, seat_id = key.partition("|")
        played = sum(d["fights"] for d in done.values())
        parts.append(f"{name} in {seat_id} ({played:,} of {n:,} fights)")
    return ("Partly played (the same `run` command resumes them): " + "; ".join(parts) + "."
            ) if parts else ""


def is_packet(row: dict[str, Any]) -> bool:
    """A row of the packet itself, under its own name or a label (``packet#packet_200``)."""
    return row["agent"] == "packet" or row.get("spec") == "packet"


def write(args: argparse.Namespace) -> None:
    out = ["# Benchmark: agents in the benchmark seats", "",
           "Generated by `benchmarks/benchmark_table.py write` from "
           + ", ".join(f"`{Path(p).as_posix()}`" for p in args.results)
           + "; do not edit by hand. Each row: one agent in the seat of its family (the rest "
           "of its side and the other side are packets), on seeds 0..N-1, compared with the packet in "
           "the same seat on the same seeds (`packet_200`: the packet's row for the rows of 200 "
           "fights). Win rate with its Wilson 95% interval; the difference "
           "to the packet with its 95% interval (Newcombe). `seat`: a built-in map; `unseen`: "
           "a held-out map no policy trained on. Learned agents: training steps and wall "
           "time on this machine's 2 cores. `mirror`: the agent's creatures against the same "
           "creatures played by the packet, sides swapped every other fight; its share of "
           "decided fights with its Wilson interval (the bar: above 50%).", ""]
    for p in args.results:
        data = read_results(p)
        rows = data["rows"]
        # the packet's rows by seat and number of fights: a row of 200 fights is compared
        # with the packet on seeds 0..199 (a `packet#packet_200` row), not with its 1,000
        packet: dict[tuple[str, str, int], dict[str, Any]] = {}
        for r in rows:
            if is_packet(r):
                key = (r["test"], r["seat"], r["fights"])
                if key not in packet or r["agent"] == "packet":
                    packet[key] = r
        out += [f"## {data['family']} under {data['ruleset']}", "",
                "| agent | test | seat | fights | win % [95%] | vs packet, points [95%] | "
                "trained: steps, wall |",
                "|---|---|---|---:|---|---|---|"]
        order = {"seat": 0, "unseen": 1, "mirror": 2}
        for r in sorted(rows, key=lambda r: (order.get(r["test"], 3), r["seat"], r["agent"])):
            lo, hi = wilson(r["wins"], r["fights"])
            base = packet.get((r["test"], r["seat"], r["fights"]))
            if r["test"] == "mirror":  # against the packet itself: its share of decided fights
                won = r["wins"] + r["losses"]
                mlo, mhi = wilson(r["wins"], won) if won else (0.0, 1.0)
                diff = (f"mirror: {_pct(r['wins'] / won if won else 0)} [{_pct(mlo)}, "
                        f"{_pct(mhi)}] of {won:,} decided")
            elif base is None or is_packet(r):
                diff = "-" if is_packet(r) else "no packet row on the same seeds"
            else:
                a, b = Record(**{k: r[k] for k in ("fights", "wins", "losses", "draws")}), \
                    Record(**{k: base[k] for k in ("fights", "wins", "losses", "draws")})
                dlo, dhi = difference_interval(a, b)
                diff = f"{(a.win_rate - b.win_rate) * 100:+.1f} [{dlo * 100:+.1f}, {dhi * 100:+.1f}]"
            trained = trained_text(r.get("training"))
            out.append(f"| {r['agent']} | {r['test']} | {r['seat']} | {r['fights']:,} | "
                       f"{_pct(r['wins'] / r['fights'])} [{_pct(lo)}, {_pct(hi)}] | {diff} | "
                       f"{trained} |")
        out.append("")
        missing = not_played(data["family"], data["ruleset"], rows)
        if missing:
            out += [missing, ""]
        going = in_progress(data)
        if going:
            out += [going, ""]
    replace_file(Path(args.out), "\n".join(out), f"--out {args.out}")
    print(f"wrote {args.out}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="play agents in the seats, merge into a results file")
    r.add_argument("family")
    r.add_argument("ruleset")
    r.add_argument("--agents", required=True,
                   help="comma-separated AGENT or AGENT#LABEL (a search budget keeps its "
                        "commas: 'search:rollouts=8,candidates=3#deep8,packet'); a label is "
                        f"{ID_RULE}")
    r.add_argument("-n", "--fights", type=int, default=1000)
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--results", required=True)
    r.add_argument("--seats", help="comma-separated seat ids (default: every seat of the "
                                   "family and ruleset)")
    i = sub.add_parser("import", help="a policy's rows from its policy_seats sweep")
    i.add_argument("sweep")
    i.add_argument("--policy", required=True, help="the policy's .json manifest")
    i.add_argument("--label", default="ppo_warm_seats_shipped",
                   help=f"the policy's row label, {ID_RULE}")
    i.add_argument("--results", required=True)
    s = sub.add_parser("import-search", help="an agent's rows from benchmarks/search.py's "
                                             "--json, beside the packet's on the same seeds")
    s.add_argument("search", help="the --json file of benchmarks/search.py")
    s.add_argument("family")
    s.add_argument("ruleset")
    s.add_argument("--label", default="deadly", help=f"the rows' label, {ID_RULE}")
    s.add_argument("--results", required=True)
    w = sub.add_parser("write", help="write the page from results files")
    w.add_argument("results", nargs="+")
    w.add_argument("--out", default="docs/benchmark.md")
    args = ap.parse_args(argv)
    try:
        {"run": run, "import": import_sweep, "import-search": import_search,
         "write": write}[args.cmd](args)
    except WastelandError as e:  # a bad file or name: one line, exit status 1
        raise SystemExit(str(e)) from None


if __name__ == "__main__":
    main()
