/**
 * Today: the current workout as a logging screen (GET …/trainer/workout). Each exercise shows its prescription,
 * the suggested load and why, its recovering muscles, how to do it, and one row per set with inputs prefilled
 * from the prescription, RPE and a check. A checked set goes through the outbox (member-api.js): it shows at once,
 * waits while the connection is down, and is sent once, with the unit its load was entered in (a set queued in kg
 * stays kg after a switch to lbs). A units switch converts what the member typed but has not logged yet. Logged sets can be undone; exercises can be swapped,
 * added (from the library) and removed; Finish sums the workout up. Timers open from here (timer.js).
 */
import { h } from './dom.js';
import { t } from './i18n.js';
import { showError, clearError } from './notices.js';
import { trainerApp, queueSet, pending, onOutbox, dropQueued, flush, newKey } from './member-api.js';
import { prescription, progressionLine, recoveryLine, conflictLine, loadText, num, unitLabel, convertLoad } from './member-cards.js';
import { clock, recordBadges, recordText, confirmDialog, showHow, announce } from './member-format.js';
import { openLibrary, resetLibrary } from './library-picker.js';
import { openTimer } from './timer.js';
import { numberInput, rpeSelect, emptyToday, summaryCard } from './today-parts.js';
import { startRest, restFor } from './rest-timer.js';
import { noteField, openDetail, openPlates } from './exercise-extras.js';

const LOAD_EQUIPMENT = /barbell|dumbbell|kettlebell|cable|band|plate|machine|medicine ball|sandbag/i;
const BARBELL = /barbell/i;

const view = { root: null, screen: null, drafts: new Map(), summary: null, clock: null, unsubscribe: null,
               loading: null, draftUnit: null };

const unit = () => view.screen?.units?.weightUnit || 'kg';
const exercises = () => view.screen?.workout?.exercises ?? [];
const findExercise = (id) => exercises().find((e) => e.id === id);

function draft(exId, n) {
  const key = `${exId}:${n}`;
  if (!view.drafts.has(key)) view.drafts.set(key, {});
  return view.drafts.get(key);
}

/** Whether set `n` of `ex` is a warm-up: logged as one, queued as one, or marked so on its row. */
function warm(ex, n) {
  const logged = ex.logged?.find((s) => s.setNumber === n);
  if (logged) return Boolean(logged.warmup);
  const queued = queuedFor(ex.id).find((i) => i.body.setNumber === n);
  if (queued) return Boolean(queued.body.warmup);
  return Boolean(draft(ex.id, n).warmup);
}

/** Which working set row `n` is (warm-ups before it not counted): the prescription's and last time's index. */
function working(ex, n) {
  let k = 0;
  for (let m = 1; m <= n; m += 1) if (!warm(ex, m)) k += 1;
  return Math.max(k, 1);
}

/** What set `n` of `ex` would log as it stands: the member's edits over the prescription (or the last set). */
function planned(ex, n) {
  const d = draft(ex.id, n);
  const previous = [...(ex.logged ?? [])].reverse().find((s) => s.setNumber < n && !s.warmup);
  const k = working(ex, n);
  if (ex.type === 'reps') {
    const reps = ex.reps?.[Math.min(k, ex.reps.length) - 1] ?? ex.reps?.at(-1) ?? 10;
    const load = ex.load ?? ex.suggestion?.suggestedLoad ?? previous?.load ?? null;
    return { reps: d.reps ?? reps, load: d.load !== undefined ? d.load : (previous?.load ?? load), rpe: d.rpe ?? null };
  }
  if (ex.type === 'hold') {
    return { seconds: d.seconds ?? ex.hold_sec?.[Math.min(k, ex.hold_sec.length) - 1] ?? 30, rpe: d.rpe ?? null };
  }
  if (ex.type === 'intervals') return { seconds: d.seconds ?? ex.work_sec, rpe: d.rpe ?? null };
  return { minutes: d.minutes ?? ex.duration_min, rpe: d.rpe ?? null };
}

/** The first set of `ex` neither logged nor waiting to be sent. */
function nextSet(ex) {
  let n = 1;
  while (ex.logged?.some((s) => s.setNumber === n) || queuedFor(ex.id).some((i) => i.body.setNumber === n)) n += 1;
  return n;
}

function queuedFor(exId) {
  return pending().filter((i) => i.body.exerciseId === exId);
}

// ---- rendering ---------------------------------------------------------------------------------------------------

function setRow(ex, n, state, item) {
  const logged = state === 'logged' ? item : null;
  const values = logged ? { reps: logged.reps, load: logged.load, rpe: logged.rpe, seconds: logged.durationSec,
                            minutes: logged.durationSec ? logged.durationSec / 60 : null }
    : state === 'queued' ? { reps: item.body.reps, load: convertLoad(item.body.load, item.body.loadUnit, unit()), rpe: item.body.rpe,
                             seconds: item.body.durationSec, minutes: item.body.durationSec / 60 }
      : planned(ex, n);
  const locked = state !== 'planned';
  const d = draft(ex.id, n);
  const label = (key) => t(key, { n: num(n) });
  const inputs = [];
  if (ex.type === 'reps') {
    inputs.push(h('label', { class: 'set-field' }, h('span', { class: 'set-field-label', text: unitLabel(unit()) }),
      numberInput({ testid: 'set-load', value: values.load, label: label('train.set.loadLabel'), step: '0.5',
                    inputmode: 'decimal', max: '2000', disabled: locked, onchange: (v) => { d.load = v; } })));
    inputs.push(h('label', { class: 'set-field' }, h('span', { class: 'set-field-label', i18n: 'train.set.reps' }),
      numberInput({ testid: 'set-reps', value: values.reps, label: label('train.set.repsLabel'), min: '1', max: '1000',
                    disabled: locked, onchange: (v) => { d.reps = v; } })));
  } else if (ex.type === 'duration') {
    inputs.push(h('label', { class: 'set-field' }, h('span', { class: 'set-field-label', i18n: 'train.set.minutes' }),
      numberInput({ testid: 'set-minutes', value: values.minutes, label: label('train.set.minutesLabel'), step: '0.5',
                    min: '0.5', inputmode: 'decimal', disabled: locked, onchange: (v) => { d.minutes = v; } })));
  } else {
    inputs.push(h('label', { class: 'set-field' }, h('span', { class: 'set-field-label', i18n: 'train.set.seconds' }),
      numberInput({ testid: 'set-seconds', value: values.seconds, label: label('train.set.secondsLabel'), min: '1',
                    disabled: locked, onchange: (v) => { d.seconds = v; } })));
  }
  inputs.push(h('label', { class: 'set-field' }, h('span', { class: 'set-field-label', i18n: 'train.set.rpe' }),
    rpeSelect(values.rpe, label('train.set.rpeLabel'), locked, (v) => { d.rpe = v; })));
  const check = h('button', {
    type: 'button', class: `set-check${locked ? ' checked' : ''}`, testid: 'set-check', 'aria-pressed': String(locked),
    'aria-label': label(locked ? 'train.set.logged' : 'train.set.check'), title: label(locked ? 'train.set.logged' : 'train.set.check'),
    disabled: locked || null, text: '✓', onclick: () => checkSet(ex.id, n),
  });
  const undo = state === 'planned' ? null : h('button', {
    type: 'button', class: 'icon-btn small set-undo', testid: 'set-undo', text: '↶',
    'aria-label': label('train.set.undo'), title: label('train.set.undo'),
    onclick: () => (state === 'queued' ? undoQueued(item) : undoSet(ex.id, item)),
  });
  const isWarm = warm(ex, n);
  const row = h('li', { class: `set-row set-${state}${isWarm ? ' warmup' : ''}`, testid: 'set-row', 'data-set': String(n),
                        'data-state': state, 'data-warmup': String(isWarm) },
    setNumber(ex, n, isWarm, locked),
    h('div', { class: 'set-fields' }, inputs),
    h('div', { class: 'set-actions' }, check, undo),
    isWarm ? null : lastTime(ex, n, working(ex, n), locked),
    state === 'queued' ? h('span', { class: 'set-queued', testid: 'set-queued', i18n: 'train.set.queued' }) : null,
    logged?.records?.length ? h('div', { class: 'set-records' }, recordBadges(logged.records, unit())) : null);
  row.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && state === 'planned' && event.target.matches('input')) {
      event.preventDefault();
      checkSet(ex.id, n);
    }
  });
  return row;
}

/** The set's number, or W for a warm-up; on a set not logged yet, a button that makes it a warm-up or not. */
function setNumber(ex, n, isWarm, locked) {
  const text = isWarm ? t('train.set.warmupShort') : num(n);
  if (locked) {
    return h('span', { class: 'set-number', testid: 'set-number', text, title: isWarm ? t('train.set.warmup') : null });
  }
  return h('button', { type: 'button', class: 'set-number set-kind', testid: 'set-kind', text, 'aria-pressed': String(isWarm),
                       'aria-label': t('train.set.warmupToggle', { n: num(n) }), title: t('train.set.warmupToggle', { n: num(n) }),
                       onclick: () => { const d = draft(ex.id, n); d.warmup = !d.warmup; rerender(ex.id); } });
}

/** "Last time: 14 kg × 8" under row `n`, the `k`-th working set (the service's `previous`); on a set not logged
 * yet, it fills the row. */
function lastTime(ex, n, k, locked) {
  const p = ex.previous?.sets?.find((s) => s.setNumber === k);
  if (!p) return null;
  const what = p.load === null || p.load === undefined ? t('member.repsOnly', { reps: num(p.reps) })
    : `${loadText(p.load, ex.previous.unit)} × ${num(p.reps)}`;
  const words = [h('span', { class: 'set-previous-label', i18n: 'train.set.previous' }), ' ', h('bdi', { dir: 'ltr', text: what })];
  if (locked) return h('p', { class: 'set-previous', testid: 'set-previous', 'data-reps': String(p.reps) }, words);
  return h('button', { type: 'button', class: 'set-previous', testid: 'set-previous', 'data-reps': String(p.reps),
                       'aria-label': t('train.set.usePrevious', { n: num(n), what }), onclick: () => {
                         const d = draft(ex.id, n);
                         d.reps = p.reps;
                         if (p.load !== null && p.load !== undefined) d.load = convertLoad(p.load, ex.previous.unit, unit());
                         rerender(ex.id);
                       } }, words);
}

function setList(ex) {
  const logged = new Map((ex.logged ?? []).map((s) => [s.setNumber, s]));
  const queued = new Map(queuedFor(ex.id).map((i) => [i.body.setNumber, i]));
  const extra = draft(ex.id, 'extra');
  let warmups = 0;
  for (let n = 1; n <= (ex.prescribedSets ?? 1) + warmups + (extra.count ?? 0); n += 1) if (warm(ex, n)) warmups += 1;
  const count = Math.max((ex.prescribedSets ?? 1) + warmups, ...logged.keys(), ...queued.keys(), 0) + (extra.count ?? 0);
  const rows = [];
  for (let n = 1; n <= count; n += 1) {
    if (logged.has(n)) rows.push(setRow(ex, n, 'logged', logged.get(n)));
    else if (queued.has(n)) rows.push(setRow(ex, n, 'queued', queued.get(n)));
    else rows.push(setRow(ex, n, 'planned'));
  }
  return h('ol', { class: 'set-list', 'aria-label': t('train.set.listLabel', { name: ex.displayName }) }, rows);
}

function exerciseCard(ex) {
  const hasSets = (ex.logged ?? []).length > 0 || queuedFor(ex.id).length > 0;
  const shown = { ...ex };
  if (ex.type === 'reps' && (ex.load === null || ex.load === undefined) && (ex.equipment ?? []).some((e) => LOAD_EQUIPMENT.test(e))) {
    shown.load = undefined;
  }
  const rx = ex.type === 'reps' && shown.load === undefined && (ex.equipment ?? []).some((e) => LOAD_EQUIPMENT.test(e))
    ? `${num(ex.sets)} × ${(ex.reps ?? []).every((r) => r === ex.reps[0]) ? num(ex.reps[0]) : ex.reps.map(num).join('/')} · ${t('train.chooseLoad')}`
    : prescription(ex, unit());
  const card = h('article', { class: `today-ex${ex.done ? ' done' : ''}`, testid: 'today-exercise', 'data-exercise-id': ex.id,
                              'data-done': String(Boolean(ex.done)), 'aria-labelledby': `ex-${ex.id}-name` },
    h('header', { class: 'today-ex-head' },
      h('span', { class: 'ex-order', 'aria-hidden': 'true', text: num(ex.order) }),
      h('h3', { class: 'today-ex-name', id: `ex-${ex.id}-name`, dir: 'auto', testid: 'exercise-name', text: ex.displayName || ex.name }),
      ex.done ? h('span', { class: 'badge badge-succeeded', testid: 'exercise-done', i18n: 'train.exerciseDone' }) : null,
      h('div', { class: 'today-ex-tools' },
        ex.how ? h('button', { type: 'button', class: 'btn ghost small', testid: 'how-to', i18n: 'train.howTo',
                               'aria-label': t('train.howToLabel', { name: ex.displayName }), onclick: () => showHow(ex.how) }) : null,
        h('button', { type: 'button', class: 'btn ghost small', testid: 'exercise-detail', i18n: 'train.detail.open',
                      'aria-label': t('train.detail.openLabel', { name: ex.displayName }), onclick: () => openDetail(ex) }),
        BARBELL.test((ex.equipment ?? []).join(' ')) ? h('button', { type: 'button', class: 'btn ghost small', testid: 'plates',
          i18n: 'train.plates.open', 'aria-label': t('train.plates.title', { name: ex.displayName }),
          onclick: () => openPlates(ex, planned(ex, nextSet(ex)).load) }) : null,
        h('button', { type: 'button', class: 'btn ghost small', testid: 'swap-exercise', i18n: 'train.swap',
                      'aria-label': t('train.swapLabel', { name: ex.displayName }), disabled: hasSets || null,
                      title: hasSets ? t('train.swapBlocked') : null, onclick: () => swap(ex) }),
        h('button', { type: 'button', class: 'btn ghost small', testid: 'remove-exercise', i18n: 'train.remove',
                      'aria-label': t('train.removeLabel', { name: ex.displayName }), onclick: () => remove(ex) }))),
    h('div', { class: 'ex-rx', testid: 'exercise-rx', dir: 'ltr', text: rx }),
    noteField(ex),
    conflictLine(ex), recoveryLine(ex), progressionLine(ex, unit()),
    setList(ex),
    h('button', { type: 'button', class: 'btn ghost small add-set', testid: 'add-set', i18n: 'train.set.add',
                  onclick: () => { const d = draft(ex.id, 'extra'); d.count = (d.count ?? 0) + 1; rerender(ex.id); } }));
  return card;
}

function groupBox(group, members) {
  const first = members[0];
  const label = [first.group?.name, t(`member.group.${group.type}`, undefined, group.type),
    first.group?.rounds ? t('member.rounds', { n: num(first.group.rounds) }) : null].filter(Boolean).join(' · ');
  return h('section', { class: 'today-group', testid: 'today-group', 'data-group-type': group.type },
    h('h3', { class: 'today-group-label', dir: 'auto', text: label }), members.map(exerciseCard));
}

function exerciseBlocks() {
  const out = [];
  let box = null;
  for (const ex of exercises()) {
    if (ex.group?.id && box?.id === ex.group.id) {
      box.members.push(ex);
    } else if (ex.group?.id) {
      box = { id: ex.group.id, type: ex.group.type, members: [ex] };
      out.push(box);
    } else {
      box = null;
      out.push({ single: ex });
    }
  }
  return out.map((b) => (b.single ? exerciseCard(b.single) : groupBox(b, b.members)));
}

function outboxLine() {
  const waiting = pending().length;
  return h('p', { class: `outbox-status${waiting ? '' : ' empty'}`, testid: 'outbox-status', role: 'status',
                  'data-waiting': String(waiting), hidden: waiting ? null : true,
                  text: waiting ? t('train.outbox', { n: num(waiting) }) : '' });
}

function header(workout) {
  const p = workout.progress;
  const pct = p.setsPlanned ? Math.min(100, Math.round((100 * p.setsDone) / p.setsPlanned)) : 0;
  const started = workout.startedAt ? new Date(workout.startedAt).getTime() : null;
  return h('header', { class: 'today-head' },
    h('div', { class: 'today-title-row' },
      h('h2', { class: 'today-title', dir: 'auto', testid: 'workout-title', text: workout.title || t('member.workout') }),
      started ? h('span', { class: 'elapsed', testid: 'elapsed', 'data-started': String(started),
                            'aria-label': t('train.elapsed'), text: clock((Date.now() - started) / 1000) }) : null),
    workout.summary ? h('p', { class: 'muted today-summary', dir: 'auto', text: workout.summary }) : null,
    h('div', { class: 'today-progress', testid: 'today-progress', 'data-done': String(p.setsDone),
               'data-planned': String(p.setsPlanned) },
      h('div', { class: 'bar', role: 'progressbar', 'aria-valuemin': '0', 'aria-valuemax': String(p.setsPlanned),
                 'aria-valuenow': String(p.setsDone), 'aria-label': t('train.progressLabel') },
        h('span', { class: 'bar-fill', style: `inline-size: ${pct}%` })),
      h('span', { class: 'today-progress-text', text: t('train.progress', { done: num(p.setsDone), planned: num(p.setsPlanned),
                                                                          volume: loadText(p.volume, p.unit) }) })),
    h('div', { class: 'today-actions btn-row' },
      started ? null : h('button', { type: 'button', class: 'btn primary', testid: 'start-workout', i18n: 'train.start',
                                     onclick: start }),
      h('button', { type: 'button', class: 'btn', testid: 'open-timer', i18n: 'train.openTimer', onclick: () => openTimer(timerHooks) }),
      h('button', { type: 'button', class: 'btn', testid: 'finish-workout', i18n: 'train.finish', onclick: finish })),
    outboxLine());
}

function render() {
  if (!view.root) return;
  keepDraftsIn(unit());
  clearInterval(view.clock);
  const workout = view.screen?.workout;
  const body = [];
  if (view.summary) body.push(summaryCard(view.summary, () => { view.summary = null; render(); }));
  if (!view.screen) body.push(h('p', { class: 'muted', i18n: 'chat.loading' }));
  else if (!workout) body.push(emptyToday(askWorkout));
  else {
    body.push(header(workout), h('div', { class: 'today-list' }, exerciseBlocks()),
      h('button', { type: 'button', class: 'btn block add-exercise', testid: 'add-exercise', i18n: 'train.addExercise',
                    onclick: add }));
  }
  view.root.replaceChildren(h('div', { class: 'today', testid: 'today' }, body));
  if (workout?.startedAt) {
    view.clock = setInterval(() => {
      const el = view.root?.querySelector('[data-testid="elapsed"]');
      if (el) el.textContent = clock((Date.now() - Number(el.dataset.started)) / 1000);
    }, 1000);
  }
}

/** Re-render one exercise (or the header) in place, keeping focus where it was. */
function rerender(exId) {
  const active = document.activeElement;
  const where = active?.closest?.('[data-testid="set-row"]');
  const focus = where ? [where.closest('[data-exercise-id]')?.dataset.exerciseId, where.dataset.set, active.dataset.testid] : null;
  const ex = findExercise(exId);
  const old = view.root?.querySelector(`[data-testid="today-exercise"][data-exercise-id="${CSS.escape(exId)}"]`);
  if (ex && old) old.replaceWith(exerciseCard(ex));
  const head = view.root?.querySelector('.today-head');
  const inHead = head?.contains(active) ? active.dataset.testid : null;
  if (head && view.screen?.workout) head.replaceWith(header(view.screen.workout));
  if (inHead) view.root?.querySelector(`.today-head [data-testid="${inHead}"]`)?.focus();
  if (focus) {
    const row = view.root?.querySelector(`[data-exercise-id="${CSS.escape(focus[0] ?? '')}"] [data-testid="set-row"][data-set="${focus[1]}"]`);
    const same = row?.querySelector(`[data-testid="${focus[2]}"]:not(:disabled)`);
    (same ?? (row?.dataset.state === 'planned' ? firstField(row) : nextPlanned(row)))?.focus();
  }
}

const firstField = (row) => row?.querySelector('input:not(:disabled), select:not(:disabled)');

/** Where the keyboard goes once `row` is logged: the next set not logged yet (in this exercise or the ones after
 * it), else Finish. */
function nextPlanned(row) {
  const rows = [...(view.root?.querySelectorAll('[data-testid="set-row"]') ?? [])];
  const after = rows.slice(rows.indexOf(row) + 1).find((r) => r.dataset.state === 'planned');
  return firstField(after) ?? view.root?.querySelector('[data-testid="finish-workout"]');
}

// ---- actions ---------------------------------------------------------------------------------------------------

export async function load() {
  resetLibrary();  // the trainer may have changed the workout since: where Add puts an exercise changes with it
  const request = trainerApp.workout();
  view.loading = request;
  try {
    const screen = await request;
    if (view.loading !== request) return;
    view.screen = screen;
  } catch (err) {
    showError(err);
  }
  render();
  flush();
}

/** Loads typed (or carried over from a set) but not logged yet follow a units switch: 30 kg becomes 66.1 lb. */
function keepDraftsIn(now) {
  if (view.draftUnit && view.draftUnit !== now) {
    for (const d of view.drafts.values()) {
      if (typeof d.load === 'number') d.load = convertLoad(d.load, view.draftUnit, now);
    }
  }
  view.draftUnit = now;
}

/** The service's answer to a set (logged or undone): the exercise's sets and the workout's progress now. */
function takeAnswer(answer) {
  const ex = findExercise(answer?.exercise?.id);
  if (!ex) return null;
  ex.logged = answer.exercise.logged;
  ex.done = answer.exercise.done;
  if (answer.progress && view.screen?.workout) view.screen.workout.progress = answer.progress;
  rerender(ex.id);
  return ex;
}

/** Log set `n` of exercise `exId` with what its row holds (the timer's "log this set" comes here too). */
export function logSet(exId, n) {
  const ex = findExercise(exId);
  if (!ex) return;
  const v = planned(ex, n);
  const body = { exerciseId: ex.id, setNumber: n, rpe: v.rpe ?? undefined, warmup: warm(ex, n) || undefined };
  if (ex.type === 'reps') {
    if (!Number.isInteger(v.reps) || v.reps < 1) return invalid(ex, n, 'set-reps');
    if (v.load !== null && v.load !== undefined && !(v.load >= 0)) return invalid(ex, n, 'set-load');
    body.reps = v.reps;
    if (v.load !== null && v.load !== undefined) Object.assign(body, { load: v.load, loadUnit: unit() });
  } else if (ex.type === 'duration') {
    if (!(v.minutes > 0)) return invalid(ex, n, 'set-minutes');
    body.durationSec = Math.round(v.minutes * 60);
  } else {
    if (!(v.seconds >= 1)) return invalid(ex, n, 'set-seconds');
    body.durationSec = Math.round(v.seconds);
  }
  clearError();
  // later sets start from what this working set lifted
  if (ex.type === 'reps' && !body.warmup) for (let m = n + 1; m <= (ex.prescribedSets ?? n) + 5; m += 1) {
    const d = draft(ex.id, m);
    if (d.load === undefined && body.load !== undefined) d.load = body.load;
  }
  queueSet(body);
  rerender(ex.id);
  return true;
}

/** A set checked on its row: logged, and the rest after it starts (the workout timer runs its own rests). */
function checkSet(exId, n) {
  const ex = findExercise(exId);
  if (ex && logSet(exId, n)) startRest(restFor(ex, exercises()), ex.displayName || ex.name);
}

function invalid(ex, n, testid) {
  const input = view.root?.querySelector(`[data-exercise-id="${CSS.escape(ex.id)}"] [data-set="${n}"] [data-testid="${testid}"]`);
  input?.setAttribute('aria-invalid', 'true');
  input?.focus();
  announce(t('train.set.invalid'));
}

function onSent(event) {
  if (event.type === 'queued' || event.type === 'dropped') return;
  const exId = event.item?.body?.exerciseId;
  if (event.type === 'waiting') {
    if (exId) rerender(exId);
    return;
  }
  if (event.type === 'failed') {
    showError(event.error);
    if (exId) rerender(exId);
    return;
  }
  const answer = event.answer;
  const ex = takeAnswer(answer);
  if (ex) {
    const records = answer.set?.records ?? [];
    if (records.length) announce(`${t('train.pr.new')}: ${ex.displayName} — ${records.map((r) => recordText(r, unit())).join(', ')}`);
  }
}

async function undoSet(exId, item) {
  try {
    const answer = await trainerApp.undoSet(item.id);
    if (takeAnswer(answer)) announce(t('train.set.undone', { n: num(item.setNumber) }));
  } catch (err) {
    showError(err);
    load();
  }
}

function undoQueued(item) {
  dropQueued(item.key);
  rerender(item.body.exerciseId);
}

async function start() {
  try {
    view.screen = await trainerApp.start();
    render();
  } catch (err) {
    showError(err);
  }
}

async function finish() {
  const w = view.screen?.workout;
  if (!w) return;
  const waiting = pending().length;
  if (waiting) {
    announce(t('train.outbox', { n: num(waiting) }));
    await flush();
    if (pending().length) {
      showError({ code: 'offline', message: t('train.finishWaiting') });
      return;
    }
  }
  const discard = w.progress.setsDone === 0;
  const ok = await confirmDialog(t(discard ? 'train.confirmDiscard' : 'train.confirmFinish'),
                                 { ok: discard ? 'train.discard' : 'train.finish', danger: discard });
  if (!ok) return;
  try {
    view.summary = await trainerApp.finish(discard, newKey());
    view.screen = { ...view.screen, workout: null };
    view.drafts.clear();
    render();
    view.root?.querySelector('[data-testid="finish-summary"] h2')?.focus();
  } catch (err) {
    showError(err);
  }
}

async function askWorkout(event) {
  const button = event.currentTarget;
  button.disabled = true;
  button.textContent = t('train.asking');
  try {
    await trainerApp.chat(t('train.askWorkoutMessage'));
  } catch (err) {
    showError(err);
  }
  await load();
}

async function add() {
  const chosen = await openLibrary({ title: t('train.addTitle') });
  if (!chosen) return;
  try {
    view.screen = await trainerApp.addExercise({ name: chosen.name, position: chosen.position ?? undefined }, newKey());
    resetLibrary();  // the positions the library gave were for the workout before this one
    render();
    announce(t('train.added', { name: chosen.displayName }));
  } catch (err) {
    showError(err);
  }
}

async function swap(ex) {
  const chosen = await openLibrary({ title: t('train.swapTitle', { name: ex.displayName }), like: ex });
  if (!chosen) return;
  try {
    view.screen = await trainerApp.swapExercise(ex.id, { name: chosen.name });
    resetLibrary();
    render();
    announce(t('train.swapped', { from: ex.displayName, to: chosen.displayName }));
  } catch (err) {
    showError(err);
  }
}

async function remove(ex) {
  const sets = (ex.logged ?? []).length;
  const ok = await confirmDialog(t(sets ? 'train.confirmRemoveSets' : 'train.confirmRemove', { name: ex.displayName, n: num(sets) }),
                                 { ok: 'train.remove', danger: true });
  if (!ok) return;
  try {
    view.screen = await trainerApp.removeExercise(ex.id);
    resetLibrary();
    render();
  } catch (err) {
    showError(err);
  }
}

const timerHooks = {
  logSet,
  plan: (exId, n) => {
    const ex = findExercise(exId);
    return ex?.type === 'reps' ? planned(ex, n) : null;
  },
  isLogged: (exId, n) => Boolean(findExercise(exId)?.logged?.some((s) => s.setNumber === n))
    || queuedFor(exId).some((i) => i.body.setNumber === n),
  onClose: () => render(),
};

export function mountToday(root) {
  view.root = root;
  view.unsubscribe?.();
  view.unsubscribe = onOutbox(onSent);
  render();
  load();
}

export function unmountToday() {
  clearInterval(view.clock);
  view.unsubscribe?.();
  view.unsubscribe = null;
  view.root = null;
}

/** Re-translate what is on screen (a language switch): the service words and the console's. */
export function refreshToday() {
  if (view.root) load();
}
