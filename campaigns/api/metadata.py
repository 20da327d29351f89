"""OPTIONS answers: the allowed methods, and field descriptions only where a view has them.

DRF's ``SimpleMetadata`` asks every view that allows PUT/POST for its serializer; a view
that reads its body itself (exports, actions) has none, and OPTIONS answered 500. Here such
a view simply lists no fields.
"""

from rest_framework.metadata import SimpleMetadata


class LedgerMetadata(SimpleMetadata):
    def determine_actions(self, request, view):
        get_serializer_class = getattr(view, "get_serializer_class", None)
        if get_serializer_class is None:
            return {}
        try:
            get_serializer_class()
        except AssertionError:  # no serializer_class: the body is read by the view itself
            return {}
        return super().determine_actions(request, view)
