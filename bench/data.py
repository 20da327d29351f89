"""The data the pages are measured on: the database `ledger_bench`, the demo's Stalingrad
campaign played through the services, one scaled campaign and one league per size, by COPY.

Django's and the project's modules are imported inside the functions: they can only be
imported after `setup_django()`, which `run.py` calls once the database exists."""

from __future__ import annotations

import copy
import datetime as dt
import io
import json
import random

import psycopg

from bench.common import (
    DB_NAME,
    EVENTS_PER_BATTLE,
    PG,
    REAL_BATTLES,
    ROLLS_PER_BATTLE,
    Size,
    log,
)

# --- database --------------------------------------------------------------------------------


DROP_DATABASE = f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)'


def _on_postgres(*statements: str) -> None:
    with psycopg.connect(PG + " dbname=postgres", autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)


def recreate_database() -> None:
    _on_postgres(DROP_DATABASE, f'CREATE DATABASE "{DB_NAME}"')


def drop_database() -> None:
    _on_postgres(DROP_DATABASE)


def copy_rows(model, rows) -> int:
    """COPY plain rows (dicts by attname; missing fields get their default) into `model`."""
    from django.db import connection
    from django.db.models import JSONField
    from django.utils import timezone

    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    cols = ", ".join(f'"{f.column}"' for f in fields)
    now = timezone.now()
    n = 0
    sql = f'COPY "{model._meta.db_table}" ({cols}) FROM STDIN'
    with connection.cursor() as cursor, cursor.copy(sql) as cp:
        for row in rows:
            values = []
            for f in fields:
                if f.attname in row:
                    v = row[f.attname]
                elif getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
                    v = now
                else:
                    v = f.get_default()
                if isinstance(f, JSONField) and v is not None:
                    v = json.dumps(v)
                values.append(v)
            cp.write_row(values)
            n += 1
    return n


# --- a real Stalingrad campaign, played through the services -----------------------------------


def answer_all(campaign, demo, rival) -> None:
    from campaigns.services.cc_engine import decision_answer

    for _ in range(60):
        open_ = list(campaign.decisions.filter(status="open").select_related("chooser"))
        if not open_:
            return
        d = open_[0]
        actor = demo if d.chooser is None or d.chooser.order == 0 else rival
        if d.is_roll:
            answer = None
        elif d.is_multiple:
            answer = []
        elif d.is_number:
            answer = 0
        else:
            answer = d.options[0]
        decision_answer(decision=d, actor=actor, answer=answer)
    raise RuntimeError("the campaign kept asking")


def play_real_campaign(rng: random.Random):
    """The demo's Stalingrad campaign, played for REAL_BATTLES battles and set up for the next."""
    from django.contrib.auth import get_user_model

    from campaigns.models import Battle, Campaign
    from campaigns.services.battles import battle_event_record, battle_result_submit, battle_roll
    from campaigns.services.cc_engine import cc_advance

    User = get_user_model()
    demo, rival = User.objects.get(username="demo"), User.objects.get(username="rival")
    campaign = Campaign.objects.get(name="Stalingrad: Mamayev Kurgan")
    germans, soviets = campaign.sides.order_by("order")
    categories = ["time", "vp", "casualty", "casualty", "other", "hero", "battle_harden", "kia"]
    for number in range(1, REAL_BATTLES + 2):
        cc_advance(campaign_id=campaign.pk, actor=demo)
        answer_all(campaign, demo, rival)
        campaign.refresh_from_db()
        battle = Battle.objects.get(campaign=campaign, number=campaign.state["battle"])
        for i in range(EVENTS_PER_BATTLE):
            actor = demo if i % 2 == 0 else rival
            category = rng.choice(categories)
            battle_event_record(
                battle=battle,
                actor=actor,
                category=category,
                text=f"{category} near the grain elevator, turn {i // 2 + 1}",
                vp_delta=rng.choice([1, -1, 2]) if category == "vp" else None,
            )
            if i % 2 == 1 and i // 2 < ROLLS_PER_BATTLE:
                battle_roll(battle=battle, actor=actor, roll_kind="2d6", purpose="Fire attack")
        if number > REAL_BATTLES:
            break  # the last one stays in play
        winner = germans if number % 2 else soviets  # alternate: the campaign goes on
        survivors = {
            "axis": [
                {
                    "id": "g1",
                    "kind": "Rifle squad",
                    "weapon": None,
                    "veteran": False,
                    "leader_of": None,
                }
            ],
            "allies": [
                {
                    "id": "r1",
                    "kind": "Rifle squad",
                    "weapon": None,
                    "veteran": False,
                    "leader_of": None,
                }
            ],
        }
        battle_result_submit(
            battle=battle, actor=demo, winner=winner, details={"survivors": survivors}
        )
        battle_result_submit(
            battle=battle, actor=rival, winner=winner, details={"survivors": survivors}
        )
        answer_all(campaign, demo, rival)
    campaign.refresh_from_db()
    return campaign


def real_stats(campaign) -> str:
    from django.db.models import Count

    from campaigns.models import LogEntry

    entries = LogEntry.objects.filter(campaign=campaign)
    per_battle = dict(
        entries.filter(battle__isnull=False)
        .values_list("battle__number")
        .annotate(n=Count("id"))
        .order_by("battle__number")
    )
    return (
        f"{entries.count()} log entries ({entries.filter(private_to__isnull=False).count()} "
        f"private), {entries.filter(battle__isnull=True).count()} of them outside a battle; "
        f"entries per battle {per_battle}"
    )


def scale_campaign(source, size: Size, battle_entries: int, rng: random.Random):
    """A copy of `source` with `size.battles` battles and `size.entries` log entries, the last
    battle in play with exactly `battle_entries` entries of its own."""
    from django.db import transaction

    from campaigns.models import Battle, Campaign, LogEntry, Side, SidePlayer

    real_battles = list(Battle.objects.filter(campaign=source).order_by("number"))
    real_log = list(
        LogEntry.objects.filter(campaign=source)
        .order_by("seq")
        .values("battle_id", "kind", "actor_id", "private_to_id", "summary", "rule", "data")
    )
    playing = real_battles[-1]
    resolved = real_battles[:-1]
    # chunk k: the entries up to and including battle k's own (procedure entries that have no
    # battle belong to the next battle-linked entry's chunk)
    index = {b.pk: i for i, b in enumerate(real_battles)}
    chunks: list[list[dict]] = [[] for _ in real_battles]
    pending: list[dict] = []
    last = 0
    for e in real_log:
        if e["battle_id"] is None:
            pending.append(e)
            continue
        last = index[e["battle_id"]]
        chunks[last] += [*pending, e]
        pending = []
    chunks[last] += pending

    with transaction.atomic():
        campaign = Campaign.objects.create(
            name=f"Stalingrad at {size.key} ({size.battles} battles, {size.entries} entries)",
            system=source.system,
            template=source.template,
            description=source.description,
            status=source.status,
            visibility=source.visibility,
            club=source.club,
            created_by=source.created_by,
            options=source.options,
            tables=source.tables,
            state={},
        )
        sides = {}
        for side in source.sides.order_by("order"):
            new = Side.objects.create(
                campaign=campaign, name=side.name, faction=side.faction, order=side.order
            )
            sides[side.pk] = new
            for seat in SidePlayer.objects.filter(side=side):
                SidePlayer.objects.create(side=new, user_id=seat.user_id)

        # battles 1..B: 1 and B are the real first and in-play battles, the rest cycle through
        # the real resolved ones after the first
        templates = [resolved[0]] + [
            resolved[1 + (k % max(1, len(resolved) - 1))] if len(resolved) > 1 else resolved[0]
            for k in range(size.battles - 2)
        ]
        templates.append(playing)
        day0 = dt.datetime(2025, 1, 1, tzinfo=dt.UTC)
        new_battles = []
        for number, tpl in enumerate(templates, start=1):
            new_battles.append(
                Battle(
                    campaign=campaign,
                    number=number,
                    position=tpl.position,
                    status=tpl.status,
                    winner=sides.get(tpl.winner_id),
                    result=tpl.result,
                    state_before=tpl.state_before,
                    result_submitted_by_id=tpl.result_submitted_by_id,
                    finished_at=tpl.finished_at and day0 + dt.timedelta(days=number),
                )
            )
        new_battles = Battle.objects.bulk_create(new_battles)

        # the engine state: one record per battle, like a campaign that really got that far
        state = copy.deepcopy(source.state)
        records = state.get("battles", [])
        by_number = {r["number"]: r for r in records}
        new_records = []
        for number, tpl in enumerate(templates, start=1):
            r = copy.deepcopy(by_number.get(tpl.number, records[-1]))
            r["number"] = number
            new_records.append(r)
        state["battles"] = new_records
        state["battle"] = size.battles
        Campaign.objects.filter(pk=campaign.pk).update(state=state)

        # the log: chunk per battle, then padded with that battle's own events and rolls
        plan: list[list[dict]] = []
        for tpl in templates:
            plan.append([dict(e) for e in chunks[index[tpl.pk]]])
        own_last = sum(1 for e in plan[-1] if e["battle_id"] == playing.pk)
        total = sum(len(c) for c in plan)
        pad_last = max(0, battle_entries - own_last)
        pad_rest = max(0, size.entries - total - pad_last)
        per_battle = [pad_rest // max(1, size.battles - 1)] * (size.battles - 1)
        for i in range(pad_rest - sum(per_battle)):
            per_battle[i % len(per_battle)] += 1
        per_battle.append(pad_last)
        rows = []
        seq = number_public = 0
        t = day0
        for chunk, extra, battle, tpl in zip(plan, per_battle, new_battles, templates, strict=True):
            play = [e for e in chunk if e["battle_id"] == tpl.pk and e["kind"] in ("event", "roll")]
            if extra and play:
                # insert the padding after the chunk's last play entry (before the result)
                at = max(i for i, e in enumerate(chunk) if e in play) + 1
                filler = [dict(play[i % len(play)]) for i in range(extra)]
                chunk[at:at] = filler
            for e in chunk:
                seq += 1
                t += dt.timedelta(seconds=rng.randint(20, 200))
                private = sides[e["private_to_id"]].pk if e["private_to_id"] else None
                if private is None:
                    number_public += 1
                rows.append(
                    {
                        "campaign_id": campaign.pk,
                        "battle_id": battle.pk if e["battle_id"] is not None else None,
                        "seq": seq,
                        "number": None if private else number_public,
                        "kind": e["kind"],
                        "actor_id": e["actor_id"],
                        "private_to_id": private,
                        "summary": e["summary"],
                        "rule": e["rule"],
                        "data": e["data"],
                        "created_at": t,
                    }
                )
        copy_rows(LogEntry, rows)
    counts = {
        "entries": len(rows),
        "battle_entries": LogEntry.objects.filter(battle=new_battles[-1]).count(),
        "public": number_public,
    }
    return campaign, new_battles[-1].number, counts


# --- leagues ---------------------------------------------------------------------------------


def build_league(size: Size, rng: random.Random):
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.db.models import Count
    from django.utils import timezone

    from campaigns.models import Club, ClubMembership, LeagueParticipant, Result, ResultPlayer
    from campaigns.services.leagues import league_create

    User = get_user_model()
    demo = User.objects.get(username="demo")
    club = Club.objects.get(slug="demo-wargames-club")
    password = make_password("bench")
    prefix = size.key.lower()
    users = User.objects.bulk_create(
        [User(username=f"{prefix}{i:03d}", password=password) for i in range(size.players)]
    )
    ClubMembership.objects.bulk_create([ClubMembership(club=club, user=u) for u in users])
    league = league_create(
        club=club,
        actor=demo,
        name=f"Bench {size.key}",
        season="1942",
        system="cc",
        tiebreaks=["points", "h2h", "buchholz", "median_buchholz", "owp", "sos", "wins"],
    )
    LeagueParticipant.objects.bulk_create([LeagueParticipant(league=league, user=u) for u in users])
    day0 = dt.date(2020, 1, 1)
    per_day = max(1, size.results // 1000)
    scenarios = [f"Scenario {n}" for n in range(1, 21)]
    now = timezone.now()
    copy_rows(
        Result,
        (
            {
                "league_id": league.pk,
                "played_on": day0 + dt.timedelta(days=i // per_day),
                "scenario": rng.choice(scenarios),
                "side_a": "Germans",
                "side_b": "Soviets",
                "outcome": rng.choice(["a", "a", "b", "b", "draw"]),
                "entered_by_id": demo.pk,
                "created_at": now,
                "updated_at": now,
            }
            for i in range(size.results)
        ),
    )
    ids = list(Result.objects.filter(league=league).order_by("id").values_list("id", flat=True))

    def seats():
        for rid in ids:
            a, b = rng.sample(users, 2)
            yield {"result_id": rid, "user_id": a.pk, "team": "a"}
            yield {"result_id": rid, "user_id": b.pk, "team": "b"}

    copy_rows(ResultPlayer, seats())
    # what the project does after a bulk import of results, where it has such a step (issue 16
    # keeps per-player standings aggregates up to date by the result writes, which COPY skips)
    hooks = []
    try:
        from campaigns.services.standings import standings_rebuild
    except ImportError:
        pass
    else:
        standings_rebuild(league.pk)
        hooks.append("standings_rebuild")
    player = (
        ResultPlayer.objects.filter(result__league=league)
        .values("user__username")
        .annotate(n=Count("id"))
        .order_by("-n", "user__username")
        .first()
    )
    return league, player["user__username"], player["n"], [u.username for u in users], hooks


# --- everything, in order --------------------------------------------------------------------


def build(sizes: list[Size], battle_entries: int, rng: random.Random) -> dict:
    """Migrates the (new) database, loads the demo, plays it and builds every size; answers
    what the report and the pages need, by size key (and "real", "hooks")."""
    from django.core.cache import cache
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", "--noinput", verbosity=0)
    call_command("load_demo", stdout=io.StringIO())
    cache.clear()  # its own Redis database (BENCH_REDIS_URL)
    log(f"playing the demo Stalingrad campaign for {REAL_BATTLES} battles through the services")
    source = play_real_campaign(rng)
    built: dict = {"real": real_stats(source)}
    log(f"  real campaign: {built['real']}")
    for size in sizes:
        log(f"size {size.key}: campaign of {size.battles} battles, {size.entries:,} entries")
        campaign, battle_no, counts = scale_campaign(source, size, battle_entries, rng)
        log(f"size {size.key}: league of {size.results:,} results")
        league, player, player_n, usernames, hooks = build_league(size, rng)
        built["hooks"] = hooks
        built[size.key] = {
            "campaign": campaign.pk,
            "battle": battle_no,
            "counts": counts,
            "league": league.pk,
            "league_obj": league,
            "usernames": usernames,
            "player": player,
            "player_results": player_n,
        }
    log("VACUUM ANALYZE")
    connection.close()
    with psycopg.connect(PG + f" dbname={DB_NAME}", autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
    return built


def close_connections() -> None:
    try:
        from django.db import connections

        connections.close_all()
    except Exception:  # Django may not be set up yet
        pass
