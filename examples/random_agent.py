"""A Wasteland agent in a few lines of Python (standard library only): it speaks the
agent protocol (docs/protocol.md) on stdin/stdout and picks a legal action at random,
from the seed the engine gives each game.

    wasteland fight --scenario duel --agents "cmd:python examples/random_agent.py,packet"
"""

import json
import random
import sys

rng = random.Random(0)


def send(msg: dict) -> None:
    print(json.dumps(msg), flush=True)


for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        send({"type": "hello", "protocol": "wasteland-agent", "version": 1,
              "name": "random_agent.py"})
    elif msg["type"] == "start":
        rng = random.Random(msg["seed"])
    elif msg["type"] == "decide":
        pick = rng.choice(msg["legal"])
        send({"seq": msg["seq"], "id": pick["id"], "reason": "picked at random"})
    elif msg["type"] == "bye":
        break
