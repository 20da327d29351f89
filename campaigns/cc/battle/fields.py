"""A procedure's inputs, described once for the page's form and the API's serializer.

Every input is bounded (numbers have a range, choices a list, lists a length), so bad input
gets a message in words before any rule runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from django import forms
from django.utils.functional import lazy
from rest_framework import serializers

from campaigns.i18n import say
from rules.i18n import Msg

Kind = Literal["int", "bool", "choice", "text", "lines"]
say_lazy = lazy(say, str)


@dataclass(frozen=True)
class Field:
    """One input: its name, its label in words, its kind and bounds."""

    name: str
    label: Msg
    kind: Kind = "int"
    low: int | None = None
    high: int | None = None
    default: Any = None
    required: bool = True
    choices: tuple[tuple[str, Msg], ...] | Callable[[Any], tuple[tuple[str, Msg], ...]] = ()
    help: Msg | None = None
    max_length: int = 200

    def choice_list(self, context: Any) -> list[tuple[str, str]]:
        found = self.choices(context) if callable(self.choices) else self.choices
        return [(value, say(words)) for value, words in found]

    def form_field(self, context: Any) -> forms.Field:
        common = {
            "label": say_lazy(self.label),
            "required": self.required and self.kind != "bool",
            "help_text": say_lazy(self.help) if self.help else "",
            "initial": self.default,
        }
        if self.kind == "int":
            return forms.IntegerField(
                min_value=self.low,
                max_value=self.high,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                **common,
            )
        if self.kind == "bool":
            return forms.BooleanField(**common)
        if self.kind == "choice":
            return forms.ChoiceField(choices=self.choice_list(context), **common)
        widget = forms.Textarea(attrs={"rows": 3}) if self.kind == "lines" else None
        return forms.CharField(max_length=self.max_length, widget=widget, **common)

    def api_field(self, context: Any) -> serializers.Field:
        common = {
            "required": self.required and self.kind != "bool" and self.default is None,
            "help_text": str(self.help or self.label),
        }
        if not common["required"] and self.default is not None:
            common["default"] = self.default
        if self.kind == "int":
            return serializers.IntegerField(min_value=self.low, max_value=self.high, **common)
        if self.kind == "bool":
            return serializers.BooleanField(
                default=bool(self.default), help_text=common["help_text"]
            )
        if self.kind == "choice":
            values = [value for value, _words in self.choice_list(context) if value]
            if values:
                return serializers.ChoiceField(
                    choices=values, allow_blank=not self.required, **common
                )
            # choices that depend on the battle (its registered units): the rules check them
            return serializers.CharField(
                max_length=self.max_length, allow_blank=not self.required, **common
            )
        return serializers.CharField(
            max_length=self.max_length, allow_blank=not self.required, **common
        )
