"""One checked way to turn JSON text from a request into Python data.

Used by the API's JSON parser and by every HTML form that takes JSON text, so a body or a
pasted table is refused with a clear message, never a server error, when it is:

- too large (``MAX_JSON_BYTES``),
- nested too deep (``MAX_JSON_DEPTH``: Python's decoder raises ``RecursionError`` on a few
  thousand levels, and nothing this site takes nests more than a handful),
- carrying numbers no field can hold: ``NaN``/``Infinity``, floats that overflow to ``inf``
  (``1e309``) or beyond ``MAX_JSON_NUMBER``, integers beyond ``MAX_JSON_NUMBER``,
- holding NUL or other control characters in a string (PostgreSQL refuses NUL in text).
"""

import json
import math
import re

from django.utils.translation import gettext as _

MAX_JSON_BYTES = 2_000_000  # under Django's DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB)
MAX_JSON_DEPTH = 32
# Integers and floats beyond this fit no field of the site (PostgreSQL's bigint is 9.2e18).
MAX_JSON_NUMBER = 10**15

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")
# C0 control characters except tab, newline and carriage return.
CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
CONTROL_CHARS_STRICT = re.compile(r"[\x00-\x1f\x7f]")


class JSONTextError(ValueError):
    """The JSON text cannot be accepted; ``str(error)`` is the user-facing message."""


def json_depth(text: str) -> int:
    """The deepest nesting of arrays/objects in ``text``, without recursion."""
    depth = deepest = 0
    for match in _BRACKET.finditer(_STRING.sub('""', text)):
        if match.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _parse_float(value: str) -> float:
    number = float(value)
    if not math.isfinite(number) or abs(number) > MAX_JSON_NUMBER:
        raise JSONTextError(
            _("The number %(value)s is out of range (at most %(max)s).")
            % {"value": value[:40], "max": f"{MAX_JSON_NUMBER:.0e}"}
        )
    return number


def _parse_int(value: str) -> int:
    if len(value.lstrip("-")) > 16 or abs(int(value)) > MAX_JSON_NUMBER:
        raise JSONTextError(
            _("The number %(value)s is out of range (at most %(max)s).")
            % {"value": value[:40], "max": f"{MAX_JSON_NUMBER:.0e}"}
        )
    return int(value)


def _parse_constant(value: str):
    raise JSONTextError(_("%(value)s is not a number JSON accepts.") % {"value": value})


def find_control_character(data, *, path: str = "") -> str | None:
    """The location (e.g. ``units[2].name``) of the first string in ``data`` holding a
    control character (tab, newline and carriage return allowed in values), else None."""
    stack = [(path, data)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, str):
            if CONTROL_CHARS.search(value):
                return where or "."
        elif isinstance(value, dict):
            for key, item in value.items():
                name = f"{where}.{key}" if where else str(key)
                if CONTROL_CHARS_STRICT.search(str(key)):
                    return name.encode("unicode_escape").decode()
                stack.append((name, item))
        elif isinstance(value, list):
            stack.extend((f"{where}[{index}]", item) for index, item in enumerate(value))
    return None


def loads_checked(text, *, max_bytes: int = MAX_JSON_BYTES, max_depth: int = MAX_JSON_DEPTH):
    """``json.loads`` with size, depth, number and control-character limits.

    Raises ``JSONTextError`` (a ``ValueError``) with a translated message naming the problem;
    malformed JSON raises it too, so callers need catch only one exception.
    """
    if isinstance(text, bytes | bytearray):
        if len(text) > max_bytes:
            raise JSONTextError(_too_large(max_bytes))
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise JSONTextError(_("The JSON text is not valid UTF-8.")) from error
    elif len(text) > max_bytes:
        raise JSONTextError(_too_large(max_bytes))
    if json_depth(text) > max_depth:
        raise JSONTextError(
            _("The JSON is nested too deeply (at most %(max)s levels).") % {"max": max_depth}
        )
    try:
        data = json.loads(
            text,
            parse_float=_parse_float,
            parse_int=_parse_int,
            parse_constant=_parse_constant,
        )
    except JSONTextError:
        raise
    except (ValueError, RecursionError) as error:
        raise JSONTextError(
            _("The text is not valid JSON: %(error)s") % {"error": error}
        ) from error
    where = find_control_character(data)
    if where is not None:
        raise JSONTextError(
            _("%(where)s contains a NUL or other control character.") % {"where": where}
        )
    return data


def _too_large(max_bytes: int) -> str:
    return _("The JSON text is too large (at most %(max)s bytes).") % {"max": max_bytes}
