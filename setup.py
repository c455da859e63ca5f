"""Builds the hot path of a fight with mypyc when it can (see wasteland/_compiled.py).

Everything else about the package is in pyproject.toml. Without mypy or a C compiler, or
with WASTELAND_PURE=1, the package installs as plain Python and plays the same fights,
bit for bit, only slower.
"""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
PKG = HERE / "wasteland"
compiled = runpy.run_path(str(PKG / "_compiled.py"))


def _say(msg: str) -> None:
    print(f"wasteland: {msg}", file=sys.stderr)


# the sources as mypyc reads them: hashed before it translates them, so that a source
# edited while the C compiler runs is seen as newer than the build, not recorded as built
READ: dict[str, str] = {}


def extensions() -> list[Any]:
    if os.environ.get("WASTELAND_PURE"):
        return []
    try:
        from mypyc.build import mypycify

        READ.update(compiled["source_hashes"](PKG))

        # a fixed group name: the editable install maps the shared library by its name,
        # which otherwise is a hash of the module list
        engine = list(mypycify([f"wasteland/{p}" for p in compiled["MODULES"]],
                               opt_level="3", group_name=compiled["GROUP"]))
        # hand-written C beside it (observe/_buffers.c: the env's float32 and mask buffers)
        return engine + [Extension(compiled["module_name"](p[:-2] + ".py"),
                                   [f"wasteland/{p}"], extra_compile_args=["-O2"])
                         for p in compiled["C_SOURCES"]]
    except BaseException as e:  # noqa: BLE001 - mypyc exits on a type error; plain Python then
        _say(f"not compiling the engine ({type(e).__name__}: {e}); it runs as plain Python")
        return []


class OptionalBuildExt(build_ext):
    """A failed compile leaves the plain-Python package, not a failed install; a finished
    one records the hashes of the sources it compiled, so that a stale build is noticed."""

    def run(self) -> None:
        try:
            super().run()
        except BaseException as e:  # noqa: BLE001
            _say(f"compiling the engine failed ({type(e).__name__}: {e}); "
                 "it runs as plain Python")
            self._remove_outputs()
            return
        # nothing compiled (mypyc failed, or WASTELAND_PURE): no record, so that the
        # modules an older build left here are stale rather than taken for this build
        hashes = (READ or compiled["source_hashes"](PKG)) if self.extensions else None
        for where in {PKG, Path(self.build_lib) / "wasteland"}:
            if where.is_dir():
                compiled["record_build"](where, hashes)

    def _remove_outputs(self) -> None:
        for ext in self.extensions:
            for where in (HERE, Path(self.build_lib)):
                path = where / self.get_ext_filename(ext.name)
                if path.exists():
                    path.unlink()


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
