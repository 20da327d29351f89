"""The API's JSON parser: one place for the limits every JSON body obeys.

Every operation takes a JSON object (its fields named by the operation's serializer), so a
body that is an array, a string, a number or ``null`` is a 400, as is a body larger than
``MAX_JSON_BYTES``, nested deeper than ``MAX_JSON_DEPTH``, carrying a number no field can
hold, or a string with a NUL or other control character (see ``campaigns.jsontext``).
"""

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser, get_encoding

from campaigns.jsontext import MAX_JSON_BYTES, JSONTextError, loads_checked


class CheckedJSONParser(JSONParser):
    """``JSONParser`` with size, depth, number and shape limits; errors are 400s."""

    max_bytes = MAX_JSON_BYTES

    def parse(self, stream, media_type=None, parser_context=None):
        encoding = get_encoding(parser_context or {})
        raw = stream.read(self.max_bytes + 1) if stream is not None else b""
        if len(raw) > self.max_bytes:
            raise ParseError(
                _("The request body is too large (at most %(max)s bytes).")
                % {"max": self.max_bytes}
            )
        if not raw.strip():
            return {}
        try:
            data = loads_checked(raw.decode(encoding), max_bytes=self.max_bytes)
        except UnicodeDecodeError as error:
            raise ParseError(
                _("The request body is not valid %(encoding)s.") % {"encoding": encoding}
            ) from error
        except JSONTextError as error:
            raise ParseError(str(error)) from error
        if not isinstance(data, dict):
            raise ParseError(_("The request body must be a JSON object of the operation's fields."))
        return data
