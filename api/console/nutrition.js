/**
 * The nutrition page of the console (/console/nutrition.html): a signed-in member reads their own plan; staff find
 * a member by name. A run shows its plan first (today's meals and the daily targets, then the week, the grocery
 * list, recipes and the training program), then the weekly check-in, the physician, and, folded away, the
 * agents' state timeline (the run's events SSE) with one progress line above the plan while agents work. A new
 * run's intake starts from the member's own data, never a sample. Every label in the UI language.
 * Address: #m=<memberId>&r=<runId>.
 */
import { getToken, takeTokenFromUrl } from './api.js';
import { h } from './dom.js';
import { setLocale, initialLocale, applyStrings, currentLocale, formatDateTime } from './i18n.js';
import { newKey, nutritionApi } from './nutrition-api.js';
import { DAYS, outputsView, adjustmentView } from './nutrition-tables.js';
import { intakeForm, checkinForm } from './nutrition-forms.js';
import { clearancePanel, healthQuestionPanel, referralPanel, terminatedNotice } from './nutrition-medical.js';
import { MemberPicker } from './nutrition-members.js';
import { errorPanel, medicalNotes } from './nutrition-run-notes.js';
import { clinicalNotes } from './nutrition-safety.js';
import { agentLabel, arrow, enumLabel, num, stateLabel, tr } from './nutrition-words.js';

const ORG_KEY = 'spotter.orgId';
const UUID = /^[0-9a-f-]{36}$/i;
const CLEARANCE_ROLES = ['owner', 'admin', 'coach']; // never the member themself (NUTRITION.md, HTTP)
const $ = (id) => document.getElementById(id);

const page = { me: null, membership: null, org: null, memberId: null, runId: null, follow: null, view: null, own: null, picker: null, nav: 0,
  clearance: new Map() };
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

/** A page-level error (loading failed) in words; a form's errors show in the form, beside its fields. */
function showError(err) {
  const box = $('nt-error');
  if (!err) {
    box.hidden = true;
    box.removeAttribute('data-code');
    return;
  }
  box.textContent = String(err.message || err.code || err);
  if (err.code) box.setAttribute('data-code', err.code);
  box.hidden = false;
}

/** The plan's day of the week today, in the gym's time zone (the browser's when the gym has none). */
function todayKey() {
  const zone = page.org?.timezone;
  const options = { weekday: 'long' };
  try {
    if (zone) return new Intl.DateTimeFormat('en-US', { ...options, timeZone: zone }).format(new Date()).toLowerCase();
  } catch {
    // an unknown zone: the browser's day
  }
  return DAYS[(new Date().getDay() + 6) % 7];
}

/** This ISO week ("2026-W48"): the grocery ticks are kept per week. */
function isoWeek(now = new Date()) {
  const day = new Date(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate()));
  day.setUTCDate(day.getUTCDate() + 4 - (day.getUTCDay() || 7));
  const start = new Date(Date.UTC(day.getUTCFullYear(), 0, 1));
  return `${day.getUTCFullYear()}-W${String(Math.ceil(((day - start) / 86400000 + 1) / 7)).padStart(2, '0')}`;
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
  $('nt-runs-title').textContent = staff() ? tr('runs', 'Plans') : tr('myPlans', 'My plans');
  if (staff() && !page.memberId) {
    list.replaceChildren(h('li', { class: 'muted', text: tr('pickMember', 'Find a member first.') }));
    $('nt-new-run').disabled = true;
    return [];
  }
  $('nt-new-run').disabled = false;
  const { runs } = await nutritionApi.runs(org(), staff() ? page.memberId : null);
  // one entry per plan: its number (the first made is 1) and when it was made, how it stands, which is current
  list.replaceChildren(...runs.map((run, index) => h('li', {},
    h('button', { type: 'button', class: `nt-run-link${run.runId === page.runId ? ' active' : ''}`, testid: 'run-link',
      'data-run-id': run.runId, 'data-state': run.state, onclick: () => openRun(run.runId).catch(showError) },
    h('span', { class: 'nt-run-title', testid: 'run-title', text: tr('planOf', 'Plan {n} · {date}', { n: num(runs.length - index), date: run.createdAt ? formatDateTime(run.createdAt) : '—' }) }),
    h('span', { class: 'nt-badge', 'data-state': run.state, text: stateLabel(run.state) }),
    run.current ? h('span', { class: 'nt-badge current', testid: 'run-current', text: tr('currentPlan', 'current') }) : null,
    run.version > 1 ? h('span', { class: 'muted small', text: tr('updatedPlan', 'updated after check-ins') }) : null,
    nameOf(run.membershipId) ? h('span', { class: 'nt-run-member', testid: 'run-member' }, h('bdi', { text: nameOf(run.membershipId) })) : null))));
  if (!runs.length) list.append(h('li', { class: 'muted', testid: 'no-runs', text: tr('noRuns', 'No plans yet.') }));
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
      h('p', { class: 'muted', testid: 'no-runs-member', text: tr('noRunsMember', 'This member has no plan yet: make one.') }));
  }
}

/**
 * The clearance panel when the member's next run waits for medical clearance (or was just cleared here). One panel
 * per member for the page's life, so a re-render (the member list or the run's detail read again) keeps the note
 * being typed, its idempotency key and a recording in flight, instead of drawing an empty form over them.
 */
function clearanceParts(memberId, force = false) {
  const member = memberOf(memberId);
  const kept = page.clearance.get(memberId);
  const recorded = kept?.panel.dataset.recorded === 'true';
  if (!recorded && !force && !member?.clearanceRequired) return [];
  if (kept && (recorded || kept.locale === currentLocale())) return [kept.panel];
  // first drawn, or drawn again in a newly chosen language: the same key, the note typed so far
  const key = kept?.key ?? newKey();
  const panel = clearancePanel({
    name: member?.name, allowed: CLEARANCE_ROLES.includes(page.membership.role),
    note: kept?.panel.querySelector('[data-testid="clearance-note"]')?.value ?? '',
    onRecord: async (note) => {
      await nutritionApi.clearance(org(), memberId, note, key);
      showError(null);
      panel.dataset.recorded = 'true';
      await refreshMembers();
    },
  });
  page.clearance.set(memberId, { panel, key, locale: currentLocale() });
  return [panel];
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

// The processing states in the order a first run passes them (004 §1): the progress line counts them.
const STEPS = ['intake_pending', 'scientist_processing', 'nutritionist_processing', 'dietitian_processing',
  'chef_processing', 'coach_processing'];

/** One line above the plan while agents work: which step, of how many (the timeline itself is folded away). */
function progressLine(state) {
  const step = STEPS.indexOf(state);
  if (step < 0) return h('p', { class: 'nt-progress', testid: 'run-progress', hidden: true });
  return h('p', { class: 'nt-progress', testid: 'run-progress', role: 'status', 'data-state': state },
    h('span', { class: 'nt-spinner', 'aria-hidden': 'true' }),
    tr('progress', 'Building the plan, step {n} of {total}: {state}', { n: num(step + 1), total: num(STEPS.length), state: stateLabel(state) }));
}

function runHeader(run) {
  const who = nameOf(run.membershipId);
  const title = !staff() ? tr('yourPlan', 'My plan') : who ? tr('runFor', 'Plan for {name}', { name: who }) : tr('runTitle', 'Plan');
  return h('header', { class: 'nt-run-head' },
    h('h2', { text: title }),
    stateBadge(run.state),
    // the version is for staff, or once check-ins changed the plan: a member's first plan says nothing of it
    h('span', { class: 'muted', testid: 'run-version', 'data-version': run.version,
      text: staff() || run.version > 1 ? tr('versionShort', 'v{n}', { n: num(run.version) }) : '' }),
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
  let progress = progressLine(null);
  const body = h('div', { class: 'nt-run-body' });
  const steps = h('span', { class: 'muted', testid: 'timeline-count' });
  // How the agents made the plan: folded away below it (a <details> the keyboard opens with Enter or Space).
  const folded = h('details', { class: 'nt-panel nt-timeline-panel', testid: 'timeline-panel' },
    h('summary', {}, h('span', { text: tr('timelineTitle', 'How this plan was made') }), ' ', steps), timeline);
  // One panel per opened run, so a question asked while the run re-renders keeps its answer.
  const health = healthQuestionPanel((query) => nutritionApi.ask(org(), runId, query));
  $('nt-pane').replaceChildren(state, progress, body, folded);
  refreshRuns().catch(showError);
  const shown = await renderDetail(runId, state, body, health);
  try {
    await nutritionApi.follow(org(), runId, (type, data) => {
      const item = timelineItem(type, data);
      if (item) {
        timeline.append(item);
        timeline.scrollTop = timeline.scrollHeight;
        steps.textContent = `(${num(timeline.childElementCount)})`;
      }
      if (type === 'state') {
        state.querySelector('[data-testid="run-state"]')?.replaceWith(stateBadge(data.to));
        const next = progressLine(data.to);
        progress.replaceWith(next);
        progress = next;
      }
      if (type === 'done') {
        const next = progressLine(null);
        progress.replaceWith(next);
        progress = next;
      }
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
    parts.push(terminatedNotice(detail.medicalContext.filter((c) => c.pipeline_action === 'abort').at(-1) ?? lastContext, detail.notice));
    parts.push(...clearanceParts(run.membershipId));
  }
  for (const error of detail.errors) parts.push(errorPanel(error));
  // the plan first: today and the targets, the week, groceries, recipes, training (none after a member's medical stop),
  // under what the clinical rules changed in it
  if (Object.values(detail.outputs ?? {}).some(Boolean)) {
    parts.push(clinicalNotes(detail.clinicalNotes));
    parts.push(h('div', { class: 'nt-plan', testid: 'plan' }, outputsView(detail.outputs, { today: todayKey(), groceries: detail.groceries,
      display: detail.display, ticksKey: `spotter.groceries.${runId}.${isoWeek()}` })));
  }
  const last = detail.adjustments.at(-1);
  if (last) parts.push(h('section', { class: 'nt-panel', testid: 'last-adjustment' }, h('h3', { text: tr('lastAdjustment', 'Latest adjustment') }), adjustmentView(last)));
  if (run.state === 'output_ready' && !run.supersededAt) {
    parts.push(h('section', { class: 'nt-panel', testid: 'checkin' }, h('h3', { text: tr('checkinTitle', 'Weekly check-in') }),
      checkinForm({ onSubmit: (checkin, key) => submitCheckin(runId, checkin, key), onError: checkinHelp })));
  }
  parts.push(medicalNotes(detail.medicalContext), health);
  body.replaceChildren(...parts.filter(Boolean));
  return seen;
}

/** Throws the endpoint's error for the form to show beside its fields. */
async function submitCheckin(runId, checkin, key) {
  showError(null);
  await nutritionApi.checkin(org(), runId, checkin, key);
  await openRun(runId);
}

/** The service asks whether an implausible-looking weight is right: one click in the form says yes. */
function checkinHelp(err, checkin, retry) {
  if (err.code !== 'implausible_change') return [];
  return [h('button', { type: 'button', class: 'btn small', testid: 'confirm-weight', text: tr('confirmWeight', 'Yes, this weight is right'),
    onclick: () => retry({ ...checkin, confirmed: true }) })];
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

async function newRun() {
  stopFollow();
  showError(null);
  page.view = 'intake';
  const nav = ++page.nav;
  const previous = page.runId ?? page.lastRunId;
  page.lastRunId = previous;
  page.runId = null;
  writeHash();
  const memberId = page.memberId;
  $('nt-pane').replaceChildren(h('p', { class: 'muted', role: 'status', text: tr('loading', 'Loading…') }));
  // the member's own data (their last answers or training profile), or an empty form: never a sample member's
  const draft = memberId ? await nutritionApi.intakeDraft(org(), memberId).catch(() => null) : null;
  if (nav !== page.nav) return;
  const notices = h('div', { class: 'nt-notices' }, ...clearanceParts(memberId));
  const key = newKey(); // this form's run: a double tap or a retry starts it once
  const form = intakeForm({
    draft, who: staff() ? nameOf(memberId) : null, understand: (body) => nutritionApi.understood(org(), body),
    onSubmit: async (intake) => {
      const body = staff() ? { membershipId: memberId, intake } : { intake };
      showError(null);
      const started = await nutritionApi.start(org(), body, key);
      page.lastRunId = null;
      page.clearance.delete(memberId);
      await refreshMembers();
      await openRun(started.runId);
    },
    onError: (err) => {
      if (err.code === 'medical_clearance_required' && !notices.querySelector('[data-testid="clearance"]')) {
        notices.replaceChildren(...clearanceParts(memberId, true));
      }
      return [];
    },
    onCancel: () => (previous ? openRun(previous).catch(showError) : $('nt-pane').replaceChildren()),
  });
  $('nt-pane').replaceChildren(notices, form);
  form.querySelector('input, select')?.focus();
}

// ---- boot ----------------------------------------------------------------------------------

async function enterOrg(membership) {
  page.membership = membership;
  localStorage.setItem(ORG_KEY, membership.orgId);
  page.picker.org = membership.orgId;
  const orgMe = await nutritionApi.orgMe(membership.orgId);
  const { permissions } = orgMe;
  page.org = orgMe.org ?? orgMe;
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
  if (page.view === 'intake') await newRun();
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
    page.clearance.clear();
    enterOrg(memberships.find((m) => m.orgId === select.value)).catch(showError);
  });
  $('nt-new-run').addEventListener('click', () => newRun().catch(showError));
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
