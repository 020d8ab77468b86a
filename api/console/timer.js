/**
 * The workout timer (GET …/trainer/workout/timers): the phases computed by the service — work, hold, rest,
 * transition; supersets and circuits interleaved by round with the rest between rounds — run here with a visible
 * countdown, Start / Pause, Skip and Back, a sound and a vibration at each phase change where the device allows,
 * and the screen kept awake (Wake Lock) while it runs. A work phase of a set can log that set from here.
 */
import { h } from './dom.js';
import { t } from './i18n.js';
import { trainerApp } from './member-api.js';
import { loadText, num } from './member-cards.js';
import { clock, announce } from './member-format.js';
import { showError } from './notices.js';
import { prefs, setPref, canBeep, canVibrate, beep, buzz, wakeAudio } from './cues.js';

const TICK_MS = 200;
const state = { dialog: null, phases: [], index: 0, remainingMs: 0, endsAt: 0, running: false, interval: null,
                wake: null, cues: 0, hooks: null };

const canWake = () => Boolean(navigator.wakeLock?.request);

// ---- wake lock ---------------------------------------------------------------------------------------------------

async function keepAwake(on) {
  if (!canWake()) {
    mark();
    return;
  }
  try {
    if (on && !state.wake) {
      state.wake = await navigator.wakeLock.request('screen');
      state.wake.addEventListener('release', () => { state.wake = null; mark(); });
    } else if (!on && state.wake) {
      const lock = state.wake;
      state.wake = null;
      await lock.release();
    }
  } catch {
    state.wake = null;
  }
  mark();
}

document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible' && state.running) keepAwake(true);
});

function mark() {
  const d = state.dialog;
  if (!d) return;
  d.dataset.running = String(state.running);
  d.dataset.index = String(state.index);
  d.dataset.cues = String(state.cues);
  d.dataset.wakeLock = !canWake() ? 'unsupported' : state.wake ? 'on' : 'off';
}

// ---- running ------------------------------------------------------------------------------------------------------

const phase = () => state.phases[state.index] ?? null;

function setPhase(index, { cue = true } = {}) {
  state.index = Math.max(0, Math.min(index, state.phases.length));
  const p = phase();
  state.remainingMs = p ? p.duration_sec * 1000 : 0;
  state.endsAt = Date.now() + state.remainingMs;
  if (cue) {
    state.cues += 1;
    const kind = p?.phase_type ?? 'done';
    beep(kind);
    buzz(kind);
    announce(p ? `${phaseWord(p)}: ${what(p)}` : t('train.timer.finished'));
  }
  if (!p) {
    state.running = false;
    keepAwake(false);
  }
  draw();
}

function tick() {
  if (!state.running) return;
  state.remainingMs = state.endsAt - Date.now();
  if (state.remainingMs <= 0) setPhase(state.index + 1);
  else drawClock();
}

function toggle() {
  if (!phase()) {
    setPhase(0, { cue: false });
  }
  state.running = !state.running;
  if (state.running) {
    state.endsAt = Date.now() + state.remainingMs;
    wakeAudio();
    keepAwake(true);
  } else {
    state.remainingMs = Math.max(0, state.endsAt - Date.now());
    keepAwake(false);
  }
  draw();
}

function skip() {
  if (phase()) setPhase(state.index + 1);
}

function back() {
  setPhase(state.index - (state.remainingMs < (phase()?.duration_sec ?? 0) * 1000 - 3000 ? 0 : 1));
}

// ---- words --------------------------------------------------------------------------------------------------------

function phaseWord(p) {
  return t(`member.phase.${p.phase_type}`, undefined, p.phase_type);
}

function what(p) {
  if (p.phase_type === 'rest' || p.phase_type === 'transition') {
    const next = state.phases[state.phases.indexOf(p) + 1];
    return next ? t('train.timer.nextUp', { what: what(next) }) : '';
  }
  const name = p.display_name || p.exercise_name || '';
  // what the set would log as Today's row holds it (the member's edits over the prescription)
  const plan = p.exercise_id && p.set_number ? state.hooks?.plan?.(p.exercise_id, p.set_number) : null;
  const reps = plan?.reps ?? p.reps;
  const load = plan && plan.load !== undefined ? plan.load : p.load;
  const bits = [];
  if (p.set_number) bits.push(t('train.timer.set', { n: num(p.set_number) }));
  if (reps) bits.push(t('member.repsOnly', { reps: num(reps) }));
  if (load !== undefined && load !== null) bits.push(loadText(load, p.load_unit));
  if (p.phase_type === 'hold') bits.push(t('member.sec', { n: num(p.duration_sec) }));
  return [name, bits.join(' · ')].filter(Boolean).join(' — ');
}

function roundsOf(p) {
  const same = state.phases.filter((x) => x.block === p.block && x.round);
  return same.length ? Math.max(...same.map((x) => x.round)) : 0;
}

function blockLabel(p) {
  if (!p || p.phase_type === 'transition') return '';
  const type = p.block_type;
  const group = ['superset', 'giant_set', 'circuit'].includes(type);
  const parts = [group ? p.block_name : p.display_name || p.block_name];
  if (group) parts.push(t(`member.group.${type}`, undefined, type));
  if (p.round) parts.push(t('train.timer.round', { n: num(p.round), of: num(roundsOf(p)) }));
  return parts.filter(Boolean).join(' · ');
}

// ---- drawing -------------------------------------------------------------------------------------------------------

function drawClock() {
  const el = state.dialog?.querySelector('[data-testid="timer-countdown"]');
  if (el) el.textContent = clock(Math.ceil(Math.max(0, state.remainingMs) / 1000));
}

function draw() {
  const d = state.dialog;
  if (!d) return;
  const p = phase();
  const next = state.phases[state.index + 1];
  const total = state.phases.length;
  const hooks = state.hooks;
  const loggable = p && (p.phase_type === 'work' || p.phase_type === 'hold') && p.exercise_id && p.set_number
    && !p.done && !hooks?.isLogged?.(p.exercise_id, p.set_number);
  const body = d.querySelector('.timer-body');
  body.replaceChildren(...[
    h('p', { class: 'timer-block', testid: 'timer-block', dir: 'auto', text: blockLabel(p) }),
    h('p', { class: `timer-phase timer-${p?.phase_type ?? 'done'}`, testid: 'timer-phase-type', 'data-phase': p?.phase_type ?? 'done',
             text: p ? phaseWord(p) : t('train.timer.finished') }),
    h('p', { class: 'timer-what', testid: 'timer-what', dir: 'auto', text: p ? what(p) : '' }),
    h('p', { class: 'timer-countdown', testid: 'timer-countdown', 'aria-hidden': 'true', dir: 'ltr',
             text: clock(Math.ceil(Math.max(0, state.remainingMs) / 1000)) }),
    h('div', { class: 'bar', role: 'progressbar', 'aria-valuemin': '0', 'aria-valuemax': String(total),
               'aria-valuenow': String(state.index), 'aria-label': t('train.timer.progress', { n: num(Math.min(state.index + 1, total)), of: num(total) }) },
      h('span', { class: 'bar-fill', style: `inline-size: ${total ? Math.round((100 * state.index) / total) : 0}%` })),
    h('p', { class: 'muted timer-count', testid: 'timer-count', text: t('train.timer.progress', { n: num(Math.min(state.index + 1, total)), of: num(total) }) }),
    next ? h('p', { class: 'muted timer-next', testid: 'timer-next', dir: 'auto',
                    text: t('train.timer.then', { what: `${phaseWord(next)} ${clock(next.duration_sec)}${next.phase_type === 'work' || next.phase_type === 'hold' ? ` — ${what(next)}` : ''}` }) }) : null,
    loggable ? h('button', { type: 'button', class: 'btn', testid: 'timer-log', i18n: 'train.timer.logSet',
                             onclick: () => { hooks.logSet(p.exercise_id, p.set_number); p.done = true; draw(); } }) : null].filter(Boolean));
  const toggleButton = d.querySelector('[data-testid="timer-toggle"]');
  toggleButton.textContent = t(state.running ? 'train.timer.pause' : p ? (state.remainingMs < p.duration_sec * 1000 ? 'train.timer.resume' : 'train.timer.start') : 'train.timer.again');
  toggleButton.setAttribute('aria-pressed', String(state.running));
  d.querySelector('[data-testid="timer-skip"]').disabled = !p;
  mark();
}

function close() {
  clearInterval(state.interval);
  state.running = false;
  keepAwake(false);
  state.dialog?.close();
  state.dialog?.remove();
  state.dialog = null;
  state.hooks?.onClose?.();
}

function preferenceToggle(key, testid, label, supported) {
  if (!supported) return null;
  const button = h('button', { type: 'button', class: 'btn ghost small', testid, 'aria-pressed': String(prefs()[key]),
                               i18n: label, onclick: () => {
                                 setPref(key, !prefs()[key]);
                                 button.setAttribute('aria-pressed', String(prefs()[key]));
                               } });
  return button;
}

/** Open the timer over the current workout; `hooks`: {logSet(exId, n), isLogged(exId, n), onClose()}. */
export async function openTimer(hooks) {
  if (state.dialog) return;
  state.hooks = hooks;
  let answer;
  try {
    answer = await trainerApp.timers();
  } catch (err) {
    showError(err);
    return;
  }
  state.phases = answer.phases ?? [];
  state.cues = 0;
  state.running = false;
  const dialog = h('dialog', { class: 'modal timer-dialog', testid: 'timer-panel', 'aria-labelledby': 'timer-title' },
    h('header', { class: 'timer-top' },
      h('h2', { id: 'timer-title', i18n: 'train.timer.title' }),
      h('span', { class: 'muted', testid: 'timer-total', text: clock(answer.totalDurationSec) }),
      h('button', { type: 'button', class: 'icon-btn', testid: 'timer-close', text: '×', 'aria-label': t('train.close'),
                    title: t('train.close'), onclick: close })),
    h('div', { class: 'timer-body', 'aria-live': 'off' }),
    h('div', { class: 'timer-controls btn-row' },
      h('button', { type: 'button', class: 'btn', testid: 'timer-back', i18n: 'train.timer.back', onclick: back }),
      h('button', { type: 'button', class: 'btn primary timer-toggle', testid: 'timer-toggle', onclick: toggle }),
      h('button', { type: 'button', class: 'btn', testid: 'timer-skip', i18n: 'train.timer.skip', onclick: skip })),
    h('div', { class: 'timer-prefs btn-row' },
      preferenceToggle('sound', 'timer-sound', 'train.timer.sound', canBeep()),
      preferenceToggle('vibrate', 'timer-vibrate', 'train.timer.vibrate', canVibrate())));
  dialog.addEventListener('cancel', (event) => {
    event.preventDefault();
    close();
  });
  dialog.addEventListener('keydown', (event) => {
    if (event.target.closest('button') && (event.key === ' ' || event.key === 'Enter')) return;
    const forward = document.documentElement.dir === 'rtl' ? 'ArrowLeft' : 'ArrowRight';
    const backward = document.documentElement.dir === 'rtl' ? 'ArrowRight' : 'ArrowLeft';
    if (event.key === ' ') { event.preventDefault(); toggle(); }
    else if (event.key === forward) { event.preventDefault(); skip(); }
    else if (event.key === backward) { event.preventDefault(); back(); }
  });
  state.dialog = dialog;
  document.body.append(dialog);
  dialog.showModal();
  const first = state.phases.findIndex((p) => (p.phase_type === 'work' || p.phase_type === 'hold') && !p.done);
  setPhase(first < 0 ? 0 : first, { cue: false });
  state.interval = setInterval(tick, TICK_MS);
  dialog.querySelector('[data-testid="timer-toggle"]').focus();
}

/** Whether the timer is open (the app keeps it over a view change). */
export function timerOpen() {
  return Boolean(state.dialog);
}
