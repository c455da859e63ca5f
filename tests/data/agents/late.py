"""A test agent that leaves its first request unanswered (the engine times out), answers
it late together with the second (the late reply must be skipped: it names an id that is
never legal), and then plays the first legal action at once."""

import json
import sys


def send(msg: dict) -> None:
    print(json.dumps(msg), flush=True)


first = True
unanswered = None
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        send({"type": "hello", "protocol": "wasteland-agent", "version": 1, "name": "late"})
    elif msg["type"] == "decide":
        if first:
            first, unanswered = False, msg
            continue
        if unanswered is not None:  # the late reply: an id never legal, so that it shows if taken
            send({"seq": unanswered["seq"], "id": 99999})
            unanswered = None
        send({"seq": msg["seq"], "id": msg["legal"][0]["id"]})
