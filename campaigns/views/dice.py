"""Exact odds of a roll, shown before rolling (enumerated, never simulated)."""

from django.shortcuts import render

from rules.dice import DiceError, Distribution


def odds(request):
    """P(exactly k) and P(at least k) for a roll kind and modifier; an htmx partial."""
    kind = request.GET.get("roll_kind") or request.GET.get("kind") or "2d6"
    try:
        modifier = int(request.GET.get("modifier") or 0)
        dist = Distribution.of(kind, modifier=max(-20, min(20, modifier)))
    except (DiceError, ValueError):
        return render(request, "dice/odds.html", {"error": True, "kind": kind})
    rows = [(value, float(p) * 100, float(dist.p_at_least(value)) * 100) for value, p in dist.probs]
    return render(
        request,
        "dice/odds.html",
        {"kind": kind, "modifier": modifier, "rows": rows, "mean": float(dist.mean)},
    )
