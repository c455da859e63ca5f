"""A test agent that says hello properly, then answers every request badly: by turns
with a line that is not JSON (malformed) and with an action that is not legal (illegal)."""

import json
import sys

n = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": "wasteland-agent", "version": 1,
                          "name": "garbage"}), flush=True)
    elif msg["type"] == "decide":
        n += 1
        if n % 2:
            print("}{ this is not JSON", flush=True)
        else:
            print(json.dumps({"seq": msg["seq"], "action": "dance wildly"}), flush=True)
