"""Wasteland: Fallout tabletop combat run by AI agents."""

__version__ = "0.1.0"
