"""The fake Anthropic server with the bench's scripted conversation, as its own process.

    python -m bench.scripted_model PORT [CHUNKS DELAY_S]

Each conversation is tool → tool → text (two trivial tools), chosen from the request's message count, so
any number of concurrent conversations can run against one server. `tasks__delete` ids in the first user
message switch to the confirmation scenario (delete → text).
"""

from __future__ import annotations

import re
import sys
import time

from tests.fakes.anthropic_server import FakeAnthropic, Reply, Text, ToolUse

_UUID = re.compile(r"delete task ([0-9a-f-]{36})")


def script(body: dict) -> Reply:
    messages = body["messages"]
    first = messages[0]["content"]
    first_text = first if isinstance(first, str) else " ".join(b.get("text", "") for b in first if b.get("type") == "text")
    calls = (len(messages) + 1) // 2  # 1 on the first request, 2 after one tool round trip, ...
    match = _UUID.search(first_text)
    if match:
        if calls == 1:
            return Reply(ToolUse("tasks__delete", {"id": match.group(1)}))
        return Reply(Text("Deleted it.", chunks=3))
    if calls == 1:
        return Reply(Text("Checking."), ToolUse("read__get_current_context", {}))
    if calls == 2:
        return Reply(ToolUse("tasks__list", {"status": "open", "limit": 5}))
    return Reply(Text("You have no urgent tasks today. " * 3, chunks=6))


def long_answer(chunks: int) -> Reply:
    """One text answer in `chunks` deltas (bench/disconnects.py cuts its stream at random frames)."""
    return Reply(Text(" ".join(f"part {i:03d} of the answer." for i in range(chunks)), chunks=chunks))


def main() -> None:
    """`PORT` alone: the tool, tool, text conversation; `PORT CHUNKS DELAY_S`: one text answer of CHUNKS deltas,
    DELAY_S apart."""
    fake = FakeAnthropic(keep_requests=False)
    if len(sys.argv) > 3:
        chunks = int(sys.argv[2])
        fake.respond_with(lambda body: long_answer(chunks))
        fake.chunk_delay = float(sys.argv[3])
    else:
        fake.respond_with(script)
    _start_on(fake, int(sys.argv[1]))
    print("ready", flush=True)
    while True:
        time.sleep(3600)


def _start_on(fake: FakeAnthropic, port: int) -> None:
    from tests.servers import ThreadedServer

    fake._server = ThreadedServer(fake, port=port).start()


if __name__ == "__main__":
    main()
