"""Error bodies carry a stable code, a localized message and the request's trace id."""

import pytest

from core.i18n import SUPPORTED_LOCALES, catalog


@pytest.mark.parametrize(("headers", "expected"), [
    ({"x-locale": "he"}, "יש להתחבר: לא נשלח אסימון התחברות."),
    ({"x-locale": "ru"}, "Войдите, чтобы продолжить: токен сессии не передан."),
    ({"accept-language": "ru-RU,ru;q=0.9,en;q=0.5"}, "Войдите, чтобы продолжить: токен сессии не передан."),
    ({"accept-language": "fr-FR, he;q=0.8"}, "יש להתחבר: לא נשלח אסימון התחברות."),
    ({"x-locale": "de"}, "Sign in to continue: no session token was sent."),
    ({}, "Sign in to continue: no session token was sent."),
])
async def test_error_messages_are_localized(client, headers, expected) -> None:
    response = await client.get("/me", headers=headers)
    body = response.json()
    assert body["code"] == "token_missing"
    assert body["message"] == expected


async def test_error_body_trace_id_matches_header(client) -> None:
    response = await client.get("/me")
    trace = response.json()["traceId"]
    assert len(trace) == 32 and response.headers["x-trace-id"] == trace


async def test_unknown_route_is_a_coded_404(client) -> None:
    response = await client.get("/nope")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_every_error_code_is_translated_in_every_locale() -> None:
    codes = set(catalog("en")["agent"]["errors"])
    for locale in SUPPORTED_LOCALES:
        translated = catalog(locale)["agent"]["errors"]
        assert set(translated) == codes, locale
        assert all(translated[c].strip() for c in codes)


async def test_health_reports_postgres_and_redis(client) -> None:
    response = await client.get("/health")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "postgres": "up", "redis": "up", "down": []}


async def test_openapi_schema_is_served(client) -> None:
    response = await client.get("/schema/openapi.json")
    assert response.status_code == 200
    assert "/organizations/{org_id}/me" in response.json()["paths"]
