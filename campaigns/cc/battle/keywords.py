"""The words a unit line may use ("Rifle Squad; 7; broken; vp 2"), read in English or in the
rulebook's Spanish: each Spanish word stands for its English keyword, accents optional."""

from __future__ import annotations

import unicodedata

SPANISH = {
    "peloton": "squad",
    "equipo": "team",
    "lider": "leader",
    "heroe": "hero",
    "desorganizada": "broken",
    "desorganizado": "broken",
    "aturdida": "suppressed",
    "aturdido": "suppressed",
    "veterana": "veteran",
    "veterano": "veteran",
    "encasillada": "boxed",
    "encasillado": "boxed",
    "movimiento": "moving",
    "superior": "higher",
    "inferior": "lower",
    "alambrada": "wire",
    "agua": "water",
    "estorbo": "hindrance",
    "arma": "weapon",
    "ametralladora": "mg",
    "mortero": "mortar",
    "lanzallamas": "flamethrower",
    "pv": "vp",
    "enemigo": "enemy",
    "infranqueable": "impassable",
    "acantilado": "cliff",
    "minas": "mines",
    "seguro": "safe",
    "fuera": "off",
}


def keyword(word: str) -> str:
    """The English keyword a typed word stands for (the word itself, lower-cased, if none)."""
    plain = "".join(
        c for c in unicodedata.normalize("NFD", word.lower()) if not unicodedata.combining(c)
    )
    return SPANISH.get(plain, word.lower())


def keywords(part: str) -> tuple[str, str]:
    """A line's part as (keyword, the rest): "pv 2" → ("vp", "2"), "Líder L1" → ("leader",
    "L1")."""
    word, _space, rest = part.strip().partition(" ")
    return keyword(word), rest.strip()
