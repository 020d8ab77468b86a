"""A try's conversation as it happened: what the person said, what the agent said and did, what it asked the
person to confirm or pick and what they answered, and what it cost. Written next to the results (JSON for
tools, Markdown to read), so a failure points at the conversation to open."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from agent.costs import Usage


@dataclass
class Entry:
    who: str  # user | agent | tool | confirm | pick | error
    text: str = ""
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class Transcript:
    entries: list[Entry] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    cost_usd_micros: int = 0
    round_trips: int = 0
    model_calls: int = 0
    user_usage: Usage = field(default_factory=Usage)
    user_cost_usd_micros: int = 0
    errors: list[str] = field(default_factory=list)
    thread_ids: list[str] = field(default_factory=list)

    def add(self, who: str, text: str = "", **data: Any) -> None:
        self.entries.append(Entry(who, text, data))

    def agent_text(self) -> str:
        """Everything the agent said to the person, in order."""
        return "\n".join(e.text for e in self.entries if e.who == "agent")

    def as_chat(self) -> str:
        """The conversation as the person saw it (for the simulated user model)."""
        lines = []
        for e in self.entries:
            if e.who == "user":
                lines.append(f"You: {e.text}")
            elif e.who == "agent":
                options = e.data.get("options")
                lines.append(f"Assistant: {e.text}" + (f"\n  (options: {' | '.join(options)})" if options else ""))
            elif e.who == "confirm":
                lines.append(f"[The assistant asked you to approve {e.data.get('action')}: you "
                             f"{'approved' if e.data.get('approved') else 'rejected'} it]")
            elif e.who == "pick":
                lines.append(f"[The assistant asked: {e.data.get('prompt')}; you picked {e.data.get('picked') or 'none'}]")
            elif e.who == "error":
                lines.append(f"[The assistant failed: {e.text}]")
        return "\n".join(lines)

    def user_messages(self) -> int:
        return sum(1 for e in self.entries if e.who == "user")

    def as_json(self) -> dict[str, Any]:
        return {"entries": [asdict(e) for e in self.entries], "usage": asdict(self.usage),
                "costUsdMicros": self.cost_usd_micros, "roundTrips": self.round_trips, "modelCalls": self.model_calls,
                "userUsage": asdict(self.user_usage), "userCostUsdMicros": self.user_cost_usd_micros,
                "errors": self.errors, "threads": self.thread_ids}

    def as_markdown(self, title: str, failures: list[str]) -> str:
        out = [f"# {title}", ""]
        if failures:
            out += ["**Failed:**", *[f"- {f}" for f in failures], ""]
        else:
            out += ["**Passed.**", ""]
        for e in self.entries:
            if e.who == "user":
                out.append(f"**Person:** {e.text}")
            elif e.who == "agent":
                out.append(f"**Agent:** {e.text}")
                if e.data.get("options"):
                    out.append(f"  options: {' | '.join(e.data['options'])}")
            elif e.who == "tool":
                status = "ok" if e.data.get("ok") else f"error {e.data.get('error', {}).get('code', '?')}"
                out.append(f"- `{e.data.get('name')}` {_short(e.data.get('input'))} → {status}")
            elif e.who == "confirm":
                out.append(f"- **confirmation** `{e.data.get('action')}` {_short(e.data.get('input'))} → "
                           f"{'approved' if e.data.get('approved') else 'rejected'}")
            elif e.who == "pick":
                labels = ", ".join(c.get("label", "?") for c in e.data.get("candidates", []))
                out.append(f"- **pick** {e.data.get('prompt')} [{labels}] → {e.data.get('picked') or 'none'}")
            elif e.who == "error":
                out.append(f"- **error** {e.text}")
            out.append("")
        u = self.usage
        out.append(f"_agent: {u.input_tokens} in, {u.output_tokens} out, {u.cache_read_tokens} cache read, "
                   f"{u.cache_creation_tokens} cache write; ${self.cost_usd_micros / 1e6:.4f}; "
                   f"{self.round_trips} round trips; simulated user ${self.user_cost_usd_micros / 1e6:.4f}_")
        return "\n".join(out) + "\n"


def _short(value: Any, limit: int = 300) -> str:
    shown = json.dumps(value, ensure_ascii=False, default=str)
    return f"`{shown if len(shown) <= limit else shown[:limit - 1] + '…'}`"
