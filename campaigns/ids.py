"""Ids and counts read from request text (a path part, a query or form value)."""

MAX_ID_DIGITS = 18  # fits PostgreSQL's bigint; longer is never a real id


def as_id(value) -> int | None:
    """``value`` as a non-negative whole number if it is one written in ASCII digits with at
    most ``MAX_ID_DIGITS`` digits, else None. (``"²".isdigit()`` is true but ``int("²")``
    raises, and ``10**30`` overflows every integer column: both answered 500.)"""
    text = str(value).strip() if value is not None else ""
    if text.isascii() and text.isdigit() and len(text) <= MAX_ID_DIGITS:
        return int(text)
    return None
