"""benchmarks/benchmark_table.py on crafted or broken results and sweep files (issue 39,
item 4): every subcommand that reads a file answers one line naming the file, the field
and what is accepted, before any fight is played or any file written; labels are ids; two
runs on one results file keep each other's rows; a search budget keeps its commas."""

from __future__ import annotations

import copy
import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .kit import BENCH, bench_module

SEAT = "radscorpions_duel_simple"
POLICY = BENCH.parent / "wasteland" / "policies" / "radscorpion_simple.json"
ROW = {"agent": "random", "spec": "random", "test": "seat", "seat": SEAT, "first_seed": 0,
       "fights": 10, "wins": 4, "losses": 5, "draws": 1, "win_rate": 0.4,
       "wilson95": [0.1682, 0.6873], "seconds": 1.5, "training": None}
RESULTS = {"family": "radscorpions", "ruleset": "simple", "rows": [ROW]}
COUNTS = {"fights": 3, "wins": 1, "losses": 2, "draws": 0, "win_rate": 0.3333,
          "wilson95": [0.0615, 0.7923]}
SWEEP = {"policy": "radscorpion_simple", "ruleset": "simple", "fights": 3, "seats": "suite",
         "first_seed": 0,
         "seat": [{"scenario": SEAT, "policy": COUNTS, "packet": COUNTS, "difference": 0.0,
                   "difference95": [-0.5, 0.5], "pass": False, "seconds": 0.4}],
         "unseen": [], "mirror": [], "pass": False}


def _set(data: Any, path: str, value: Any) -> Any:
    """``data`` with the field at ``path`` (dots; numbers index lists) set, or deleted
    when ``value`` is DROP."""
    data = copy.deepcopy(data)
    *parents, last = path.split(".")
    at = data
    for p in parents:
        at = at[int(p)] if isinstance(at, list) else at[p]
    key: Any = int(last) if isinstance(at, list) else last
    if value is DROP:
        del at[key]
    else:
        at[key] = value
    return data


DROP = object()
DEEP = "[" * 100_000 + "]" * 100_000
# (id, how the file is broken, fragment of the answer): the kinds issue 39 lists, each
# given to every subcommand below
KINDS: list[tuple[str, Any, str]] = [
    ("deep", lambda good, counts: json.dumps(_set(good, counts + ".wins", 0)).replace(
        '"wins": 0', f'"wins": {DEEP}'), "nested more than 64 deep; at most 64"),
    ("float_1e999", lambda good, counts: json.dumps(_set(good, counts + ".wins", 0)).replace(
        '"wins": 0', '"wins": 1e999'), "the number 1e999 is past a float's range"),
    ("int_10_5000", lambda good, counts: json.dumps(_set(good, counts + ".wins", 0)).replace(
        '"wins": 0', f'"wins": {10**4000}{"0" * 1000}'),
     "an integer of 5,001 digits; at most 40"),
    ("nan_wins", lambda good, counts: json.dumps(_set(good, counts + ".wins", 0)).replace(
        '"wins": 0', '"wins": NaN'), "NaN is not a JSON number"),
    ("negative", lambda good, counts: json.dumps(_set(good, counts + ".draws", -1)),
     "draws: Input should be greater than or equal to 0"),
    ("missing", lambda good, counts: json.dumps(_set(good, counts + ".wins", DROP)),
     "wins: missing required field"),
    ("mistyped", lambda good, counts: json.dumps(_set(good, counts + ".wins", "4")),
     "wins: Input should be a valid integer, got '4'"),
    ("float_count", lambda good, counts: json.dumps(_set(good, counts + ".wins", 4.0)),
     "wins: Input should be a valid integer, got 4.0"),
    ("zero_fights", lambda good, counts: json.dumps(_set(good, counts + ".fights", 0)),
     "fights: Input should be greater than or equal to 1"),
    ("wins_past_fights", lambda good, counts: json.dumps(_set(good, counts + ".wins", 99)),
     "wins 99 + losses"),
    ("unknown_field", lambda good, counts: json.dumps(_set(good, counts + ".winz", 1)),
     "winz: unknown field; accepted here: fights, wins, losses, draws"),
    ("not_json", lambda good, counts: "{rows: 1", "not JSON"),
]
# where places[kind] is a file that is not one: (id, make it, fragment)
PLACES = [("folder", lambda p: p.mkdir(), "a folder, not a regular file"),
          ("under_a_file", None, "Not a directory")]


def _run(bt, results: Path, *extra: str) -> None:
    bt.main(["run", "radscorpions", "simple", "--agents", "random", "-n", "2", "--jobs",
             "1", "--seats", SEAT, "--results", str(results), *extra])


def _import(bt, sweep: Path, results: Path, *extra: str) -> None:
    bt.main(["import", str(sweep), "--policy", str(POLICY), "--results", str(results),
             *extra])


def _refused(call, fragment: str) -> str:
    with pytest.raises(SystemExit) as e:
        call()
    msg = str(e.value.code)
    assert fragment in msg, msg
    assert "\n" not in msg and "Traceback" not in msg
    return msg


def _sweep_file(path: Path, data: Any = SWEEP) -> Path:
    path.write_text("policy table lines\n" + (data if isinstance(data, str) else
                                              json.dumps(data)) + "\n")
    return path


# the subcommands and the file each reads: (id, the field holding counts in that file,
# what it is given, the call)
def _write_case(bt, tmp: Path, bad: Path) -> None:
    bt.main(["write", str(bad), "--out", str(tmp / "page.md")])


def _import_sweep_case(bt, tmp: Path, bad: Path) -> None:
    _import(bt, bad, tmp / "r.json")


def _import_results_case(bt, tmp: Path, bad: Path) -> None:
    _import(bt, _sweep_file(tmp / "sweep.txt"), bad)


def _run_case(bt, tmp: Path, bad: Path) -> None:
    _run(bt, bad)


READERS = [("write", RESULTS, "rows.0", _write_case),
           ("run", RESULTS, "rows.0", _run_case),
           ("import_results", RESULTS, "rows.0", _import_results_case),
           ("import_sweep", SWEEP, "seat.0.policy", _import_sweep_case)]


@pytest.mark.parametrize("reader", READERS, ids=[r[0] for r in READERS])
@pytest.mark.parametrize("kind", KINDS, ids=[k[0] for k in KINDS])
def test_a_broken_file_is_one_line_before_anything_is_played_or_written(
        reader, kind, tmp_path: Path) -> None:
    bt = bench_module("benchmark_table")
    name, good, counts, call = reader
    _, breaking, fragment = kind
    text = breaking(good, counts)
    bad = tmp_path / ("bad.txt" if name == "import_sweep" else "bad.json")
    if name == "import_sweep":
        _sweep_file(bad, text)
    else:
        bad.write_text(text)
    before = bad.read_bytes()
    msg = _refused(lambda: call(bt, tmp_path, bad), fragment)
    assert str(bad) in msg
    assert bad.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        {bad.name, "sweep.txt"} & {p.name for p in tmp_path.iterdir()})


@pytest.mark.parametrize("reader", READERS, ids=[r[0] for r in READERS])
@pytest.mark.parametrize("place", PLACES, ids=[p[0] for p in PLACES])
def test_a_folder_or_a_path_under_a_file_is_one_line(reader, place, tmp_path: Path) -> None:
    bt = bench_module("benchmark_table")
    name, _, _, call = reader
    _, make, fragment = place
    if make is None:  # a path under a file
        (tmp_path / "file").write_text("x")
        bad = tmp_path / "file" / "r.json"
        if name in ("run", "import_results"):  # a new results file: its folder is refused
            fragment = "is a file, not a folder"
    else:
        bad = tmp_path / "r.json"
        make(bad)
    _refused(lambda: call(bt, tmp_path, bad), fragment)
    assert not (tmp_path / "page.md").exists()


def test_every_results_file_in_docs_is_read_and_the_page_comes_out_the_same(tmp_path: Path
                                                                             ) -> None:
    """Results files written before the schema (and its `partial` entries) stay readable."""
    bt = bench_module("benchmark_table")
    files = sorted((BENCH.parent / "docs" / "benchmark-runs").glob("*.json"))
    assert files
    page = tmp_path / "page.md"
    bt.main(["write", *map(str, files), "--out", str(page)])
    rows = [ln for ln in page.read_text().splitlines() if ln.startswith("| ")]
    assert len(rows) > len(files) * 3


@pytest.mark.parametrize("field, value, fragment", [
    ("rows.0.agent", "x | y\n## injected", "is not an id: ids are 1 to 64 letters"),
    ("rows.0.seat", "a|b", "rows[0].seat: 'a|b' is not an id"),
    ("family", "radscorpions\n# x", "family: "),
    ("rows.0.training", {"algorithm": "ppo | x", "seed": 0, "steps": 1, "wall_s": 1.0},
     "rows[0].training.algorithm: 'ppo | x' is not an id"),
    ("rows.0.test", "seat\n", "rows[0].test: Input should be 'seat', 'unseen' or 'mirror'"),
    ("rows.0.spec", "random\n| x |", "rows[0].spec: one printable line"),
    ("partial", {"random|x": {"spec": "random", "fights": 4, "blocks": "x"}},
     "partial.random|x.blocks: Input should be a valid dictionary"),
    ("partial", {"a|b|c": {"spec": "random", "fights": 4, "blocks": {}}},
     "partial.a|b|c.[key]: String should match pattern"),
    ("rows.0.win_rate", 0.9, "rows[0]: win_rate 0.9 is not wins / fights (0.4000)"),
    ("rows.0.first_seed", 500, "only 0 is accepted"),
])
def test_nothing_but_ids_and_checked_numbers_reach_the_page(field, value, fragment,
                                                            tmp_path: Path) -> None:
    bt = bench_module("benchmark_table")
    bad = tmp_path / "r.json"
    bad.write_text(json.dumps(_set(RESULTS, field, value)))
    page = tmp_path / "page.md"
    _refused(lambda: bt.main(["write", str(bad), "--out", str(page)]), fragment)
    assert not page.exists()


def test_a_second_row_of_one_agent_in_one_seat_is_refused(tmp_path: Path) -> None:
    bt = bench_module("benchmark_table")
    bad = tmp_path / "r.json"
    bad.write_text(json.dumps(dict(RESULTS, rows=[ROW, ROW])))
    _refused(lambda: bt.main(["write", str(bad), "--out", str(tmp_path / "p.md")]),
             "a second row of random in seat radscorpions_duel_simple")


def test_labels_given_on_the_command_line_are_ids(tmp_path: Path) -> None:
    bt = bench_module("benchmark_table")
    results = tmp_path / "r.json"
    _refused(lambda: _run(bt, results, "--agents", "random#x|y"),
             "AGENT#LABEL needs an agent and a label of 1 to 64 letters")
    _refused(lambda: _run(bt, results, "--agents", "random#"), "AGENT#LABEL needs")
    _refused(lambda: _run(bt, results, "--agents", "random,packet#random"),
             "two agents with the row label 'random'")
    # the old AGENT=LABEL: named, not played as something else
    _refused(lambda: _run(bt, results, "--agents", "random=rnd"),
             "unknown agent 'random=rnd'")
    _refused(lambda: _run(bt, results, "--agents", "random=rnd"),
             "a row's label is written AGENT#LABEL")
    sweep = _sweep_file(tmp_path / "sweep.txt")
    _refused(lambda: _import(bt, sweep, results, "--label", "ppo\n| x |"),
             "--label 'ppo\\n| x |': a label is 1 to 64")
    assert not results.exists()


def test_a_search_budget_keeps_its_commas() -> None:
    bt = bench_module("benchmark_table")
    assert bt.parse_agents("search:rollouts=8,candidates=3,packet") == [
        ("search:rollouts=8,candidates=3", "search_rollouts_8_candidates_3"),
        ("packet", "packet")]
    assert bt.parse_agents("search:rollouts=8,candidates=3#deep8,policy:a/b.json#ppo") == [
        ("search:rollouts=8,candidates=3", "deep8"), ("policy:a/b.json", "ppo")]


def test_a_search_budget_of_two_keys_is_played_whole(tmp_path: Path, monkeypatch) -> None:
    bt = bench_module("benchmark_table")
    played: list[str] = []

    def play(pool, agent, sc, ruleset, kinds, side, n, done, saved=None):
        played.append(agent)
        return bt.Record(fights=n, wins=n)

    monkeypatch.setattr(bt, "play", play)
    results = tmp_path / "r.json"
    _run(bt, results, "--agents", "search:rollouts=8,candidates=3,packet")
    assert played == ["search:rollouts=8,candidates=3", "packet"]
    rows = json.loads(results.read_text())["rows"]
    assert [(r["agent"], r["spec"]) for r in rows] == [
        ("search_rollouts_8_candidates_3", "search:rollouts=8,candidates=3"),
        ("packet", "packet")]


def _hold_lock(folder: Path) -> int:
    fd = os.open(folder, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fd


def _quick_play(bt, monkeypatch) -> None:
    """Seats "played" in the test's process: no worker is forked with the test's lock."""
    monkeypatch.setattr(bt, "play", lambda pool, agent, sc, rs, kinds, side, n, done,
                        saved=None: bt.Record(fights=n, wins=n))


def test_a_run_that_cannot_get_the_lock_stops_in_one_line(tmp_path: Path,
                                                          monkeypatch) -> None:
    """Another process writing the folder's results too long: this run stops, and the
    file is as that process left it."""
    bt = bench_module("benchmark_table")
    monkeypatch.setattr(bt, "LOCK_WAIT", 0.2)
    _quick_play(bt, monkeypatch)
    results = tmp_path / "r.json"
    results.write_text(json.dumps(RESULTS))
    before = results.read_bytes()
    fd = _hold_lock(tmp_path)
    try:
        _refused(lambda: _run(bt, results), "another process has held the lock on")
    finally:
        os.close(fd)
    assert results.read_bytes() == before


def test_a_run_waits_for_the_lock_and_then_writes(tmp_path: Path, monkeypatch) -> None:
    bt = bench_module("benchmark_table")
    _quick_play(bt, monkeypatch)
    results = tmp_path / "r.json"
    fd = _hold_lock(tmp_path)
    waited: list[float] = []

    def pause(seconds: float) -> None:  # the other process finishes its write
        if not waited:
            os.close(fd)
        waited.append(seconds)

    monkeypatch.setattr(bt, "_pause", pause)
    _run(bt, results)
    assert len(waited) == 1
    rows = json.loads(results.read_text())["rows"]
    assert [(r["agent"], r["seat"], r["fights"]) for r in rows] == [("random", SEAT, 2)]


def test_two_runs_on_one_results_file_keep_each_others_rows(tmp_path: Path,
                                                            monkeypatch) -> None:
    """While this run plays its seat, a second run on the same file plays another agent
    and saves: this run's save keeps that row (it merges into the file as it is then)."""
    bt = bench_module("benchmark_table")
    results = tmp_path / "r.json"
    real_play = bt.play
    others: list[str] = []

    def play(pool, agent, *rest, **kw):
        if not others:
            others.append("packet")
            _run(bt, results, "--agents", "packet")  # the other process, start to end
            assert [r["agent"] for r in json.loads(results.read_text())["rows"]] == [
                "packet"]
        return real_play(pool, agent, *rest, **kw)

    monkeypatch.setattr(bt, "play", play)
    _run(bt, results)
    rows = json.loads(results.read_text())["rows"]
    assert sorted(r["agent"] for r in rows) == ["packet", "random"]


def test_an_import_keeps_the_rows_already_there(tmp_path: Path) -> None:
    bt = bench_module("benchmark_table")
    results = tmp_path / "r.json"
    results.write_text(json.dumps(RESULTS))
    _import(bt, _sweep_file(tmp_path / "sweep.txt"), results, "--label", "ppo_x")
    rows = json.loads(results.read_text())["rows"]
    assert sorted((r["agent"], r["fights"]) for r in rows) == [
        ("packet", 3), ("ppo_x", 3), ("random", 10)]
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_the_script_run_by_itself_answers_one_line_and_exit_status_1(tmp_path: Path
                                                                     ) -> None:
    """As a user runs it (results_schema.py found beside it): one line on stderr."""
    bad = tmp_path / "r.json"
    bad.write_text(json.dumps(_set(RESULTS, "rows.0.wins", float("nan"))))
    env = dict(os.environ, PYTHONPATH=str(BENCH.parent))
    p = subprocess.run([sys.executable, str(BENCH / "benchmark_table.py"), "write", str(bad),
                        "--out", str(tmp_path / "p.md")], capture_output=True, text=True,
                       env=env, cwd=tmp_path, timeout=120)
    assert p.returncode == 1
    assert p.stderr.strip().splitlines() == [f"{bad}: NaN is not a JSON number"]
    assert not (tmp_path / "p.md").exists()


def test_a_policy_whose_manifest_names_its_algorithm_with_markdown_is_refused_up_front(
        tmp_path: Path, monkeypatch) -> None:
    """The training cell prints the manifest's algorithm: it must be an id, checked before
    any fight."""
    import wasteland.agents.policy as policy

    class Crafted:
        def training(self) -> dict[str, Any]:
            return {"algorithm": "ppo |\n| x", "seed": 0, "steps": 1, "labels": 0,
                    "wall_s": 1.0}

    monkeypatch.setattr(policy, "load_policy", lambda path: Crafted())
    bt = bench_module("benchmark_table")
    _quick_play(bt, monkeypatch)
    results = tmp_path / "r.json"
    _refused(lambda: _run(bt, results, "--agents", "policy:x.json#x"),
             "--agents policy:x.json: the training its manifest records: "
             "algorithm: 'ppo |\\n| x' is not an id")
    assert not results.exists()


def test_a_rewritten_results_file_keeps_its_permissions(tmp_path: Path) -> None:
    """The atomic write goes through a private temporary file; the file it replaces keeps
    its mode, and a new one is rw-r--r--, as a plain write under the usual umask makes it."""
    bt = bench_module("benchmark_table")
    sweep = _sweep_file(tmp_path / "sweep.txt")
    new, old = tmp_path / "new.json", tmp_path / "old.json"
    old.write_text(json.dumps(RESULTS))
    old.chmod(0o640)
    for results in (new, old):
        _import(bt, sweep, results)
    assert (new.stat().st_mode & 0o777, old.stat().st_mode & 0o777) == (0o644, 0o640)


@pytest.mark.parametrize("out", ["folder", "missing/page.md"])
def test_a_page_that_cannot_be_written_is_one_line(out: str, tmp_path: Path) -> None:
    bt = bench_module("benchmark_table")
    results = tmp_path / "r.json"
    results.write_text(json.dumps(RESULTS))
    (tmp_path / "folder").mkdir()
    _refused(lambda: bt.main(["write", str(results), "--out", str(tmp_path / out)]),
             f"--out {tmp_path / out}: cannot write: ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "r.json"]
