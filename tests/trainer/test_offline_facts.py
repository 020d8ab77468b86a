"""The offline trainer reads what a tool returned from the facts the engine carries (agent/model_facts.py
`ModelFacts.outputs`), never from the words of the compact observation the model reads (tools/observations.py):
"undo that" undoes the log by the id its tool returned, however its result is worded, and a log undone since is
not undone twice."""

from __future__ import annotations

from tests.trainer.offline_chat import OfflineChat

BENCH_LOG = "0b7c5a44-5b1e-4d6a-9f0e-2c3d4e5f6a01"
ROW_LOG = "0b7c5a44-5b1e-4d6a-9f0e-2c3d4e5f6a02"
ELSEWHERE = "ffffffff-ffff-4fff-8fff-ffffffffffff"


def _logged(chat: OfflineChat, words: str, log_id: str, *, said: str | None = None) -> None:
    use = chat.say(words)
    assert use["name"] == "logbook__log_completed_exercise", use
    told = chat.result({"id": log_id, "logged": use["input"]["exercise_name"]}, said=said)
    assert told["name"] == "coach__message_notify_user", told
    chat.result({"ok": True})  # the message went out: the turn is over


def test_undo_finds_the_logged_id_however_the_result_is_worded() -> None:
    chat = OfflineChat("en")
    _logged(chat, "log it: bench 3x8 at 40 kg", BENCH_LOG, said="<result>Bench Press is in the log now</result>")
    undo = chat.say("undo that")
    assert undo == {**undo, "name": "logbook__undo_logged_exercise", "input": {"id": BENCH_LOG}}


def test_undo_reads_the_output_not_an_id_the_words_name() -> None:
    chat = OfflineChat("he")
    _logged(chat, "log it: bench 3x8 at 40 kg", BENCH_LOG, said=f"<result>logged Bench Press (id {ELSEWHERE})</result>")
    assert chat.say("undo that")["input"] == {"id": BENCH_LOG}


def test_undo_takes_the_latest_log_not_yet_undone() -> None:
    chat = OfflineChat("en")
    _logged(chat, "log it: bench 3x8 at 40 kg", BENCH_LOG)
    _logged(chat, "log it: dumbbell row 3x10 at 12 kg", ROW_LOG)
    first = chat.say("undo that")
    assert first["input"] == {"id": ROW_LOG}
    assert chat.result({"id": ROW_LOG, "undone": True})["name"] == "coach__message_notify_user"
    chat.result({"ok": True})
    assert chat.say("undo that")["input"] == {"id": BENCH_LOG}


def test_without_the_engines_facts_there_is_nothing_to_undo() -> None:
    """A log whose output the facts do not carry is not read back out of its words."""
    chat = OfflineChat("en")
    chat.say("log it: bench 3x8 at 40 kg")
    chat.result(f"<result>logged Bench Press (id {BENCH_LOG})</result>")  # text only: no output in the facts
    chat.result({"ok": True})
    said = chat.say("undo that")
    assert said["name"] == "coach__message_notify_user" and BENCH_LOG not in said["input"]["text"]


def test_actuals_fill_the_fields_the_tools_declared_input_has() -> None:
    """The reps per set, or "as prescribed", go in the fields of mark_exercise_complete's declared `actuals`."""
    uneven = OfflineChat("en").say("done with the first exercise: 10, 8, 8")
    assert uneven == {**uneven, "name": "logbook__mark_exercise_complete",
                      "input": {"exercise_id": "ex_001", "actuals": {"reps_per_set": [10, 8, 8]}}}
    planned = OfflineChat("en").say("done with the first exercise, all the reps")
    assert planned["input"] == {"exercise_id": "ex_001", "actuals": {"as_prescribed": True}}
