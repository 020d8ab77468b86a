"""Invalid settings fail at start-up with a message naming the variable."""

import pytest

from core.settings import SettingsError, load_settings


@pytest.mark.parametrize(("env", "value", "named"), [
    ("AUTH_MODE", "magic", "AUTH_MODE"),
    ("PENDING_TTL", "0", "PENDING_TTL"),
    ("DATABASE_URL", "mysql://x", "DATABASE_URL"),
    ("REDIS_URL", "http://x", "REDIS_URL"),
    ("AGENT_MODEL_PROVIDER", "openai", "AGENT_MODEL_PROVIDER"),
    ("AGENT_ANSWER_WAIT_SECONDS", "-1", "AGENT_ANSWER_WAIT_SECONDS"),
])
def test_invalid_value_names_the_variable(monkeypatch, env, value, named) -> None:
    monkeypatch.setenv(env, value)
    with pytest.raises(SettingsError, match=named):
        load_settings()


def test_clerk_mode_requires_jwks_url(monkeypatch) -> None:
    monkeypatch.setenv("AUTH_MODE", "clerk")
    with pytest.raises(SettingsError, match="CLERK_JWKS_URL"):
        load_settings()


def test_authorized_parties_accept_a_comma_list(monkeypatch) -> None:
    monkeypatch.setenv("CLERK_AUTHORIZED_PARTIES", "https://a.example, https://b.example")
    assert load_settings().clerk_authorized_parties == ["https://a.example", "https://b.example"]


def test_an_answer_waits_five_seconds_for_a_busy_conversation_unless_configured(monkeypatch) -> None:
    monkeypatch.delenv("AGENT_ANSWER_WAIT_SECONDS", raising=False)
    assert load_settings().agent_answer_wait_seconds == 5.0
    monkeypatch.setenv("AGENT_ANSWER_WAIT_SECONDS", "0.5")
    assert load_settings().agent_answer_wait_seconds == 0.5
