/** HTTP calls of the nutrition console page (NUTRITION.md, HTTP): JSON calls and the run's events stream. */
import { getToken } from './api.js';
import { currentLocale, t } from './i18n.js';
import { readSse } from './sse.js';

const API_BASE = (document.querySelector('meta[name="spotter-api-base"]')?.content ?? '').replace(/\/$/, '');

export class NutritionError extends Error {
  constructor(status, code, message, errors = []) {
    super(message || code);
    this.status = status;
    this.code = code;
    /** per-field errors of a 422: [{field, code}] */
    this.errors = errors;
  }
}

async function call(path, { method = 'GET', body, accept = 'application/json', signal, headers = {} } = {}) {
  const all = { Accept: accept, 'x-locale': currentLocale(), ...headers };
  const token = getToken();
  if (token) all.Authorization = `Bearer ${token}`;
  if (body !== undefined) all['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(API_BASE + path, {
      method, headers: all, signal, cache: 'no-store',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    if (err?.name === 'AbortError') throw err;
    throw new NutritionError(0, 'network_error', t('errors.network'));
  }
  if (!response.ok) {
    let payload = null;
    try {
      payload = await response.json();
    } catch {
      payload = null;
    }
    throw new NutritionError(response.status, payload?.code ?? `http_${response.status}`,
      payload?.message || t(`nutrition.httpError`, { status: response.status }, `The server answered ${response.status}.`),
      Array.isArray(payload?.errors) ? payload.errors : []);
  }
  return response;
}

async function json(path, options) {
  const text = await (await call(path, options)).text();
  return text ? JSON.parse(text) : null;
}

/** A fresh request key (one per form submission; a retry of that submission reuses it). */
export const newKey = () => (crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`);
const once = (key) => ({ 'Idempotency-Key': key ?? newKey() });

const base = (org) => `/organizations/${encodeURIComponent(org)}/nutrition`;
const run = (org, id) => `${base(org)}/runs/${encodeURIComponent(id)}`;

export const nutritionApi = {
  me: () => json('/me'),
  orgMe: (org) => json(`/organizations/${encodeURIComponent(org)}/me`),
  runs: (org, memberId) => json(`${base(org)}/runs${memberId ? `?membershipId=${encodeURIComponent(memberId)}` : ''}`),
  run: (org, id) => json(run(org, id)),
  /** Writes carry an Idempotency-Key: a double tap or a retry of the same request changes nothing. */
  start: (org, body, key) => json(`${base(org)}/runs`, { method: 'POST', body, headers: once(key) }),
  checkin: (org, id, body, key) => json(`${run(org, id)}/checkins`, { method: 'POST', body, headers: once(key) }),
  acknowledge: (org, id) => json(`${run(org, id)}/referral-acknowledged`, { method: 'POST' }),
  /** Members by name (staff), or the member themself: [{membershipId, name, latestRunState, clearanceRequired}]. */
  members: (org, query) => json(`${base(org)}/members${query ? `?q=${encodeURIComponent(query)}` : ''}`),
  /** What a new intake form starts from for the member: {intake, source, sourceDate, units}. */
  intakeDraft: (org, memberId) => json(`${base(org)}/members/${encodeURIComponent(memberId)}/intake-draft`),
  /** What an intake's allergies, diet and foods to avoid would be understood as (nothing is stored). */
  understood: (org, body) => json(`${base(org)}/understood`, { method: 'POST', body }),
  ask: (org, id, query) => json(`${run(org, id)}/health-questions`, { method: 'POST', body: { query } }),
  clearance: (org, memberId, note, key) => json(`${base(org)}/members/${encodeURIComponent(memberId)}/medical-clearance`,
    { method: 'POST', body: { note }, headers: once(key) }),
  /** Read the run's events (replay, then live) until the stream ends; onEvent(type, data) per frame. */
  async follow(org, id, onEvent, signal) {
    const response = await call(`${run(org, id)}/events`, { accept: 'text/event-stream', signal });
    await readSse(response, onEvent);
  },
};
