"""The report: a table per size (p50, p95, × the base page's p95, L/S growth), the recompute
and the appended result, as markdown."""

from __future__ import annotations

import os
import platform
import statistics
import subprocess

from bench.common import (
    EVENTS_PER_BATTLE,
    REAL_BATTLES,
    REDIS_URL,
    ROLLS_PER_BATTLE,
    ROOT,
    SLOW_SAMPLES,
    SLOW_SECONDS,
    VERY_SLOW_SECONDS,
)

PAGE_ROWS = [
    ("base", "signed-in base page (/accounts/password/)"),
    ("trivial", "trivial view (/healthz)"),
    ("dashboard", "campaign dashboard"),
    ("battle", "battle page (battle in play, {be} entries)"),
    ("log", "full log"),
    ("history", "campaign history"),
    ("battle_history", "battle history ({be} entries)"),
    ("standings_after", "league standings, first request after a new result"),
    ("standings", "league standings, warm"),
    ("player", "player page ({pn} results)"),
    ("api_log", "API log /api/v1/campaigns/{{id}}/log/"),
    ("api_standings", "API standings /api/v1/leagues/{{id}}/standings/"),
    ("api_results", "API results /api/v1/results/?league={{id}}"),
]


def ms(x: float | None) -> str:
    if x is None:
        return "—"
    return f"{x * 1000:,.1f}" if x < 10 else f"{x * 1000:,.0f}"


def kb(xs: list[int]) -> str:
    if not xs:
        return "—"
    v = statistics.median(xs)
    return f"{v / 1024:,.0f} KB" if v < 10 * 1024 * 1024 else f"{v / 1024 / 1024:,.1f} MB"


def report(args, sizes, built, pages_by, appended, recomputes, runtime, started_at) -> str:
    base = pages_by[("base", "")]
    base95 = base.p(95)
    lines = []
    out = lines.append
    out(f"# `make bench` report ({started_at:%Y-%m-%d %H:%M} UTC)")
    out("")
    commit = subprocess.run(
        ["git", "log", "-1", "--format=%h %s"], capture_output=True, text=True, cwd=ROOT
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "--no-optional-locks", "status", "--porcelain", "--untracked-files=no"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    ).stdout
    changed = sorted({line[3:].strip() for line in dirty.splitlines() if line.strip()})
    note = (
        f" with uncommitted changes to {', '.join(changed)}"
        if 0 < len(changed) <= 8
        else f" with uncommitted changes to {len(changed)} files"
        if changed
        else ""
    )
    out(f"- code: `{ROOT}` at {commit or '?'}{note}")
    out(
        f"- machine: {platform.node()}, {os.cpu_count()} CPUs, Python {platform.python_version()}; "
        "shared with other work, so the figures are noisy: every round visits all pages of both "
        "sizes in a shuffled order, so they all see the same noise"
    )
    out(
        "- served by gunicorn (deploy/gunicorn.conf.py: 2 workers × 2 threads), DJANGO_DEBUG=false, "
        "DJANGO_INSECURE_HTTP=true, PostgreSQL 127.0.0.1:5432/ledger_bench, Redis cache "
        f"({REDIS_URL}); no Celery broker (so /healthz checks the database only)"
    )
    out(
        f"- {args.rounds} rounds of sequential requests signed in as `demo` (session cookie), "
        "after 2 warm-up rounds; p50/p95 are nearest-rank over the samples (n); time is until "
        "the whole body is read"
    )
    out(
        f"- to keep the run short, pages slower than {SLOW_SECONDS:.0f} s at both warm-up visits "
        f"are sampled only {SLOW_SAMPLES} times (their p95 is then the slowest sample), and "
        f"pages slower than {VERY_SLOW_SECONDS:.0f} s at the first visit twice (that visit "
        "and one more)"
    )
    out(
        f'- "first request after a new result": in {args.after_rounds} rounds a result is '
        "first appended with `result_enter` (Celery eager, so the rating task it queues runs "
        "before the request), then the league page is requested"
    )
    out(
        f"- the source: the demo Stalingrad campaign played through the services for "
        f"{REAL_BATTLES} battles and set up for the next ({EVENTS_PER_BATTLE} events and "
        f"{ROLLS_PER_BATTLE} rolls a battle): {built['real']}; each size copies its rows (battle "
        "rows, engine-state records, log chunks per battle, padded with that battle's own events "
        "and rolls) with COPY, `seq` and public `number` renumbered as `append_log` numbers them; "
        "the league rows (results, two seats each, 200 players) by COPY; then VACUUM ANALYZE"
    )
    if built.get("hooks"):
        out(f"- after the league rows were copied: {', '.join(built['hooks'])}")
    out(f"- bench runtime: {runtime / 60:.1f} min (build {built['build_seconds']:.0f} s)")
    out("")
    for size in sizes:
        b = built[size.key]
        out(f"## {size.key}: {size.label}")
        out("")
        out(
            f"Campaign #{b['campaign']}: {b['counts']['entries']:,} log entries "
            f"({b['counts']['public']:,} public), {size.battles} battles, battle {b['battle']} "
            f"in play with {b['counts']['battle_entries']:,} entries. League #{b['league']}: "
            f"{size.results:,} results, {size.players} players; player `{b['player']}` has "
            f"{b['player_results']:,} results."
        )
        out("")
        urls = [
            f"{key} `{page.url}`"
            for (key, sz), page in pages_by.items()
            if sz == size.key and key != "standings_after"
        ]
        out("URLs: " + ", ".join(urls) + ".")
        out("")
        head = "| page | n | p50 ms | p95 ms | × base p95 | size |"
        sep = "|---|---:|---:|---:|---:|---:|"
        if size.key == sizes[-1].key and len(sizes) > 1:
            head += " L/S p95 |"
            sep += "---:|"
        out(head)
        out(sep)
        for key, label in PAGE_ROWS:
            page = pages_by.get((key, "" if key in ("base", "trivial") else size.key))
            if page is None:
                continue
            label = label.format(be=b["counts"]["battle_entries"], pn=b["player_results"])
            p50, p95 = page.p(50), page.p(95)
            ratio = f"{p95 / base95:.1f}×" if p95 and base95 else "—"
            n = f"{len(page.times)}"
            if page.failures:
                n += f" (+{len(page.failures)} failed: {page.failures[0]})"
            row = f"| {label} | {n} | {ms(p50)} | {ms(p95)} | {ratio} | {kb(page.sizes)} |"
            if size.key == sizes[-1].key and len(sizes) > 1:
                small = pages_by.get((key, "" if key in ("base", "trivial") else sizes[0].key))
                s95 = small.p(95) if small else None
                row += f" {p95 / s95:.2f}× |" if p95 and s95 else " — |"
            out(row)
        out("")
        rc = recomputes[size.key]
        out(
            f"- full rating recompute ({size.results:,} results, subprocess): "
            f"**{rc['seconds']:.2f} s**, peak RSS **{rc['peak_rss_mb']:.0f} MB** "
            f"(VmHWM; resident before the call {rc['baseline_rss_mb']:.0f} MB, so "
            f"+{rc['peak_rss_mb'] - rc['baseline_rss_mb']:.0f} MB); {rc['report']}"
        )
        mine = [a for a in appended if a["size"] == size.key]
        if mine:
            totals = sorted(a["total"] for a in mine)
            tasks = sorted(a["tasks"] for a in mine)
            rating = sorted(a["rating"] for a in mine)
            out(
                f"- one appended result (`result_enter`, {len(mine)} times): median "
                f"**{statistics.median(totals) * 1000:,.0f} ms** in all, of which "
                f"{statistics.median(tasks) * 1000:,.0f} ms in the Celery tasks it queued: "
                f"**{statistics.median(rating) * 1000:,.0f} ms** the rating update (Elo and "
                "OpenSkill), the rest computing and caching the standings table; max "
                f"{totals[-1] * 1000:,.0f} ms. (Deployed with a broker, the task runs in a "
                "Celery worker after the request has answered.)"
            )
        out("")
    missing = [p for p in pages_by.values() if not p.times]
    if missing:
        out("## Not measured")
        out("")
        for p in missing:
            out(
                f"- {p.size} {p.key} `{p.url}`: {'; '.join(sorted(set(p.failures))) or 'no sample'}"
            )
        out("")
    return "\n".join(lines)
