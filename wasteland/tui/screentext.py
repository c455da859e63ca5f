"""The screen as plain text, one line per row: what the pilot tests read, and a quick way
to look at a screen without a terminal."""

from __future__ import annotations

from textual.app import App


def screen_text(app: App[object]) -> str:
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text.rstrip() for strip in strips)
