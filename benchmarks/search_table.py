"""The markdown table of benchmarks/search.py runs (their --json files), for docs/search.md.

    .venv/bin/python benchmarks/search_table.py docs/search-runs/*.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def rows(paths: list[str]) -> list[str]:
    out = ["| seat | agent | fights | packet | agent | difference [95%] | mean s | p99 s | "
           "longest turn s | bar |", "|---|---|---|---|---|---|---|---|---|---|"]
    for p in paths:
        data = json.loads(Path(p).read_text())
        for r in data["rows"]:
            turn = f"{r['turn_max_s']:.2f}" if "turn_max_s" in r else "-"
            extra = ""
            if r.get("mirror"):
                extra = f" (decided {r['decided']}, Wilson lower {r['wilson_lo_decided']:.0%})"
            out.append(
                f"| {r['seat']} | {data['agent']} | {r['fights']} | {r['packet']:.0%} | "
                f"{r['agent']:.0%} | {r['diff'] * 100:+.0f} [{r['lo'] * 100:+.0f}, "
                f"{r['hi'] * 100:+.0f}] | {r['mean_s']:.3f} | {r['p99_s']:.3f} | {turn} | "
                f"{'met' if r.get('bar') else 'missed'}{extra} |")
    return out


if __name__ == "__main__":
    print("\n".join(rows(sys.argv[1:])))
