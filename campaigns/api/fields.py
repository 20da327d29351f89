"""Serializer fields the schema describes more exactly than DRF's own."""

from rest_framework import serializers


class DistinctListField(serializers.ListField):
    """A list whose items must all differ (the schema says `uniqueItems`)."""
