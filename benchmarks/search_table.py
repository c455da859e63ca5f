"""The markdown table of benchmarks/search.py runs (their --json files), for docs/search.md.

    .venv/bin/python benchmarks/search_table.py docs/search-runs/*.json
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wasteland.limits import load_json, read_text  # noqa: E402


def rows(paths: list[str]) -> list[str]:
    out = ["| seat | agent | fights | packet | agent | difference [95%] | mean s | p99 s | "
           "longest turn s | bar |", "|---|---|---|---|---|---|---|---|---|---|"]
    for p in paths:
        data = load_json(read_text(p, "results", ValueError), p, ValueError)
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", help="benchmarks/search.py --json files")
    a = ap.parse_args(argv)
    try:
        print("\n".join(rows(a.runs)))
    except (OSError, ValueError, KeyError, TypeError) as e:
        what = f"missing field {e}" if isinstance(e, KeyError) else str(e).splitlines()[0]
        print(f"search_table: not a benchmarks/search.py --json file ({what[:200]})",
              file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
