"""The token endpoint, under django-axes' sign-in throttling like the login page.

`authenticate()` is given Django's own request (not DRF's wrapper), so that axes records a
failure and flags a lockout on the request its middleware answers (429 with a JSON message,
campaigns.security.lockout_response); a token handed out counts as a sign-in
(`user_logged_in`: axes clears the failures, `last_login` is updated)."""

from django.contrib.auth.signals import user_logged_in
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.response import Response


class AuthTokenAnswerSerializer(serializers.Serializer):
    token = serializers.CharField(help_text=_("Send it as `Authorization: Token <token>`."))


class SignInLockedOutSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text=_("What happened and when to try again, in words."))
    retry_after = serializers.IntegerField(help_text=_("Seconds until the lockout ends."))
    locked_until = serializers.DateTimeField(help_text=_("When the lockout ends."))


class SignInRefusedSerializer(serializers.Serializer):
    detail = serializers.CharField(help_text=_("Why the sign-in was refused, in words."))


class ObtainAuthTokenView(ObtainAuthToken):
    def get_serializer_context(self):
        return {**super().get_serializer_context(), "request": self.request._request}

    @extend_schema(
        description=_(
            "Exchange a username and password for an API token. After 5 failed attempts for "
            "one username from one address, that pair is locked out for 15 minutes (429, even "
            "with the right password); a success clears the count."
        ),
        responses={
            200: AuthTokenAnswerSerializer,
            401: OpenApiResponse(
                SignInRefusedSerializer, description=_("Wrong username or password.")
            ),
            429: OpenApiResponse(
                SignInLockedOutSerializer, description=_("Too many failed sign-in attempts.")
            ),
        },
    )
    def post(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        try:
            serializer.is_valid(raise_exception=True)
        except exceptions.ValidationError as error:
            # Wrong credentials are an authentication failure (401), not a malformed request.
            refused = error.get_codes().get("non_field_errors", [])
            if "authorization" in refused:
                return Response(
                    {"detail": str(error.detail["non_field_errors"][0])},
                    status=401,
                    headers={"WWW-Authenticate": "Token"},
                )
            raise
        user = serializer.validated_data["user"]
        token, _created = Token.objects.get_or_create(user=user)
        user_logged_in.send(sender=user.__class__, request=request._request, user=user)
        return Response({"token": token.key})


obtain_auth_token = ObtainAuthTokenView.as_view()
