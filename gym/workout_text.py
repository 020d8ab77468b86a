"""Whiteboard text → sections of movements: a small deterministic reader (`parse_workout_text`), and the
movement and section shapes a workout is written from (gym.workouts stores them).

"3 rounds — 200m run, 30 double-unders" reads as one section, scheme "3 rounds", with a distance and a rep count.
Moved out of gym/workouts.py whole (no change): that module builds on this one and imports nothing back.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, field
from typing import Any

MILE_M = 1609


@dataclass
class MovementIn:
    name: str
    exercise_id: uuid.UUID | None = None
    prescription: dict[str, Any] = field(default_factory=dict)


@dataclass
class SectionIn:
    title: str | None = None
    scheme: str | None = None
    rounds: int | None = None
    notes: str | None = None
    movements: list[MovementIn] = field(default_factory=list)


_SEP = r"\s*(?:[:\u2014\u2013,]|-(?=\s)|\bof\b)?\s*"
_SCHEME = re.compile(
    r"^(?P<scheme>(?P<rounds>\d+)\s*(?:rounds?|rds?|rft)\b(?:\s+for\s+time)?"
    r"|(?:amrap|emom|e\d+mom)\s*\d+(?:\s*(?:min(?:ute)?s?|'))?"
    r"|(?P<ladder>\d+(?:-\d+){2,})(?:\s+for\s+time)?"
    r"|for\s+time|tabata)" + _SEP + r"(?:\((?P<notes>[^)]*)\)\s*:?)?\s*", re.I)
_TITLE = re.compile(r"^(?P<title>[^\d:]{1,40}):\s*(?P<rest>.*)$")
_LOAD = re.compile(r"[@(]?\s*(?P<n>\d+(?:\.\d+)?)(?:\s*/\s*\d+(?:\.\d+)?)?\s*(?P<unit>kg|lbs?|%)(?![a-z])\)?",
                   re.I)
_SETS = re.compile(r"^(?P<sets>\d+)\s*[x\u00d7]\s*(?P<reps>\d+)\s+(?P<name>.+)$|"
                   r"^(?P<name2>.+?)\s+(?P<sets2>\d+)\s*[x\u00d7]\s*(?P<reps2>\d+)$", re.I)
_DISTANCE = re.compile(r"^(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>m|meters?|metres?|km|k|mi|miles?)\b\s*(?P<name>.+)$",
                       re.I)
_CALORIES = re.compile(r"^(?P<n>\d+)\s*(?:cal|cals|calories)\b\.?\s*(?P<name>.+)$", re.I)
_DURATION = re.compile(r"^(?P<n>\d+)\s*(?P<unit>s|secs?|seconds?|min|mins|minutes?)\b\s*(?P<name>.+)$", re.I)
_NOTE = re.compile(r"\s*\(([^)]*)\)\s*$")
_REPS = re.compile(r"^(?P<n>\d+)\s*x?\s+(?P<name>.+)$", re.I)
_DISTANCE_M = {"m": 1, "meter": 1, "meters": 1, "metre": 1, "metres": 1, "km": 1000, "k": 1000, "mi": MILE_M,
               "mile": MILE_M, "miles": MILE_M}


def _number(text: str) -> int | float:
    value = float(text)
    return int(value) if value.is_integer() else value


def parse_movement(token: str) -> MovementIn | None:
    """'200m run' → distance_m 200; '30 double-unders' → reps 30; '5x5 back squat @ 75%' → sets, reps, load_pct."""
    token = token.strip(" .;\t")
    if not token:
        return None
    prescription: dict[str, Any] = {}
    load = _LOAD.search(token)
    if load:
        key = "load_pct" if load["unit"] == "%" else "load_kg"
        value = float(load["n"]) * (0.4536 if load["unit"].lower().startswith("lb") else 1)
        prescription[key] = _number(f"{value:.1f}")
        if "/" in load[0]:  # an Rx pair such as 43/30kg: keep it as written
            prescription["notes"] = load[0].strip(" ()@")
        token = (token[:load.start()] + token[load.end():]).strip(" ,@")
    if note := _NOTE.search(token):  # a trailing "(60/50cm)" is a note, not part of the name
        prescription["notes"] = note[1].strip()
        token = token[:note.start()]
    if m := _SETS.match(token):
        prescription.update(sets=int(m["sets"] or m["sets2"]), reps=int(m["reps"] or m["reps2"]))
        name = m["name"] or m["name2"]
    elif m := _DISTANCE.match(token):
        prescription["distance_m"] = round(float(m["n"]) * _DISTANCE_M[m["unit"].lower()])
        name = m["name"]
    elif m := _CALORIES.match(token):
        prescription["calories"] = int(m["n"])
        name = m["name"]
    elif m := _DURATION.match(token):
        prescription["duration_s"] = int(m["n"]) * (60 if m["unit"].lower().startswith("min") else 1)
        name = m["name"]
    elif m := _REPS.match(token):
        prescription["reps"] = int(m["n"])
        name = m["name"]
    else:
        name = token
    name = name.strip(" .,-")
    return MovementIn(name=name, prescription=prescription) if name else None


def parse_workout_text(text: str) -> list[SectionIn]:
    """Read whiteboard text into sections: a scheme ('3 rounds', 'AMRAP 12', 'For time', '21-15-9') or a
    'Title:' starts a section, a blank line ends one, movements are split on commas, semicolons, '+' and lines."""
    sections: list[SectionIn] = []
    current: SectionIn | None = None
    for raw in text.splitlines():
        line = raw.strip().lstrip("•*").strip()
        if line.startswith("- "):
            line = line[2:]
        if not line:
            current = None
            continue
        title = None
        scheme = _SCHEME.match(line)
        if not scheme and (titled := _TITLE.match(line)):
            title, line = titled["title"].strip(), titled["rest"]
            scheme = _SCHEME.match(line)
        if title or scheme or current is None:
            current = SectionIn(title=title)
            sections.append(current)
        if scheme:
            current.scheme = " ".join(scheme["scheme"].split())
            if scheme["rounds"]:
                current.rounds = int(scheme["rounds"])
            elif scheme["ladder"]:
                current.rounds = scheme["ladder"].count("-") + 1
            current.notes = scheme["notes"] or current.notes
            line = line[scheme.end():]
        for token in re.split(r"[,;\n]|\s\+\s", line):
            movement = parse_movement(token)
            if movement is not None:
                current.movements.append(movement)
    return [s for s in sections if s.movements or s.scheme or s.title]
