"""The arena: agents fought against each other in a round robin over scenarios and
rulesets, their results with intervals and their ratings (`wasteland evaluate`,
docs/arena.md).

``field`` checks and names what is fought, ``fingerprint`` says what a game's result
depends on, ``cache`` keeps results across runs, ``games`` fights one game on the
simulation's fast path, ``tournament`` schedules and runs them, ``scores`` and
``ratings`` turn the results into numbers, ``plot`` into pictures.
"""
