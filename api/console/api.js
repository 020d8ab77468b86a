/**
 * HTTP client for the Spotter API: bearer token, x-locale, JSON errors {code, message, traceId}.
 * Streams (send / confirm / pick) resolve to the raw Response for sse.js to read.
 */
import { currentLocale, t } from './i18n.js';

const TOKEN_KEY = 'spotter.token';
const AUTH_CODES = new Set(['token_missing', 'token_invalid', 'token_expired']);
const API_BASE = (document.querySelector('meta[name="spotter-api-base"]')?.content ?? '').replace(/\/$/, '');

let authFailureHandler = () => {};

export class ApiError extends Error {
  constructor({ status = 0, code = 'internal', message = '', traceId = null }) {
    super(message || code);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.traceId = traceId;
    /** true when the session is gone; the sign-in screen reports it, not the banner */
    this.auth = status === 401 || AUTH_CODES.has(code);
  }
}

export function getToken() {
  return localStorage.getItem(TOKEN_KEY);
}

export function setToken(token) {
  localStorage.setItem(TOKEN_KEY, token);
}

export function clearToken() {
  localStorage.removeItem(TOKEN_KEY);
}

/** Called with the ApiError when a request is refused for a missing, invalid or expired token. */
export function onAuthFailure(handler) {
  authFailureHandler = handler;
}

/** Move `#token=…` or `?token=…` into localStorage and strip it from the address bar. */
export function takeTokenFromUrl() {
  const url = new URL(window.location.href);
  const hash = new URLSearchParams(url.hash.replace(/^#/, ''));
  const token = hash.get('token') || url.searchParams.get('token');
  if (!hash.has('token') && !url.searchParams.has('token')) return false;
  hash.delete('token');
  url.searchParams.delete('token');
  const rest = hash.toString();
  url.hash = rest ? `#${rest}` : '';
  window.history.replaceState(window.history.state, '', url.href);
  if (token && token.trim()) setToken(token.trim());
  return Boolean(token);
}

async function toApiError(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  const traceId = body?.traceId ?? response.headers.get('x-trace-id');
  return new ApiError({
    status: response.status,
    code: body?.code ?? `http_${response.status}`,
    message: body?.message ?? t('errors.http', { status: response.status }),
    traceId,
  });
}

export async function call(path, { method = 'GET', body, stream = false, signal, headers: extra } = {}) {
  const headers = {
    Accept: stream ? 'text/event-stream' : 'application/json',
    'x-locale': currentLocale(),
    ...(extra ?? {}),
  };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(API_BASE + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      cache: 'no-store',
    });
  } catch (err) {
    if (err?.name === 'AbortError') throw err;
    throw new ApiError({ code: 'network_error', message: t('errors.network') });
  }
  if (!response.ok) {
    const error = await toApiError(response);
    if (error.auth) authFailureHandler(error);
    throw error;
  }
  return response;
}

export async function json(path, options) {
  const response = await call(path, options);
  if (response.status === 204) return null;
  const text = await response.text();
  return text ? JSON.parse(text) : null;
}

const agent = (org) => `/organizations/${encodeURIComponent(org)}/agent`;
const conv = (org, cid) => `${agent(org)}/conversations/${encodeURIComponent(cid)}`;

export const api = {
  me: () => json('/me'),
  /** Dev auth only: the demo logins with a fresh token each, for the role switcher (404 otherwise). */
  devLogins: () => json('/dev/logins'),
  /** The caller in one org: {org, user, role, permissions: {healthData}} (the service's policies decide). */
  orgMe: (org) => json(`/organizations/${encodeURIComponent(org)}/me`),
  usage: (org) => json(`${agent(org)}/usage`),
  conversations: (org) => json(`${agent(org)}/conversations`),
  conversation: (org, cid) => json(conv(org, cid)),
  /** body: {title} → {id, title, createdAt, updatedAt} */
  renameConversation: (org, cid, title) => json(conv(org, cid), { method: 'PATCH', body: { title } }),
  /** → {ok, deletedConversationId} */
  deleteConversation: (org, cid) => json(conv(org, cid), { method: 'DELETE' }),
  /** body: {message, conversationId, pageContext, replaces?} → SSE Response */
  send: (org, body, signal) => call(`${agent(org)}/messages`, { method: 'POST', body, stream: true, signal }),
  /** Regenerate / Edit kept what they replaced: show the alternative starting at user message `mid` → detail */
  showAlternative: (org, cid, mid) =>
    json(`${conv(org, cid)}/alternatives/${encodeURIComponent(mid)}`, { method: 'POST' }),
  /** body: {approved, input} → SSE Response */
  confirm: (org, cid, toolUseId, body, signal) =>
    call(`${conv(org, cid)}/confirm/${encodeURIComponent(toolUseId)}`, { method: 'POST', body, stream: true, signal }),
  /** body: {id} → SSE Response */
  pick: (org, cid, toolUseId, body, signal) =>
    call(`${conv(org, cid)}/pick/${encodeURIComponent(toolUseId)}`, { method: 'POST', body, stream: true, signal }),
  /** a turn's frames after `lastEventId` (`<turnId>:<seq>`; null: from the start), live until done → SSE Response */
  turnStream: (org, turnId, lastEventId, signal) =>
    call(`${agent(org)}/turns/${encodeURIComponent(turnId)}/stream`, {
      stream: true, signal, headers: lastEventId ? { 'Last-Event-ID': lastEventId } : undefined }),
  /** stop a running turn wherever it runs → {turnId, state: 'stopping'|'finished'} */
  stopTurn: (org, turnId) => json(`${agent(org)}/turns/${encodeURIComponent(turnId)}/stop`, { method: 'POST' }),
  /** no body → {ok, undoneToolUseId, inverse: {router, action, output}} */
  undo: (org, cid, toolUseId) => json(`${conv(org, cid)}/undo/${encodeURIComponent(toolUseId)}`, { method: 'POST' }),
};
