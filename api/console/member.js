/**
 * Member mode: signed in as a gym member, the console is the personal trainer. Messages go to
 * POST /organizations/{org}/trainer/messages (SSE); workouts, timers, questions and actions render as
 * cards (member-cards.js); the sidebar lists the member's trainer sessions.
 */
import { call, json } from './api.js';
import { h } from './dom.js';
import { t, formatDateTime } from './i18n.js';
import { state, orgId } from './state.js';
import { followTurn } from './sse.js';
import { renderMarkdown } from './markdown.js';
import { follow, jumpToLatest } from './follow.js';
import { mountComposer, focusComposer, setComposerBusy, clearComposer, fillComposer } from './composer.js';
import { showError, clearError } from './notices.js';
import { closeDrawer } from './drawer.js';
import { workoutCard, timerCard, questionCard, actionCard } from './member-cards.js';

const base = (org) => `/organizations/${encodeURIComponent(org)}/trainer`;
const sess = (org, sid) => `${base(org)}/sessions/${encodeURIComponent(sid)}`;
const trainer = {
  settings: (org) => json(`${base(org)}/settings`),
  sessions: (org) => json(`${base(org)}/sessions?limit=20`),
  session: (org, sid) => json(sess(org, sid)),
  create: (org) => json(`${base(org)}/sessions`, { method: 'POST' }),
  send: (org, body, signal) => call(`${base(org)}/messages`, { method: 'POST', body, stream: true, signal }),
  confirm: (org, sid, id, approved, signal) =>
    call(`${sess(org, sid)}/confirm/${encodeURIComponent(id)}`, { method: 'POST', body: { approved }, stream: true, signal }),
  undo: (org, sid, id) => json(`${sess(org, sid)}/undo/${encodeURIComponent(id)}`, { method: 'POST' }),
  turnStream: (org, turnId, lastEventId, signal) => call(`${base(org)}/turns/${encodeURIComponent(turnId)}/stream`, {
    stream: true, signal, headers: lastEventId ? { 'Last-Event-ID': lastEventId } : undefined }),
  stopTurn: (org, turnId) => json(`${base(org)}/turns/${encodeURIComponent(turnId)}/stop`, { method: 'POST' }),
};
const TIMER_TOOLS = new Set(['generate_exercise_timer', 'generate_workout_timers']);
const SUGGESTIONS = ['member.suggestion1', 'member.suggestion2', 'member.suggestion3'];

const mode = { log: null, panel: null, list: null, sessionId: null, workoutId: null, unit: 'kg', cards: new Map(),
  creating: null, streaming: null };
const $ = (id) => document.getElementById(id);

function emptyState() {
  return h('div', { class: 'empty-state', testid: 'empty-state' },
    h('div', { class: 'empty-mark', 'aria-hidden': 'true', text: 'S' }),
    h('h2', { i18n: 'member.emptyTitle' }),
    h('p', { class: 'ai-notice', testid: 'ai-notice', i18n: 'member.aiNotice' }), // EU AI Act Art. 50
    h('p', { class: 'muted', i18n: 'member.emptyBody' }),
    h('div', { class: 'suggestions', role: 'group' }, SUGGESTIONS.map((key) => h('button', {
      type: 'button', class: 'suggestion', testid: 'suggestion', i18n: key, onclick: () => send(t(key)),
    }))));
}

function clearEmpty() {
  mode.log.querySelector('.empty-state, .pane-notice')?.remove();
}

function userTurn(text) {
  clearEmpty();
  const turn = h('div', { class: 'turn turn-user' }, h('div', { class: 'bubble bubble-user', testid: 'user-text', dir: 'auto', text }));
  mode.log.append(turn);
  jumpToLatest();
  return turn;
}

function assistantTurn() {
  clearEmpty();
  const turn = h('div', { class: 'turn turn-assistant', testid: 'assistant-turn' });
  follow(() => mode.log.append(turn));
  return turn;
}

function place(turn, node) {
  follow(() => turn.insertBefore(node, turn.querySelector(':scope > .trailer')));
}

function textBubble(content) {
  const bubble = h('div', { class: 'bubble bubble-assistant md', testid: 'assistant-text', dir: 'auto' });
  bubble.append(renderMarkdown(content ?? ''));
  return bubble;
}

function showWorkout(turn, workout) {
  if (workout?.id) mode.workoutId = workout.id;
  place(turn, workoutCard(workout, mode.unit));
}

function cardFor(turn, toolUseId) {
  let card = mode.cards.get(toolUseId);
  if (!card) {
    card = actionCard(toolUseId, { onConfirm: confirm, onUndo: undo });
    mode.cards.set(toolUseId, card);
    place(turn, card.node);
  }
  return card;
}

function handle(turn, type, d) {
  const ctx = mode.streaming;
  if (d.turnId && ctx && !ctx.turnId) {
    ctx.turnId = d.turnId;
    if (ctx.stopRequested) stopTurn(ctx);
  }
  switch (type) {
    case 'session_started':
      if (d.sessionId) mode.sessionId = d.sessionId;
      break;
    case 'knowledge':
      break;
    case 'status': {
      // the localized status line of the running tool, shown under the typing dots while the turn runs
      let line = turn.querySelector(':scope > .member-status');
      if (!line) {
        line = h('p', { class: 'member-status muted trailer', testid: 'trainer-status', dir: 'auto' });
        turn.append(line);
      }
      line.textContent = d.message ?? '';
      break;
    }
    case 'tool_started':
      if (d.router !== 'coach' && d.router !== 'data') cardFor(turn, d.toolUseId).start(d);
      break;
    case 'tool_completed':
      if (TIMER_TOOLS.has(d.action) && d.ok !== false) place(turn, timerCard(d.output));
      if (mode.cards.has(d.toolUseId)) mode.cards.get(d.toolUseId).complete(d);
      else if (d.router !== 'coach' && d.router !== 'data' && d.inverseAvailable) cardFor(turn, d.toolUseId).complete(d);
      break;
    case 'confirmation_pending':
      cardFor(turn, d.toolUseId).pending(d);
      break;
    case 'message':
      if (d.content) place(turn, textBubble(d.content));
      for (const a of d.attachments ?? []) {
        if (a?.type === 'workout' && a.workout) showWorkout(turn, a.workout);
        else if (a?.type === 'exercise' && a.exercise) place(turn, workoutCard({ title: a.exercise.name, exercises: [a.exercise] }, mode.unit));
      }
      break;
    case 'question':
      place(turn, questionCard(d, (option) => send(option)));
      break;
    case 'error':
      showError(d);
      place(turn, h('p', { class: 'turn-error', dir: 'auto', text: d.message || d.code }));
      break;
    case 'done':
      if (d.sessionId) mode.sessionId = d.sessionId;
      break;
    default:
      break;
  }
}

/** Read one turn's stream into `turn`, reconnecting by itself (Last-Event-ID) when the connection drops; the
 *  composer is busy meanwhile. */
async function stream(open, turn, { turnId = null } = {}) {
  const controller = new AbortController();
  state.stream = controller;
  const ctx = { turnId, stopRequested: false };
  mode.streaming = ctx;
  setComposerBusy(true);
  const typing = h('div', { class: 'typing trailer', testid: 'typing', 'aria-hidden': 'true' }, h('span'), h('span'), h('span'));
  turn.append(typing);
  try {
    const response = await open(controller.signal);
    ctx.turnId ??= response.headers?.get?.('x-turn-id') ?? null;
    if (ctx.turnId && ctx.stopRequested) stopTurn(ctx);
    const outcome = await followTurn(response, {
      turnId: ctx.turnId,
      signal: controller.signal,
      onEvent: (type, data) => {
        if (controller.signal.aborted) return;
        try {
          handle(turn, type, data && typeof data === 'object' ? data : {});
        } catch (err) {
          console.error('spotter: could not render trainer event', type, err);
        }
      },
      reconnect: (lastEventId, signal) =>
        trainer.turnStream(orgId(), lastEventId.slice(0, lastEventId.lastIndexOf(':')), lastEventId, signal),
      onReconnecting: (waiting) => {
        turn.querySelector(':scope > .reconnecting')?.remove();
        if (waiting) place(turn, h('p', { class: 'turn-note reconnecting trailer', testid: 'reconnecting', role: 'status', i18n: 'chat.reconnecting' }));
      },
    });
    if (ctx.stopRequested && outcome.done) place(turn, h('p', { class: 'turn-note', testid: 'turn-stopped-live', i18n: 'chat.stopped' }));
    else if (!outcome.done) showError({ code: 'stream_incomplete', message: t('errors.streamBroken') });
  } finally {
    typing.remove();
    turn.querySelectorAll(':scope > .member-status, :scope > .reconnecting').forEach((node) => node.remove());
    if (state.stream === controller) state.stream = null;
    if (mode.streaming === ctx) mode.streaming = null;
    setComposerBusy(false);
    refreshSessions();
  }
}

/** Stop: the server cancels the turn wherever it runs; its stream then ends with `done`. */
function requestStop() {
  const ctx = mode.streaming;
  if (!ctx || ctx.stopRequested) return;
  ctx.stopRequested = true;
  if (ctx.turnId) stopTurn(ctx);
}

async function stopTurn(ctx) {
  try {
    await trainer.stopTurn(orgId(), ctx.turnId);
  } catch (err) {
    console.warn('spotter: stop failed', err);
    if (mode.streaming === ctx) state.stream?.abort();
  }
}

/** A reopened session whose turn still runs: its stream from the start, live until `done`. */
function joinTurn({ turnId, kind }) {
  const turns = mode.log.querySelectorAll(':scope > .turn-assistant');
  const turn = kind !== 'send' && turns.length ? turns[turns.length - 1] : assistantTurn();
  stream((signal) => trainer.turnStream(orgId(), turnId, null, signal), turn, { turnId }).catch((err) => {
    if (err?.name !== 'AbortError') showError(err);
  });
}

async function send(text) {
  const message = String(text ?? '').trim();
  if (!message || state.stream) return;
  if (mode.creating) await mode.creating;  // a new session being opened takes this message
  if (state.stream) return;
  clearError();
  const user = userTurn(message);
  clearComposer();
  const turn = assistantTurn();
  const body = { message, sessionId: mode.sessionId, currentWorkoutId: mode.workoutId };
  try {
    await stream((signal) => trainer.send(orgId(), body, signal), turn);
  } catch (err) {
    if (!turn.querySelector(':scope > :not(.trailer)')) {
      turn.remove();
      user.remove();
      fillComposer(message);
    }
    if (err?.code === 'session_closed') mode.sessionId = null;  // deleted meanwhile: the next send starts a new one
    if (err?.name !== 'AbortError') showError(err);
  }
  focusComposer();
}

async function confirm(toolUseId, approved, card) {
  if (state.stream || !mode.sessionId) return;
  if (!approved) card.rejected();
  try {
    await stream((signal) => trainer.confirm(orgId(), mode.sessionId, toolUseId, approved, signal), assistantTurn());
  } catch (err) {
    if (err?.name !== 'AbortError') showError(err);
  }
}

async function undo(toolUseId) {
  try {
    return await trainer.undo(orgId(), mode.sessionId, toolUseId);
  } catch (err) {
    showError(err);
    throw err;
  }
}

// ---- sessions -----------------------------------------------------------------------------

async function refreshSessions() {
  if (!mode.list) return;
  const org = orgId();
  let items = [];
  try {
    items = (await trainer.sessions(org))?.items ?? [];
  } catch (err) {
    if (!err?.auth) console.warn(err);
    return;
  }
  if (org !== orgId() || !mode.list) return;
  mode.list.replaceChildren(...items.map((s) => h('li', {},
    h('button', {
      type: 'button', class: 'conv', testid: 'session-item',
      'data-session-id': s.id, 'aria-current': s.id === mode.sessionId ? 'true' : null,
      onclick: () => { closeDrawer(); openSession(s.id); },
    },
    h('span', { class: 'conv-title', dir: 'auto', text: s.title || t('member.untitled') }),
    h('span', { class: 'conv-time', text: `${formatDateTime(s.lastActivityAt)}${s.status === 'active' ? '' : ` · ${t(`member.status.${s.status}`, undefined, s.status)}`}` })))));
}

/** Replay a stored session as the member saw it: their words, then each message and question the trainer showed
 * (the view kept on its tool result: words without ids, workout cards). For a session from before views were kept
 * the service gives each message and question its view on the tool call (from the tool's declaration), and its
 * workouts are shown by their exercise names. Which tool speaks is the service's to say: no tool name here. */
function renderEvents(events) {
  const kept = new Map();
  for (const e of events) if (e.type === 'tool_result' && e.payload?.shown) kept.set(e.payload.callId, e.payload.shown);
  let turn = null;
  for (const e of events) {
    const p = e.payload ?? {};
    if (e.type === 'user_message') {
      userTurn(p.message ?? '');
      turn = null;
      continue;
    }
    if (e.type === 'workout' && p.workoutId) mode.workoutId = p.workoutId;
    const legacyCard = e.type === 'workout' && !kept.size;
    const view = e.type === 'tool_call' ? kept.get(p.callId) ?? p.shown : null;
    if (!legacyCard && !view) continue;
    if (!turn) turn = assistantTurn();
    if (legacyCard) place(turn, legacyWorkout(p));
    else if (view.kind === 'question') place(turn, questionCard(view, send));
    else handle(turn, 'message', view);
  }
  for (const old of mode.log.querySelectorAll('[data-testid="question"]')) {
    if (old !== mode.log.querySelector('[data-testid="question"]:last-of-type')) old.querySelectorAll('button').forEach((b) => { b.disabled = true; });
  }
}

/** A workout's lines stored before the service kept what the member saw: without exercise, workout and row ids. */
function withoutIds(text) {
  return String(text ?? '').replace(/\s*\((?:id\s*)?[0-9a-f]{8}-[0-9a-f-]{27}\)|\b(?:ex|workout)_\d+\b\s?/gi, '').trim();
}

function legacyWorkout(p) {
  const lines = String(p.summary ?? '').split('\n').map((line) => withoutIds(line)).filter(Boolean);
  return h('article', { class: 'member-card workout-card', testid: 'workout-summary', 'data-workout-id': p.workoutId ?? '' },
    h('header', { class: 'card-title', dir: 'auto', text: p.title || t('member.workout') }),
    h('ol', { class: 'ex-list legacy' }, ...lines.map((line) => h('li', { class: 'ex', dir: 'auto', text: line }))));
}

async function openSession(id) {
  if (state.stream) return;
  clearError();
  try {
    const detail = await trainer.session(orgId(), id);
    mode.sessionId = detail.session.id;
    mode.workoutId = detail.session.currentWorkoutId ?? null;
    mode.cards.clear();
    mode.log.replaceChildren();
    renderEvents(detail.events ?? []);
    if (!mode.log.childElementCount) mode.log.append(emptyState());
    if (detail.runningTurn?.turnId) joinTurn(detail.runningTurn);
  } catch (err) {
    showError(err);
  }
  refreshSessions();
  focusComposer();
}

async function newSession() {
  if (state.stream || mode.creating) return;
  clearError();
  // A message sent while the session is being created waits for it (send awaits `mode.creating`), so it
  // goes to the new session and is never wiped by the new session's empty state.
  mode.creating = (async () => {
    try {
      const created = await trainer.create(orgId());
      mode.sessionId = created.id;
    } catch (err) {
      showError(err);
      return false;
    }
    mode.workoutId = null;
    mode.cards.clear();
    mode.log.replaceChildren(emptyState());
    return true;
  })();
  let created = false;
  try {
    created = await mode.creating;
  } finally {
    mode.creating = null;
  }
  if (!created) return;
  closeDrawer();
  refreshSessions();
  focusComposer();
}

function setBrand(key) {
  const tag = document.querySelector('.brand-tag');
  if (!tag) return;
  tag.dataset.i18n = key;
  tag.textContent = t(key);
}

/** Take over the workspace for a member; returns a function that gives it back to staff mode. */
export function enterMemberMode() {
  document.body.classList.add('member-mode');
  setBrand('member.subtitle');
  mode.log = $('chat-log');
  mode.sessionId = null;
  mode.workoutId = null;
  mode.cards.clear();
  const sidebar = $('sidebar');
  for (const child of sidebar.children) child.hidden = true;
  mode.list = h('ul', { class: 'conv-list', testid: 'session-list' });
  mode.panel = h('div', { class: 'member-sessions' },
    h('button', { type: 'button', class: 'btn primary block', testid: 'new-session', i18n: 'member.newSession', onclick: newSession }),
    h('h2', { class: 'sidebar-title', i18n: 'member.sessions' }),
    h('nav', { class: 'conv-nav' }, mode.list));
  sidebar.append(mode.panel);
  sidebar.hidden = false;
  $('workspace').classList.remove('solo');
  mountComposer($('composer-slot'), { onSend: send, onStop: requestStop });
  mode.log.replaceChildren(emptyState());
  trainer.settings(orgId()).then((s) => { mode.unit = s?.weightUnit || 'kg'; }, (err) => {
    if (err?.code !== 'member_profile_required') return;
    mode.log.replaceChildren(h('div', { class: 'pane-notice', testid: 'no-member-profile', role: 'status' },
      h('h2', { i18n: 'member.noProfileTitle' }), h('p', { class: 'muted', i18n: 'member.noProfileBody' })));
  });
  refreshSessions();
  focusComposer();
  return leaveMemberMode;
}

export function leaveMemberMode() {
  document.body.classList.remove('member-mode');
  setBrand('app.subtitle');
  state.stream?.abort();
  mode.panel?.remove();
  mode.panel = null;
  mode.list = null;
  for (const child of $('sidebar').children) child.hidden = false;
}
