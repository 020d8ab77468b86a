/**
 * The conversation pane: renders stored conversations, drives SSE streams (send, confirm, pick)
 * into assistant turns, and wires tool-card buttons to the API.
 */
import { api, ApiError } from './api.js';
import { followTurn } from './sse.js';
import { h } from './dom.js';
import { follow, jumpToLatest, isFollowing } from './follow.js';
import { renderMarkdown } from './markdown.js';
import { t, formatNumber, formatUsd, translateNode } from './i18n.js';
import { ToolCard } from './cards.js';
import { showError, clearError, showBudgetNotice } from './notices.js';
import { state, orgId, canEditInput } from './state.js';

/** After these the card stays disabled: the action is gone or resolved elsewhere. */
const FINAL_CODES = new Set(['tool_already_resolved', 'tool_execution_not_found', 'conversation_not_found']);
const USAGE_KEYS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheCreationTokens', 'costUsdMicros'];

let log = null;
let hooks = { onConversationStarted() {}, onDone() {}, onBusy() {} };
let streaming = null; // the ctx of the turn being read (its turn id, whether a stop was asked)
const cards = new Map();
const turnUsage = new WeakMap();

const handlers = {
  onConfirm: (card, approved, input) =>
    resume(
      card,
      (signal) => api.confirm(orgId(), state.conversationId, card.id, { approved, input }, signal),
      () => card.resolving(approved),
    ),
  onPick: (card, candidate) =>
    resume(
      card,
      (signal) => api.pick(orgId(), state.conversationId, card.id, { id: candidate.id }, signal),
      () => card.picking(candidate),
    ),
  onUndo: undo,
};

/** @param {HTMLElement} logEl @param {{onConversationStarted, onDone, onBusy}} callbacks */
export function initChat(logEl, callbacks) {
  log = logEl;
  hooks = { ...hooks, ...callbacks };
  log.addEventListener('click', (event) => {
    const link = event.target.closest?.('a.member-link');
    if (!link) return;
    event.preventDefault();
    document.dispatchEvent(new CustomEvent('spotter:send', { detail: t('chat.memberAsk', { name: link.dataset.memberName }) }));
  });
}

/** EU AI Act Art. 50: the person is told, in their language, that they talk to an AI system. */
export function aiNotice(key = 'chat.aiNotice') {
  return h('p', { class: 'ai-notice', testid: 'ai-notice', i18n: key });
}

function emptyState() {
  const suggestions = ['chat.suggestion1', 'chat.suggestion2', 'chat.suggestion3'].map((key) =>
    h('button', {
      type: 'button',
      class: 'suggestion',
      testid: 'suggestion',
      i18n: key,
      onclick: () => document.dispatchEvent(new CustomEvent('spotter:suggest', { detail: t(key) })),
    }),
  );
  return h(
    'div',
    { class: 'empty-state', testid: 'empty-state' },
    h('div', { class: 'empty-mark', 'aria-hidden': 'true', text: 'S' }),
    h('h2', { i18n: 'chat.emptyTitle' }),
    aiNotice(),
    h('p', { class: 'muted', i18n: 'chat.emptyBody' }),
    h('div', { class: 'suggestions', role: 'group', 'data-i18n-aria-label': 'chat.suggestionsLabel' }, suggestions),
  );
}

/** Clear the pane for a new conversation (aborts a running stream). */
export function resetChat() {
  stopStream();
  cards.clear();
  log.replaceChildren(emptyState());
}

/** Show a full-pane notice (staff-only, loading, no org). */
export function showPaneNotice(node) {
  stopStream();
  cards.clear();
  log.replaceChildren(node);
}

export function ensureEmptyState() {
  if (!log.querySelector('.turn')) log.replaceChildren(emptyState());
}

function clearEmpty() {
  const empty = log.querySelector('.empty-state');
  log.querySelector('.pane-notice')?.remove();
  if (!empty) return;
  empty.remove();
  log.prepend(aiNotice()); // the notice stays at the top of the conversation
}

export function appendUserMessage(text) {
  clearEmpty();
  const turn = h('div', { class: 'turn turn-user' }, h('div', { class: 'bubble bubble-user', testid: 'user-text', dir: 'auto', text }));
  log.append(turn);
  jumpToLatest(); // always show what the person just sent
  return turn;
}

function newAssistantTurn() {
  clearEmpty();
  const turn = h('div', { class: 'turn turn-assistant', testid: 'assistant-turn' });
  follow(() => log.append(turn));
  return turn;
}

function assistantBubble(text) {
  const bubble = h('div', { class: 'bubble bubble-assistant', testid: 'assistant-text', dir: 'auto' });
  if (text) showMarkdown(bubble, text);
  return bubble;
}

/** Replace the bubble's plain text with rendered (DOM-built, never innerHTML) markdown. */
function showMarkdown(bubble, text) {
  bubble.dataset.source = text;
  bubble.replaceChildren(renderMarkdown(text));
  bubble.classList.add('md');
}

/** A language switch: re-render the answers so their dates, amounts and tables follow the new language. */
export function rerenderChat() {
  log?.querySelectorAll('.bubble.md').forEach((bubble) => showMarkdown(bubble, bubble.dataset.source ?? ''));
  refreshTurnActions();
}

// ---- copy, regenerate, edit ---------------------------------------------------------------------

/** Tools that change data; a turn that ran none of them successfully "wrote nothing" and may be edited. */
const WRITES = /(?:^|_)(?:create|update|delete|cancel|publish|unpublish|restore|complete|enroll|assign|apply|set|mark|start|submit|record)/;

function wroteSomething(turn) {
  return [...(turn?.querySelectorAll('[data-testid="tool-card"]') ?? [])].some((card) =>
    ['succeeded', 'undone', 'running'].includes(card.dataset.status) && WRITES.test((card.dataset.tool ?? '').split('__')[1] ?? ''));
}

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = h('textarea', { class: 'sr-only' });
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
}

function actionButton(key, testid, onclick) {
  return h('button', { type: 'button', class: 'btn ghost small', testid, i18n: key, onclick });
}

/** Copy on every answer; Regenerate on the last one; Edit on the last message when its turn wrote nothing. */
export function refreshTurnActions() {
  if (!log) return;
  // The buttons move between turns: a reader at the newest content stays there (the layout shifts under them).
  const following = isFollowing();
  try {
    placeTurnActions();
  } finally {
    if (following) jumpToLatest();
  }
}

/** The answer's text as the person sees it: dates and amounts as shown, no model label, no buttons. */
export function shownText(turn) {
  const bubbles = [...turn.querySelectorAll('.bubble-assistant')];
  bubbles.forEach((b) => b.classList.add('copying'));
  try {
    return bubbles.map((b) => b.innerText.trim()).filter(Boolean).join('\n\n');
  } finally {
    bubbles.forEach((b) => b.classList.remove('copying'));
  }
}

/** Regenerate / Edit: this user turn is replaced by `text`; what it replaces is kept as an alternative. */
function replaceFrom(userTurn, text) {
  document.dispatchEvent(new CustomEvent('spotter:replace', { detail: { turn: userTurn, text } }));
}

/** Edit in place: the message becomes a small form; Send replaces it and answers again from there. */
function editInPlace(userTurn) {
  const bubble = userTurn.querySelector('[data-testid="user-text"]');
  if (!bubble || userTurn.querySelector('.edit-form')) return;
  const area = h('textarea', { class: 'edit-input', testid: 'edit-input', dir: 'auto', rows: '3',
    'data-i18n-aria-label': 'chat.editLabel' });
  area.value = bubble.textContent;
  const cancel = () => {
    form.remove();
    bubble.hidden = false;
    userTurn.querySelector('[data-testid="edit-message"]')?.focus();
  };
  const form = h('form', { class: 'edit-form', testid: 'edit-form' }, area,
    h('div', { class: 'btn-row' },
      h('button', { type: 'submit', class: 'btn primary small', testid: 'edit-send', i18n: 'chat.editSend' }),
      h('button', { type: 'button', class: 'btn ghost small', testid: 'edit-cancel', i18n: 'chat.editCancel', onclick: cancel })));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (area.value.trim()) replaceFrom(userTurn, area.value);
  });
  area.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') cancel();
  });
  bubble.hidden = true;
  bubble.after(form);
  area.focus();
}

/** ‹ 2 / 3 ›: flip between the alternatives Regenerate or Edit kept (POST .../alternatives/{id}). */
function switcher(ids, current) {
  const at = ids.indexOf(current);
  const go = (to) => () => document.dispatchEvent(new CustomEvent('spotter:alternative', { detail: ids[to] }));
  return h('div', { class: 'alt-switch', testid: 'alt-switch', role: 'group', 'data-i18n-aria-label': 'chat.alternatives' },
    h('button', { type: 'button', class: 'btn ghost small', testid: 'alt-prev', 'data-i18n-aria-label': 'chat.altPrevious',
      text: '‹', disabled: at <= 0, onclick: go(at - 1) }),
    h('span', { class: 'alt-count', testid: 'alt-count', i18n: 'chat.altCount',
      vars: { n: formatNumber(at + 1), count: formatNumber(ids.length) } }),
    h('button', { type: 'button', class: 'btn ghost small', testid: 'alt-next', 'data-i18n-aria-label': 'chat.altNext',
      text: '›', disabled: at >= ids.length - 1, onclick: go(at + 1) }));
}

function placeTurnActions() {
  log.querySelectorAll('.turn-actions').forEach((node) => node.remove());
  if (state.stream) return;
  const turns = [...log.querySelectorAll(':scope > .turn')];
  const lastAssistant = [...turns].reverse().find((turn) => turn.classList.contains('turn-assistant'));
  const lastUser = [...turns].reverse().find((turn) => turn.classList.contains('turn-user'));
  let asked = null;
  for (const turn of turns) {
    if (turn.classList.contains('turn-user')) {
      asked = turn;
      const row = h('div', { class: 'turn-actions', role: 'group' });
      const alternatives = JSON.parse(turn.dataset.alternatives || 'null');
      if (alternatives && turn.dataset.regenerated !== 'true') row.append(switcher(alternatives, turn.dataset.messageId));
      // Edit: a message after the last summary, whose answer wrote nothing (a write stays done whatever is edited)
      if (!wroteSomething(turn.nextElementSibling)) {
        row.append(actionButton('chat.edit', 'edit-message', () => editInPlace(turn)));
      }
      if (row.childElementCount) turn.append(row);
      continue;
    }
    const text = shownText(turn);
    const row = h('div', { class: 'turn-actions', role: 'group' });
    const alternatives = JSON.parse(asked?.dataset.alternatives || 'null');
    if (alternatives && asked?.dataset.regenerated === 'true') row.append(switcher(alternatives, asked.dataset.messageId));
    if (text) {
      const copy = actionButton('chat.copy', 'copy-answer', async () => {
        await copyText(shownText(turn));
        copy.dataset.i18n = 'chat.copied';
        translateNode(copy);
      });
      row.append(copy);
    }
    if (turn === lastAssistant && lastUser && asked === lastUser) {
      const words = lastUser.querySelector('[data-testid="user-text"]')?.textContent ?? '';
      if (words && !wroteSomething(turn)) {
        row.append(actionButton('chat.regenerate', 'regenerate', () => replaceFrom(lastUser, words)));
      }
    }
    if (row.childElementCount) turn.append(row);
  }
}

/** Cut the pane from this user turn on (a Regenerate or an Edit is about to replace it). */
export function truncateFrom(turn) {
  while (turn.nextElementSibling) turn.nextElementSibling.remove();
  turn.remove();
}

function addCard(turn, toolUseId, place) {
  const card = new ToolCard(toolUseId, handlers);
  cards.set(toolUseId, card);
  place(card.el);
  return card;
}

/** Render GET .../conversations/{id}; pending confirmations and picks come back live. */
export function renderConversation(detail) {
  stopStream();
  cards.clear();
  log.replaceChildren(aiNotice());
  let turn = null;
  let answered = true;
  const stoppedNote = () => h('p', { class: 'turn-note', testid: 'turn-stopped', i18n: 'chat.stopped' });
  for (const message of detail?.messages ?? []) {
    if (message.role === 'user') {
      if (!message.text?.trim()) continue; // tool-result carriers have no text of their own
      if (!answered) newAssistantTurn().append(stoppedNote());
      const userTurn = appendUserMessage(message.text);
      userTurn.dataset.messageId = message.id;
      if (message.alternatives) {
        userTurn.dataset.alternatives = JSON.stringify(message.alternatives);
        userTurn.dataset.regenerated = String(Boolean(message.regenerated));
      }
      turn = null;
      answered = false;
    } else if (message.role === 'assistant') {
      turn ??= newAssistantTurn();
      answered = true;
      if (message.text) turn.append(assistantBubble(message.text));
      for (const call of message.toolCalls ?? []) {
        const card = addCard(turn, call.toolUseId, (el) => turn.append(el));
        card.fromHistory(call, canEditInput());
      }
      if (message.stopReason === 'interrupted') turn.append(stoppedNote());
    }
  }
  const running = detail?.runningTurn;
  // Saved before the model was called, never answered: stopped or reloaded mid-turn (unless it still runs).
  if (!answered && !running) newAssistantTurn().append(stoppedNote());
  if (!log.querySelector('.turn')) log.replaceChildren(emptyState());
  refreshTurnActions();
  jumpToLatest();
  if (running?.turnId) joinTurn(running);
}

/** A reopened conversation whose turn still runs: its stream from the start, live until `done` (the detail
 *  showed what the conversation held before the turn, and a send's own message). */
function joinTurn({ turnId, kind }) {
  const turns = log.querySelectorAll(':scope > .turn-assistant');
  const turn = kind === 'send' ? null : turns[turns.length - 1] ?? null;
  runStream((signal) => api.turnStream(orgId(), turnId, null, signal), { turn, turnId }).catch((err) => {
    if (err?.name !== 'AbortError') showError(err);
  });
}

/** The user typed instead of clicking: the server marks open confirmations/picks superseded. */
export function supersedePending() {
  for (const card of cards.values()) card.supersede();
}

/** Stop reading (leaving the conversation, signing out): the turn itself runs on and can be joined again. */
export function stopStream() {
  const controller = state.stream;
  if (!controller) return;
  state.stream = null;
  streaming = null;
  controller.abort();
  hooks.onBusy(false);
}

/** The Stop button: the server cancels the turn wherever it runs; its stream then ends with `done`. */
export function requestStop() {
  const ctx = streaming;
  if (!ctx || ctx.stopRequested) return;
  ctx.stopRequested = true;
  if (ctx.turnId) sendStop(ctx); // else as soon as the turn names itself
}

async function sendStop(ctx) {
  try {
    await api.stopTurn(orgId(), ctx.turnId);
  } catch (err) {
    console.warn('spotter: stop failed', err);
    if (streaming === ctx) stopStream(); // unreachable: at least stop showing it
  }
}

function showReconnecting(ctx, waiting) {
  ctx.turn.querySelector(':scope > .reconnecting')?.remove();
  if (waiting) place(ctx, h('p', { class: 'turn-note reconnecting trailer', testid: 'reconnecting', role: 'status', i18n: 'chat.reconnecting' }));
}

// ---- streaming ---------------------------------------------------------------------------

function place(ctx, node) {
  follow(() => ctx.turn.insertBefore(node, ctx.turn.querySelector(':scope > .trailer')));
}

function appendText(ctx, delta) {
  if (!delta) return;
  if (!ctx.textNode) {
    ctx.textNode = document.createTextNode('');
    ctx.bubble = assistantBubble();
    ctx.bubble.classList.add('streaming');
    ctx.bubble.append(ctx.textNode);
    place(ctx, ctx.bubble);
  }
  follow(() => ctx.textNode.appendData(delta));
}

function closeText(ctx) {
  if (ctx.bubble && ctx.textNode) showMarkdown(ctx.bubble, ctx.textNode.data);
  ctx.bubble?.classList.remove('streaming');
  ctx.bubble = null;
  ctx.textNode = null;
}

function cardFor(ctx, toolUseId) {
  closeText(ctx);
  return cards.get(toolUseId) ?? addCard(ctx.turn, toolUseId, (el) => place(ctx, el));
}

function addTurnUsage(ctx, usage) {
  if (!usage) return;
  const total = turnUsage.get(ctx.turn) ?? Object.fromEntries(USAGE_KEYS.map((k) => [k, 0]));
  for (const key of USAGE_KEYS) total[key] += Number(usage[key]) || 0;
  turnUsage.set(ctx.turn, total);
  const tokens = total.inputTokens + total.outputTokens + total.cacheReadTokens + total.cacheCreationTokens;
  if (!tokens) return;
  const cacheable = total.cacheReadTokens + total.cacheCreationTokens + total.inputTokens;
  const vars = {
    input: formatNumber(total.inputTokens + total.cacheReadTokens + total.cacheCreationTokens),
    output: formatNumber(total.outputTokens),
    cache: cacheable ? Math.round((100 * total.cacheReadTokens) / cacheable) : 0,
    cost: formatUsd(total.costUsdMicros, 4),
  };
  ctx.turn.querySelector(':scope > .turn-usage')?.remove();
  ctx.turn.append(h('p', { class: 'turn-usage trailer', testid: 'turn-usage', dir: 'ltr', i18n: 'chat.turnUsage', vars }));
}

function handleEvent(ctx, type, data) {
  const d = data && typeof data === 'object' ? data : {};
  if (d.turnId && !ctx.turnId) {
    ctx.turnId = d.turnId;
    if (ctx.stopRequested) sendStop(ctx);
  }
  switch (type) {
    case 'conversation_started':
      hooks.onConversationStarted(d.conversationId);
      break;
    case 'text_delta':
      appendText(ctx, d.delta ?? '');
      break;
    case 'tool_started':
      cardFor(ctx, d.toolUseId).start(d);
      break;
    case 'tool_completed':
      cardFor(ctx, d.toolUseId).complete(d);
      break;
    case 'confirmation_pending':
      cardFor(ctx, d.toolUseId).showConfirm(d, canEditInput());
      break;
    case 'disambiguation_pending':
      cardFor(ctx, d.toolUseId).showPicker(d);
      break;
    case 'message_done':
      closeText(ctx);
      break;
    case 'error':
      closeText(ctx);
      ctx.sawError = true;
      showError(d);
      if (d.code === 'agent_budget_exceeded') showBudgetNotice(d.message, state.membership?.role);
      place(ctx, h('p', { class: 'turn-error', dir: 'auto', text: d.message || d.code }));
      break;
    case 'done':
      closeText(ctx);
      ctx.sawDone = true;
      addTurnUsage(ctx, d.usage);
      hooks.onDone(d);
      break;
    default:
      break; // unknown events are ignored so the server can add new ones
  }
}

/**
 * Open a turn's stream with open(signal) and render its events into `turn` (a new assistant turn
 * when omitted); a dropped connection reconnects by itself with Last-Event-ID until `done`. Rejects,
 * before anything streamed, with the ApiError of a non-2xx answer.
 */
export async function runStream(open, { turn = null, onOpened, turnId = null } = {}) {
  if (state.stream) throw new ApiError({ code: 'busy', message: t('errors.busy') });
  const controller = new AbortController();
  state.stream = controller;
  hooks.onBusy(true);
  const ctx = { turn: turn ?? newAssistantTurn(), textNode: null, bubble: null, sawDone: false, sawError: false,
    turnId, stopRequested: false };
  streaming = ctx;
  const typing = h('div', { class: 'typing trailer', testid: 'typing', 'aria-hidden': 'true' }, h('span'), h('span'), h('span'));
  follow(() => ctx.turn.append(typing));
  ctx.turn.setAttribute('aria-busy', 'true');
  const finish = () => {
    closeText(ctx);
    typing.remove();
    ctx.turn.removeAttribute('aria-busy');
    ctx.turn.querySelector(':scope > .reconnecting')?.remove();
    if (state.stream === controller) {
      state.stream = null;
      hooks.onBusy(false);
    }
    if (streaming === ctx) streaming = null;
  };

  let response;
  try {
    response = await open(controller.signal);
  } catch (err) {
    finish();
    if (!turn && !ctx.turn.querySelector(':scope > :not(.trailer)')) ctx.turn.remove();
    throw err;
  }
  onOpened?.();
  ctx.turnId ??= response.headers?.get?.('x-turn-id') ?? null;
  if (ctx.turnId && ctx.stopRequested) sendStop(ctx);
  let gone = false;
  try {
    const outcome = await followTurn(response, {
      turnId: ctx.turnId,
      signal: controller.signal,
      onEvent: (type, data) => {
        if (controller.signal.aborted) return;
        try {
          handleEvent(ctx, type, data);
        } catch (err) {
          console.error('spotter: could not render event', type, err);
        }
      },
      reconnect: (lastEventId, signal) => api.turnStream(orgId(), lastEventId.slice(0, lastEventId.lastIndexOf(':')), lastEventId, signal),
      onReconnecting: (waiting) => showReconnecting(ctx, waiting),
    });
    gone = !outcome.done;
  } catch (err) {
    if (err?.name !== 'AbortError') {
      gone = true;
      console.warn('spotter: stream broke', err);
    }
  } finally {
    finish();
    refreshTurnActions();
  }
  if (ctx.stopRequested && (ctx.sawDone || controller.signal.aborted)) place(ctx, h('p', { class: 'turn-note', testid: 'turn-stopped-live', i18n: 'chat.stopped' }));
  else if (gone && !ctx.sawDone) showError({ code: 'stream_incomplete', message: t('errors.streamBroken') });
}

async function resume(card, open, onOpened) {
  clearError();
  try {
    await runStream(open, { turn: card.el.closest('.turn'), onOpened });
  } catch (err) {
    if (err?.name !== 'AbortError') showError(err);
    if (!FINAL_CODES.has(err?.code)) card.unlock();
  }
}

async function undo(card) {
  clearError();
  try {
    const result = await api.undo(orgId(), state.conversationId, card.id);
    card.markUndone(result?.inverse ?? null);
  } catch (err) {
    showError(err);
    if (err?.code === 'already_undone') card.markUndone(null);
    else if (err?.code === 'not_undoable') card.removeUndo();
    else card.enableUndo();
  }
}
