"""``python -m bench [--only NAME] [--runs N]``: run the benchmarks, print the table and
write var/bench/results.json."""

from __future__ import annotations

import argparse
import importlib
import platform
import sys
from pathlib import Path

from bench.core import Target, table, write_results

#: name -> module (each has ``run(runs: int) -> list[Target]``), in the order they run
BENCHMARKS = {
    "engine": "bench.engine",
    "ingest": "bench.ingest",
    "growth": "bench.growth",
    "web": "bench.web",
    "memory": "bench.memory",
    "junk": "bench.junk",
    "solver": "bench.solver",
    "legal": "bench.legal",
    "viewer": "bench.viewer_steps",
    "events": "bench.event_detail",
}
RESULTS = Path("var/bench/results.json")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--only", choices=sorted(BENCHMARKS), help="run one benchmark")
    parser.add_argument("--runs", type=int, default=5, help="measurements per target")
    args = parser.parse_args(argv)
    names = [args.only] if args.only else list(BENCHMARKS)
    print(f"machine: {platform.platform()}, Python {platform.python_version()}", flush=True)
    targets: list[Target] = []
    for name in names:
        print(f"== {name}", flush=True)
        module = importlib.import_module(BENCHMARKS[name])
        found = module.run(args.runs)
        print(table(found), flush=True)
        targets.extend(found)
    print("\n" + table(targets))
    write_results(targets, RESULTS)
    print(f"\nwrote {RESULTS}")
    return 0 if all(t.passed for t in targets) else 1


if __name__ == "__main__":
    sys.exit(main())
