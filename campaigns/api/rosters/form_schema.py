"""The request body of a battle action, for the OpenAPI schema: its page form's fields under
the same names. The form itself checks the body (one validation for pages and API); this
only describes it. Fields a form adds per battle (one per unit, per element) are described
by the form's `api_extra` text."""

from __future__ import annotations

import re

from django import forms
from rest_framework import serializers


def _field(f: forms.Field) -> serializers.Field:
    common = {"required": False, "help_text": str(f.help_text or f.label or "")}
    if isinstance(f, forms.BooleanField):
        return serializers.BooleanField(**common)
    if isinstance(f, forms.IntegerField):
        return serializers.IntegerField(
            min_value=f.min_value, max_value=f.max_value, allow_null=True, **common
        )
    if isinstance(f, forms.FloatField | forms.DecimalField):
        return serializers.FloatField(
            min_value=f.min_value, max_value=f.max_value, allow_null=True, **common
        )
    if isinstance(f, forms.MultipleChoiceField):
        choices = [c for c, _label in f.choices if c != ""]
        child = serializers.ChoiceField(choices=choices) if choices else serializers.CharField()
        return serializers.ListField(child=child, **common)
    if isinstance(f, forms.ChoiceField):
        choices = [c for c, _label in f.choices if c != ""]
        if choices:  # fixed choices; those filled per battle (units, soldiers) are strings
            return serializers.ChoiceField(choices=choices, allow_blank=True, **common)
    if isinstance(f, forms.CharField):
        return serializers.CharField(max_length=f.max_length, allow_blank=True, **common)
    return serializers.JSONField(**common)


_CACHE: dict[str, type[serializers.Serializer]] = {}


def form_serializer(name: str, form_class: type[forms.Form]) -> type[serializers.Serializer]:
    """A serializer describing `form_class`'s fields, named after the action."""
    # drf-spectacular names the request component "<class name>Request"
    component = "".join(p.capitalize() for p in re.split(r"[_\W]+", name)) + "Action"
    if component not in _CACHE:
        attrs = {k: _field(f) for k, f in form_class.base_fields.items()}
        attrs["__doc__"] = (form_class.__doc__ or "").strip() or None
        _CACHE[component] = type(component, (serializers.Serializer,), attrs)
    return _CACHE[component]
