"""Shipped trained policies: NAME.npz (weights) and NAME.json (manifest) per policy, made
by ``wasteland export`` from a ``wasteland train`` run. See docs/training.md."""
