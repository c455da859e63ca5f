"""Shipped learned values: RULESET.npz (weights) and RULESET.json (manifest), made by
``python -m wasteland.training.value``. See docs/search.md, "A learned value"."""
