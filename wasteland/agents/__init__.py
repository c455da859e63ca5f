"""Agents: whatever picks an action for a combatant."""

from .base import Agent, View
from .make import make_agent
from .random_agent import RandomAgent
from .scripted import ScriptedAgent

__all__ = ["Agent", "View", "make_agent", "RandomAgent", "ScriptedAgent"]
