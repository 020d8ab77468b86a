/**
 * Spotter console entry point: language, sign-in with a dev token, org and role, and the
 * wiring between sidebar, chat, composer and usage footer.
 */
import { api, getToken, setToken, clearToken, takeTokenFromUrl, onAuthFailure } from './api.js';
import { setLocale, initialLocale, currentLocale, applyStrings, t, loadLanguages, fillLanguageSelect, setTimeZone } from './i18n.js';
import { h } from './dom.js';
import { state, isStaff, orgId } from './state.js';
import {
  initChat,
  resetChat,
  renderConversation,
  appendUserMessage,
  ensureEmptyState,
  requestStop,
  runStream,
  supersedePending,
  stopStream,
  showPaneNotice,
  rerenderChat,
  truncateFrom,
} from './chat.js';
import { mountComposer, unmountComposer, focusComposer, setComposerBusy, clearComposer, fillComposer } from './composer.js';
import { initSidebar, refreshConversations, setActiveConversation, clearSidebar, render as renderSidebar } from './sidebar.js';
import { startUsage, stopUsage, refreshUsage, renderUsage } from './usage.js';
import { showError, clearError } from './notices.js';
import { initFollow } from './follow.js';
import { initDrawer } from './drawer.js';
import { enterMemberApp, leaveMemberApp, relocalizeMemberApp } from './member-app.js';

const ORG_KEY = 'spotter.orgId';
const $ = (id) => document.getElementById(id);

/** The open conversation lives in the address: /console/#c=<id> (reload reopens it; links share it). */
function conversationFromUrl() {
  const id = new URLSearchParams(window.location.hash.replace(/^#/, '')).get('c');
  return id && /^[0-9a-f-]{36}$/i.test(id) ? id : null;
}

function setConversationUrl(id) {
  const url = new URL(window.location.href);
  const hash = new URLSearchParams(url.hash.replace(/^#/, ''));
  if (id) hash.set('c', id);
  else hash.delete('c');
  const rest = hash.toString();
  url.hash = rest ? `#${rest}` : '';
  if (url.href !== window.location.href) window.history.replaceState(window.history.state, '', url.href);
}

function fromTemplate(id) {
  return $(id).content.cloneNode(true);
}

// ---- sign-in ----------------------------------------------------------------------------

function showSignIn(message) {
  stopStream();
  stopUsage();
  leaveMemberApp();
  state.me = null;
  state.membership = null;
  state.conversationId = null;
  $('workspace').hidden = true;
  $('org-area').hidden = true;
  $('user-area').hidden = true;
  $('sign-out').hidden = true;
  const slot = $('signin-slot');
  slot.replaceChildren(fromTemplate('signin-template'));
  applyStrings(slot);
  slot.hidden = false;
  const form = slot.querySelector('form');
  const input = slot.querySelector('[data-testid="token-input"]');
  const error = slot.querySelector('.field-error');
  if (message) {
    error.textContent = message;
    error.hidden = false;
  }
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const token = input.value.trim().replace(/^Bearer\s+/i, '');
    if (!token) {
      error.dataset.i18n = 'auth.tokenRequired';
      applyStrings(form);
      error.hidden = false;
      input.focus();
      return;
    }
    setToken(token);
    await startSession();
  });
  input.focus();
}

function signOut(message) {
  clearToken();
  clearError();
  clearSidebar();
  showSignIn(message);
}

// ---- session and org --------------------------------------------------------------------

async function startSession() {
  let me;
  try {
    me = await api.me();
  } catch (err) {
    if (err?.auth) return; // onAuthFailure already showed the sign-in screen
    if (!$('signin-slot').childElementCount) showSignIn();
    showError(err);
    return;
  }
  state.me = me;
  $('signin-slot').hidden = true;
  $('signin-slot').replaceChildren();
  $('workspace').hidden = false;
  $('sign-out').hidden = false;
  $('user-area').hidden = false;
  $('user-name').textContent = me?.name || me?.email || '';
  $('user-name').title = me?.email ?? '';

  const memberships = me?.memberships ?? [];
  const select = $('org-select');
  select.replaceChildren(...memberships.map((m) => h('option', { value: m.orgId, text: m.orgName || m.orgId })));
  select.hidden = memberships.length < 2;
  $('org-area').hidden = memberships.length === 0;
  if (!memberships.length) {
    state.membership = null;
    $('user-role').replaceChildren();
    $('sidebar').hidden = true;
    unmountComposer($('composer-slot'));
    showPaneNotice(paneNotice('no-org-notice', 'noOrg.title', 'noOrg.body'));
    return;
  }
  showRoleSwitcher();
  const stored = localStorage.getItem(ORG_KEY);
  enterOrg(memberships.find((m) => m.orgId === stored) ?? memberships[0]);
}

function paneNotice(testid, titleKey, bodyKey) {
  return h(
    'div',
    { class: 'pane-notice', testid, role: 'status' },
    h('h2', { i18n: titleKey }),
    h('p', { class: 'muted', i18n: bodyKey }),
  );
}

/** The Nutrition link only for a role the service lets read members' health data (GET /organizations/{id}/me). */
function showHealthPages(org) {
  const link = $('nav-nutrition');
  if (link) link.hidden = true;
  api.orgMe(org).then((me) => {
    if (orgId() !== org) return;
    if (link) link.hidden = !me?.permissions?.healthData;
    // Every date and time the console shows is in the gym's time zone, not the browser's.
    setTimeZone(me?.org?.timezone);
    renderSidebar();
    renderUsage();
  }).catch(() => {});
}

/** Dev auth only: the demo's logins (owner, admin, coach, front desk, member) one click away. */
async function showRoleSwitcher() {
  const area = $('role-switch-area');
  const select = $('role-switch');
  let logins = [];
  try {
    logins = (await api.devLogins())?.items ?? [];
  } catch {
    logins = []; // not dev auth (404) or not signed in: no switcher
  }
  area.hidden = logins.length < 2;
  if (area.hidden) return;
  select.replaceChildren(...logins.map((l) => h('option', { value: l.email, dir: 'auto',
    text: `${l.name} · ${t(`roles.${l.role}`, undefined, l.role)} · ${l.orgName}` })));
  select.value = state.me?.email ?? '';
  select.onchange = async () => {
    const chosen = logins.find((l) => l.email === select.value);
    if (!chosen) return;
    setToken(chosen.token);
    localStorage.removeItem(ORG_KEY);
    setConversationUrl(null);
    await startSession();
  };
}

function enterOrg(membership) {
  stopStream();
  stopUsage();
  clearError();
  clearSidebar();
  state.membership = membership;
  state.conversationId = null;
  localStorage.setItem(ORG_KEY, membership.orgId);
  $('org-select').value = membership.orgId;
  $('org-name').textContent = membership.orgName || membership.orgId;
  $('org-name').hidden = !$('org-select').hidden;
  $('user-role').replaceChildren(
    h('span', { i18n: `roles.${membership.role}`, 'data-i18n-fallback': membership.role }),
  );
  $('user-role').dataset.role = membership.role;
  showHealthPages(membership.orgId);

  leaveMemberApp();
  if (!isStaff()) {
    enterMemberApp(); // a member gets the training app and the personal trainer (member-app.js, member.js)
    return;
  }
  $('sidebar').hidden = false;
  $('workspace').classList.remove('solo');
  mountComposer($('composer-slot'), { onSend: send, onStop: requestStop });
  resetChat();
  refreshConversations().then(() => setActiveConversation(state.conversationId));
  startUsage();
  const fromUrl = conversationFromUrl();
  if (fromUrl) openConversation(fromUrl);
  else focusComposer();
}

// ---- conversations ----------------------------------------------------------------------

function newConversation() {
  if (!isStaff()) return;
  stopStream();
  clearError();
  state.conversationId = null;
  setConversationUrl(null);
  setActiveConversation(null);
  resetChat();
  focusComposer();
}

async function openConversation(id) {
  stopStream();
  clearError();
  state.conversationId = id;
  setConversationUrl(id);
  setActiveConversation(id);
  const org = orgId();
  showPaneNotice(h('div', { class: 'pane-notice', role: 'status' }, h('p', { class: 'muted', i18n: 'chat.loading' })));
  try {
    const detail = await api.conversation(org, id);
    if (state.conversationId !== id || org !== orgId()) return;
    renderConversation(detail);
  } catch (err) {
    if (state.conversationId !== id) return;
    showError(err);
    state.conversationId = null;
    setConversationUrl(null);
    setActiveConversation(null);
    resetChat();
  }
  focusComposer();
}

async function send(text, { replaces = null } = {}) {
  const message = text.trim();
  if (!message || state.stream || !isStaff()) return;
  clearError();
  const userTurn = appendUserMessage(message);
  if (!replaces) clearComposer();
  focusComposer(); // the send button is disabled while the answer streams: the person stays in the composer
  const org = orgId();
  const body = { message, conversationId: state.conversationId ?? null, pageContext: { page: 'console' } };
  if (replaces) body.replaces = replaces;
  try {
    await runStream((signal) => api.send(org, body, signal), { onOpened: supersedePending });
    if (replaces && state.conversationId) await reloadConversation(); // the switcher for what it replaced
  } catch (err) {
    if (replaces) {
      await reloadConversation();
    } else {
      userTurn.remove();
      ensureEmptyState();
      fillComposer(text);
    }
    if (err?.name !== 'AbortError') showError(err);
  }
}

async function reloadConversation() {
  const org = orgId();
  const id = state.conversationId;
  try {
    const detail = await api.conversation(org, id);
    if (state.conversationId === id && org === orgId() && !state.stream) renderConversation(detail);
  } catch (err) {
    showError(err);
  }
}

/** The id a user turn's message was stored under (a turn sent in this page learns it from the stored detail). */
async function messageIdOf(turn) {
  if (turn.dataset.messageId) return turn.dataset.messageId;
  const detail = await api.conversation(orgId(), state.conversationId);
  const ids = (detail?.messages ?? []).filter((m) => m.role === 'user' && m.text?.trim()).map((m) => m.id);
  const turns = [...document.querySelectorAll('#chat-log > .turn-user')];
  turns.forEach((node, i) => { if (ids[i]) node.dataset.messageId = ids[i]; });
  return turn.dataset.messageId ?? null;
}

/** Regenerate / Edit: the turn and what followed it give way to the new message (kept as an alternative). */
async function replaceTurn({ turn, text }) {
  if (state.stream || !state.conversationId) return;
  let id;
  try {
    id = await messageIdOf(turn);
  } catch (err) {
    showError(err);
    return;
  }
  if (!id) return;
  truncateFrom(turn);
  await send(text, { replaces: id });
}

async function showAlternative(messageId) {
  if (state.stream || !state.conversationId) return;
  clearError();
  try {
    renderConversation(await api.showAlternative(orgId(), state.conversationId, messageId));
    document.querySelector(`#chat-log [data-message-id="${CSS.escape(messageId)}"] [data-testid="alt-count"]`)
      ?.closest('.turn, .turn-actions')?.querySelector('button:not([disabled])')?.focus();
  } catch (err) {
    showError(err);
  }
}

function onConversationStarted(id) {
  if (!id) return;
  state.conversationId = id;
  setConversationUrl(id);
  refreshConversations().then(() => setActiveConversation(state.conversationId));
}

function onDone(data) {
  if (data?.conversationId && !state.conversationId) state.conversationId = data.conversationId;
  refreshUsage();
  refreshConversations().then(() => setActiveConversation(state.conversationId));
}

function onBusy(busy) {
  setComposerBusy(busy);
  $('chat-log').setAttribute('aria-busy', String(busy));
}

// ---- header controls --------------------------------------------------------------------

async function onLocaleChange(event) {
  await setLocale(event.target.value);
  renderSidebar();
  renderUsage();
  rerenderChat();
  if (!$('role-switch-area').hidden) showRoleSwitcher();
  relocalizeMemberApp();
}

function onOrgChange(event) {
  const membership = state.me?.memberships?.find((m) => m.orgId === event.target.value);
  if (membership) enterOrg(membership);
}

function onGlobalKey(event) {
  const k = event.code === 'KeyK' || event.key?.toLowerCase() === 'k';
  if (k && (event.metaKey || event.ctrlKey) && !event.altKey && !event.shiftKey) {
    event.preventDefault();
    focusComposer();
  }
}

async function boot() {
  await loadLanguages();
  await setLocale(initialLocale());
  fillLanguageSelect($('locale-select'));
  $('locale-select').value = currentLocale();
  $('locale-select').addEventListener('change', onLocaleChange);
  $('org-select').addEventListener('change', onOrgChange);
  $('sign-out').addEventListener('click', () => signOut());
  $('new-conversation').addEventListener('click', newConversation);
  document.addEventListener('keydown', onGlobalKey);
  // A card's next step ("Schedule anyway"), Regenerate and a member link send a message as if typed.
  document.addEventListener('spotter:send', (event) => send(String(event.detail ?? '')));
  document.addEventListener('spotter:replace', (event) => replaceTurn(event.detail ?? {}));
  document.addEventListener('spotter:alternative', (event) => showAlternative(String(event.detail ?? '')));
  onAuthFailure((err) => signOut(err.message || t('auth.sessionEnded')));
  initChat($('chat-log'), { onConversationStarted, onDone, onBusy });
  initFollow($('chat-log'), $('jump-slot'));
  initDrawer();
  initSidebar($('conversation-list'), { onOpen: openConversation, onDeleted: () => newConversation() });
  $('boot-status')?.remove();
  takeTokenFromUrl();
  if (getToken()) await startSession();
  else showSignIn();
}

boot().catch((err) => {
  console.error(err);
  showError({ code: 'boot_failed', message: String(err?.message ?? err) });
});
