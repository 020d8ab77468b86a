/**
 * The member app's REST client (/organizations/{org}/trainer/…: workout, sets, exercises, timers, progress,
 * recovery, calendar, bookings) and its outbox: a set is kept in localStorage with its own Idempotency-Key until the
 * service has answered it, so a set entered while the connection is down is sent when it returns — once, even
 * when an answer was lost on the way back (the retry carries the same key and gets the first answer).
 */
import { call, json, ApiError } from './api.js';
import { orgId } from './state.js';

const base = (org) => `/organizations/${encodeURIComponent(org)}/trainer`;
const q = (params) => {
  const parts = Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  return parts.length ? `?${parts.join('&')}` : '';
};

export const trainerApp = {
  workout: () => json(`${base(orgId())}/workout`),
  start: () => json(`${base(orgId())}/workout/start`, { method: 'POST' }),
  undoSet: (setId) => json(`${base(orgId())}/workout/sets/${encodeURIComponent(setId)}`, { method: 'DELETE' }),
  addExercise: (body, key) => json(`${base(orgId())}/workout/exercises`, { method: 'POST', body,
                                                                        headers: { 'Idempotency-Key': key } }),
  swapExercise: (exerciseId, body) => json(`${base(orgId())}/workout/exercises/${encodeURIComponent(exerciseId)}`,
    { method: 'PUT', body }),
  removeExercise: (exerciseId) => json(`${base(orgId())}/workout/exercises/${encodeURIComponent(exerciseId)}`,
    { method: 'DELETE' }),
  finish: (discard, key) => json(`${base(orgId())}/workout/finish`, { method: 'POST', body: { discard },
                                                                       headers: { 'Idempotency-Key': key } }),
  timers: () => json(`${base(orgId())}/workout/timers`),
  library: (query) => json(`${base(orgId())}/exercises${q({ q: query })}`),
  plates: (load) => json(`${base(orgId())}/plates${q({ load })}`),
  saveNote: (name, note) => json(`${base(orgId())}/exercises/note`, { method: 'PUT', body: { name, note } }),
  history: (days = 30) => json(`${base(orgId())}/progress/history${q({ days })}`),
  volume: (weeks = 12) => json(`${base(orgId())}/progress/volume${q({ weeks })}`),
  exercise: (name, days = 180) => json(`${base(orgId())}/progress/exercise${q({ name, days })}`),
  recovery: () => json(`${base(orgId())}/recovery`),
  distribution: () => json(`${base(orgId())}/distribution`),
  calendar: (start, end) => json(`${base(orgId())}/calendar${q({ start, end })}`),
  bookings: () => json(`${base(orgId())}/bookings`),
  /** The trainer's turn as JSON (POST …/trainer/chat): the app asks it for a workout. */
  chat: (message) => json(`${base(orgId())}/chat`, { method: 'POST', body: { message } }),
};

export function newKey() {
  if (globalThis.crypto?.randomUUID) return crypto.randomUUID();
  return `k-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

// ---- the outbox ------------------------------------------------------------------------------------------------

const RETRY_MS = 3000;
const listeners = new Set();
let flushing = null;
let retryTimer = null;

const storeKey = () => `spotter.outbox.${orgId()}`;

function load() {
  try {
    const items = JSON.parse(localStorage.getItem(storeKey()) ?? '[]');
    return Array.isArray(items) ? items : [];
  } catch {
    return [];
  }
}

function save(items) {
  localStorage.setItem(storeKey(), JSON.stringify(items));
}

function emit(event) {
  for (const listener of listeners) {
    try {
      listener(event);
    } catch (err) {
      console.error('spotter: outbox listener failed', err);
    }
  }
}

/** The sets waiting to be sent: [{key, body, queuedAt, state: 'waiting'|'sending'}]. */
export function pending() {
  return load();
}

/** `listener({type: 'sent'|'failed'|'queued'|'waiting', item, answer?, error?})`; returns the unsubscribe. */
export function onOutbox(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Keep the set and try to send it now. `body`: the set (performedAt is stamped now if absent; clientSetId names
 * the set itself, so a send under another key is still the same set). */
export function queueSet(body) {
  const clientSetId = globalThis.crypto?.randomUUID?.();
  const item = { key: newKey(), body: { performedAt: new Date().toISOString(), clientSetId, ...body },
                 queuedAt: Date.now() };
  save([...load(), item]);
  emit({ type: 'queued', item });
  flush();
  return item;
}

/** Forget a set that was never answered (the member undid it before it went out). */
export function dropQueued(key) {
  save(load().filter((i) => i.key !== key));
  emit({ type: 'dropped', item: { key } });
}

function retryLater() {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => flush(), RETRY_MS);
}

/** Send the kept sets in order; true when one could not go now (the network or the server), to retry later. */
async function send() {
  for (const item of load()) {
    if (!orgId()) return false;
    let answer;
    try {
      answer = await json(`${base(orgId())}/workout/sets`, { method: 'POST', body: item.body,
                                                            headers: { 'Idempotency-Key': item.key } });
    } catch (err) {
      const transient = !(err instanceof ApiError) || err.code === 'network_error' || err.auth
        || err.status >= 500 || err.status === 408 || err.status === 429;
      if (transient) {
        emit({ type: 'waiting', item, error: err });
        retryLater();
        return true;
      }
      save(load().filter((i) => i.key !== item.key));
      emit({ type: 'failed', item, error: err });
      continue;
    }
    save(load().filter((i) => i.key !== item.key));
    emit({ type: 'sent', item, answer });
  }
  return false;
}

/** Send every kept set in order (one round at a time; sets kept meanwhile go in the next round). */
export function flush() {
  if (flushing) return flushing;
  flushing = send().finally(() => {
    flushing = null;
  }).then((stopped) => {
    if (!stopped && load().length) return flush();
    return undefined;
  });
  return flushing;
}

window.addEventListener('online', () => flush());
