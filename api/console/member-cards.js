/**
 * Member mode cards: a structured workout (the 4 exercise types, groups, rest), a timer with its
 * phases, a question with its options as buttons, and an action card (confirm / undo).
 */
import { h } from './dom.js';
import { t, currentLocale, toolLabel } from './i18n.js';

export const num = (value) => (Number.isFinite(Number(value)) ? new Intl.NumberFormat(currentLocale()).format(Number(value)) : '');

/** A load's unit in the UI language: "kg", "ק"ג", "кг"; "lb" for lbs. */
export const unitLabel = (unit) => t(`train.unit.${unit || 'kg'}`, undefined, unit || 'kg');

const KG_PER_LB = 0.45359237;

/** A load from one weight unit to the other, to one decimal as the service says it (30 kg → 66.1 lbs). */
export function convertLoad(value, from, to) {
  if (value === null || value === undefined || !from || !to || from === to) return value;
  const kg = from === 'lbs' ? value * KG_PER_LB : value;
  return Math.round((to === 'lbs' ? kg / KG_PER_LB : kg) * 10) / 10;
}

/** "14 kg" / "30.9 lb" in the UI language; '' for none. */
export function loadText(value, unit) {
  if (value === null || value === undefined || value === '') return '';
  return `${num(value)} ${unitLabel(unit)}`;
}

const INTL_DISTANCE = { km: 'kilometer', mi: 'mile' };

/** "2.5 km" / "2,5 км" / "1.5 mi" through Intl; '' for none. */
export function distanceText(value, unit) {
  if (value === null || value === undefined || value === '') return '';
  const intl = INTL_DISTANCE[unit];
  if (!intl) return `${num(value)} ${unit ?? ''}`.trim();
  return new Intl.NumberFormat(currentLocale(), { style: 'unit', unit: intl, unitDisplay: 'short', maximumFractionDigits: 2 })
    .format(Number(value));
}

/** "30 s" / "2 min" / "1:30 min". */
export function seconds(value) {
  const s = Math.round(Number(value) || 0);
  if (s < 60) return t('member.sec', { n: num(s) });
  return s % 60 ? t('member.minSec', { m: num(Math.floor(s / 60)), s: String(s % 60).padStart(2, '0') })
    : t('member.min', { n: num(s / 60) });
}

/** per-set values [8,8,8] → "8"; [10,8,6] → "10/8/6". */
function sameOrAll(list, format = num) {
  const values = Array.isArray(list) ? list : [list];
  return values.every((v) => v === values[0]) ? format(values[0]) : values.map(format).join('/');
}

/** The prescription line of one exercise, by type, in the member's unit. */
export function prescription(ex, unit) {
  switch (ex.type) {
    case 'reps': {
      const load = ex.load === null || ex.load === undefined ? t('member.bodyweight')
        : loadText(ex.load, ex.load_unit || unit);
      return `${num(ex.sets)} × ${sameOrAll(ex.reps)} × ${load}`;
    }
    case 'hold':
      return `${num(ex.sets)} × ${t('member.hold', { time: sameOrAll(ex.hold_sec, seconds) })}`;
    case 'duration': {
      const parts = [t('member.min', { n: num(ex.duration_min) })];
      if (ex.distance) parts.push(distanceText(ex.distance, ex.distance_unit));
      if (ex.target_pace) parts.push(String(ex.target_pace));
      return parts.join(' · ');
    }
    case 'intervals':
      return t('member.intervals', { rounds: num(ex.rounds), work: seconds(ex.work_sec), rest: seconds(ex.rest_sec) });
    default:
      return '';
  }
}

export const muscleName = (name) => t(`member.muscle.${name}`, undefined, String(name ?? ''));
const first = (obj, keys) => keys.map((k) => obj?.[k]).find((v) => v !== undefined && v !== null);
const words = (value) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

// Per exercise, the rules give `recovery` [{muscle, percent, readyAt}] and `suggestion` {suggestedLoad,
// suggestedReps, unit, why: {code, ...its numbers}} (gym.training.workout_view; agent/trainer/shown.py fills them
// when the rules did not). Other names for them are read too; the first one present wins.
const RECOVERY_KEYS = ['recovery', 'recovering', 'recoveringMuscles', 'recovering_muscles'];
const PERCENT_KEYS = ['percent', 'recoveryPercent', 'recovery_percent', 'recoveryPct', 'recovery_pct', 'recoveredPct'];
const SUGGESTION_KEYS = ['suggestion', 'progression', 'progressionSuggestion', 'progression_suggestion'];
const LOAD_KEYS = ['suggestedLoad', 'suggested_load', 'load', 'nextLoad', 'next_load'];
const REPS_KEYS = ['suggestedReps', 'suggested_reps', 'reps', 'targetReps', 'target_reps'];
const WHY_KEYS = ['why', 'reason', 'rule'];

/** The recovering muscles an exercise loads: [{muscle, percent}] (percent below 100, or null when not given). */
export function recoveryOf(ex) {
  const list = first(ex, RECOVERY_KEYS);
  if (!Array.isArray(list)) return [];
  return list.map((r) => (typeof r === 'string' ? { muscle: r, percent: null }
    : { muscle: first(r, ['muscle', 'name']), percent: first(r, PERCENT_KEYS) ?? null }))
    .filter((r) => typeof r.muscle === 'string' && !(Number(r.percent) >= 100));
}

/** The progression suggestion of an exercise: {load, reps, unit, why} or null. */
export function suggestionOf(ex) {
  const p = first(ex, SUGGESTION_KEYS);
  if (!p || typeof p !== 'object') return null;
  const load = first(p, LOAD_KEYS);
  const reps = first(p, REPS_KEYS);
  const why = first(p, WHY_KEYS);
  if (load === undefined && reps === undefined && !why) return null;
  return { load, reps, unit: first(p, ['unit', 'load_unit', 'loadUnit']) ?? ex.load_unit, why };
}

/** Why, in words from locales/: the rule's code with its numbers (member.progression.<code>), else its own words. */
function whyText(why) {
  const code = why && typeof why === 'object' ? first(why, ['code', 'rule', 'reason']) : why;
  if (typeof code === 'string' && /^[a-z_]+$/.test(code)) {
    const vars = {};
    for (const [key, value] of Object.entries(typeof why === 'object' ? why : {})) {
      vars[key] = typeof value === 'number' ? num(value) : words(value);
    }
    vars.variantName ??= vars.variant;  // a harder variant's name in the member's language, else the library's
    const said = t(`member.progression.${code}`, vars, '');
    if (said) return said;
  }
  const text = words(typeof why === 'object' && why ? first(why, ['text', 'message']) : why);
  return /\s/.test(text) ? text : '';
}

export function progressionLine(ex, unit) {
  const p = suggestionOf(ex);
  if (!p) return null;
  const reps = p.reps === undefined || p.reps === null ? '' : sameOrAll(p.reps);
  const load = loadText(p.load, p.unit || unit);
  const next = load && reps ? `${load} × ${reps}` : load || (reps ? t('member.repsOnly', { reps }) : '');
  const why = whyText(p.why);
  if (!next && !why) return null;
  return h('div', { class: 'ex-progression', testid: 'exercise-progression', dir: 'auto' },
    next ? h('span', { class: 'prog-next', testid: 'progression-next', text: `${t('member.progression.title')}: ${next}` }) : null,
    why ? h('span', { class: 'prog-why muted', testid: 'progression-why', text: why }) : null);
}

export function recoveryLine(ex) {
  const recovering = recoveryOf(ex);
  if (!recovering.length) return null;
  return h('div', { class: 'ex-recovery', testid: 'exercise-recovery', dir: 'auto' }, ...recovering.map((r) => h('span', {
    class: 'recovery-chip', testid: 'recovery-muscle', 'data-muscle': r.muscle, 'data-percent': r.percent ?? '',
    text: r.percent === null ? t('member.recovery.noPercent', { muscle: muscleName(r.muscle) })
      : t('member.recovery.muscle', { muscle: muscleName(r.muscle), percent: num(Math.floor(Number(r.percent))) }),
  })));
}

/** The active injuries and hard preferences an exercise breaks (a rule saved after the workout was built): the
 * rule in the member's words from the server ("no overhead pressing — left shoulder"), else its description. */
export function conflictLine(ex) {
  const list = Array.isArray(ex.conflicts) ? ex.conflicts : [];
  const said = list.map((c) => words(c?.text ?? c?.description ?? c?.rule ?? c)).filter(Boolean);
  if (!said.length) return null;
  return h('div', { class: 'ex-conflict', testid: 'exercise-conflict', dir: 'auto' },
    ...said.map((description) => h('span', { text: t('member.conflict', { description }) })));
}

/** The exercises the rules left out of the workout, each with its rule, in the member's language (the server's). */
export function leftOutBlock(workout) {
  const list = (Array.isArray(workout?.leftOut) ? workout.leftOut : []).map((i) => words(i?.text)).filter(Boolean);
  if (!list.length) return null;
  return h('div', { class: 'ex-left-out', testid: 'workout-left-out', dir: 'auto' },
    h('strong', { text: t('member.leftOut') }),
    h('ul', {}, ...list.map((line) => h('li', { testid: 'left-out-item', text: line }))));
}

function exerciseRow(ex, unit) {
  const rest = ex.rest_sec && ex.type !== 'intervals' ? t('member.rest', { time: seconds(ex.rest_sec) }) : null;
  const muscles = (ex.muscles ?? []).map((m) => muscleName(m?.name ?? m)).filter(Boolean).join(', ');
  return h(
    'li',
    { class: 'ex', testid: 'exercise', 'data-exercise-id': ex.id ?? '', 'data-type': ex.type },
    h('div', { class: 'ex-head' },
      h('span', { class: 'ex-order', text: String(ex.order ?? '') }),
      h('span', { class: 'ex-name', dir: 'auto', text: words(ex.displayName || ex.name) })),
    h('div', { class: 'ex-rx', testid: 'exercise-rx', dir: 'ltr', text: prescription(ex, unit) }),
    rest ? h('div', { class: 'ex-rest muted', testid: 'exercise-rest', text: rest }) : null,
    muscles ? h('div', { class: 'ex-muscles muted', dir: 'auto', text: muscles }) : null,
    conflictLine(ex),
    recoveryLine(ex),
    progressionLine(ex, unit),
  );
}

/** A workout's summary in words: its own text, or {estimated_duration_min, primary_goals, muscles_targeted}. */
export function summaryText(summary) {
  if (summary === null || summary === undefined) return '';
  if (typeof summary !== 'object') return words(summary);
  const minutes = first(summary, ['estimated_duration_min', 'estimatedDurationMin', 'duration_min']);
  const goals = first(summary, ['primary_goals', 'primaryGoals']);
  const muscles = first(summary, ['muscles_targeted', 'musclesTargeted']);
  return [
    Number.isFinite(Number(minutes)) && minutes !== '' ? t('member.summary.duration', { n: num(Math.round(Number(minutes))) }) : '',
    Array.isArray(goals) ? goals.map((g) => t(`member.goal.${g}`, undefined, words(g))).filter(Boolean).join(', ') : words(goals),
    Array.isArray(muscles) ? muscles.map(muscleName).filter(Boolean).join(', ') : '',
  ].filter(Boolean).join(' · ');
}

/** Exercises in order, consecutive members of one group in one box (its name, type and rounds). */
export function workoutCard(workout, unit) {
  const exercises = [...(workout?.exercises ?? [])].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  const list = h('ol', { class: 'ex-list' });
  let groupBox = null;
  let groupId = null;
  for (const ex of exercises) {
    const row = exerciseRow(ex, unit);
    if (ex.group?.id) {
      if (ex.group.id !== groupId) {
        groupId = ex.group.id;
        const label = [ex.group.name, t(`member.group.${ex.group.type}`, undefined, ex.group.type),
          ex.group.rounds ? t('member.rounds', { n: num(ex.group.rounds) }) : null].filter(Boolean).join(' · ');
        groupBox = h('ol', { class: 'ex-group-list' });
        list.append(h('li', { class: 'ex-group', testid: 'exercise-group', 'data-group-type': ex.group.type },
          h('div', { class: 'ex-group-label', dir: 'auto', text: label }), groupBox));
      }
      groupBox.append(row);
    } else {
      groupId = null;
      list.append(row);
    }
  }
  return h(
    'article',
    { class: 'member-card workout-card', testid: 'workout-card', 'data-workout-id': workout?.id ?? '' },
    h('header', { class: 'card-title', dir: 'auto', text: words(workout?.title) || t('member.workout') }),
    summaryText(workout?.summary) ? h('p', { class: 'muted', testid: 'workout-summary-line', dir: 'auto', text: summaryText(workout.summary) }) : null,
    list,
    leftOutBlock(workout),
  );
}

/** A timer phase's cue in the UI language, built from its fields (the server's `cue` is English, for the model). */
function cueText(phases, i) {
  const p = phases[i];
  if (p.phase_type === 'rest' || p.phase_type === 'transition') {
    return i + 1 < phases.length ? t('train.timer.nextUp', { what: cueText(phases, i + 1) }) : '';
  }
  return [words(p.display_name || p.exercise_name),
    p.set_number ? t('train.timer.set', { n: num(p.set_number) }) : ''].filter(Boolean).join(' — ');
}

function timerBlock(timer) {
  const phases = timer.phases ?? [];
  return h(
    'section',
    { class: 'timer', testid: 'timer' },
    h('div', { class: 'timer-head' },
      h('span', { dir: 'auto', text: timer.exercise_name ?? '' }),
      h('span', { class: 'muted', testid: 'timer-total', text: seconds(timer.total_duration_sec) })),
    h('ol', { class: 'phases' }, ...phases.map((p, i) => h(
      'li',
      { class: `phase phase-${p.phase_type}`, testid: 'timer-phase', 'data-phase': p.phase_type },
      h('span', { class: 'phase-type', i18n: `member.phase.${p.phase_type}` }),
      h('span', { class: 'phase-cue', testid: 'timer-cue', dir: 'auto', text: cueText(phases, i) }),
      h('span', { class: 'phase-time', text: seconds(p.duration_sec) }),
    ))),
  );
}

/** A timer tool's output: one timer {phases} or several {timers: [...]}. */
export function timerCard(output) {
  const timers = Array.isArray(output?.timers) ? output.timers : [output];
  return h('article', { class: 'member-card timer-card', testid: 'timer-card' },
    h('header', { class: 'card-title', i18n: 'member.timer' }),
    ...timers.filter((x) => x && Array.isArray(x.phases)).map(timerBlock));
}

/** The trainer's question; each option is a button that sends it. */
export function questionCard(d, onPick) {
  const options = Array.isArray(d.options) ? d.options : [];
  const card = h('div', { class: 'member-card question-card', testid: 'question' },
    h('p', { dir: 'auto', text: d.content ?? '' }));
  const row = h('div', { class: 'options' }, ...options.map((option) => h('button', {
    type: 'button', class: 'btn small', testid: 'question-option', dir: 'auto', text: String(option),
    onclick: () => {
      for (const b of row.querySelectorAll('button')) b.disabled = true;
      onPick(String(option));
    },
  })));
  if (options.length) card.append(row);
  return card;
}

/** The trainer's action, from tool_started to its result; confirm and undo buttons when offered. */
export function actionCard(toolUseId, { onConfirm, onUndo }) {
  const title = h('span', { class: 'action-title' });
  const status = h('span', { class: 'action-status muted', testid: 'action-status' });
  const buttons = h('div', { class: 'options' });
  const node = h('div', { class: 'member-card action-card', testid: 'action-card', 'data-tool-use-id': toolUseId },
    h('div', { class: 'action-head' }, title, status), buttons);
  const setStatus = (key) => {
    status.dataset.i18n = key;
    status.textContent = t(key);
    node.dataset.state = key.split('.').pop();
  };
  const button = (key, testid, onclick, cls = 'btn small') => h('button', { type: 'button', class: cls, testid, i18n: key, onclick });
  return {
    node,
    start(d) {
      title.textContent = d.label || toolLabel(d.router, d.action);
      setStatus('member.action.running');
    },
    complete(d) {
      if (!title.textContent) this.start(d);
      if (d.ok !== false && d.output?.shownBack) title.textContent = d.output.shownBack;  // an injury or a rule, said back
      setStatus(d.ok === false ? 'member.action.failed' : 'member.action.done');
      buttons.replaceChildren();
      if (d.ok !== false && d.inverseAvailable) {
        buttons.append(button('member.undo', 'undo', async (event) => {
          event.target.disabled = true;
          try {
            await onUndo(toolUseId);
            buttons.replaceChildren();
            setStatus('member.action.undone');
          } catch {
            event.target.disabled = false;
          }
        }));
      }
    },
    pending(d) {
      if (!title.textContent) this.start(d);
      setStatus('member.action.confirm');
      const answer = (approved) => () => {
        for (const b of buttons.querySelectorAll('button')) b.disabled = true;
        onConfirm(toolUseId, approved, this);
      };
      buttons.replaceChildren(button('member.approve', 'approve', answer(true), 'btn small primary'),
        button('member.reject', 'reject', answer(false)));
    },
    rejected() {
      buttons.replaceChildren();
      setStatus('member.action.rejected');
    },
  };
}
