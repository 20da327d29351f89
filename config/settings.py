"""Django settings, read from the environment (django-environ).

With no environment at all the site runs embedded: SQLite in the project directory, Celery
tasks executed eagerly in-process, DEBUG on. Production sets DJANGO_DEBUG=false and the
variables listed in README.md.
"""

from datetime import timedelta
from pathlib import Path

import environ
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("DJANGO_DEBUG", default=True)
SECRET_KEY = env.str(
    "DJANGO_SECRET_KEY",
    default="insecure-dev-key-only-for-the-embedded-default" if DEBUG else environ.Env.NOTSET,
)
ALLOWED_HOSTS = env.list(
    "DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]", "testserver"]
)
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "template_partials",
    "django_celery_beat",
    "axes",
    "csp",
    "campaigns",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Before whitenoise, so static files get the CSP and Permissions-Policy headers too.
    "csp.middleware.CSPMiddleware",
    "campaigns.security.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # NUL/control characters in paths, queries, bodies; JSON limits; TRACE (campaigns/middleware.py)
    "campaigns.middleware.RefuseBadInputMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last: turns a sign-in that axes flagged as locked out into the 429 answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "campaigns.views.inbox.inbox_badge",
            ],
        },
    },
]

# --- Database: SQLite file by default, PostgreSQL (psycopg 3) when DATABASE_URL says so.
DATABASES = {
    "default": env.db_url("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
else:
    # IMMEDIATE transactions take SQLite's write lock up front, so two writers queue instead
    # of both reading and then one failing; `timeout` is how long the second one waits.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    )
DATABASES["default"]["ATOMIC_REQUESTS"] = False
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# AxesStandaloneBackend first: it refuses a locked-out username+address before any password
# is checked (django-axes; the login page and the API token endpoint go through it).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# --- Internationalisation: English and Spanish.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env.str("DJANGO_TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

# --- Static files, served by whitenoise.
STATIC_URL = "static/"
STATIC_ROOT = env.path("DJANGO_STATIC_ROOT", default=BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "media/"
MEDIA_ROOT = env.path("DJANGO_MEDIA_ROOT", default=BASE_DIR / "media")
# Uploads only their owners may see (TCS op-sheet graphics): never under MEDIA_ROOT, which the
# web server publishes; served through permission-checked views.
PRIVATE_MEDIA_ROOT = env.path("DJANGO_PRIVATE_MEDIA_ROOT", default=BASE_DIR / "private-media")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# --- Cache: Redis when configured, local memory otherwise.
REDIS_CACHE_URL = env.str("REDIS_CACHE_URL", default="")
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_CACHE_URL,
    }
    if REDIS_CACHE_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
}

# --- E-mail notices: printed to the console unless SMTP is configured in the environment
# (DJANGO_EMAIL_URL, e.g. smtp+tls://user:password@mail.example.org:587).
EMAIL_CONFIG = env.email_url("DJANGO_EMAIL_URL", default="consolemail://")
vars().update(EMAIL_CONFIG)
DEFAULT_FROM_EMAIL = env.str(
    "DJANGO_DEFAULT_FROM_EMAIL", default="Campaign Ledger <noreply@localhost>"
)
SITE_URL = env.str("DJANGO_SITE_URL", default="http://localhost:8000")

# --- Celery: eager in-process without a broker, a real broker when CELERY_BROKER_URL is set.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default=CELERY_BROKER_URL or None)
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Worker loss (README, "Background work"): a message is acknowledged only when its task has
# finished, and one whose worker process died is put back on the queue at once; a worker
# reserves one message per process, so a dead worker takes no queued work down with it.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Every task is short (a battle resolution has its own, shorter limits in campaigns/tasks.py).
CELERY_TASK_SOFT_TIME_LIMIT = 100
CELERY_TASK_TIME_LIMIT = 120
# Redis gives an unacknowledged message to another worker after `visibility_timeout` (the
# default is an hour): longer than any task may run, so a running task is never handed out
# twice, and short enough that the message of a worker killed outright comes back within
# minutes. Workers look for such messages every 10 s. (Never queue a task with a countdown
# or ETA longer than this: Redis would hand it out again before it is due.)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 180,
    "unacked_restore_interval": 10,
    "unacked_restore_throttle": 1,
}
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# Beat's DatabaseScheduler writes these into its tables when it starts (enabled the first
# time; disabling one in the admin sticks): a fresh install needs no data migration. The sweep
# queues again, within about a minute, a battle resolution whose worker died
# (campaigns/services/resolution.py; keep SWEEP_EVERY there equal to this interval).
CELERY_BEAT_SCHEDULE = {
    "campaigns.sweep_stuck_resolutions": {
        "task": "campaigns.sweep_stuck_resolutions",
        "schedule": 60.0,
    },
}

# --- REST API.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": [
        "campaigns.api.filters.LedgerFilterBackend",
        "rest_framework.filters.OrderingFilter",
    ],
    "DEFAULT_SCHEMA_CLASS": "campaigns.api.schema.LedgerAutoSchema",
    # JSON bodies: objects only, with size, depth and number limits (campaigns/api/parsers.py).
    "DEFAULT_PARSER_CLASSES": ["campaigns.api.parsers.CheckedJSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_METADATA_CLASS": "campaigns.api.metadata.LedgerMetadata",
    "EXCEPTION_HANDLER": "campaigns.api.errors.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Campaign Ledger API",
    "DESCRIPTION": "Campaigns, rosters, battles and leagues for WWII tabletop wargames.",
    "VERSION": "1",
    # 3.1: JSON Schema's `propertyNames` says which keys a free-form object takes.
    "OAS_VERSION": "3.1.0",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "OnOffEnum": "campaigns.rosters.forms.play.ON_OFF_VALUES",
        "M36CoverEnum": "campaigns.rosters.forms.m36_play.COVER_VALUES",
        "CoverGradeEnum": "campaigns.rosters.forms.parabellum.COVER_GRADES",
        "RosterSystemEnum": "campaigns.models.rosters.RosterSystem",
        "GameSystemEnum": "campaigns.models.core.GameSystem",
        "ClubRoleEnum": "campaigns.models.core.ClubMembership.Role",
        "CreatorSeatEnum": "campaigns.api.cc.serializers.ROLES",
        "FactionEnum": "campaigns.api.cc.tracker.FACTIONS",
        "CounterKindEnum": "campaigns.cc.battle.rolls.KIND_VALUES",
        "CardTriggerEnum": "campaigns.cc.battle.rolls.TRIGGER_VALUES",
        "AttackTriggerEnum": "campaigns.cc.battle.fire.ATTACK_TRIGGER_VALUES",
        "ChitFaceEnum": "campaigns.cc.battle.chits.FACE_VALUES",
        "FireKindEnum": "campaigns.cc.battle.group.FIRE_KIND_VALUES",
        "MeleeSideEnum": "campaigns.cc.battle.melee_cards.WHO_VALUES",
        "CardNationEnum": "campaigns.cc.battle.melee.NATION_VALUES",
        "DiceModeEnum": "campaigns.api.tcs.combat.DICE_VALUES",
        "FireActionEnum": "campaigns.api.tcs.combat.ACTION_VALUES",
        "OverwatchEventEnum": "campaigns.api.tcs.combat.EVENT_VALUES",
        "TargetTerrainEnum": "campaigns.api.tcs.combat.TERRAIN_VALUES",
        "CcTerrainEnum": "campaigns.cc.battle.defense.TERRAIN_VALUES",
        "DiceChoiceEnum": "campaigns.tcs.forms.setup.DICE_CHOICES",
        "ArtilleryMissionKindEnum": "campaigns.api.tcs.artillery.MISSION_KIND_VALUES",
        "AmmoTypeEnum": "campaigns.api.tcs.artillery.AMMO_TYPE_VALUES",
        "AdjustmentResultEnum": "campaigns.api.tcs.artillery.SHOOT_VALUES",
        "MortarRoundKindEnum": "campaigns.api.tcs.artillery.MORTAR_KIND_VALUES",
        "MortarWeaponEnum": "campaigns.api.tcs.artillery.WEAPON_VALUES",
        "SmokeResultEnum": "campaigns.api.tcs.artillery.SMOKE_RESULT_VALUES",
        "MinefieldMovementEnum": "campaigns.api.tcs.minefields.MOVEMENT_VALUES",
        "FireTableResultEnum": "campaigns.api.tcs.minefields.FIRE_RESULT_VALUES",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "campaigns.api.schema.input_limits_hook",
    ],
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI assets come from drf-spectacular-sidecar: served by us, never from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- Security: strict when DEBUG is off (checked by `manage.py check --deploy` in the tests).
# DJANGO_INSECURE_HTTP=true tries production mode (DEBUG off) locally over plain HTTP: cookies
# without Secure, no HTTPS redirect, no HSTS. Refused unless every allowed host is local.
INSECURE_HTTP = env.bool("DJANGO_INSECURE_HTTP", default=False)
LOCAL_HOSTS = {"localhost", "127.0.0.1", "[::1]", "::1", "testserver"}
if INSECURE_HTTP and any(
    h not in LOCAL_HOSTS and not h.endswith(".localhost") for h in ALLOWED_HOSTS
):
    raise ImproperlyConfigured(
        "DJANGO_INSECURE_HTTP=true is for local testing only: DJANGO_ALLOWED_HOSTS must list "
        f"local hosts only ({', '.join(sorted(LOCAL_HOSTS))}), not {', '.join(ALLOWED_HOSTS)}."
    )
HTTPS_ONLY = not DEBUG and not INSECURE_HTTP
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = HTTPS_ONLY
CSRF_COOKIE_SECURE = HTTPS_ONLY
SECURE_SSL_REDIRECT = not INSECURE_HTTP and env.bool(
    "DJANGO_SECURE_SSL_REDIRECT", default=HTTPS_ONLY
)
SECURE_HSTS_SECONDS = (
    0 if INSECURE_HTTP else env.int("DJANGO_HSTS_SECONDS", default=0 if DEBUG else 31536000)
)
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS_ONLY
SECURE_HSTS_PRELOAD = HTTPS_ONLY
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy (django-csp): our own scripts, styles and images only; no inline
# script, no eval, no inline style (htmx's indicator style is off: base.html's htmx-config).
# The Swagger UI page widens style-src and img-src for itself (config/urls.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
# Permissions-Policy (campaigns.security.PermissionsPolicyMiddleware): no powerful feature is used.
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "camera",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "payment",
        "usb",
    )
)

# --- Sign-in throttling (django-axes): 5 failures for one username from one address lock that
# pair out for 15 minutes (429, campaigns.security.lockout_response); failures during the
# lockout do not extend it, and a successful sign-in clears the count.
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_HTTP_RESPONSE_CODE = 429
AXES_LOCKOUT_CALLABLE = "campaigns.security.lockout_response"
# Behind a reverse proxy every request comes from the proxy's address: DJANGO_PROXY_COUNT=1
# (nginx in deploy/) takes the client's from X-Forwarded-For, the entry the proxy appended.
# Leave 0 without a proxy, or clients could choose their address.
PROXY_COUNT = env.int("DJANGO_PROXY_COUNT", default=0)
AXES_CLIENT_IP_CALLABLE = "campaigns.security.client_ip"
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("DJANGO_LOG_LEVEL", default="WARNING")},
}
