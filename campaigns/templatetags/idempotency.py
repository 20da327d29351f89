"""`{% idempotency_field %}`: the hidden one-time token of a form (see campaigns.idempotency).

`{% idempotency_field id="x" %}` gives the input an id; `oob=True` marks it for an htmx
out-of-band swap, so that a partial answer hands the form a fresh token."""

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from campaigns.idempotency import FORM_FIELD, new_token

register = template.Library()


@register.simple_tag
def idempotency_field(id: str = "", oob: bool = False) -> str:
    if not id:
        return format_html('<input type="hidden" name="{}" value="{}">', FORM_FIELD, new_token())
    return format_html(
        '<input type="hidden" name="{}" value="{}" id="{}"{}>',
        FORM_FIELD,
        new_token(),
        id,
        mark_safe(' hx-swap-oob="true"') if oob else "",
    )
