"""What a training config, a `--set` and a run folder may ask for (issue 39, item 1): a
teacher that runs a program is taken only from the command line (a config or run folder
someone sends you never starts one), `--resume` checks the run's own config as a fresh one
and says it uses it, `--set` has the caps of a YAML file, `--out` is a folder, and the
run's files are read only if they are regular files within their caps. All in process and
without training: each refusal comes before anything heavy."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import pytest
import yaml

from wasteland.bestiary.loader import BestiaryError
from wasteland.limits import LimitError
from wasteland.rules.errors import WastelandError
from wasteland.training.config import load_config
from wasteland.training.run import prepare_run

from .kit import cli, one_line_error

# a program that would leave a mark if it ever ran
MARK = "PROGRAM_RAN"
PROGRAM = f"cmd:{shlex.quote(sys.executable)} -c 'open(\"{MARK}\", \"w\")'"
TIMED = PROGRAM.replace("cmd:", "cmd@2:", 1)


def config(folder: Path, expert: dict, name: str = "mine.yaml", **more: object) -> Path:
    data = {"id": "mine", "ruleset": "pnp", "creatures": ["young_radscorpion"],
            "scenarios": ["duel"], "algorithm": "expert_iteration", "expert": expert, **more}
    path = folder / name
    path.write_text(yaml.safe_dump(data))
    return path


@pytest.mark.parametrize("expert, field, spec", [
    ({"teacher": PROGRAM}, "expert.teacher", PROGRAM),
    ({"teacher": TIMED}, "expert.teacher", TIMED),
    ({"teacher": "packet", "teachers": {"duel": PROGRAM}}, "expert.teachers['duel']", PROGRAM),
])
def test_a_program_teacher_in_a_config_file_is_refused_unless_the_command_line_names_it(
        tmp_path, expert, field, spec):
    path = config(tmp_path, expert)
    with pytest.raises(BestiaryError) as e:
        load_config(str(path))
    msg = str(e.value)
    assert "\n" not in msg
    for fragment in (str(path), f"{field} is the program", "never starts a program",
                     f"--allow-program {shlex.quote(spec)}"):
        assert fragment in msg, (fragment, msg)
    # named on the command line: by --allow-program, or by the --set that gives it
    allowed = load_config(str(path), programs=[spec])
    assert spec in (allowed.expert.teacher, *allowed.expert.teachers.values())
    key = "expert.teacher" if field == "expert.teacher" else "expert.teachers.duel"
    assert load_config(str(path), [f"{key}={spec}"]) == allowed
    # another program allowed is not this one
    with pytest.raises(BestiaryError, match="never starts a program"):
        load_config(str(path), programs=[spec + " x"])
    # read only (export): nothing runs, nothing refused
    assert load_config(str(path), programs=None).id == "mine"
    assert not os.path.exists(MARK)


def test_a_set_of_another_teacher_does_not_allow_the_file_s_program(tmp_path):
    path = config(tmp_path, {"teacher": "packet", "teachers": {"duel": PROGRAM}})
    with pytest.raises(BestiaryError, match=r"expert.teachers\['duel'\] is the program"):
        load_config(str(path), ["expert.teacher=random"])
    # replaced from the command line: the file's program is gone, nothing to refuse
    assert load_config(str(path), ["expert.teachers={}"]).expert.teachers == {}


def test_train_refuses_a_config_s_program_in_one_line_and_starts_nothing(capsys, monkeypatch,
                                                                          tmp_path):
    # its scenario lacks its creatures, refused after the program: were the program let
    # through, this would be the refusal instead of a training run
    path = config(tmp_path, {"teacher": PROGRAM}, creatures=["radscorpion"])
    one_line_error(cli(capsys, monkeypatch, "train", str(path), "--out", "run"),
                   "expert.teacher is the program", "--allow-program")
    assert sorted(os.listdir(tmp_path)) == ["mine.yaml"]  # no run folder, no mark


def test_resume_checks_the_run_s_own_config_as_a_fresh_one_and_says_so(capsys, monkeypatch,
                                                                        tmp_path):
    run = tmp_path / "sent"
    run.mkdir()
    config(run, {"teacher": PROGRAM}, "config.yaml", creatures=["radscorpion"])
    # the config argument names a harmless shipped config; the run's own one is what counts
    r = cli(capsys, monkeypatch, "train", "radscorpion_pnp", "--resume", str(run))
    one_line_error(r, str(run / "config.yaml"), "expert.teacher is the program",
                   f"--allow-program {shlex.quote(PROGRAM)}")
    config(run, {"teacher": PROGRAM}, "config.yaml")
    with pytest.raises(BestiaryError, match="never starts a program"):
        prepare_run("radscorpion_pnp", [], None, run)
    said: list[str] = []
    cfg, got = prepare_run("radscorpion_pnp", [], None, run, [PROGRAM], said.append)
    assert got == run and cfg.expert.teacher == PROGRAM
    assert said == [f"resuming {run} with its own config, {run / 'config.yaml'} (mine); the "
                    f"config argument 'radscorpion_pnp' is ignored"]
    # the run's own config named: nothing is ignored; a bad --set is refused as on a fresh run
    said.clear()
    prepare_run(str(run / "config.yaml"), [], None, run, [PROGRAM], said.append)
    prepare_run("mine", [], None, run, [PROGRAM], said.append)
    assert said == [f"resuming {run} with its own config, {run / 'config.yaml'} (mine)"] * 2
    with pytest.raises(BestiaryError, match="steps: Input should be a valid integer"):
        prepare_run("mine", ["steps=true"], None, run, [PROGRAM])
    assert not os.path.exists(MARK)


@pytest.mark.parametrize("override, fragments", [
    (".".join(["a"] * 10_000) + "=1", ["a key of 10,000 parts", "at most 64"]),
    ("steps=" + "[" * 10_000 + "]" * 10_000, ["--set steps:", "nested more than 64 deep"]),
    ("steps=" + "{a: " * 100 + "1" + "}" * 100, ["--set steps:", "nested more than 64 deep"]),
    ("description=[&a [1,1,1,1,1,1,1,1,1,1], &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a], "
     "&c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b], &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c], "
     "&e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]]", ["--set description:", "more than 10000 values"]),
])
def test_a_deep_or_huge_set_is_one_line(capsys, monkeypatch, override, fragments):
    with pytest.raises(LimitError) as e:
        load_config("radscorpion_pnp", [override])
    assert "\n" not in str(e.value) and len(str(e.value)) < 300
    for f in fragments:
        assert f in str(e.value), (f, str(e.value))
    one_line_error(cli(capsys, monkeypatch, "train", "radscorpion_pnp", "--set", override),
                   *fragments)


def test_a_key_at_the_depth_cap_is_an_unknown_field_not_a_crash():
    with pytest.raises(BestiaryError, match="unknown field"):
        load_config("radscorpion_pnp", [".".join(["ppo"] + ["a"] * 63) + "=1"])


def test_out_must_be_a_folder(capsys, monkeypatch, tmp_path):
    (tmp_path / "afile").write_text("mine\n")
    for out, fragments in (("afile", ["--out afile: a file, not a folder"]),
                           ("afile/run", ["--out afile/run: cannot make the run folder"])):
        one_line_error(cli(capsys, monkeypatch, "train", "radscorpion_pnp", "--out", out),
                       *fragments)
    assert (tmp_path / "afile").read_text() == "mine\n"
    assert sorted(os.listdir(tmp_path)) == ["afile"]


def _run(tmp_path: Path) -> Path:
    run = tmp_path / "run"
    run.mkdir()
    config(run, {"teacher": "packet"}, "config.yaml")
    return run


@pytest.mark.parametrize("make, fragments", [
    (lambda run: os.mkfifo(run / "eval.csv"), ["eval.csv: a named pipe, not a regular file"]),
    (lambda run: os.mkfifo(run / "summary.json"), ["summary.json: a named pipe"]),
    (lambda run: (run / "summary.json").write_text("[" * 100_000),
     ["summary.json: not readable JSON", "nested more than 64 deep"]),
    (lambda run: (run / "summary.json").write_text('{"wall_s": ' + "9" * 5000 + "}"),
     ["summary.json: not readable JSON", "5,000 digits"]),
    (lambda run: (run / "summary.json").write_text('{"wall_s": NaN}'),
     ["summary.json: not readable JSON", "NaN"]),
    (lambda run: (run / "summary.json").symlink_to(run.parent / "precious"),
     ["summary.json is a symbolic link"]),
    (lambda run: (run / "checkpoints").mkdir() or (run / "checkpoints" / "step_9.zip"
                                                  ).symlink_to(run.parent / "precious"),
     ["checkpoints/step_9.zip is a symbolic link"]),
    (lambda run: (run / "league").write_text(""), ["league is a file"]),
    (lambda run: (run / "config.yaml").unlink() or os.mkfifo(run / "config.yaml"),
     ["config.yaml: a named pipe"]),
    (lambda run: (run / "config.yaml").unlink() or (run / "config.yaml").symlink_to("/dev/zero"),
     ["config.yaml is a symbolic link"]),
])
def test_a_run_folder_s_files_are_checked_before_a_resume(capsys, monkeypatch, tmp_path, make,
                                                          fragments):
    (tmp_path / "precious").write_text("mine\n")
    run = _run(tmp_path)
    make(run)
    with pytest.raises(WastelandError) as e:
        prepare_run("mine", [], None, run)
    assert "\n" not in str(e.value)
    for f in fragments:
        assert f in str(e.value), (f, str(e.value))
    one_line_error(cli(capsys, monkeypatch, "train", "mine", "--resume", str(run)), *fragments)
    assert (tmp_path / "precious").read_text() == "mine\n"


def test_export_reads_the_run_s_files_only_if_regular(tmp_path):
    from wasteland.training.checkpoint import read_checkpoint
    from wasteland.training.export import _wall_at, read_summary

    run = _run(tmp_path)
    assert read_summary(run) == {} and _wall_at(run, 0) is None  # none yet: nothing to read
    os.mkfifo(run / "summary.json")
    os.mkfifo(run / "eval.csv")
    os.mkfifo(run / "final.zip")
    with pytest.raises(WastelandError, match="summary.json: a named pipe"):
        read_summary(run)
    with pytest.raises(WastelandError, match="eval.csv: a named pipe"):
        _wall_at(run, 0)
    for path in (run / "final.zip", Path("/dev/zero")):
        with pytest.raises(WastelandError, match="not a regular file"):
            read_checkpoint(path)
