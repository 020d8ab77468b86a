"""The offline demo model: the ModelClient protocol answered by fixed rules, not by an LLM.

`AGENT_MODEL_PROVIDER=offline` selects it so the demo works without an API key. It reads the request the
orchestrator built (the person's words and turn context in the last user text turn, then the tool calls and
tool results that followed), asks agent/offline_intents.py for the next move, and streams it back shaped like
the Anthropic client's output: a few text deltas, then one ModelResponse with text and tool_use blocks. Every
text it writes starts with a label saying it is not an LLM. It reports zero tokens, so a turn costs $0.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import AsyncIterator
from typing import Any

from agent.context import user_text
from agent.costs import Usage
from agent.model import ModelRequest, ModelResponse, TextDelta
from agent.offline_intents import Episode, Line, Reply, Step, respond

MODEL_ID = "spotter-offline-rules"
SUPPORTED = ("en", "he", "ru")

LABEL = {"en": "[Offline demo model — not an LLM]", "he": "[מודל הדגמה לא מקוון — לא מודל שפה]",
         "ru": "[Офлайн-демо-модель — не LLM]"}

# Message key → text per locale ({placeholders} come from the rules); a missing locale falls back to English.
TEXT: dict[str, dict[str, str]] = {
    "help": {"en": "I answer with fixed rules, so I only understand a few phrasings. Try one of these:\n{examples}",
             "he": "אני עונה לפי כללים קבועים ומבין רק כמה ניסוחים. נסו למשל:\n{examples}",
             "ru": "Я отвечаю по фиксированным правилам и понимаю лишь несколько формулировок. Например:\n{examples}"},
    "tool_failed": {"en": "That didn't work: {tool} failed — {message} (code {code}). I stopped there.",
                    "he": "זה לא הצליח: {tool} נכשל — {message} (קוד {code}). עצרתי כאן.",
                    "ru": "Не получилось: {tool} завершился ошибкой — {message} (код {code}). Я остановился."},
    "hint": {"en": "Hint: {hint}", "he": "רמז: {hint}", "ru": "Подсказка: {hint}"},
    "tool_unavailable": {"en": "I can't do that here: {tool} isn't available to your role ({role}).",
                         "he": "אין לי אפשרות לעשות זאת כאן: {tool} לא זמין לתפקיד שלך ({role}).",
                         "ru": "Здесь я не могу это сделать: {tool} недоступен для вашей роли ({role})."},
    "loop": {"en": "I already ran {tool} for this request, so I'm stopping here instead of repeating it.",
             "he": "כבר הרצתי את {tool} לבקשה הזו, אז אני עוצר כאן במקום לחזור על עצמי.",
             "ru": "Я уже выполнил {tool} для этого запроса и останавливаюсь, чтобы не повторяться."},
    "edited": {"en": "(It ran with the input you edited.)", "he": "(הפעולה רצה עם הקלט שערכת.)",
               "ru": "(Выполнено с отредактированными вами данными.)"},
    "undo": {"en": "You can undo this from its action card.", "he": "אפשר לבטל את זה מכרטיס הפעולה.",
             "ru": "Это можно отменить на карточке действия."},
    "bullet": {"en": "• {text}"},
    "more": {"en": "…and {n} more.", "he": "…ועוד {n}.", "ru": "…и ещё {n}."},
    "whoami": {"en": "You are {name} ({role}) at {org} — {tier} tier, timezone {tz}. Local time: {now}.",
               "he": "את/ה {name} ({role}) ב-{org} — מסלול {tier}, אזור זמן {tz}. השעה המקומית: {now}.",
               "ru": "Вы — {name} ({role}) в {org}: тариф {tier}, часовой пояс {tz}. Местное время: {now}."},
    "programs_none": {"en": "There are no active programs.", "he": "אין תוכניות פעילות.",
                      "ru": "Активных программ нет."},
    "programs_head": {"en": "{n} active program(s):", "he": "{n} תוכניות פעילות:", "ru": "Активных программ: {n}."},
    "program_row": {"en": "• {name} ({kind}) — {members} enrolled", "he": "• {name} ({kind}) — {members} רשומים",
                    "ru": "• {name} ({kind}) — записано: {members}"},
    "member_none": {"en": "No member matches “{query}”.", "he": "לא נמצא מתאמן שמתאים ל-“{query}”.",
                    "ru": "Участник «{query}» не найден."},
    "member_several": {"en": "{n} members match “{query}” — please pick one.",
                       "he": "{n} מתאמנים מתאימים ל-“{query}” — בחרו אחד.",
                       "ru": "Под «{query}» подходят {n} участника(ов) — выберите одного."},
    "member_head": {"en": "{name} — {status} ({email})"},
    "member_plan": {"en": "Plan: {plan}, {price} per {interval}; subscription {sub}.",
                    "he": "מנוי: {plan}, {price} לכל {interval}; סטטוס מנוי {sub}.",
                    "ru": "План: {plan}, {price} за {interval}; подписка {sub}."},
    "member_no_plan": {"en": "Plan: none on file.", "he": "מנוי: אין.", "ru": "План: нет."},
    "member_pay_ok": {"en": "Payments: up to date — last {amount} ({status}, due {due}), last paid {paid}.",
                      "he": "תשלומים: תקין — אחרון {amount} ({status}, לתשלום ב-{due}), שולם לאחרונה {paid}.",
                      "ru": "Платежи: в порядке — последний {amount} ({status}, срок {due}), оплачено {paid}."},
    "member_pay_failed": {"en": "Payments: the last payment FAILED — {amount} due {due}.",
                          "he": "תשלומים: התשלום האחרון נכשל — {amount} לתשלום ב-{due}.",
                          "ru": "Платежи: последний платёж НЕ ПРОШЁЛ — {amount}, срок {due}."},
    "member_pay_overdue": {"en": "Payments: {count} overdue, {overdue} in all, oldest due {oldest}; the last attempt "
                                 "was {status} ({amount}, due {due}).",
                           "he": "תשלומים: {count} באיחור, סה״כ {overdue}, הוותיק ביותר מ-{oldest}; הניסיון האחרון: "
                                 "{status} ({amount}, לתשלום ב-{due}).",
                           "ru": "Платежи: просрочено {count}, всего {overdue}, самый ранний срок {oldest}; последняя "
                                 "попытка: {status} ({amount}, срок {due})."},
    "member_pay_none": {"en": "Payments: none on record.", "he": "תשלומים: אין רישומים.",
                        "ru": "Платежи: записей нет."},
    "member_attention": {"en": "Needs attention: {items}", "he": "לתשומת לב: {items}",
                         "ru": "Обратите внимание: {items}"},
    "member_coach": {"en": "Coach: {coach}", "he": "מאמן/ת: {coach}", "ru": "Тренер: {coach}"},
    "member_visits": {"en": "Last visit: {last}; visits in the last 30 days: {n}.",
                      "he": "ביקור אחרון: {last}; ביקורים ב-30 הימים האחרונים: {n}.",
                      "ru": "Последний визит: {last}; визитов за 30 дней: {n}."},
    "member_programs": {"en": "Programs: {names}", "he": "תוכניות: {names}", "ru": "Программы: {names}"},
    "workout_created": {"en": "Created the workout “{title}” with {n} section(s):",
                        "he": "נוצר האימון “{title}” עם {n} חלקים:",
                        "ru": "Создана тренировка «{title}», частей: {n}."},
    "workout_freeform": {"en": "• (kept as freeform text)", "he": "• (נשמר כטקסט חופשי)",
                         "ru": "• (сохранено как свободный текст)"},
    "workout_unresolved": {"en": "Not linked to the exercise library yet: {names}.",
                           "he": "עדיין לא מקושרים לספריית התרגילים: {names}.",
                           "ru": "Пока не связаны с библиотекой упражнений: {names}."},
    "workout_none": {"en": "No workout matches “{query}”.", "he": "לא נמצא אימון שמתאים ל-“{query}”.",
                     "ru": "Тренировка «{query}» не найдена."},
    "workout_several": {"en": "{n} workouts match “{query}” — please pick one.",
                        "he": "{n} אימונים מתאימים ל-“{query}” — בחרו אחד.",
                        "ru": "Под «{query}» подходят {n} тренировки — выберите одну."},
    "workout_confirm": {"en": "Found “{title}”{detail}. Deleting it needs your confirmation.",
                        "he": "נמצא “{title}”{detail}. המחיקה דורשת את אישורך.",
                        "ru": "Нашёл «{title}»{detail}. Для удаления нужно ваше подтверждение."},
    "deleted": {"en": "Deleted “{title}”.", "he": "“{title}” נמחק.", "ru": "«{title}» удалена."},
    "kept": {"en": "Okay, kept it.", "he": "בסדר, השארתי אותו.", "ru": "Хорошо, оставил как есть."},
    "scheduled_published": {
        "en": "Scheduled {type} on {weekday} {date}, {start}–{end} (gym time), published — members can book it.",
        "he": "נקבע {type} ביום {weekday} {date}, {start}–{end} (שעון המכון), מפורסם — המתאמנים יכולים להירשם.",
        "ru": "Запланировано: {type}, {weekday} {date}, {start}–{end} (время зала), опубликовано — "
              "участники могут записаться."},
    "scheduled_draft": {
        "en": "Scheduled {type} on {weekday} {date}, {start}–{end} (gym time), not published yet.",
        "he": "נקבע {type} ביום {weekday} {date}, {start}–{end} (שעון המכון), עדיין לא מפורסם.",
        "ru": "Запланировано: {type}, {weekday} {date}, {start}–{end} (время зала), пока не опубликовано."},
    "program_missing": {"en": "I couldn't find a program called “{name}”. Programs here: {names}.",
                        "he": "לא מצאתי תוכנית בשם “{name}”. התוכניות כאן: {names}.",
                        "ru": "Программа «{name}» не найдена. Есть: {names}."},
    "comments_none": {"en": "No unread comments in {program}.", "he": "אין תגובות שלא נקראו ב-{program}.",
                      "ru": "В {program} нет непрочитанных комментариев."},
    "comments_head": {"en": "{n} unread comment(s) in {program}:", "he": "{n} תגובות שלא נקראו ב-{program}:",
                      "ru": "Непрочитанных комментариев в {program}: {n}."},
    "comment_row": {"en": "• {author} on “{workout}”, {at}: “{body}”",
                    "he": "• {author} על “{workout}”, {at}: “{body}”",
                    "ru": "• {author} к «{workout}», {at}: «{body}»"},
    "revenue": {"en": "Revenue {period} ({from} – {to}): {total} from {payments} payment(s) by {members} paying "
                      "member(s), average {average} per member. Refunded {refunded}. Failed attempts: {failed} "
                      "({failed_amount}).",
                "he": "הכנסות {period} ({from} – {to}): {total} מ-{payments} תשלומים של {members} מתאמנים משלמים, "
                      "ממוצע {average} למתאמן. הוחזרו {refunded}. ניסיונות חיוב שנכשלו: {failed} ({failed_amount}).",
                "ru": "Выручка {period} ({from} – {to}): {total}, платежей {payments}, платящих участников "
                      "{members}, в среднем {average} на участника. Возвраты {refunded}. Неудачных списаний: "
                      "{failed} ({failed_amount})."},
    "at_risk_none": {"en": "No active member has gone {days}+ days without a visit.",
                     "he": "אין מתאמן פעיל שלא ביקר {days} ימים או יותר.",
                     "ru": "Нет активных участников без визитов {days}+ дней."},
    "at_risk_head": {"en": "{n} active member(s) with no visit in {days}+ days (longest absent first, {shown} shown):",
                     "he": "{n} מתאמנים פעילים שלא ביקרו {days} ימים או יותר (מוצגים {shown}):",
                     "ru": "Активных участников без визитов {days}+ дней: {n} (показано {shown}):"},
    "at_risk_row": {"en": "• {name} — {days} days since the last visit ({last}){extra}",
                    "he": "• {name} — {days} ימים מאז הביקור האחרון ({last}){extra}",
                    "ru": "• {name} — {days} дн. с последнего визита ({last}){extra}"},
    "at_risk_row_never": {"en": "• {name} — never visited (joined {joined}){extra}",
                          "he": "• {name} — לא ביקר מעולם (הצטרף ב-{joined}){extra}",
                          "ru": "• {name} — ни разу не приходил(а) (с {joined}){extra}"},
    "task_created": {"en": "Created the task “{title}”.", "he": "נוצרה המשימה “{title}”.",
                     "ru": "Задача «{title}» создана."},
    "publish_none": {"en": "There are no assignments to publish between {from} and {to}.",
                     "he": "אין שיבוצים לפרסום בין {from} ל-{to}.", "ru": "С {from} по {to} публиковать нечего."},
    "publish_confirm": {"en": "{n} assignment(s) between {from} and {to} will be published. "
                              "Publishing needs your confirmation.",
                        "he": "{n} שיבוצים בין {from} ל-{to} יפורסמו. הפרסום דורש את אישורך.",
                        "ru": "Будет опубликовано назначений: {n} (с {from} по {to}). Нужно ваше подтверждение."},
    "published": {"en": "Published {n} assignment(s) for {from} – {to}.", "he": "פורסמו {n} שיבוצים ל-{from} – {to}.",
                  "ru": "Опубликовано назначений: {n} ({from} – {to})."},
    "publish_kept": {"en": "Okay, nothing was published.", "he": "בסדר, שום דבר לא פורסם.",
                     "ru": "Хорошо, ничего не опубликовано."},
}
EXAMPLES = ("who am I", "what programs do we run", "find Saar · מצא את Saar · найди Saar",
            "show Saar's plan and payment status", "build a workout: 3 rounds — 200m run, 30 double-unders",
            "delete workout Murph", "schedule open gym tomorrow 13:00–14:00 published",
            "קבע אופן ג'ים מחר 13:00-14:00 מפורסם", "запланируй open gym завтра 13:00–14:00 опубликовано",
            "any new comments in CrossFit", "revenue this month", "who is at risk", "create a task call back Dani",
            "publish next week's assignments")
WEEKDAYS = {"he": {"Monday": "שני", "Tuesday": "שלישי", "Wednesday": "רביעי", "Thursday": "חמישי",
                   "Friday": "שישי", "Saturday": "שבת", "Sunday": "ראשון"},
            "ru": {"Monday": "понедельник", "Tuesday": "вторник", "Wednesday": "среда", "Thursday": "четверг",
                   "Friday": "пятница", "Saturday": "суббота", "Sunday": "воскресенье"}}
PERIODS = {"en": {"this_month": "this month", "last_month": "last month", "this_week": "this week",
                  "last_7_days": "in the last 7 days", "last_30_days": "in the last 30 days",
                  "this_quarter": "this quarter", "this_year": "this year"},
           "he": {"this_month": "החודש", "last_month": "בחודש שעבר", "this_week": "השבוע",
                  "last_7_days": "ב-7 הימים האחרונים", "last_30_days": "ב-30 הימים האחרונים",
                  "this_quarter": "ברבעון הזה", "this_year": "השנה"},
           "ru": {"this_month": "за этот месяц", "last_month": "за прошлый месяц", "this_week": "за эту неделю",
                  "last_7_days": "за 7 дней", "last_30_days": "за 30 дней", "this_quarter": "за квартал",
                  "this_year": "за этот год"}}
SUMMARY_MARK = "compress a conversation"
TITLE_MARK = "Name this conversation"


def render(lines: tuple[Line, ...], locale: str) -> str:
    """The labelled reply text in `locale` (English for any key that has no translation)."""
    out = [LABEL.get(locale, LABEL["en"])]
    for key, params in lines:
        templates = TEXT[key]
        params = dict(params)
        if key == "help":
            params["examples"] = "\n".join(f"• {example}" for example in EXAMPLES)
        for name, table in (("weekday", WEEKDAYS), ("period", PERIODS)):
            if name in params:
                params[name] = table.get(locale, {}).get(params[name], params[name])
        out.append(templates.get(locale, templates["en"]).format(**params))
    return "\n".join(out)


def chunks(text: str, parts: int = 3) -> list[str]:
    """Split `text` at spaces into about `parts` pieces that join back to it exactly."""
    size = max(1, len(text) // parts)
    pieces, start = [], 0
    while start < len(text):
        cut = text.find(" ", start + size)
        cut = len(text) if cut == -1 or len(text) - cut < size // 2 else cut + 1
        pieces.append(text[start:cut])
        start = cut
    return pieces or [text]


def _stable(messages: list[dict[str, Any]]) -> str:
    """The conversation as canonical JSON, without cache breakpoints (they move every turn)."""
    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k != "cache_control"}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return json.dumps(strip(messages), sort_keys=True, ensure_ascii=False, default=str)


def tool_use_id(messages: list[dict[str, Any]], index: int) -> str:
    """Unique per conversation position, identical for an identical request."""
    digest = hashlib.sha256(f"{_stable(messages)}#{index}".encode()).hexdigest()
    return f"toolu_off_{digest[:24]}"


def _result_body(block: dict[str, Any]) -> Any:
    body = block.get("content")
    if isinstance(body, list):
        body = "".join(b.get("text", "") for b in body if isinstance(b, dict))
    try:
        return json.loads(body) if isinstance(body, str) and body else body
    except ValueError:
        return body


def _context(content: Any) -> dict[str, str]:
    """'Reply locale' and 'Caller' from the <turn_context> block of a user turn."""
    found: dict[str, str] = {}
    if isinstance(content, list):
        for block in content:
            text = block.get("text", "") if block.get("type") == "text" else ""
            if text.startswith("<turn_context>"):
                for key in ("Reply locale", "Caller"):
                    if m := re.search(rf"^{key}: (.+)$", text, re.MULTILINE):
                        found[key] = m.group(1).strip()
    return found


def read_episode(request: ModelRequest) -> Episode:
    """The person's latest words, their locale and role, and every tool call (with result) made since."""
    messages = request.messages
    start = next((i for i in range(len(messages) - 1, -1, -1)
                  if messages[i]["role"] == "user" and user_text(messages[i]["content"]).strip()), None)
    tools = frozenset(t["name"] for t in request.tools if "name" in t)
    if start is None:
        return Episode(words="", tools=tools)
    content = messages[start]["content"]
    context = _context(content)
    locale = context.get("Reply locale", "en").lower()
    role = m.group(1) if (m := re.search(r"\(([^()]+)\)\s*$", context.get("Caller", ""))) else None
    uses: list[dict[str, Any]] = []
    results: dict[str, dict[str, Any]] = {}
    for message in messages[start + 1:]:
        blocks = message["content"] if isinstance(message["content"], list) else []
        for block in blocks:
            if message["role"] == "assistant" and block.get("type") == "tool_use":
                uses.append(block)
            elif message["role"] == "user" and block.get("type") == "tool_result":
                results[block.get("tool_use_id", "")] = block
    steps = []
    for use in uses:
        result = results.get(use.get("id", ""))
        if result is None:
            continue
        body = _result_body(result)
        if result.get("is_error"):
            error = body if isinstance(body, dict) else {"code": "error", "message": str(body or "")}
            steps.append(Step(use["name"], use.get("input") or {}, error=error))
            continue
        edited = isinstance(body, dict) and set(body) == {"note", "input", "result"}
        steps.append(Step(use["name"], use.get("input") or {}, output=body["result"] if edited else body,
                          edited=edited))
    return Episode(words=user_text(content), locale=locale if locale in SUPPORTED else "en", role=role,
                   steps=tuple(steps), tools=tools)


def answer(request: ModelRequest) -> ModelResponse:
    """The whole assistant message for `request`: labelled text, then any tool_use blocks."""
    episode = read_episode(request)
    reply: Reply = respond(episode)
    content: list[dict[str, Any]] = []
    if reply.lines or not reply.calls:
        content.append({"type": "text", "text": render(reply.lines, episode.locale)})
    for index, planned in enumerate(reply.calls):
        content.append({"type": "tool_use", "id": tool_use_id(request.messages, index), "name": planned.name,
                        "input": planned.input})
    return ModelResponse(content=content, stop_reason="tool_use" if reply.calls else "end_turn", usage=Usage(),
                         model=MODEL_ID)


def _housekeeping(request: ModelRequest) -> str | None:
    """Titles and compaction summaries (tool-less `complete` calls with their own instructions)."""
    system = " ".join(b.get("text", "") for b in request.system if isinstance(b, dict))
    body = "\n".join(user_text(m["content"]) for m in request.messages if m["role"] == "user")
    if TITLE_MARK in system:
        staff = next((line[6:] for line in body.splitlines() if line.startswith("Staff:")), body)
        return " ".join(staff.split()[:6]) or "Conversation"
    if SUMMARY_MARK in system:
        kept = [line for line in body.splitlines() if line.startswith(("Staff:", "[Assistant called", "[Summary"))]
        text = "\n".join(kept)[-2000:]
        return f"{LABEL['en']} Extract of the earlier conversation (no model summarized it):\n{text}"
    return None


class OfflineModel:
    """Deterministic rules behind the ModelClient protocol; clearly labelled, never an LLM, zero tokens."""

    name = "offline"

    async def stream(self, request: ModelRequest) -> AsyncIterator[TextDelta | ModelResponse]:
        response = await self.complete(request)
        for block in response.content:
            if block["type"] == "text":
                for piece in chunks(block["text"]):
                    yield TextDelta(piece)
        yield response

    async def complete(self, request: ModelRequest) -> ModelResponse:
        if not request.tools and (text := _housekeeping(request)) is not None:
            return ModelResponse(content=[{"type": "text", "text": text}], stop_reason="end_turn", usage=Usage(),
                                 model=MODEL_ID)
        return answer(request)
