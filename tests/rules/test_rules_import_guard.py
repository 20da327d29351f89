"""rules/ is pure Python: importing all of it must not pull in Django, DRF, Celery or the app."""

import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import rules

ROOT = Path(rules.__file__).resolve().parent.parent
FORBIDDEN = ("django", "rest_framework", "celery", "campaigns")

PROBE = """
import importlib, json, pkgutil, sys
import rules
names = [m.name for m in pkgutil.walk_packages(rules.__path__, "rules.")]
for name in names:
    importlib.import_module(name)
bad = sorted({m.split(".")[0] for m in sys.modules} & set(FORBIDDEN))
print(json.dumps({"modules": names, "forbidden": bad}))
"""


def test_every_rules_module_imports_without_django():
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}  # no DJANGO_SETTINGS_MODULE
    out = subprocess.run(
        [sys.executable, "-c", f"FORBIDDEN = {FORBIDDEN!r}\n{PROBE}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(out.stdout.strip().splitlines()[-1])
    expected = [m.name for m in pkgutil.walk_packages(rules.__path__, "rules.")]
    assert report["modules"] == expected and "rules.dice" in expected
    assert report["forbidden"] == [], f"rules/ imported {report['forbidden']}"
