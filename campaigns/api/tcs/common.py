"""What every TCS API view shares with the pages (campaigns/views/tcs/common.py): loading
the operation, a side, a sheet, a unit with the same permission predicates, the page form
checking the body, and a service's refusal as a 400 that always names the problem.

Not visible to the caller (a private operation, another side's secrets) answers 404, as the
pages do; visible but not the caller's to change answers 403.
"""

from __future__ import annotations

from django.core.exceptions import NON_FIELD_ERRORS
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError

from campaigns.ids import as_id
from campaigns.models import Campaign, Side
from campaigns.models.tcs import TCS_TEMPLATE
from campaigns.permissions import (
    Viewer,
    can_act_for_side,
    can_see_tcs_secret,
    can_view_campaign,
    viewer_context,
)
from campaigns.selectors import campaign_with_sides
from campaigns.selectors.tcs import is_finished

CAMPAIGN_PARAM = OpenApiParameter(
    "campaign",
    {"type": "integer", "minimum": 0},  # campaign_filter takes digits only
    description=gettext_lazy("Only this operation (a campaign id)."),
    required=False,
)


def campaign_filter(request, qs):
    raw = request.query_params.get("campaign")
    if raw in (None, ""):
        return qs
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 18):
        raise ValidationError({"campaign": [_("A campaign id is a whole number.")]})
    return qs.filter(campaign_id=int(raw))


def load(request, pk) -> tuple[Campaign, Viewer]:
    """The operation if the caller may see it (else 404), as the pages load it."""
    try:
        campaign = campaign_with_sides(int(pk))
    except (Campaign.DoesNotExist, TypeError, ValueError):
        raise NotFound from None
    if campaign.system != "tcs" or campaign.template != TCS_TEMPLATE:
        raise NotFound
    viewer = viewer_context(request.user, campaign)
    if not can_view_campaign(request.user, campaign, viewer):
        raise NotFound
    return campaign, viewer


def load_side(request, side_pk, *, act: bool = False) -> tuple[Campaign, Viewer, Side]:
    """A side whose secrets the caller may see (else 404); `act`: whose player or neutral
    game master the caller is (else 403)."""
    campaign_id = (
        Side.objects.filter(pk=side_pk).values_list("campaign_id", flat=True).first()
        if as_id(side_pk) is not None
        else None
    )
    if campaign_id is None:
        raise NotFound
    campaign, viewer = load(request, campaign_id)
    side = next((s for s in campaign.sides.all() if s.pk == int(side_pk)), None)
    if side is None or not can_see_tcs_secret(viewer, side, finished=is_finished(campaign)):
        raise NotFound
    if act:
        must_act(viewer, side.pk)
    return campaign, viewer, side


def must_act(viewer: Viewer, side_id: int) -> None:
    if not can_act_for_side(viewer, side_id):
        raise PermissionDenied(_("Only this side's players or a neutral game master may do this."))


def must_take_part(viewer: Viewer) -> None:
    """The page's `viewer.can_manage or viewer.side_ids`."""
    if not (viewer.can_manage or viewer.side_ids):
        raise PermissionDenied(_("Only the operation's players or game master may do this."))


def body(
    request,
    *,
    lists: tuple[str, ...] = (),
    objects: tuple[str, ...] = (),
    dice: bool = False,
) -> dict | QueryDict:
    """The request body for a page form: form-encoded or multipart as it is; a JSON object
    with lists for `lists` fields, objects or lists for `objects` fields (read by the view)
    and single values everywhere else (a list or object there is a 400 naming the field).
    `dice`: the site rolls unless the body says `dice: entered` (the pages' default)."""
    data = request.data
    if isinstance(data, QueryDict):
        data = data if request.FILES else data.copy()
        if dice and "dice" not in data and data._mutable:
            data["dice"] = "server"
        return data
    if not isinstance(data, dict):
        raise ValidationError({"detail": [_("Send a JSON object of the form's fields.")]})
    out = FormBody()
    for key, value in data.items():
        if key in objects:
            continue
        if key in lists:
            out[key] = [str(v) for v in value] if isinstance(value, list) else [value]
        elif isinstance(value, list | dict):
            out.not_scalar.add(key)
        elif isinstance(value, bool):
            out[key] = "true" if value else ""
        else:
            out[key] = value
    if dice:
        out.setdefault("dice", "server")
    return out


class FormBody(dict):
    """A JSON body's single values for a page form; `not_scalar` names the keys that held a
    list or an object (refused by `checked` if the form has such a field, else ignored like
    any field the form does not declare)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.not_scalar: set[str] = set()


def checked(form) -> dict:
    """The form's cleaned data, or a 400 naming each refused field (`detail`: the rest)."""
    wrong = sorted(getattr(form.data, "not_scalar", set()) & set(form.fields))
    if wrong:
        message = _("Give a single value, not a list or an object.")
        raise ValidationError({key: [message] for key in wrong})
    if not form.is_valid():
        raise ValidationError(problems(form.errors))
    return form.cleaned_data


def problems(errors) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for field, messages in errors.items():
        texts = [str(m) for m in messages if str(m)]
        if texts:
            found.setdefault("detail" if field == NON_FIELD_ERRORS else field, []).extend(texts)
    return found or {"detail": [_("Refused: nothing was changed.")]}


def run(service, **kwargs):
    """Call a service; its refusal becomes a 400 that always names the problem."""
    try:
        return service(**kwargs)
    except DjangoValidationError as exc:
        if getattr(exc, "code", None) == "forbidden":
            raise PermissionDenied(exc.messages[0]) from None
        if hasattr(exc, "error_dict"):
            raise ValidationError(problems(exc.message_dict)) from None
        raise ValidationError(problems({NON_FIELD_ERRORS: exc.messages})) from None


def whole(value, field: str) -> int:
    if isinstance(value, bool) or value in (None, ""):
        raise ValidationError({field: [_("A whole number.")]})
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValidationError({field: [_("A whole number.")]}) from None
