"""When a queued message may leave: the rules the outbox enforces in code, for the send tool and the worker alike.

Quiet hours are 21:00–08:00 in the gym's timezone: a message due then waits for 08:00 (deferred, never dropped).
Each org sends at most `limit` messages a local day; past it, the rest wait for the next day's 08:00. An opted-out
member, or one with no address, is never sent to.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta

from gym.periods import Tz, local_midnight, zone

QUIET_FROM = time(21, 0)
QUIET_UNTIL = time(8, 0)
DEFAULT_DAILY_LIMIT = 200
RETRY_DELAYS = (timedelta(minutes=1), timedelta(minutes=5), timedelta(minutes=30))  # then the message has failed


def quiet(now: datetime, tz: Tz) -> bool:
    local = now.astimezone(zone(tz)).time()
    return local >= QUIET_FROM or local < QUIET_UNTIL


def next_morning(now: datetime, tz: Tz) -> datetime:
    """The next 08:00 in the gym's timezone after `now` (today's, when it is still before 08:00)."""
    local = now.astimezone(zone(tz))
    day = local.date() if local.time() < QUIET_UNTIL else local.date() + timedelta(days=1)
    return local_midnight(day, tz) + timedelta(hours=QUIET_UNTIL.hour, minutes=QUIET_UNTIL.minute)


def day_start(now: datetime, tz: Tz) -> datetime:
    """The instant the gym's local day of `now` began (the daily limit counts from it)."""
    return local_midnight(now.astimezone(zone(tz)).date(), tz)


def day_end(now: datetime, tz: Tz) -> datetime:
    """The instant the gym's local day of `now` ends (the next local midnight)."""
    return local_midnight(now.astimezone(zone(tz)).date() + timedelta(days=1), tz)


def may_send_at(now: datetime, tz: Tz, *, sent_today: int, limit: int) -> datetime | None:
    """None when a message may leave now; otherwise the instant it may (quiet hours, or the day's limit spent)."""
    if sent_today >= limit:
        return day_end(now, tz) + timedelta(hours=QUIET_UNTIL.hour, minutes=QUIET_UNTIL.minute)
    if quiet(now, tz):
        return next_morning(now, tz)
    return None


def blocked(*, opted_out: bool, email: str | None) -> str | None:
    """Why a member must not get a message at all (a failure code), or None."""
    if opted_out:
        return "opted_out"
    if not email or "@" not in email:
        return "no_email"
    return None


def retry_at(now: datetime, attempts: int) -> datetime | None:
    """After a failed attempt (`attempts` made so far), when to try again; None once the retries are spent."""
    if attempts > len(RETRY_DELAYS):
        return None
    return now + RETRY_DELAYS[attempts - 1]
