/**
 * The nutrition page of the console (/console/nutrition.html): staff pick a member, start a run and
 * watch its state timeline (the run's events SSE), then read its outputs as tables, submit weekly
 * check-ins and acknowledge a paused run's referral. A signed-in member sees their own runs.
 * Address: #m=<membershipId>&r=<runId>.
 */
import { getToken, takeTokenFromUrl } from './api.js';
import { h } from './dom.js';
import { setLocale, initialLocale, applyStrings, t, formatDateTime } from './i18n.js';
import { nutritionApi } from './nutrition-api.js';
import { outputsView, adjustmentView } from './nutrition-tables.js';
import { intakeForm, checkinForm, referralPanel } from './nutrition-forms.js';

const ORG_KEY = 'spotter.orgId';
const UUID = /^[0-9a-f-]{36}$/i;
const $ = (id) => document.getElementById(id);
const tr = (key, fallback, vars) => t(`nutrition.${key}`, vars, fallback);
const words = (name) => String(name ?? '').replace(/_/g, ' ');

const page = { me: null, membership: null, memberId: null, runId: null, follow: null };
const staff = () => page.membership && page.membership.role !== 'member';
const org = () => page.membership?.orgId;

function readHash() {
  const hash = new URLSearchParams(window.location.hash.replace(/^#/, ''));
  const m = hash.get('m');
  const r = hash.get('r');
  return { memberId: m && UUID.test(m) ? m : null, runId: r && UUID.test(r) ? r : null };
}

function writeHash() {
  const hash = new URLSearchParams();
  if (page.memberId) hash.set('m', page.memberId);
  if (page.runId) hash.set('r', page.runId);
  const url = new URL(window.location.href);
  url.hash = hash.toString() ? `#${hash}` : '';
  window.history.replaceState(window.history.state, '', url.href);
}

function status(text) {
  $('nt-status').textContent = text ?? '';
  $('nt-status').hidden = !text;
}

function showError(err) {
  const box = $('nt-error');
  if (!err) {
    box.hidden = true;
    return;
  }
  box.textContent = err.code ? `${err.message || err.code} (${err.code})` : String(err.message ?? err);
  const fields = (err.errors ?? []).map((e) => h('li', { testid: 'field-error', 'data-field': e.field,
    text: `${words(e.field)}: ${words(e.code)}` }));
  if (fields.length) box.append(h('ul', {}, fields));
  box.hidden = false;
}

function stopFollow() {
  page.follow?.abort();
  page.follow = null;
}

// ---- members and runs --------------------------------------------------------------------

async function refreshRuns() {
  const list = $('nt-run-list');
  if (staff() && !page.memberId) {
    list.replaceChildren(h('li', { class: 'muted', text: tr('pickMember', 'Pick a member first.') }));
    $('nt-new-run').disabled = true;
    return [];
  }
  $('nt-new-run').disabled = false;
  const { runs } = await nutritionApi.runs(org(), staff() ? page.memberId : null);
  list.replaceChildren(...runs.map((run) => h('li', {},
    h('button', { type: 'button', class: `nt-run-link${run.runId === page.runId ? ' active' : ''}`, testid: 'run-link',
      'data-run-id': run.runId, 'data-state': run.state, onclick: () => openRun(run.runId) },
      h('span', { class: 'nt-badge', 'data-state': run.state, text: words(run.state) }),
      h('span', { class: 'muted', text: ` v${run.version} · ${run.createdAt ? formatDateTime(run.createdAt) : ''}` })))));
  if (!runs.length) list.append(h('li', { class: 'muted', testid: 'no-runs', text: tr('noRuns', 'No runs yet.') }));
  return runs;
}

async function refreshMembers() {
  if (!staff()) return;
  const { runs } = await nutritionApi.runs(org(), null);
  const ids = [...new Set(runs.map((run) => run.membershipId))];
  if (page.memberId && !ids.includes(page.memberId)) ids.unshift(page.memberId);
  $('nt-member-list').replaceChildren(...ids.map((id) => h('li', {},
    h('button', { type: 'button', class: `nt-run-link${id === page.memberId ? ' active' : ''}`, testid: 'member-link',
      'data-member-id': id, onclick: () => pickMember(id) }, h('code', { text: id })))));
}

async function pickMember(id) {
  stopFollow();
  page.memberId = id;
  page.runId = null;
  writeHash();
  await refreshMembers();
  const runs = await refreshRuns();
  if (runs.length) await openRun(runs[0].runId);
  else $('nt-pane').replaceChildren(h('p', { class: 'muted', text: tr('noRunsMember', 'This member has no run yet: start one.') }));
}

// ---- a run ---------------------------------------------------------------------------------

function timelineItem(type, data) {
  const at = data.at ? formatDateTime(data.at, { timeStyle: 'medium' }) : '';
  let text;
  if (type === 'state') text = `${words(data.from ?? '—')} → ${words(data.to)}`;
  else if (type === 'envelope') text = `${data.fromAgent} → ${data.toAgent}: ${words(data.dataType)} (v${data.runVersion})`;
  else if (type === 'physician') text = `PHYSICIAN: ${words(data.pipelineAction)} · ${data.urgency}${data.referralTarget ? ` · ${data.referralTarget}` : ''}`;
  else if (type === 'conflict') text = `${tr('conflict', 'Conflict')} (rule ${data.rule}, ${(data.agents ?? []).join(', ')}): ${words(data.resolution)}`;
  else if (type === 'error') text = `${tr('error', 'Error')}: ${words(data.errorType)} · ${data.failingAgent} — ${data.details}`;
  else if (type === 'done') text = `${tr('rested', 'Rested at')} ${words(data.state)}`;
  else return null;
  return h('li', { class: `nt-event nt-event-${type}`, testid: 'timeline-event', 'data-type': type,
    'data-state': type === 'state' ? data.to : data.state ?? null },
    h('span', { class: 'nt-event-kind', text: type }), h('span', { dir: 'auto', text }),
    at ? h('time', { class: 'muted', text: at }) : null);
}

function runHeader(run) {
  return h('header', { class: 'nt-run-head' },
    h('h2', { text: tr('runTitle', 'Run') }),
    h('span', { class: 'nt-badge', testid: 'run-state', 'data-state': run.state, text: words(run.state) }),
    h('span', { class: 'muted', testid: 'run-version', text: `v${run.version}` }),
    run.terminatedMedical ? h('span', { class: 'nt-badge danger', text: tr('terminated', 'terminated (medical)') }) : null);
}

async function openRun(runId) {
  stopFollow();
  showError(null);
  page.runId = runId;
  writeHash();
  const controller = new AbortController();
  page.follow = controller;
  const timeline = h('ol', { class: 'nt-timeline', testid: 'timeline' });
  const state = h('div', { class: 'nt-run-state' });
  const body = h('div', { class: 'nt-run-body' });
  $('nt-pane').replaceChildren(state, h('section', { class: 'nt-panel' }, h('h3', { text: tr('timeline', 'Timeline') }), timeline), body);
  refreshRuns().catch(showError);
  await renderDetail(runId, state, body);
  try {
    await nutritionApi.follow(org(), runId, (type, data) => {
      const item = timelineItem(type, data);
      if (item) timeline.append(item);
      if (type === 'state') state.querySelector('[data-testid="run-state"]')?.replaceWith(
        h('span', { class: 'nt-badge', testid: 'run-state', 'data-state': data.to, text: words(data.to) }));
    }, controller.signal);
  } catch (err) {
    if (err?.name === 'AbortError') return;
    showError(err);
  }
  if (page.follow !== controller) return;
  page.follow = null;
  await renderDetail(runId, state, body);
  refreshRuns().catch(showError);
}

async function renderDetail(runId, stateSlot, body) {
  const detail = await nutritionApi.run(org(), runId);
  if (page.runId !== runId) return;
  const run = detail.run;
  stateSlot.replaceChildren(runHeader(run));
  const parts = [];
  if (run.awaitingReferralAcknowledgement) {
    const context = detail.medicalContext.filter((c) => c.referral_needed).at(-1) ?? detail.medicalContext.at(-1);
    parts.push(referralPanel(context, () => acknowledge(runId)));
  }
  for (const error of detail.errors) {
    parts.push(h('div', { class: 'nt-error', testid: 'run-error', role: 'alert',
      text: `${words(error.error_type ?? error.errorType ?? 'error')} · ${error.failing_agent ?? ''} ${error.details ?? ''}` }));
  }
  const last = detail.adjustments.at(-1);
  if (last) parts.push(h('section', { class: 'nt-panel', testid: 'last-adjustment' }, h('h3', { text: tr('lastAdjustment', 'Latest adjustment') }), adjustmentView(last)));
  if (run.state === 'output_ready') {
    parts.push(h('section', { class: 'nt-panel', testid: 'checkin' }, h('h3', { text: tr('checkinTitle', 'Weekly check-in') }),
      checkinForm((checkin) => submitCheckin(runId, checkin))));
  }
  if (Object.values(detail.outputs ?? {}).some(Boolean)) parts.push(...outputsView(detail.outputs));
  body.replaceChildren(...parts);
}

async function submitCheckin(runId, checkin) {
  showError(null);
  try {
    await nutritionApi.checkin(org(), runId, checkin);
  } catch (err) {
    showError(err);
    return;
  }
  await openRun(runId);
}

async function acknowledge(runId) {
  showError(null);
  try {
    await nutritionApi.acknowledge(org(), runId);
  } catch (err) {
    showError(err);
    return;
  }
  await openRun(runId);
}

function newRun() {
  stopFollow();
  showError(null);
  const form = intakeForm(async (intake) => {
    const body = staff() ? { membershipId: page.memberId, intake } : { intake };
    try {
      const started = await nutritionApi.start(org(), body);
      await refreshMembers();
      await openRun(started.runId);
    } catch (err) {
      showError(err);
    }
  }, () => (page.runId ? openRun(page.runId) : $('nt-pane').replaceChildren()));
  $('nt-pane').replaceChildren(form);
}

// ---- boot ----------------------------------------------------------------------------------

async function enterOrg(membership) {
  page.membership = membership;
  localStorage.setItem(ORG_KEY, membership.orgId);
  $('nt-members').hidden = !staff();
  $('nt-layout').hidden = false;
  status(null);
  await refreshMembers();
  const runs = await refreshRuns();
  const target = page.runId ?? runs[0]?.runId;
  if (target) await openRun(target);
}

async function boot() {
  await setLocale(initialLocale());
  applyStrings(document.body);
  takeTokenFromUrl();
  if (!getToken()) {
    status(tr('signIn', 'Sign in on the console first.'));
    return;
  }
  ({ memberId: page.memberId, runId: page.runId } = readHash());
  page.me = await nutritionApi.me();
  $('user-name').textContent = page.me?.name || page.me?.email || '';
  const memberships = page.me?.memberships ?? [];
  if (!memberships.length) {
    status(tr('noOrg', 'You are not in an organization.'));
    return;
  }
  const select = $('org-select');
  select.replaceChildren(...memberships.map((m) => h('option', { value: m.orgId, text: m.orgName || m.orgId })));
  select.hidden = memberships.length < 2;
  select.addEventListener('change', () => {
    page.memberId = null;
    page.runId = null;
    enterOrg(memberships.find((m) => m.orgId === select.value)).catch(showError);
  });
  $('nt-new-run').addEventListener('click', newRun);
  $('nt-member-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const id = $('nt-member-id').value.trim();
    if (UUID.test(id)) pickMember(id).catch(showError);
  });
  const stored = localStorage.getItem(ORG_KEY);
  const membership = memberships.find((m) => m.orgId === stored) ?? memberships[0];
  select.value = membership.orgId;
  await enterOrg(membership);
}

boot().catch((err) => {
  console.error(err);
  status(null);
  showError(err);
});
