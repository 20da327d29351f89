"""The Spanish catalogue is complete and compiled: no empty or fuzzy entries ship."""

import gettext
import re
from pathlib import Path

from django.utils import translation

LOCALE = Path(__file__).resolve().parents[2] / "locale" / "es" / "LC_MESSAGES"
ENTRY = re.compile(r'^msgid ((?:".*"\n)+)msgstr ((?:".*"\n)+)', re.M)


def _text(block: str) -> str:
    return "".join(re.findall(r'"(.*)"', block))


def test_every_spanish_entry_is_translated_and_none_is_fuzzy():
    po = (LOCALE / "django.po").read_text(encoding="utf-8")
    entries = [(_text(i), _text(s)) for i, s in ENTRY.findall(po) if _text(i)]
    assert len(entries) > 50
    assert [i for i, s in entries if not s] == []
    assert "#, fuzzy" not in po


def test_compiled_catalogue_is_in_step_with_the_source():
    po = (LOCALE / "django.po").read_text(encoding="utf-8")
    with (LOCALE / "django.mo").open("rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    for msgid, msgstr in ((_text(i), _text(s)) for i, s in ENTRY.findall(po)):
        if msgid:
            assert compiled.gettext(_unescape(msgid)) == _unescape(msgstr), msgid
    with translation.override("es"):
        assert translation.gettext("My campaigns") == "Mis campañas"


def _unescape(text: str) -> str:
    return text.replace('\\"', '"').replace("\\n", "\n")
