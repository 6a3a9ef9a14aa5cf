"""OpenSkill's Plackett–Luce update (``openskill.models.PlackettLuce.rate`` with ranks,
no weights, scores or balance) on plain floats, giving exactly its doubles.

``PlackettLuce.rate`` checks its arguments, deep-copies the teams and makes a rating
object (with a fresh UUID) per player; for the small tables of card games that costs
several times the arithmetic.  :func:`rate` does the same arithmetic in the same order
(so the same floats: tests/ratings/test_ratings_plackett_luce.py compares them on random
tables), for a model with OpenSkill's default options; :func:`supports` says whether a
model is one (ratings/run.py falls back to the model's own ``rate`` otherwise).

One quirk kept on purpose: OpenSkill averages the change of mu over tied sides after
it has already written the new mu into the objects it compares, so the average is
always 0 and ties change nothing there (the per-side update already treats them alike).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

#: a player's (mu, sigma)
Skill = tuple[float, float]


def supports(model: Any) -> bool:
    """Whether :func:`rate` computes what ``model.rate(teams, ranks=...)`` does: an
    OpenSkill PlackettLuce with the default gamma and no sigma limit, balance, margin."""
    from openskill.models import PlackettLuce
    from openskill.models.weng_lin import plackett_luce

    return (
        type(model) is PlackettLuce
        and model.gamma is plackett_luce._gamma
        and not model.limit_sigma
        and not model.balance
        and model.margin == 0.0
    )


def rate(model: Any, teams: Sequence[Sequence[Skill]], ranks: Sequence[int]) -> list[list[Skill]]:
    """The new (mu, sigma) of every player of ``teams`` (in their order) after a game
    the teams finished in ``ranks`` (lower is better; equal ranks tie).  Needs two teams
    or more, each of one player or more."""
    tau_squared = model.tau * model.tau
    # as rate(): sigma widened by tau, teams sorted by rank (stably), ranks sorted
    widened = [[(mu, math.sqrt(sigma * sigma + tau_squared)) for mu, sigma in t] for t in teams]
    order = sorted(range(len(teams)), key=lambda i: ranks[i])
    ordered = [widened[i] for i in order]
    sorted_ranks = [int(r) for r in sorted(ranks)]
    result = _compute(model, ordered, sorted_ranks)
    out: list[list[Skill]] = [[] for _ in teams]
    for position, i in enumerate(order):
        out[i] = result[position]
    return out


def _team(team: Sequence[Skill]) -> tuple[float, float]:
    """A team's summed mu and sigma² (players by ordinal, highest first, as OpenSkill
    adds them; its balance weight, 1, multiplies exactly and is left out)."""
    by_ordinal = sorted(team, key=lambda p: (p[0] - 3.0 * p[1]) + 0.0, reverse=True)
    mu = 0.0
    sigma_squared = 0.0
    for p_mu, p_sigma in by_ordinal:
        mu += p_mu
        sigma_squared += p_sigma**2
    return mu, sigma_squared


def _compute(model: Any, teams: list[list[Skill]], ranks: list[int]) -> list[list[Skill]]:
    sums = [_team(t) for t in teams]
    beta_squared = model.beta**2
    collective = 0.0
    for _, sigma_squared in sums:
        collective += sigma_squared + beta_squared
    c = math.sqrt(collective)
    n = len(teams)
    exps = [math.exp(mu / c) for mu, _ in sums]
    sum_q = [0.0] * n
    seen = [False] * n
    for i in range(n):
        for q in range(n):
            if ranks[i] >= ranks[q]:
                sum_q[q] = sum_q[q] + exps[i] if seen[q] else exps[i]
                seen[q] = True
    a = [sum(1 for r in ranks if r == rank) for rank in ranks]
    result: list[list[Skill]] = []
    for i in range(n):
        sigma_squared_i = sums[i][1]
        omega = 0.0
        delta = 0.0
        i_mu_over_c = exps[i]
        for q in range(n):
            x = i_mu_over_c / sum_q[q]
            if ranks[q] <= ranks[i]:
                delta += x * (1 - x) / a[q]
                if q == i:
                    omega += (1 - x) / a[q]
                else:
                    omega -= x / a[q]
        omega *= sigma_squared_i / c
        delta *= sigma_squared_i / c**2
        delta *= math.sqrt(sigma_squared_i) / c
        team: list[Skill] = []
        for mu, sigma in teams[i]:
            # OpenSkill multiplies (omega >= 0) or divides by the player's weight, 1:
            # exact either way, so left out
            share = sigma**2 / sigma_squared_i
            team.append(
                (mu + share * omega, sigma * math.sqrt(max(1 - share * delta, model.kappa)))
            )
        result.append(team)
    for rank in set(ranks):
        tied = [i for i in range(n) if ranks[i] == rank]
        if len(tied) > 1:
            result = [
                [(mu + 0.0, sigma) for mu, sigma in t] if i in tied else t
                for i, t in enumerate(result)
            ]
    return result
