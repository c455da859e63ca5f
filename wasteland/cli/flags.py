"""A command's options as one value (issue 43): a frozen dataclass whose fields are typer's
``Annotated`` options and arguments, and the command a function of that one value rather
than of a parameter per flag.

typer reads a command's parameters from its signature (``inspect.signature``) and their
types from its annotations; ``command`` gives the function it registers both, made from
the dataclass's fields, so the flags, their help and their defaults are written once, in
the dataclass, and ``--help`` reads as before.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import typing
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def command(options: type[T], run: Callable[[T], R]) -> Callable[..., R]:
    """The function typer registers for ``run``: it takes the fields of ``options`` (a
    dataclass of typer-annotated fields) as keywords and calls ``run`` with them as one
    ``options`` value. Its name and docstring are ``run``'s (the command and its help)."""
    hints = typing.get_type_hints(options, include_extras=True)
    params = []
    for f in dataclasses.fields(options):  # type: ignore[arg-type]
        default = f.default if f.default is not dataclasses.MISSING else inspect.Parameter.empty
        params.append(inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY,
                                        default=default, annotation=hints[f.name]))

    @functools.wraps(run)
    def cmd(**given: Any) -> R:
        return run(options(**given))

    # read by typer before the wrapped function's own: one parameter per field
    cmd.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    cmd.__annotations__ = {p.name: p.annotation for p in params}
    del cmd.__wrapped__
    return cmd


def given(opts: object, flags: dict[str, str]) -> frozenset[str]:
    """The flags (as ``flags`` spells each field: ``{"--from": "from_save"}``) whose
    fields in ``opts`` were set, that is, are not None."""
    return frozenset(flag for flag, name in flags.items() if getattr(opts, name) is not None)
