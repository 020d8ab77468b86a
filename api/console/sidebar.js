/** The conversation list: GET .../agent/conversations, newest first, the open one marked. */
import { api } from './api.js';
import { h } from './dom.js';
import { formatDate, formatNumber, formatTime, gymDay, t } from './i18n.js';
import { showError } from './notices.js';
import { state, orgId } from './state.js';

let listEl = null;
let onOpen = () => {};
let onDeleted = () => {};
let items = [];
let loaded = false;
let activeId = null;
let sequence = 0;

/** @param {HTMLElement} el the <ul> @param {{onOpen: (id: string) => void}} callbacks */
export function initSidebar(el, callbacks) {
  listEl = el;
  onOpen = callbacks.onOpen;
  onDeleted = callbacks.onDeleted ?? onDeleted;
  document.getElementById('conversation-search')?.addEventListener('input', () => render());
}

const stamp = (item) => Date.parse(item.updatedAt ?? item.createdAt ?? '') || 0;

export async function refreshConversations() {
  const org = orgId();
  if (!org || state.membership?.role === 'member') return;
  const mine = ++sequence;
  try {
    const result = await api.conversations(org);
    if (mine !== sequence || org !== orgId()) return;
    items = [...(result?.items ?? [])].sort((a, b) => stamp(b) - stamp(a));
    loaded = true;
    render();
  } catch (err) {
    if (mine !== sequence) return;
    loaded = true;
    render();
    showError(err);
  }
}

export function clearSidebar() {
  sequence += 1;
  items = [];
  loaded = false;
  activeId = null;
  render();
}

export function setActiveConversation(id) {
  activeId = id;
  listEl?.querySelectorAll('[data-testid="conversation-item"]').forEach((button) => {
    if (button.dataset.id === id) button.setAttribute('aria-current', 'true');
    else button.removeAttribute('aria-current');
  });
}

async function renameItem(item) {
  const title = window.prompt(t('sidebar.renamePrompt'), item.title ?? '');
  if (title === null || !title.trim()) return;
  try {
    await api.renameConversation(orgId(), item.id, title.trim());
    await refreshConversations();
  } catch (err) {
    showError(err);
  }
}

async function deleteItem(item) {
  if (!window.confirm(t('sidebar.deleteConfirm', { title: item.title || t('sidebar.untitled') }))) return;
  try {
    await api.deleteConversation(orgId(), item.id);
    if (item.id === activeId) onDeleted(item.id);
    await refreshConversations();
  } catch (err) {
    showError(err);
  }
}

/** Re-render (dates follow the UI language). */
export function render() {
  if (!listEl) return;
  const query = (document.getElementById('conversation-search')?.value ?? '').trim().toLocaleLowerCase();
  const shown = query ? items.filter((item) => (item.title ?? '').toLocaleLowerCase().includes(query)) : items;
  if (query && !shown.length) {
    listEl.replaceChildren(h('li', { class: 'conv-empty muted', testid: 'conversation-no-match', i18n: 'sidebar.noMatch' }));
    return;
  }
  if (!items.length) {
    listEl.replaceChildren(h('li', { class: 'conv-empty muted', i18n: loaded ? 'sidebar.empty' : 'sidebar.loading' }));
    return;
  }
  // Grouped by the gym's day (Today, Yesterday, then the date); a title several conversations share gets
  // its time, so three "Find Saar" are told apart.
  const today = gymDay(new Date());
  const yesterday = gymDay(new Date(Date.now() - 86_400_000));
  // Same title: numbered by age ("Find Saar", "Find Saar · 2"), the number outside the ellipsis.
  const seen = new Map();
  const number = new Map();
  for (const item of [...items].sort((a, b) => Date.parse(a.createdAt ?? '') - Date.parse(b.createdAt ?? ''))) {
    const key = item.title ?? '';
    seen.set(key, (seen.get(key) ?? 0) + 1);
    number.set(item.id, seen.get(key));
  }
  const rows = [];
  let day = null;
  for (const item of shown) {
    const when = item.updatedAt ?? item.createdAt;
    const itemDay = when ? gymDay(when) : '';
    if (itemDay !== day) {
      day = itemDay;
      const label = itemDay === today ? h('span', { i18n: 'sidebar.today' })
        : itemDay === yesterday ? h('span', { i18n: 'sidebar.yesterday' }) : formatDate(when);
      rows.push(h('li', { class: 'conv-day muted', testid: 'conversation-day' }, label));
    }
    rows.push(row(item, when, item.title ? number.get(item.id) : 1));
  }
  listEl.replaceChildren(...rows);
}

function row(item, when, nth) {
      return h(
        'li',
        { class: 'conv-row' },
        h(
          'button',
          {
            type: 'button',
            class: 'conv',
            testid: 'conversation-item',
            'data-id': item.id,
            'aria-current': item.id === activeId ? 'true' : null,
            onclick: () => onOpen(item.id),
          },
          item.title
            ? h('span', { class: 'conv-title', dir: 'auto', testid: 'conversation-title' },
              h('bdi', { text: item.title }), nth > 1 ? h('span', { class: 'conv-nth', text: ` · ${formatNumber(nth)}` }) : null)
            : h('span', { class: 'conv-title untitled', i18n: 'sidebar.untitled' }),
          when || item.channel === 'mcp'
            ? h('span', { class: 'conv-meta' },
              when ? h('time', { class: 'conv-time', datetime: when, text: formatTime(when) }) : null,
              item.channel === 'mcp' ? h('span', { class: 'conv-via', testid: 'conversation-via-mcp', i18n: 'sidebar.viaMcp' }) : null)
            : null,
        ),
        h(
          'div',
          { class: 'conv-actions' },
          h('button', { type: 'button', class: 'icon-btn small', testid: 'conversation-rename', 'data-i18n-title': 'sidebar.rename', 'data-i18n-aria-label': 'sidebar.rename', text: '✎', onclick: () => renameItem(item) }),
          h('button', { type: 'button', class: 'icon-btn small', testid: 'conversation-delete', 'data-i18n-title': 'sidebar.delete', 'data-i18n-aria-label': 'sidebar.delete', text: '×', onclick: () => deleteItem(item) }),
        ),
      );
}
