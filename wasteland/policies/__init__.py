"""Shipped trained policies: NAME.npz (weights) and NAME.json (manifest) per policy, made
by ``wasteland export`` from a ``wasteland train`` run. See docs/training.md.

Their names are listed here, beside the files, so that the bestiary can check a
scenario's ``policy:NAME`` without importing the agents above it."""

from __future__ import annotations

from pathlib import Path


def shipped_names() -> list[str]:
    """The policies that ship in the package."""
    return sorted(p.name[:-5] for p in Path(__file__).parent.iterdir() if p.name.endswith(".json"))
