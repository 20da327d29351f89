"""Query filters of the API: a reference filters by id.

django-filter's default for a foreign key checks the id against a queryset and refuses an
unknown one with a 400 ("Select a valid choice"). A filter is a question, not a write: an id
that does not exist, or names an object the caller may not see, lists nothing.
"""

from django import forms
from django.db import models
from django_filters import rest_framework as filters

from campaigns.ids import as_id


class IdFilter(filters.NumberFilter):
    """A whole number (an id): 0.5 or "abc" is refused 400; one no id can be (negative, or
    beyond any integer column) lists nothing."""

    field_class = forms.IntegerField

    def filter(self, qs, value):
        if value is not None and as_id(value) is None:
            return qs.none()
        return super().filter(qs, value)


class LedgerFilterSet(filters.FilterSet):
    FILTER_DEFAULTS = {
        **filters.FilterSet.FILTER_DEFAULTS,
        models.ForeignKey: {"filter_class": IdFilter},
        models.OneToOneField: {"filter_class": IdFilter},
    }


class LedgerFilterBackend(filters.DjangoFilterBackend):
    """Filter sets built from a view's ``filterset_fields`` use ``LedgerFilterSet``."""

    filterset_base = LedgerFilterSet
