/** The usage footer: today's AI spend against the org's cap, polled every 30 s and after `done`; none for a member. */
import { api } from './api.js';
import { h } from './dom.js';
import { formatUsd, formatTime } from './i18n.js';
import { state, orgId } from './state.js';

const POLL_MS = 30_000;
const UPGRADE_AT = 0.8;

let timer = null;
let snapshot = null;
let snapshotOrg = null;
let failed = false;

export function startUsage() {
  stopUsage();
  snapshot = null;
  failed = false;
  renderUsage();
  refreshUsage();
  timer = window.setInterval(() => {
    if (document.visibilityState !== 'hidden') refreshUsage();
  }, POLL_MS);
}

export function stopUsage() {
  if (timer !== null) window.clearInterval(timer);
  timer = null;
}

export async function refreshUsage() {
  const org = orgId();
  if (!org || state.membership?.role === 'member') return;
  try {
    const next = await api.usage(org);
    if (org !== orgId()) return;
    snapshot = next;
    snapshotOrg = org;
    failed = false;
  } catch (err) {
    if (org !== orgId()) return;
    failed = true; // keep the last figures; a footer is no place for a banner every 30 s
    if (!err?.auth) console.warn('spotter: usage unavailable', err);
  }
  renderUsage();
}

export function renderUsage() {
  const footer = document.querySelector('[data-testid="usage-footer"]');
  if (!footer) return;
  // the gym's AI spend is staff's business: a member has no usage to load (it said "Loading usage…" forever)
  footer.hidden = state.membership?.role === 'member';
  if (footer.hidden) {
    footer.replaceChildren();
    return;
  }
  const usage = snapshotOrg === orgId() ? snapshot : null;
  if (!usage) {
    footer.replaceChildren(h('span', { class: 'muted', i18n: failed ? 'usage.unavailable' : 'usage.loading' }));
    return;
  }
  const cap = Number(usage.capUsdMicros);
  const unmetered = cap === -1 || !Number.isFinite(cap) || cap < 0;
  const spent = formatUsd(usage.spentUsdMicros);
  const ratio = unmetered ? 0 : Number(usage.percentUsed ?? (cap ? usage.spentUsdMicros / cap : 0)) || 0;
  footer.dataset.percentUsed = String(ratio);
  footer.dataset.unmetered = String(unmetered);

  // Each amount is isolated (<bdi>): in Hebrew "$0.00 / 5.00 $" must not be reordered by the text around it.
  const amount = unmetered
    ? h('bdi', { class: 'usage-amount', testid: 'usage-amount' }, h('bdi', { text: spent }), ' / ', h('bdi', { i18n: 'usage.unmetered' }))
    : h('bdi', { class: 'usage-amount', testid: 'usage-amount' }, h('bdi', { text: spent }), ' / ', h('bdi', { text: formatUsd(cap) }));
  const bar = unmetered
    ? null
    : h(
        'span',
        {
          class: `usage-bar${ratio >= UPGRADE_AT ? ' high' : ''}`,
          role: 'progressbar',
          'aria-valuemin': 0,
          'aria-valuemax': 100,
          'aria-valuenow': Math.round(Math.min(1, ratio) * 100),
          'data-i18n-aria-label': 'usage.label',
        },
        h('span', { class: 'usage-fill' }),
      );
  if (bar) bar.firstChild.style.inlineSize = `${Math.min(100, Math.max(0, ratio * 100))}%`;
  const resets = formatTime(usage.resetsAt);

  const line = h(
    'div',
    { class: 'usage-line' },
    h('span', { class: 'usage-label', i18n: 'usage.label' }),
    amount,
    bar,
    usage.tier ? h('span', { class: 'tier', testid: 'usage-tier', i18n: 'usage.tier', vars: { tier: usage.tier } }) : null,
    resets ? h('span', { class: 'usage-reset muted', i18n: 'usage.resets', vars: { time: resets } }) : null,
    failed ? h('span', { class: 'usage-stale muted', i18n: 'usage.stale' }) : null,
  );
  footer.replaceChildren(line);
  if (!unmetered && ratio >= UPGRADE_AT) {
    const ownerish = ['owner', 'admin'].includes(state.membership?.role);
    footer.append(
      h('p', {
        class: 'upgrade-hint',
        testid: 'upgrade-hint',
        i18n: ownerish ? 'usage.upgradeOwner' : 'usage.upgradeStaff',
        vars: { percent: Math.round(ratio * 100) },
      }),
    );
  }
}
