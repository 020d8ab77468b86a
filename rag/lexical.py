"""The lexical half of hybrid search: which documents name the query's words, and how strongly.

Each content word (rag.stopwords) is tried in its spellings (as typed, singular, unprefixed Hebrew,
Russian stem). A spelling matches a document by
- trigram word similarity to a word of the title, or damped of the body (typos: "kettlebel", "dedlift"),
  through the org's vocabulary (rag_terms: the words of titles and of non-member bodies);
- edit distance to a title word, for typos trigrams under-rate ("Coen" → "Cohen", "Sar" → "Saar");
- an exact full-text word or stem prefix, in the title or the body (aliases are names too: "RDL",
  "становая тяга"); spellings under three letters match only this way ("DU", "BS").
Body matches are discounted for bodies longer than their scope's typical one (BM25's length norm), so
a workout listing ten movements does not outrank the exercise named in the query.

A document's score is Σ over words of match × idf (document frequency among the candidates, org size
counted up to COUNT_CAP), plus a small whole-title similarity that prefers "Deadlift" to "Romanian
Deadlift" for "deadlift". Within a scope, a hit is dropped when a better one matches strictly more
words, each at least as well: "Saar Cohen" leaves out the other Cohens and Saars, "Cohen" keeps every
Cohen. Then each scope's best match of every word comes first (rag.lexical.diversify).
"""

from __future__ import annotations

import functools
import json
import math
import re
import uuid
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from rag.stopwords import Term, normalize

CANDIDATES = 50  # length of the ranked list handed to fusion
KNN = 30  # documents per pair of adjacent words
NEAREST_TERMS = 8  # nearest vocabulary words per short spelling as typed (GiST, trigram word distance)...
NEAREST_FLOOR = 0.35  # ...from this similarity up ("coen" → "cohen" 0.4, "dany" → "dani" 0.43)
PER_SPELLING = 300  # program / workout / exercise candidates per word or spelling (bounds very common words)
MEMBER_CAP = 60  # member candidates per word or spelling (a name 300 members share; the pair finds the one)
TERM_FLOOR = 0.5  # trigram similarity from which a word counts
SHORT_TOKEN = 3  # spellings shorter than this match by exact word only...
SHORT_FLOOR = 0.8  # ...and spellings up to SHORT_WORD letters need a close trigram match ("bell" is not
SHORT_WORD = 4  # "Belova"); their typos are caught by edit distance instead ("coen" → "Cohen")
BODY_WEIGHT = 0.7  # a trigram match in the body, against the same match in the title
FTS_BODY_WEIGHT = 0.85  # an exact word or stem in the body
PHRASE_WEIGHT = 0.5  # whole-title similarity to the query's words: a tie-breaker...
PHRASE_FLOOR = 0.3  # ...counted from this similarity up (below it is trigram noise, not overlap)
LEAD_WEIGHT = 0.1  # a title that starts with the query's first word: "Saar" puts Saar Levi before Shira Saar
CLAIM_MARGIN = 0.05  # a hit claims a word when it matches it within this of the scope's best match
EDIT_MIN = 0.75  # 1 - distance / length from which a title word counts as a typo of the spelling
EDIT_MAX_DISTANCE = 2
EDIT_CONFIDENT = 0.8  # trigram scores from here up are not re-checked by edit distance
# Typical body length per scope, in words; longer bodies have their matches discounted by sqrt(typical / length).
BODY_WORDS = {"exercise": 24, "member": 8, "program": 12, "workout": 14}


@dataclass(frozen=True)
class Spelling:
    """One way a content word may appear in a document."""

    word: int  # index of the content word it spells
    text: str
    weight: float  # 1 as typed, less for a derived form
    trigram: bool  # also matched by trigram / edit similarity (else exact word or stem prefix only)
    tsq_title: str  # full-text query matching the title
    tsq_any: str  # full-text query matching title or body
    floor: float  # trigram scores below this do not count
    nearest: bool  # also look up the nearest titles (short words as typed)


def _tsquery(word: str, *, prefix: bool, weight: str = "") -> str | None:
    parts = re.findall(r"[^\W_]+", word)
    if not parts:
        return None
    suffix = ":" + ("*" if prefix else "") + weight if prefix or weight else ""
    return " & ".join(f"'{p}'{suffix}" for p in parts)


def spellings(terms: Sequence[Term]) -> list[Spelling]:
    out: list[Spelling] = []
    for ix, term in enumerate(terms):
        forms = [(v, 1.0 if i == 0 else 0.95, False) for i, v in enumerate(term.variants)]
        forms += [(p, 0.9, True) for p in term.prefixes if p not in term.variants]
        for form, weight, stem in forms:
            nearest = form == term.text and SHORT_TOKEN <= len(form) <= NEAREST_MAX_LEN
            prefix = stem or len(form) >= 5
            tsq_any, tsq_title = _tsquery(form, prefix=prefix), _tsquery(form, prefix=prefix, weight="A")
            if tsq_any is None or tsq_title is None:
                continue
            floor = SHORT_FLOOR if len(form) <= SHORT_WORD else TERM_FLOOR
            out.append(Spelling(ix, form, weight, len(form) >= SHORT_TOKEN and not stem, tsq_title, tsq_any, floor,
                                nearest))
    return out


def adjacent(terms: Sequence[Term]) -> list[tuple[int, int]]:
    """Indexes of content words that stand next to each other in the message ("saar cohen", "wall walks"):
    a name typed with two typos is found by the pair when neither word alone stands out."""
    return [(i, i + 1) for i, (a, b) in enumerate(zip(terms, terms[1:], strict=False)) if b.position == a.position + 1]


def _scope_filter(scopes: Sequence[str] | None, alias: str) -> str:
    return f"AND {alias}.scope = ANY(CAST(:scopes AS text[]))" if scopes else ""


# Candidates come from rag_term_candidates() (migrations 0010-0013), which exists because row-level
# security keeps these non-leakproof operators out of index conditions: per content word, the
# vocabulary words within the trigram threshold of a spelling, and for short words also the nearest ones
# (trigrams under-rate their typos); then documents containing such a word, documents matching a
# spelling's full-text query, and per pair of adjacent words, documents whose title has a word of both
# (at 100k members "Dany Mizrachi" is one of ~1,600 Mizrahis by either word, the first by the pair),
# each capped so a word half the gym shares costs a bounded amount (members apart: MEMBER_CAP).
# Then, under RLS, every spelling's scores for every candidate: whether its full-text query matches the
# title (2) or only the body (1), and for trigram spellings the similarity of title and body, that of the
# closest vocabulary word within the threshold (rag_alike_terms) the field holds (a tsvector lexeme of
# weight A or B): one hash join. Members' bodies (email, status, plan) count by full text only.
# Comparing every field with every spelling by strict word similarity instead was most of the scoring's
# cost (bodies alone: 55 ms of 95 for 342 candidates at 100k members).
LEXICAL_SQL = """
WITH v AS (
    SELECT n, to_tsquery('simple', tsq_title) AS qt, to_tsquery('simple', tsq_any) AS qa
    FROM unnest(CAST(:tsq_title AS text[]), CAST(:tsq_any AS text[])) WITH ORDINALITY AS v(tsq_title, tsq_any, n)
),
alike AS (
    SELECT n, term, sim FROM rag_alike_terms(CAST(:v AS text[]), CAST(:fuzzy AS boolean[]), CAST(:threshold AS real))
),
ids AS (
    SELECT id FROM rag_term_candidates(CAST(:v AS text[]), CAST(:w AS integer[]), CAST(:tsq_any AS text[]),
        CAST(:fuzzy AS boolean[]), CAST(:nearest AS boolean[]), CAST(:pair_a AS integer[]),
        CAST(:pair_b AS integer[]), CAST(:scopes AS text[]), :nearest_terms, CAST(:nearest_floor AS real), :knn,
        :cap, :member_cap, CAST(:threshold AS real)) AS c(id)
),
docs AS (
    SELECT d.* FROM ids JOIN rag_documents d ON d.id = ids.id WHERE d.org_id = :org
),
sims AS (
    SELECT s.id, array_agg(s.n) AS ns, array_agg(s.title) AS titles, array_agg(s.body) AS bodies
    FROM (SELECT d.id, a.n, coalesce(max(a.sim) FILTER (WHERE 'A' = ANY(l.weights)), 0) AS title,
                 coalesce(max(a.sim) FILTER (WHERE 'B' = ANY(l.weights) AND d.scope <> 'member'), 0) AS body
          FROM docs d CROSS JOIN LATERAL unnest(d.tsv) AS l JOIN alike a ON a.term = l.lexeme
          GROUP BY d.id, a.n) s
    GROUP BY s.id
)
SELECT d.scope, d.entity_id, d.title, d.body, similarity(d.title, :phrase) AS phrase,
       LEAST(1.0, sqrt(CAST(CAST(:body_words AS jsonb) ->> d.scope AS float8)
             / GREATEST(1, length(d.body) - length(replace(d.body, ' ', '')) + 1))) AS norm,
       sims.ns, sims.titles, sims.bodies,
       ARRAY(SELECT CASE WHEN d.tsv @@ v.qt THEN 2 WHEN d.tsv @@ v.qa THEN 1 ELSE 0 END FROM v ORDER BY v.n)
           AS fulltext,
       (SELECT count(*) FROM (SELECT 1 FROM rag_documents t WHERE t.org_id = :org {scopes_t} LIMIT :count_cap) c)
           AS total
FROM docs d LEFT JOIN sims ON sims.id = d.id"""
COUNT_CAP = 5_000  # idf needs the org's size only roughly; counting is capped to bound its cost (20k: 6 ms)
NEAREST_MAX_LEN = 6  # typed words up to this long also take the nearest titles
_WORD = re.compile(r"[^\W_]+")


def edit_distance(a: str, b: str) -> int:
    """Optimal string alignment distance (Levenshtein plus adjacent transpositions: "becnh")."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, start=1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1]


def edit_similarity(spelling: str, words: Sequence[str]) -> float:
    """Best 1 - distance / length of `spelling` to one of `words` with the same first letter (typos
    spare it), within EDIT_MAX_DISTANCE edits; trigrams rate "coen" 0.4 from "Cohen", this 0.8."""
    return max((_word_edit_similarity(spelling, word) for word in words), default=0.0)


@functools.lru_cache(maxsize=65_536)
def _word_edit_similarity(spelling: str, word: str) -> float:
    """One pair of `edit_similarity` (cached: at 100k members the candidates of a query share their
    surnames, and the same pairs come back query after query)."""
    if word[:1] != spelling[:1] or abs(len(word) - len(spelling)) > EDIT_MAX_DISTANCE or word == spelling:
        return 0.0
    distance = edit_distance(spelling, word)
    return 1.0 - distance / max(len(word), len(spelling)) if distance <= EDIT_MAX_DISTANCE else 0.0


def word_scores(n_words: int, forms: Sequence[Spelling], title: str, norm: float, title_trgm: Sequence[float],
                body_trgm: Sequence[float], fulltext: Sequence[int]) -> tuple[list[float], list[float]]:
    """Per content word, the best match of any of its spellings in one document, overall and in the
    title alone (0: no match). `fulltext` is 2 for a title word, 1 for a body word, 0 for none; a full-text
    match outscores any trigram match of the same field, so trigram scores are not needed with it."""
    best, in_title = [0.0] * n_words, [0.0] * n_words
    by_initial: dict[str, list[str]] | None = None  # title words by first letter (edit_similarity needs it equal)
    for n, form in enumerate(forms):
        title_score = float(title_trgm[n]) if form.trigram and title_trgm[n] >= form.floor else 0.0
        if form.trigram and title_score < EDIT_CONFIDENT and fulltext[n] != 2:
            if by_initial is None:
                by_initial = defaultdict(list)
                for word in _WORD.findall(title.casefold()):
                    by_initial[word[:1]].append(word)
            edit = edit_similarity(form.text, by_initial.get(form.text[:1], ()))
            if edit >= EDIT_MIN:
                title_score = max(title_score, edit)
        if fulltext[n] == 2:
            title_score = 1.0
        body_score = BODY_WEIGHT * norm * float(body_trgm[n]) if form.trigram and body_trgm[n] >= form.floor else 0.0
        if fulltext[n] == 1:
            body_score = max(body_score, FTS_BODY_WEIGHT * norm)
        w = form.word
        best[w] = max(best[w], form.weight * max(title_score, body_score))
        in_title[w] = max(in_title[w], form.weight * title_score)
    return best, in_title


def _first_word(title: str) -> str | None:
    words = _WORD.findall(normalize(title))
    return words[0] if words else None


def idf(total: int, matching: int) -> float:
    """BM25's inverse document frequency: a word many documents match says little about which is meant."""
    return math.log((total - matching + 0.5) / (matching + 0.5) + 1.0)


def drop_dominated(hits: list[dict[str, Any]], *, compare: int = 20) -> list[dict[str, Any]]:
    """Remove a hit whose title matches some of the words when a better hit of its scope has a title
    matching strictly more of them, each at least as well: "Saar Cohen" leaves out "Sveta Cohen" and
    "Saar Levi". Body-only matches are never dropped (Double-Under for "DUs, jump rope" must not hide
    Single-Under, which matches "jump rope" too)."""
    by_scope: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for hit in sorted(hits, key=lambda h: -h["score"]):
        by_scope[hit["scope"]].append(hit)
    kept = []
    for ranked in by_scope.values():
        for i, hit in enumerate(ranked):
            mine = hit["title_words"]
            if not any(mine) or not any(_dominates(b["title_words"], mine) for b in ranked[:min(i, compare)]):
                kept.append(hit)
    return kept


def _dominates(a: Sequence[float], b: Sequence[float]) -> bool:
    """`a` matches every word `b` matches at least as well, and some word `b` misses."""
    pairs = list(zip(a, b, strict=True))
    return all(x >= y - 1e-9 for x, y in pairs) and any(x > 0 and y == 0 for x, y in pairs)


@dataclass
class Lexical:
    """Ranked hits `{scope, entityId, title, body, score}` and the indexes of the words no document matched."""

    hits: list[dict[str, Any]]
    unmatched: list[int]


async def lexical_ranked(session: AsyncSession, org_id: uuid.UUID, terms: Sequence[Term], *,
                         scopes: Sequence[str] | None = None, limit: int = CANDIDATES) -> Lexical:
    """Documents matching the words, best first."""
    forms = spellings(terms)
    if not forms:
        return Lexical([], list(range(len(terms))))
    sql = LEXICAL_SQL.format(scopes_t=_scope_filter(scopes, "t"))
    pairs = adjacent(terms)
    result = await session.execute(text(sql), {
        "v": [f.text for f in forms], "w": [f.word for f in forms], "tsq_title": [f.tsq_title for f in forms],
        "tsq_any": [f.tsq_any for f in forms], "fuzzy": [f.trigram for f in forms],
        "nearest": [f.nearest for f in forms], "pair_a": [a for a, _ in pairs], "pair_b": [b for _, b in pairs],
        "scopes": list(scopes or ()), "org": org_id, "nearest_terms": NEAREST_TERMS, "nearest_floor": NEAREST_FLOOR, "knn": KNN,
        "cap": PER_SPELLING, "member_cap": MEMBER_CAP, "threshold": TERM_FLOOR, "count_cap": COUNT_CAP,
        "body_words": json.dumps(BODY_WORDS), "phrase": " ".join(t.text for t in terms)})
    rows = []
    for r in result:
        title_trgm, body_trgm = [0.0] * len(forms), [0.0] * len(forms)
        for n, title_sim, body_sim in zip(r.ns or (), r.titles or (), r.bodies or (), strict=True):
            title_trgm[n - 1], body_trgm[n - 1] = title_sim, body_sim
        best, in_title = word_scores(len(terms), forms, r.title, float(r.norm), title_trgm, body_trgm, r.fulltext)
        if any(best):
            rows.append((r, best, in_title))
    if not rows:
        return Lexical([], list(range(len(terms))))
    total = max(int(rows[0][0].total), len(rows))
    weights = [idf(total, sum(1 for _, best, _ in rows if best[i] > 0)) for i in range(len(terms))]
    lead = set(terms[0].variants)
    hits = [{"scope": r.scope, "entityId": r.entity_id, "title": r.title, "body": r.body,
             "score": sum(b * w for b, w in zip(best, weights, strict=True))
             + (PHRASE_WEIGHT * float(r.phrase) if r.phrase >= PHRASE_FLOOR else 0.0)
             + (LEAD_WEIGHT if _first_word(r.title) in lead else 0.0),
             "words": best, "title_words": in_title} for r, best, in_title in rows]
    hits = diversify(sorted(drop_dominated(hits), key=lambda h: (-h["score"], len(h["title"]), str(h["entityId"]))))
    for hit in hits:
        del hit["words"], hit["title_words"]
    unmatched = [i for i in range(len(terms)) if not any(best[i] > 0 for _, best, _ in rows)]
    return Lexical(hits[:limit], unmatched)


def diversify(ranked: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Stable re-order: first each hit that is among the best matches of a word no earlier hit of its
    scope has claimed ("pull-ups and push-ups": the best pull-up and the best push-up come before a
    second push-up), then the rest."""
    best: dict[tuple[str, int], float] = defaultdict(float)
    for hit in ranked:
        for i, b in enumerate(hit["words"]):
            best[hit["scope"], i] = max(best[hit["scope"], i], b)
    claimed: dict[str, set[int]] = defaultdict(set)
    first, rest = [], []
    for hit in ranked:
        scope = hit["scope"]
        strong = {i for i, b in enumerate(hit["words"]) if b > 0 and b >= best[scope, i] - CLAIM_MARGIN}
        if strong - claimed[scope]:
            claimed[scope] |= strong
            first.append(hit)
        else:
            rest.append(hit)
    return first + rest
