"""League creation and settings (points, tie-break order, ratings) and enrolment."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from campaigns.models import Club, ClubMembership, GameSystem, League, LeagueParticipant, bounds
from campaigns.models.leagues import DEFAULT_K_BANDS, DEFAULT_TIEBREAKS
from campaigns.permissions import can_manage_league, is_club_organiser
from campaigns.services.leagues.common import _forbid, _schedule_recompute
from rules.errors import RuleError
from rules.ratings import METRICS, EloConfig


def clean_tiebreaks(value: Any) -> list[str]:
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",") if v.strip()]
    if not isinstance(value, list | tuple) or not value:
        raise ValidationError({"tiebreaks": _("Choose at least one ranking criterion.")})
    unknown = [v for v in value if v not in METRICS]
    if unknown:
        raise ValidationError(
            {
                "tiebreaks": _("Unknown criterion: %(names)s.")
                % {"names": ", ".join(map(str, unknown))}
            }
        )
    if len(set(value)) != len(value):
        raise ValidationError({"tiebreaks": _("A criterion is listed twice.")})
    return list(value)


def clean_k_bands(value: Any) -> list[list[float]]:
    try:
        bands = sorted([float(lo), float(k)] for lo, k in value)  # in any order
        EloConfig(k_bands=tuple((lo, k) for lo, k in bands))
    except (TypeError, ValueError, RuleError):
        raise ValidationError(
            {"elo_k_bands": _("Give rating bands as ascending pairs of lowest rating and K > 0.")}
        ) from None
    if len(bands) > bounds.K_BANDS_MAX:
        raise ValidationError(
            {"elo_k_bands": _("At most %(n)s rating bands.") % {"n": bounds.K_BANDS_MAX}}
        )
    for lo, k in bands:
        if not bounds.in_range(lo, bounds.ELO_RATING) or not bounds.in_range(k, bounds.K_FACTOR):
            raise ValidationError(
                {
                    "elo_k_bands": _(
                        "A band's lowest rating is from %(rlo)s to %(rhi)s and its K from "
                        "%(klo)s to %(khi)s."
                    )
                    % {
                        "rlo": bounds.ELO_RATING[0],
                        "rhi": bounds.ELO_RATING[1],
                        "klo": bounds.K_FACTOR[0],
                        "khi": bounds.K_FACTOR[1],
                    }
                }
            )
    return bands


SETTINGS = (
    "name",
    "season",
    "status",
    "points_win",
    "points_draw",
    "points_loss",
    "tiebreaks",
    "apply_cc_handicap",
    "elo_initial",
    "elo_k_bands",
    "elo_period",
    "balance_min_plays",
)


RATING_SETTINGS = {"elo_initial", "elo_k_bands", "elo_period"}


def _clean_settings(values: dict[str, Any]) -> dict[str, Any]:
    unknown = set(values) - set(SETTINGS)
    if unknown:
        raise ValidationError({sorted(unknown)[0]: _("This setting does not exist.")})
    errors: dict[str, str] = {}
    clean = dict(values)
    for key in ("name", "season"):
        if key in clean:
            clean[key] = str(clean[key]).strip()
            if not clean[key]:
                errors[key] = _("This field is required.")
    for key in ("points_win", "points_draw", "points_loss", "elo_initial"):
        if key in clean:
            try:
                clean[key] = float(clean[key])
                bounds.check_values(League, clean, fields=[key])
            except (TypeError, ValueError, OverflowError):
                errors[key] = _("Enter a number.")
            except ValidationError as exc:
                errors[key] = exc.message_dict[key][0]
    for key in ("name", "season"):
        limit = League._meta.get_field(key).max_length
        if key in clean and len(clean[key]) > limit:
            errors[key] = _("At most %(n)s characters.") % {"n": limit}
    if "status" in clean and clean["status"] not in League.Status.values:
        errors["status"] = _("Choose open or closed.")
    if "elo_period" in clean and clean["elo_period"] not in League.EloPeriod.values:
        errors["elo_period"] = _("Choose per result or per day.")
    if "balance_min_plays" in clean:
        try:
            clean["balance_min_plays"] = int(clean["balance_min_plays"])
            if not bounds.in_range(clean["balance_min_plays"], bounds.BALANCE_MIN_PLAYS):
                raise ValueError
        except (TypeError, ValueError, OverflowError):
            errors["balance_min_plays"] = bounds.range_message(bounds.BALANCE_MIN_PLAYS)
    for key, fn in (("tiebreaks", clean_tiebreaks), ("elo_k_bands", clean_k_bands)):
        if key in clean:
            try:
                clean[key] = fn(clean[key])
            except ValidationError as exc:
                errors.update({k: v[0] for k, v in exc.message_dict.items()})
    if errors:
        raise ValidationError(errors)
    return clean


def league_create(
    *, club: Club, actor, name: str, season: str, system: str, **settings: Any
) -> League:
    """An organiser opens a league for one game system."""
    if not is_club_organiser(actor, club):
        raise ValidationError(_("Only the club's organisers may do this."), code="forbidden")
    if system not in GameSystem.values:
        raise ValidationError({"system": _("Choose one of the game systems.")})
    settings.setdefault("tiebreaks", list(DEFAULT_TIEBREAKS))
    settings.setdefault("elo_k_bands", DEFAULT_K_BANDS)
    clean = _clean_settings({"name": name, "season": season, **settings})
    try:
        with transaction.atomic():
            return League.objects.create(club=club, system=system, created_by=actor, **clean)
    except IntegrityError:
        raise ValidationError(
            {"name": _("The club already has a league with this name and season.")}
        ) from None


def league_update(*, league: League, actor, **changes: Any) -> League:
    """Change settings (tie-break order, points, ratings); rating changes trigger a recompute."""
    _forbid(actor, league)
    clean = _clean_settings(changes)
    try:
        with transaction.atomic():
            for key, value in clean.items():
                setattr(league, key, value)
            league.save(update_fields=list(clean))
            if RATING_SETTINGS & set(clean):
                _schedule_recompute(league.pk)
    except IntegrityError:
        raise ValidationError(
            {"name": _("The club already has a league with this name and season.")}
        ) from None
    return league


def league_participant_add(*, league: League, actor, user, handicapped: bool = False):
    """Enrol a club member (an organiser enrols anyone; a member may enrol himself)."""
    if not (can_manage_league(actor, league) or (actor.pk == user.pk)):
        raise ValidationError(_("Only the club's organisers may do this."), code="forbidden")
    if not ClubMembership.objects.filter(club_id=league.club_id, user=user).exists():
        raise ValidationError({"user": _("Only club members can take part in its leagues.")})
    if league.status != League.Status.OPEN:
        raise ValidationError(_("This league is closed."))
    entry, created = LeagueParticipant.objects.get_or_create(
        league=league, user=user, defaults={"handicapped": handicapped}
    )
    if not created and entry.handicapped != handicapped and can_manage_league(actor, league):
        entry.handicapped = handicapped
        entry.save(update_fields=["handicapped"])
    return entry
