"""Input cleaning at one layer: NUL and other control characters never reach a view.

PostgreSQL refuses NUL in text, and no field of the site takes control characters, so a
request whose path, query parameter (name or value) or form field (name or value) holds
one is answered 400 with a message naming where it is, before any view runs: JSON for the
API, a plain page otherwise. Tab, newline and carriage return are allowed in form values
(multi-line notes); nowhere else.

JSON bodies are checked here too, whatever parser the view uses, with
``campaigns.jsontext.loads_checked``: size, nesting depth (deep nesting raised
``RecursionError``), numbers no field can hold, and control characters in strings. The
API's JSON parser (``campaigns.api.parsers``) then also requires an object.

TRACE is answered 405 here for the whole site: no view serves it, and DRF would otherwise
route it to a viewset action named ``trace``.
"""

from django.http import HttpResponse, HttpResponseNotAllowed, JsonResponse, QueryDict
from django.http.multipartparser import MultiPartParserError
from django.utils.translation import gettext as _

from campaigns.jsontext import (
    CONTROL_CHARS,
    CONTROL_CHARS_STRICT,
    MAX_JSON_BYTES,
    JSONTextError,
    loads_checked,
)

ALLOWED_METHODS = ("GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE")
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _printable(text: str) -> str:
    return text[:60].encode("unicode_escape").decode("ascii")


def find_control_character(request) -> str | None:
    """Where in ``request`` the first forbidden control character is, or None."""
    if CONTROL_CHARS_STRICT.search(request.path_info):
        return _("the path")
    for name, values in request.GET.lists():
        if CONTROL_CHARS_STRICT.search(name) or any(CONTROL_CHARS_STRICT.search(v) for v in values):
            return _("the query parameter “%(name)s”") % {"name": _printable(name)}
    for name, values in _form_fields(request):
        if CONTROL_CHARS_STRICT.search(name) or any(CONTROL_CHARS.search(v) for v in values):
            return _("the field “%(name)s”") % {"name": _printable(name)}
    return None


def _form_fields(request):
    content_type = request.content_type or ""
    if content_type not in FORM_TYPES:
        return []
    if request.method == "POST":
        return request.POST.lists()
    if content_type == FORM_TYPES[0]:  # PUT/PATCH/DELETE with a form body
        return QueryDict(request.body, encoding=request.encoding).lists()
    return []


def json_problem(request) -> str | None:
    """The message for a JSON body that cannot be accepted, or None."""
    content_type = request.content_type or ""
    if not (content_type == "application/json" or content_type.endswith("+json")):
        return None
    body = request.body  # over DATA_UPLOAD_MAX_MEMORY_SIZE: Django answers 400 itself
    if len(body) > MAX_JSON_BYTES:
        return _("The request body is too large (at most %(max)s bytes).") % {"max": MAX_JSON_BYTES}
    if not body.strip():
        return None
    try:
        loads_checked(body.decode(request.encoding or "utf-8"))
    except (UnicodeDecodeError, LookupError):
        return _("The request body cannot be decoded as text.")
    except JSONTextError as error:
        return str(error)
    return None


def bad_request(request, message: str) -> HttpResponse:
    if request.path_info.startswith("/api/"):
        return JsonResponse({"detail": message}, status=400)
    return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")


class RefuseBadInputMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method == "TRACE":  # never served (a view may have an action so named)
            return HttpResponseNotAllowed(ALLOWED_METHODS)
        try:
            where = find_control_character(request)
        except MultiPartParserError:
            return bad_request(request, _("The form body cannot be read."))
        if where is not None:
            return bad_request(
                request,
                _("The request contains a NUL or other control character in %(where)s.")
                % {"where": where},
            )
        problem = json_problem(request)
        if problem is not None:
            return bad_request(request, problem)
        return self.get_response(request)
