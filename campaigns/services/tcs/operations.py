"""Setting an operation up: the operation and its sides' Command Prep settings [6.9.a, 6.9.f],
the order of battle by form or CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.i18n import say_problems
from campaigns.jsontext import CONTROL_CHARS
from campaigns.models import Campaign, LogEntry, Side, bounds
from campaigns.models.tcs import TCS_TEMPLATE, TcsFormation, TcsSide, TcsUnit
from campaigns.services._base import append_log
from campaigns.services.campaigns import campaign_create, side_join
from campaigns.services.tcs.common import MAX_RATING, check_code, parse_clock, side_write
from rules.errors import TableDataError
from rules.i18n import Msg, msg, nmsg
from rules.tcs.clock import Light, Turn
from rules.tcs.command_prep import CommandPrepTable
from rules.tcs.morale import BattalionMorale
from rules.tcs.vehicle_morale import Box, BoxShape

CSV_COLUMNS = (
    "type",
    "id",
    "name",
    "formation",
    "category",
    "steps",
    "morale",
    "battalion",
    "track",
)


def tcs_operation_create(
    *,
    creator,
    name: str,
    side_names: list[str],
    ratings: list[int],
    start_clock: str = "0800",
    light: str = Light.DAY,
    visibility: str = Campaign.Visibility.PRIVATE,
    description: str = "",
    creator_side: int | None = None,
    club=None,
) -> Campaign:
    """An operation with two sides and their Command Prep ratings [6.9.a].

    `creator_side` seats the creator on that side (0 or 1); None makes them a neutral game
    master who sees every side's op sheets.
    """
    errors: dict[str, str] = {}
    if len([n for n in side_names if n.strip()]) != 2:
        errors["side_names"] = _("A TCS operation has two sides.")
    if len(ratings) != 2 or any(not 0 <= r <= MAX_RATING for r in ratings):
        errors["ratings"] = _("Each Command Prep rating is a whole number from 0 to 12.")
    if light not in {x.value for x in Light}:
        errors["light"] = _("Choose the light condition.")
    if creator_side not in (None, 0, 1):
        errors["creator_side"] = _("Choose a side or the game master.")
    try:
        minutes = parse_clock(start_clock)
    except ValidationError as exc:
        errors.update({k: v[0] for k, v in exc.message_dict.items()})
        minutes = 0
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        campaign = campaign_create(
            creator=creator,
            name=name,
            system="tcs",
            side_names=side_names,
            template=TCS_TEMPLATE,
            description=description,
            visibility=visibility,
            club=club,
            as_game_master=creator_side is None,
        )
        campaign.state = {"turn": Turn(0, minutes, Light(light)).to_dict()}
        campaign.save(update_fields=["state", "updated_at"])
        sides = list(campaign.sides.order_by("order"))
        TcsSide.objects.bulk_create(
            TcsSide(side=s, rating=r) for s, r in zip(sides, ratings, strict=True)
        )
        append_log(
            campaign,
            kind=LogEntry.Kind.SETUP,
            summary=msg(
                "TCS operation set up: %(a)s rated %(ra)s, %(b)s rated %(rb)s; play starts at %(clock)s.",
                a=sides[0].name,
                ra=ratings[0],
                b=sides[1].name,
                rb=ratings[1],
                clock=Turn(1, minutes).clock,
            ),
            rule="6.9.a",
            actor=creator,
        )
        if creator_side is not None:
            side_join(user=creator, side=sides[creator_side])
    return campaign


def tcs_side_update(*, side: Side, actor, rating: int, table: Any | None) -> TcsSide:
    """Set the Command Prep rating and the (optional) Command Prep Table, validated with
    `COMMAND_PREP_SCHEMA`; a bad table changes nothing and names every problem."""
    if not 0 <= rating <= MAX_RATING:
        raise ValidationError({"rating": _("A rating is a whole number from 0 to 12.")})
    if table:
        try:
            table = CommandPrepTable.from_data(table).to_data()
        except TableDataError as exc:
            raise ValidationError({"prep_table": say_problems(exc.problems)}) from None
    else:
        table = None
    bounds.check_values(TcsSide, {"prep_table": table})
    with side_write(side, side.campaign_id, actor) as campaign:
        settings, _created = TcsSide.objects.get_or_create(side=side)
        settings.rating, settings.prep_table = rating, table
        settings.save()
        append_log(
            campaign,
            kind=LogEntry.Kind.SETUP,
            summary=msg(
                "%(side)s: Command Prep rating %(r)s; %(table)s.",
                side=side.name,
                r=rating,
                table=msg("Command Prep Table entered")
                if table
                else msg("thresholds read off the printed chart"),
            ),
            rule="6.9.f",
            actor=actor,
            private_to=side,
            data={"tcs": {"side": side.pk}},
        )
    return settings


# --- order of battle ------------------------------------------------------------------------


def parse_track(text: str) -> list[dict[str, Any]]:
    """ "0 1 1 2": 0 is a circle, n a square worth n [17.8.a]."""
    boxes = []
    for part in text.replace(",", " ").split():
        if not part.isdecimal():
            raise ValidationError(
                {"track": _("Write the track as numbers: 0 for a circle, 1–3 for a square.")}
            )
        points = int(part)
        if not bounds.in_range(points, bounds.TRACK_BOX_POINTS):
            raise ValidationError(
                {"track": _("Write the track as numbers: 0 for a circle, 1–3 for a square.")}
            )
        shape = BoxShape.CIRCLE if points == 0 else BoxShape.SQUARE
        boxes.append(Box(shape, points).to_dict())
    if not boxes:
        raise ValidationError({"track": _("A vehicle formation needs its morale track boxes.")})
    if len(boxes) > bounds.TRACK_BOXES_MAX:
        raise ValidationError(
            {"track": _("At most %(n)s boxes on a track.") % {"n": bounds.TRACK_BOXES_MAX}}
        )
    return boxes


def _formation_state(code: str, morale: str, track: str, start_value: int) -> dict:
    if morale == TcsFormation.Morale.BATTALION:
        if start_value < 0:
            raise ValidationError({"start_value": _("Battalion morale is never below 0.")})
        if not bounds.in_range(start_value, bounds.MORALE):
            raise ValidationError({"start_value": bounds.range_message(bounds.MORALE)})
        return BattalionMorale(code, value=start_value).to_dict()
    if morale == TcsFormation.Morale.VEHICLE:
        return {
            "boxes": parse_track(track),
            "steps_lost": 0,
            "filled": 0,
            "value": 0,
            "recorded": [],
        }
    return {}


def _add_formation(campaign, side, *, code, name, morale, is_battalion, track, start_value, order):
    code = check_code(code, "code")
    if morale not in TcsFormation.Morale.values:
        raise ValidationError({"morale": _("Choose battalion, vehicle or no morale.")})
    bounds.check_values(TcsFormation, {"name": name.strip()})
    if TcsFormation.objects.filter(campaign=campaign, code=code).exists():
        raise ValidationError({"code": _("Formation %(c)s already exists.") % {"c": code}})
    return TcsFormation.objects.create(
        campaign=campaign,
        side=side,
        code=code,
        name=name.strip(),
        morale=morale,
        is_battalion=is_battalion,
        state=_formation_state(code, morale, track, start_value),
        history=[],
        order=order,
    )


def _add_unit(campaign, side, *, code, formation, category, steps, order, morale=None):
    code = check_code(code, "code")
    if morale is not None and not bounds.in_range(morale, bounds.UNIT_MORALE):
        raise ValidationError(
            {
                "morale": _("A printed morale is %(lo)s to %(hi)s.")
                % {"lo": bounds.UNIT_MORALE[0], "hi": bounds.UNIT_MORALE[1]}
            }
        )
    if category not in TcsUnit.Category.values:
        raise ValidationError(
            {"category": _("Choose infantry, heavy weapon, vehicle or transport.")}
        )
    if not bounds.in_range(steps, bounds.STEPS):
        raise ValidationError(
            {
                "steps": _("A unit has %(lo)s to %(hi)s steps.")
                % {"lo": bounds.STEPS[0], "hi": bounds.STEPS[1]}
            }
        )
    if TcsUnit.objects.filter(campaign=campaign, code=code).exists():
        raise ValidationError({"code": _("Unit %(c)s already exists.") % {"c": code}})
    if formation is not None and formation.side_id != side.pk:
        raise ValidationError({"formation": _("Choose one of this side's formations.")})
    if (
        formation is not None
        and formation.morale == TcsFormation.Morale.VEHICLE
        and category != TcsUnit.Category.VEHICLE
    ):
        raise ValidationError(
            {"category": _("Only vehicles belong to a vehicle-morale formation [17.8].")}
        )
    return TcsUnit.objects.create(
        campaign=campaign,
        side=side,
        formation=formation,
        code=code,
        category=category,
        steps=steps,
        order=order,
        morale=morale,
    )


def _log_oob(campaign, side, actor, what: Msg) -> None:
    append_log(
        campaign,
        kind=LogEntry.Kind.SETUP,
        summary=msg("%(side)s order of battle: %(what)s.", side=side.name, what=what),
        actor=actor,
        private_to=side,
        data={"tcs": {"side": side.pk}},
    )


def _oob_add(side: Side, actor, add: Callable[..., Any], what: Callable[[str], Msg], **fields):
    """Add one formation or unit at the end of the side's list, logged privately (`what`
    gives the log's words for the added code)."""
    model = TcsFormation if add is _add_formation else TcsUnit
    with side_write(side, side.campaign_id, actor) as campaign:
        order = model.objects.filter(side=side).count()
        added = add(campaign, side, order=order, **fields)
        _log_oob(campaign, side, actor, what(added.code))
    return added


def tcs_formation_add(
    *,
    side: Side,
    actor,
    code: str,
    name: str = "",
    morale: str,
    is_battalion: bool = False,
    track: str = "",
    start_value: int = 0,
) -> TcsFormation:
    fields = {"name": name, "morale": morale, "is_battalion": is_battalion, "track": track}
    return _oob_add(
        side,
        actor,
        _add_formation,
        lambda c: msg("formation %(c)s added", c=c),
        code=code,
        start_value=start_value,
        **fields,
    )


def tcs_unit_add(
    *,
    side: Side,
    actor,
    code: str,
    formation: TcsFormation | None,
    category: str,
    steps: int,
    morale: int | None = None,
) -> TcsUnit:
    """One unit; `morale` is its printed morale [17.2] (empty: typed at each check)."""
    fields = {"formation": formation, "category": category, "steps": steps, "morale": morale}
    return _oob_add(
        side, actor, _add_unit, lambda c: msg("unit %(c)s added", c=c), code=code, **fields
    )


def _whole(text: str, field: str) -> int:
    """A CSV cell that must hold a whole number; a word is reported as not a number."""
    try:
        return int(text)
    except ValueError:
        raise ValidationError(
            {field: _("“%(v)s” is not a whole number.") % {"v": text or "—"}}
        ) from None


def _csv_row(campaign, side, row, formations, orders, added) -> None:
    """Add the formation or unit of one CSV row (errors are ValidationErrors by field)."""
    if row.get("type") == "formation":
        start = _whole(row.get("steps") or "0", "steps")
        f = _add_formation(
            campaign,
            side,
            code=row.get("id", ""),
            name=row.get("name", ""),
            morale=row.get("morale", "") or "none",
            is_battalion=row.get("battalion", "").lower() in ("1", "yes", "true", "y"),
            track=row.get("track", ""),
            start_value=start,
            order=orders[0],
        )
        formations[f.code] = f
        orders[0] += 1
        added[0] += 1
    elif row.get("type") == "unit":
        fcode = row.get("formation", "")
        if fcode and fcode not in formations:
            raise ValidationError({"formation": _("unknown formation %(f)s") % {"f": fcode}})
        steps = _whole(row.get("steps", ""), "steps")
        morale = row.get("morale", "").strip()
        _add_unit(
            campaign,
            side,
            code=row.get("id", ""),
            formation=formations.get(fcode),
            category=row.get("category", ""),
            steps=steps,
            order=orders[1],
            morale=_whole(morale, "morale") if morale else None,
        )
        orders[1] += 1
        added[1] += 1
    else:
        raise ValidationError({"type": _("must be “formation” or “unit”")})


def _counts(formations: int, units: int) -> Msg:
    return msg(
        "%(f)s and %(u)s",
        f=nmsg("%(n)s formation", "%(n)s formations", formations),
        u=nmsg("%(n)s unit", "%(n)s units", units),
    )


def imported_words(formations: int, units: int) -> Msg:
    """What a player is told after a CSV import, with the counts in the right plural."""
    return msg("Imported %(what)s.", what=_counts(formations, units))


def tcs_oob_import(*, side: Side, actor, text: str) -> tuple[int, int]:
    """Import formations and units from CSV (`CSV_COLUMNS`); all rows or none.

    Errors name their row: "row 3: category must be …". Returns (formations, units) added.
    """
    if CONTROL_CHARS.search(text):  # PostgreSQL refuses NUL in text
        raise ValidationError({"csv": _("The file contains a NUL or other control character.")})
    reader = csv.DictReader(io.StringIO(text.strip()))
    try:
        header = [h.strip().lower() for h in reader.fieldnames or []]
        rows = [
            {(k or "").strip().lower(): (v or "").strip() for k, v in row.items()} for row in reader
        ]
    except csv.Error as err:  # e.g. a field over the csv module's size limit
        raise ValidationError({"csv": _("Not a readable CSV file: %(e)s") % {"e": err}}) from None
    missing = [c for c in ("type", "id") if c not in header]
    if missing:
        raise ValidationError(
            {
                "csv": _("The first line must name the columns: %(cols)s.")
                % {"cols": ", ".join(CSV_COLUMNS)}
            }
        )
    if not rows:
        raise ValidationError({"csv": _("The file has no rows under its header.")})
    problems: list[str] = []
    added = [0, 0]
    with side_write(side, side.campaign_id, actor) as campaign:
        orders = [
            TcsFormation.objects.filter(side=side).count(),
            TcsUnit.objects.filter(side=side).count(),
        ]
        formations = {f.code: f for f in TcsFormation.objects.filter(side=side)}
        sid = transaction.savepoint()
        for number, row in enumerate(rows, start=2):
            try:
                _csv_row(campaign, side, row, formations, orders, added)
            except ValidationError as exc:
                for field, messages in exc.message_dict.items():
                    problems.extend(
                        _("row %(n)s, %(field)s: %(msg)s") % {"n": number, "field": field, "msg": m}
                        for m in messages
                    )
        if problems:
            transaction.savepoint_rollback(sid)
            raise ValidationError({"csv": problems})
        transaction.savepoint_commit(sid)
        _log_oob(
            campaign,
            side,
            actor,
            msg("imported %(what)s", what=_counts(*added)),
        )
    return added[0], added[1]
