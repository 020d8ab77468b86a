/**
 * The nutrition page of the console (/console/nutrition.html): staff find a member by name, start a run
 * and watch its state timeline (the run's events SSE), then read its outputs as tables, submit weekly
 * check-ins, acknowledge a paused run's referral, ask the physician and record medical clearance. A
 * signed-in member sees their own runs. Every label in the UI language. Address: #m=<memberId>&r=<runId>.
 */
import { getToken, takeTokenFromUrl } from './api.js';
import { h } from './dom.js';
import { setLocale, initialLocale, applyStrings, currentLocale, formatDateTime } from './i18n.js';
import { newKey, nutritionApi } from './nutrition-api.js';
import { outputsView, adjustmentView } from './nutrition-tables.js';
import { intakeForm, checkinForm } from './nutrition-forms.js';
import { clearancePanel, healthQuestionPanel, referralPanel, terminatedNotice } from './nutrition-medical.js';
import { MemberPicker } from './nutrition-members.js';
import { errorPanel, medicalNotes } from './nutrition-run-notes.js';
import { agentLabel, arrow, enumLabel, fieldErrorLabel, fieldLabel, num, stateLabel, tr } from './nutrition-words.js';

const ORG_KEY = 'spotter.orgId';
const UUID = /^[0-9a-f-]{36}$/i;
const CLEARANCE_ROLES = ['owner', 'admin', 'coach']; // never the member themself (NUTRITION.md, HTTP)
const $ = (id) => document.getElementById(id);

const page = { me: null, membership: null, memberId: null, runId: null, follow: null, view: null, own: null, picker: null, nav: 0 };
const staff = () => page.membership && page.membership.role !== 'member';
const org = () => page.membership?.orgId;
const memberOf = (id) => (staff() ? page.picker.member(id) : page.own);
const nameOf = (id) => memberOf(id)?.name ?? null;

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

/** An endpoint's error in words: its localized message, or its fields one by one for a 422. */
function showError(err) {
  const box = $('nt-error');
  if (!err) {
    box.hidden = true;
    box.removeAttribute('data-code');
    return;
  }
  const fields = (err.errors ?? []).map((e) => h('li', { testid: 'field-error', 'data-field': e.field, 'data-code': e.code,
    text: `${fieldLabel(e.field)}: ${fieldErrorLabel(e.code)}` }));
  box.textContent = fields.length ? tr('fixFields', 'Please check these fields:') : String(err.message || err.code || err);
  if (err.code) box.setAttribute('data-code', err.code);
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
  const who = page.memberId ? nameOf(page.memberId) : null;
  $('nt-runs-for').textContent = who ? `— ${who}` : '';
  if (staff() && !page.memberId) {
    list.replaceChildren(h('li', { class: 'muted', text: tr('pickMember', 'Find a member first.') }));
    $('nt-new-run').disabled = true;
    return [];
  }
  $('nt-new-run').disabled = false;
  const { runs } = await nutritionApi.runs(org(), staff() ? page.memberId : null);
  list.replaceChildren(...runs.map((run) => h('li', {},
    h('button', { type: 'button', class: `nt-run-link${run.runId === page.runId ? ' active' : ''}`, testid: 'run-link',
      'data-run-id': run.runId, 'data-state': run.state, onclick: () => openRun(run.runId).catch(showError) },
    h('span', { class: 'nt-badge', 'data-state': run.state, text: stateLabel(run.state) }),
    h('span', { class: 'muted', text: ` ${tr('versionShort', 'v{n}', { n: num(run.version) })} · ${run.createdAt ? formatDateTime(run.createdAt) : ''}` }),
    nameOf(run.membershipId) ? h('span', { class: 'nt-run-member', testid: 'run-member' }, h('bdi', { text: nameOf(run.membershipId) })) : null))));
  if (!runs.length) list.append(h('li', { class: 'muted', testid: 'no-runs', text: tr('noRuns', 'No runs yet.') }));
  return runs;
}

async function pickMember(member) {
  stopFollow();
  showError(null);
  const nav = ++page.nav;
  page.memberId = member.membershipId;
  page.runId = null;
  writeHash();
  await page.picker.select(member.membershipId);
  const runs = await refreshRuns();
  if (nav !== page.nav) return; // the user moved on (opened a run or the intake form) meanwhile
  if (runs.length) await openRun(runs[0].runId);
  else {
    page.view = null;
    $('nt-pane').replaceChildren(...clearanceParts(page.memberId),
      h('p', { class: 'muted', testid: 'no-runs-member', text: tr('noRunsMember', 'This member has no run yet: start one.') }));
  }
}

/** The clearance panel when the member's next run waits for medical clearance. */
function clearanceParts(memberId, force = false) {
  const member = memberOf(memberId);
  if (!force && !member?.clearanceRequired) return [];
  const key = newKey();
  return [clearancePanel({
    name: member?.name, allowed: CLEARANCE_ROLES.includes(page.membership.role),
    onRecord: async (note) => {
      await nutritionApi.clearance(org(), memberId, note, key);
      showError(null);
      await refreshMembers();
    },
  })];
}

async function refreshMembers() {
  if (staff()) await page.picker.refresh();
  else page.own = (await nutritionApi.members(org(), null)).members[0] ?? null;
}

// ---- a run ---------------------------------------------------------------------------------

function timelineText(type, data) {
  const to = ` ${arrow()} `;
  if (type === 'state') return `${data.from ? stateLabel(data.from) : '—'}${to}${stateLabel(data.to)}`;
  if (type === 'envelope') {
    return `${agentLabel(data.fromAgent)}${to}${agentLabel(data.toAgent)}: ${enumLabel('dataType', data.dataType)} (${tr('versionShort', 'v{n}', { n: num(data.runVersion) })})`;
  }
  if (type === 'physician') {
    const said = [agentLabel('PHYSICIAN'), enumLabel('action', data.pipelineAction), enumLabel('urgency', data.urgency)].join(' · ');
    // the referral target is the physician's own words: isolated, so it keeps its direction inside the line
    return data.referralTarget ? [said, ' · ', h('bdi', { text: data.referralTarget })] : said;
  }
  if (type === 'conflict') {
    return tr('conflictText', 'Conflict (rule {rule}: {agents}): {resolution}', { rule: num(data.rule),
      agents: (data.agents ?? []).map(agentLabel).join(', '), resolution: enumLabel('resolution', data.resolution) });
  }
  if (type === 'error') return `${enumLabel('errorType', data.errorType)} · ${agentLabel(data.failingAgent)}`;
  if (type === 'done') return tr('restedAt', 'Rested at: {state}', { state: stateLabel(data.state) });
  return null;
}

function timelineItem(type, data) {
  const text = timelineText(type, data);
  if (text === null) return null;
  const at = data.at ? formatDateTime(data.at, { timeStyle: 'medium' }) : '';
  return h('li', { class: `nt-event nt-event-${type}`, testid: 'timeline-event', 'data-type': type,
    'data-state': type === 'state' ? data.to : data.state ?? null },
  h('span', { class: 'nt-event-kind', text: enumLabel('event', type) }), h('span', {}, text),
  at ? h('time', { class: 'muted', datetime: data.at, text: at }) : null);
}

function stateBadge(state) {
  return h('span', { class: 'nt-badge', testid: 'run-state', 'data-state': state, text: stateLabel(state) });
}

function runHeader(run) {
  const who = nameOf(run.membershipId);
  return h('header', { class: 'nt-run-head' },
    h('h2', { text: who ? tr('runFor', 'Plan for {name}', { name: who }) : tr('runTitle', 'Run') }),
    stateBadge(run.state),
    h('span', { class: 'muted', testid: 'run-version', 'data-version': run.version, text: tr('versionShort', 'v{n}', { n: num(run.version) }) }),
    run.terminatedMedical ? h('span', { class: 'nt-badge danger', testid: 'terminated-badge', text: tr('terminated', 'ended on medical advice') }) : null);
}

async function openRun(runId) {
  stopFollow();
  showError(null);
  ++page.nav;
  page.runId = runId;
  page.view = 'run';
  writeHash();
  const controller = new AbortController();
  page.follow = controller;
  const timeline = h('ol', { class: 'nt-timeline', testid: 'timeline' });
  const state = h('div', { class: 'nt-run-state' });
  const body = h('div', { class: 'nt-run-body' });
  // One panel per opened run, so a question asked while the run re-renders keeps its answer.
  const health = healthQuestionPanel((query) => nutritionApi.ask(org(), runId, query));
  $('nt-pane').replaceChildren(state, h('section', { class: 'nt-panel' }, h('h3', { text: tr('timeline', 'Timeline') }), timeline), body);
  refreshRuns().catch(showError);
  const shown = await renderDetail(runId, state, body, health);
  try {
    await nutritionApi.follow(org(), runId, (type, data) => {
      const item = timelineItem(type, data);
      if (item) {
        timeline.append(item);
        timeline.scrollTop = timeline.scrollHeight;
      }
      if (type === 'state') state.querySelector('[data-testid="run-state"]')?.replaceWith(stateBadge(data.to));
    }, controller.signal);
  } catch (err) {
    if (err?.name === 'AbortError') return;
    showError(err);
  }
  if (page.follow !== controller) return;
  page.follow = null;
  await refreshMembers().catch(showError);
  await renderDetail(runId, state, body, health, shown);
  refreshRuns().catch(showError);
}

/** Draw the run's detail unless what it shows is unchanged since `shown`; returns what it shows. */
async function renderDetail(runId, stateSlot, body, health, shown = null) {
  const detail = await nutritionApi.run(org(), runId);
  if (page.runId !== runId) return shown;
  const run = detail.run;
  stateSlot.replaceChildren(runHeader(run));
  const seen = JSON.stringify([run.state, run.version, run.supersededAt, run.awaitingReferralAcknowledgement,
    detail.adjustments.length, detail.errors.length, memberOf(run.membershipId)?.clearanceRequired ?? null]);
  if (seen === shown) return seen;
  const parts = [];
  const lastContext = detail.medicalContext.filter((c) => c.referral_needed).at(-1) ?? detail.medicalContext.at(-1);
  if (run.awaitingReferralAcknowledgement) parts.push(referralPanel(lastContext, () => acknowledge(runId)));
  if (run.terminatedMedical) {
    parts.push(terminatedNotice(detail.medicalContext.filter((c) => c.pipeline_action === 'abort').at(-1) ?? lastContext));
    parts.push(...clearanceParts(run.membershipId));
  }
  for (const error of detail.errors) parts.push(errorPanel(error));
  const last = detail.adjustments.at(-1);
  if (last) parts.push(h('section', { class: 'nt-panel', testid: 'last-adjustment' }, h('h3', { text: tr('lastAdjustment', 'Latest adjustment') }), adjustmentView(last)));
  if (run.state === 'output_ready' && !run.supersededAt) {
    parts.push(h('section', { class: 'nt-panel', testid: 'checkin' }, h('h3', { text: tr('checkinTitle', 'Weekly check-in') }),
      checkinForm((checkin, key) => submitCheckin(runId, checkin, key))));
  }
  if (Object.values(detail.outputs ?? {}).some(Boolean)) parts.push(...outputsView(detail.outputs));
  parts.push(medicalNotes(detail.medicalContext), health);
  body.replaceChildren(...parts.filter(Boolean));
  return seen;
}

async function submitCheckin(runId, checkin, key) {
  showError(null);
  try {
    await nutritionApi.checkin(org(), runId, checkin, key);
  } catch (err) {
    showError(err);
    if (err.code === 'implausible_change') { // the service asks: is that weight right? one click says yes
      $('nt-error').append(h('button', { type: 'button', class: 'btn small', testid: 'confirm-weight',
        text: tr('confirmWeight', 'Yes, this weight is right'),
        onclick: () => submitCheckin(runId, { ...checkin, confirmed: true }, key) }));
    }
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
  page.view = 'intake';
  ++page.nav;
  const previous = page.runId;
  page.runId = null;
  const memberId = page.memberId;
  const notices = h('div', { class: 'nt-notices' }, ...clearanceParts(memberId));
  const key = newKey(); // this form's run: a double tap or a retry starts it once
  const form = intakeForm(async (intake) => {
    const body = staff() ? { membershipId: memberId, intake } : { intake };
    showError(null);
    try {
      const started = await nutritionApi.start(org(), body, key);
      await refreshMembers();
      await openRun(started.runId);
    } catch (err) {
      showError(err);
      if (err.code === 'medical_clearance_required' && !notices.querySelector('[data-testid="clearance"]')) {
        notices.replaceChildren(...clearanceParts(memberId, true));
      }
      $('nt-error').scrollIntoView({ block: 'nearest' });
    }
  }, () => (previous ? openRun(previous).catch(showError) : $('nt-pane').replaceChildren()), nameOf(memberId));
  $('nt-pane').replaceChildren(notices, form);
}

// ---- boot ----------------------------------------------------------------------------------

async function enterOrg(membership) {
  page.membership = membership;
  localStorage.setItem(ORG_KEY, membership.orgId);
  page.picker.org = membership.orgId;
  const { permissions } = await nutritionApi.orgMe(membership.orgId);
  if (!permissions?.healthData) { // front desk: the service's health-data policy says no (core/health_data.py)
    $('nt-layout').hidden = true;
    status(tr('noAccess', 'Your role cannot see members\' health or nutrition data.'));
    return;
  }
  $('nt-members').hidden = !staff();
  $('nt-layout').hidden = false;
  status(null);
  page.picker.selected = staff() ? page.memberId : null;
  await refreshMembers();
  if (!staff()) page.memberId = page.own?.membershipId ?? null;
  const runs = await refreshRuns();
  const target = page.runId ?? runs[0]?.runId;
  if (target) await openRun(target);
}

/** Re-draw what is on screen in the newly chosen language. */
async function rerender() {
  applyStrings(document.body);
  if (!page.membership) return;
  if (staff()) await page.picker.refresh();
  await refreshRuns();
  if (page.view === 'intake') newRun();
  else if (page.runId) await openRun(page.runId);
  else if (page.memberId) $('nt-pane').replaceChildren(...clearanceParts(page.memberId));
}

async function boot() {
  await setLocale(initialLocale());
  applyStrings(document.body);
  const localeSelect = $('locale-select');
  localeSelect.value = currentLocale();
  localeSelect.addEventListener('change', async () => {
    await setLocale(localeSelect.value);
    document.title = `Spotter · ${tr('title', 'Nutrition & training')}`;
    await rerender().catch(showError);
  });
  document.title = `Spotter · ${tr('title', 'Nutrition & training')}`;
  takeTokenFromUrl();
  if (!getToken()) {
    status(tr('signIn', 'Sign in on the console first.'));
    return;
  }
  ({ memberId: page.memberId, runId: page.runId } = readHash());
  page.picker = new MemberPicker({ list: $('nt-member-list'), search: $('nt-member-search'), onPick: pickMember, onError: showError });
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
    page.picker.known.clear();
    enterOrg(memberships.find((m) => m.orgId === select.value)).catch(showError);
  });
  $('nt-new-run').addEventListener('click', newRun);
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
