"""The trainer's SSE frames (TRAINER.md "SSE frames"), camelCase data, and the localized status lines of
000 §6.7 (coach messages have none; other tools fall back to a generic pair)."""

from __future__ import annotations

from typing import Any

from agent import events
from agent.events import Event

STATUS: dict[str, dict[str, tuple[str, str]]] = {
    "en": {"workout__generate_workout": ("Creating your workout...", "Workout ready"),
           "workout__swap_exercise": ("Finding alternative...", "Exercise swapped"),
           "workout__adjust_exercise": ("Adjusting exercise...", "Exercise updated"),
           "workout__remove_exercise": ("Removing exercise...", "Exercise removed"),
           "logbook__log_workout": ("Saving your workout...", "Workout logged"),
           "data__fetch_data": ("Gathering your info...", "Context ready"),
           "location__set_current_location": ("Switching location...", "Location updated"),
           "coach__idle": ("Wrapping up...", "All done"),
           "*": ("Working on it...", "Done"), "error": ("", "Something went wrong")},
    "he": {"workout__generate_workout": ("בונה את האימון שלך...", "האימון מוכן"),
           "workout__swap_exercise": ("מחפש חלופה...", "התרגיל הוחלף"),
           "workout__adjust_exercise": ("מעדכן תרגיל...", "התרגיל עודכן"),
           "workout__remove_exercise": ("מסיר תרגיל...", "התרגיל הוסר"),
           "logbook__log_workout": ("שומר את האימון...", "האימון נרשם"),
           "data__fetch_data": ("אוסף את המידע שלך...", "המידע מוכן"),
           "location__set_current_location": ("מחליף מיקום...", "המיקום עודכן"),
           "coach__idle": ("מסיים...", "סיימנו"),
           "*": ("עובד על זה...", "בוצע"), "error": ("", "משהו השתבש")},
    "ru": {"workout__generate_workout": ("Составляю тренировку...", "Тренировка готова"),
           "workout__swap_exercise": ("Ищу замену...", "Упражнение заменено"),
           "workout__adjust_exercise": ("Меняю упражнение...", "Упражнение обновлено"),
           "workout__remove_exercise": ("Убираю упражнение...", "Упражнение убрано"),
           "logbook__log_workout": ("Сохраняю тренировку...", "Тренировка записана"),
           "data__fetch_data": ("Собираю данные...", "Данные готовы"),
           "location__set_current_location": ("Меняю место...", "Место обновлено"),
           "coach__idle": ("Завершаю...", "Готово"),
           "*": ("Работаю...", "Готово"), "error": ("", "Что-то пошло не так")},
}
SILENT = frozenset({"coach__message_notify_user", "coach__message_ask_user"})


def status_message(tool: str, phase: str, locale: str) -> str:
    table = STATUS.get(locale, STATUS["en"])
    if tool in SILENT:
        return ""
    if phase == "error":
        return table["error"][1]
    start, done = table.get(tool, table["*"])
    return start if phase == "start" else done


def status_frame(tool: str, phase: str, locale: str) -> Event:
    return Event("status", {"tool": tool, "phase": phase, "message": status_message(tool, phase, locale)})


def knowledge_frame(source: str, display_name: str, params: dict[str, Any]) -> Event:
    return Event("knowledge", {"source": source, "displayName": display_name, "params": params})


def message_frame(content: str, attachments: list[dict[str, Any]]) -> Event:
    return Event("message", {"content": content, "attachments": attachments})


def question_frame(content: str, options: list[str]) -> Event:
    return Event("question", {"content": content, "options": options})


def done_frame(turn) -> Event:
    has_session = turn.conversation is not None
    return Event("done", {"sessionId": str(turn.conversation_id) if has_session else None,
                          "iterations": getattr(turn, "iterations", 0),
                          "usage": events.usage_payload(turn.usage, turn.cost_usd_micros)})
