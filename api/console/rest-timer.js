/**
 * The rest timer: a set checked on Today starts the rest its exercise prescribes (in a superset, the rest between
 * rounds after its last exercise), or the member's default rest. A bar over every screen of the app counts it down
 * while it runs, with −15 s, +15 s and Skip; at the end a tone and a vibration (cues.js) and a spoken line. The end
 * time is kept in localStorage, so a reload or a view change keeps counting the same rest.
 */
import { h } from './dom.js';
import { t } from './i18n.js';
import { num } from './member-cards.js';
import { clock, announce } from './member-format.js';
import { beep, buzz, prefs, setPref, wakeAudio } from './cues.js';

const STORE = 'spotter.rest';
const STEP_SEC = 15;
export const DEFAULT_REST_SEC = 90;
const rest = { bar: null, interval: null };

function kept() {
  try {
    const value = JSON.parse(localStorage.getItem(STORE) ?? 'null');
    return value && Number.isFinite(value.endsAt) ? value : null;
  } catch {
    return null;
  }
}

const keep = (value) => (value ? localStorage.setItem(STORE, JSON.stringify(value)) : localStorage.removeItem(STORE));

/** The member's default rest in seconds (when an exercise prescribes none). */
export const defaultRest = () => Number(prefs().restSec) || DEFAULT_REST_SEC;
export const setDefaultRest = (sec) => setPref('restSec', Math.max(15, Math.min(600, Math.round(sec))));

/** The rest after a set of `ex`: none between the exercises of a superset or circuit, the group's rest between
 * rounds after its last one; else the exercise's own rest, else the member's default. */
export function restFor(ex, all) {
  const group = ex.group?.id ? all.filter((e) => e.group?.id === ex.group.id) : [];
  if (group.length > 1) {
    if (group.at(-1).id !== ex.id) return 0;
    return group.map((e) => e.group?.rest_between_rounds_sec).find((v) => v > 0) ?? ex.rest_sec ?? defaultRest();
  }
  return ex.rest_sec > 0 ? ex.rest_sec : defaultRest();
}

/** Start (or restart) a rest of `seconds` after a set of `name`. */
export function startRest(seconds, name) {
  const sec = Math.max(0, Math.round(Number(seconds) || 0));
  if (!sec) return;
  wakeAudio();
  keep({ endsAt: Date.now() + sec * 1000, totalSec: sec, name: name ?? '' });
  show();
}

function adjust(deltaSec) {
  const now = kept();
  if (!now) return;
  const endsAt = Math.max(Date.now() + 1000, now.endsAt + deltaSec * 1000);
  keep({ ...now, endsAt, totalSec: Math.max(1, now.totalSec + deltaSec) });
  draw();
}

function stop({ finished = false } = {}) {
  const hadFocus = rest.bar?.contains(document.activeElement);
  hideRest();
  if (finished) {
    beep('work');
    buzz('rest');
    announce(t('train.rest.over'));
  }
  if (hadFocus) document.getElementById('member-view')?.focus();
}

function draw() {
  const now = kept();
  if (!now || !rest.bar) return;
  const left = Math.max(0, Math.ceil((now.endsAt - Date.now()) / 1000));
  if (left <= 0) {
    stop({ finished: true });
    return;
  }
  rest.bar.dataset.remaining = String(left);
  rest.bar.querySelector('[data-testid="rest-clock"]').textContent = clock(left);
  const fill = rest.bar.querySelector('.bar-fill');
  fill.style.inlineSize = `${Math.min(100, Math.round((100 * left) / Math.max(1, now.totalSec)))}%`;
}

function stepButton(delta, testid) {
  const words = t(delta < 0 ? 'train.rest.less' : 'train.rest.more', { n: num(STEP_SEC) });
  return h('button', { type: 'button', class: 'btn small', testid, text: words, 'aria-label': words, onclick: () => adjust(delta) });
}

/** Show the bar for the kept rest, if one is running (also on entering the app after a reload). */
export function show() {
  const now = kept();
  if (!now) return;
  if (now.endsAt <= Date.now()) {
    keep(null);
    return;
  }
  if (!rest.bar) {
    rest.bar = h('section', { class: 'rest-bar', testid: 'rest-timer', role: 'region', 'aria-label': t('train.rest.title') },
      h('div', { class: 'rest-head' },
        h('span', { class: 'rest-title', testid: 'rest-title', dir: 'auto' }),
        h('span', { class: 'rest-clock', testid: 'rest-clock', role: 'timer', dir: 'ltr', 'aria-label': t('train.rest.left') })),
      h('span', { class: 'bar', 'aria-hidden': 'true' }, h('span', { class: 'bar-fill' })),
      h('div', { class: 'rest-actions btn-row' }, stepButton(-STEP_SEC, 'rest-minus'), stepButton(STEP_SEC, 'rest-plus'),
        h('button', { type: 'button', class: 'btn small primary', testid: 'rest-skip', i18n: 'train.rest.skip',
                      onclick: () => stop() })));
    document.body.append(rest.bar);
    document.body.classList.add('resting');
  }
  rest.bar.querySelector('[data-testid="rest-title"]').textContent = now.name
    ? t('train.rest.after', { name: now.name }) : t('train.rest.title');
  clearInterval(rest.interval);
  rest.interval = setInterval(draw, 250);
  draw();
}

function hideBar() {
  clearInterval(rest.interval);
  rest.interval = null;
  rest.bar?.remove();
  rest.bar = null;
  document.body.classList.remove('resting');
}

/** Leaving the app (sign-out): the bar goes, the kept rest with it. */
export function hideRest() {
  hideBar();
  keep(null);
}

/** A language switch: the bar again in the new words. */
export function refreshRest() {
  hideBar();
  show();
}
