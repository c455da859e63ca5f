"""A test agent that answers its first request, then exits (code 3) on the second: each
program it is started as crashes once."""

import json
import sys

n = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": "wasteland-agent", "version": 1,
                          "name": "crash"}), flush=True)
    elif msg["type"] == "decide":
        n += 1
        if n == 2:
            sys.exit(3)
        print(json.dumps({"seq": msg["seq"], "action": msg["legal"][0]["action"]}), flush=True)
