"""The benchmark suite's core: a target, measured several times against a baseline
measured in the same run, and the table and JSON it is reported as.

Every target is a ratio to a baseline from the same run on the same machine (these
machines are shared and noisy); absolute figures are reported, never asserted.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(slots=True)
class Target:
    """One target: ``figures`` (one per run) against ``baselines`` (one per run).

    ``ratio`` is figure / baseline (for a cost, where lower is better, baseline /
    figure is not used: the target states the bound the ratio must stay under, see
    ``higher_is_better``)."""

    name: str
    unit: str
    target: float
    figures: list[float] = field(default_factory=list)
    baselines: list[float] = field(default_factory=list)
    baseline_name: str = ""
    higher_is_better: bool = True
    notes: str = ""

    @property
    def figure(self) -> float:
        return statistics.median(self.figures)

    @property
    def baseline(self) -> float:
        return statistics.median(self.baselines)

    @property
    def ratio(self) -> float:
        return self.figure / self.baseline if self.baseline else float("inf")

    @property
    def passed(self) -> bool:
        return self.ratio >= self.target if self.higher_is_better else self.ratio <= self.target

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "figure": self.figure,
            "unit": self.unit,
            "baseline": self.baseline,
            "ratio": self.ratio,
            "target": f"{'>=' if self.higher_is_better else '<='} {self.target}",
            "pass": self.passed,
            "runs": {"figures": self.figures, "baselines": self.baselines},
            "baseline_name": self.baseline_name,
            "notes": self.notes,
        }


def table(targets: Sequence[Target]) -> str:
    """A plain-text table: median, min and max of the figure and the baseline."""
    head = (
        f"{'target':<40} {'median':>12} {'min':>12} {'max':>12} {'unit':<14} "
        f"{'baseline':>12} {'ratio':>7} {'need':>8} pass"
    )
    lines = [head, "-" * len(head)]
    for t in targets:
        need = f"{'>=' if t.higher_is_better else '<='}{t.target:g}"
        lines.append(
            f"{t.name:<40} {t.figure:>12.4g} {min(t.figures):>12.4g} {max(t.figures):>12.4g} "
            f"{t.unit:<14} {t.baseline:>12.4g} {t.ratio:>7.2f} {need:>8} "
            f"{'yes' if t.passed else 'NO'}"
        )
    return "\n".join(lines)


def write_results(targets: Sequence[Target], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps([t.as_json() for t in targets], indent=2) + "\n")


#: a benchmark: runs its measurements and returns its targets
Benchmark = Callable[[int], list[Target]]
