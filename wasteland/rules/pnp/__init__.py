"""Fallout PnP (seed 000): Small / Large / Free actions, 3d6 vs Defense."""

from .ruleset import PnP

__all__ = ["PnP"]
