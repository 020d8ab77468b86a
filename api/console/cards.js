/**
 * Tool cards. One card per toolUseId shows a tool run's status, input/output, the undo button,
 * and, while a person is needed, the confirmation or picker section from suspensions.js.
 * Cards do no networking: they call their handlers
 * {onConfirm(card, approved, input), onPick(card, candidate), onUndo(card)}.
 */
import { h } from './dom.js';
import { describe } from './details.js';
import { translateNode, t, toolLabel, formatDateTime } from './i18n.js';
import { buildConfirmSection, buildPickerSection } from './suspensions.js';
import { state } from './state.js';

const PICKER_ACTION = 'ask_user_to_pick';

/** Each message's status in words (a sent message's or a status check's output): who, sent / queued until when / failed why. */
function messageStatuses(messages, sent) {
  if (!Array.isArray(messages) || !messages.length || !messages.every((m) => m && m.status)) return null;
  const rows = messages.map((m) => {
    const bits = [t(`messages.status.${m.status}`, {}, m.status)];
    if (m.deferredUntil) bits.push(t('messages.deferred', { time: formatDateTime(m.deferredUntil) }));
    if (m.failure) bits.push(t(`messages.failure.${m.failure}`, {}, m.failure));
    return h('li', { 'data-status': m.status, dir: 'auto', text: `${m.member ?? ''} — ${bits.join(', ')}` });
  });
  return h('div', { class: 'card-messages', testid: 'message-statuses' },
    h('ul', {}, rows), sent ? note('messages.cannotUnsend') : null);
}

function note(key, vars, cls = 'card-note') {
  return h('p', { class: cls, i18n: key, vars });
}

export class ToolCard {
  constructor(toolUseId, handlers) {
    this.id = toolUseId;
    this.handlers = handlers;
    this.router = null;
    this.action = null;
    this.input = undefined;
    this.output = undefined;
    this.error = null;
    this.inverseAvailable = false;
    this.inverse = null;
    this.durationMs = null;
    this.titleEl = h('span', { class: 'card-title' });
    this.badge = h('span', { class: 'badge', testid: 'tool-status' });
    this.interactive = h('div', { class: 'card-interactive' });
    this.summary = h('div', { class: 'card-summary' });
    this.detailsSlot = h('div', { class: 'card-details-slot' });
    this.actions = h('div', { class: 'card-actions' });
    this.el = h(
      'article',
      { class: 'card', testid: 'tool-card', 'data-tool-use-id': toolUseId },
      h('header', { class: 'card-head' }, h('span', { class: 'card-dot', 'aria-hidden': 'true' }), this.titleEl, this.badge),
      this.interactive,
      this.summary,
      this.detailsSlot,
      this.actions,
    );
    this.setStatus('running');
    this.renderTitle();
  }

  get status() {
    return this.el.dataset.status;
  }

  /** True while this card shows a live confirmation or picker section. */
  get awaitingPerson() {
    return this.status === 'pending' && this.interactive.childElementCount > 0;
  }

  setStatus(status) {
    this.el.dataset.status = status;
    this.badge.className = `badge badge-${status}`;
    this.badge.dataset.i18n = `status.${status}`;
    this.badge.dataset.i18nFallback = status;
    translateNode(this.badge);
  }

  setMeta({ router, action, input }) {
    if (router) this.router = router;
    if (action) this.action = action;
    if (input !== undefined) this.input = input;
    if (this.router && this.action) this.el.dataset.tool = `${this.router}__${this.action}`;
    this.renderTitle();
  }

  /** tool_started */
  start(data) {
    this.setMeta(data);
    this.setStatus('running');
    this.render();
  }

  /** tool_completed: {ok, output | error{code,message,hint}, inverseAvailable, durationMs} */
  complete(data) {
    this.setMeta(data);
    const ok = data.ok ?? !data.error;
    this.output = data.output;
    this.error = ok ? null : data.error ?? { code: 'failed', message: '' };
    this.inverseAvailable = Boolean(ok && data.inverseAvailable);
    this.durationMs = typeof data.durationMs === 'number' ? data.durationMs : null;
    this.settleInteractive(ok ? 'done' : 'failed');
    this.setStatus(ok ? 'succeeded' : this.error.code === 'rejected_by_user' ? 'rejected_by_user' : 'failed');
    this.render();
  }

  /** A row of GET .../conversations/{id}: toolCalls[] entry. */
  fromHistory(call, canEdit) {
    this.setMeta(call);
    if (call.status === 'pending' && Array.isArray(call.candidates) && call.candidates.length) {
      this.showPicker({ kind: call.input?.kind, prompt: call.prompt ?? call.input?.prompt, candidates: call.candidates });
      return;
    }
    if (call.status === 'pending' && call.confirm) {
      this.showConfirm({ input: call.input, inputSchema: call.inputSchema, confirm: call.confirm, summary: call.summary,
        details: call.details },
        canEdit);
      return;
    }
    this.output = call.output ?? undefined;
    this.error = call.error ?? null;
    this.confirm = call.confirm ?? null;
    if (call.resolvedBy || call.resolvedAt) this.resolution = { by: call.resolvedBy ?? '', at: call.resolvedAt ?? null };
    this.inverseAvailable = Boolean(call.inverseAvailable) && !call.undone;
    this.setStatus(call.undone ? 'undone' : call.status || 'pending');
    this.render();
  }

  /** confirmation_pending: {router, action, input, confirm} */
  showConfirm(data, canEdit) {
    this.setMeta(data);
    this.confirm = data.confirm ?? null;
    this.setStatus('pending');
    const section = buildConfirmSection({
      toolUseId: this.id,
      input: data.input,
      inputSchema: data.inputSchema,
      summary: data.summary,
      details: data.details,
      fallbackSummary: t('confirm.fallbackSummary', { tool: toolLabel(this.router, this.action) }),
      confirm: data.confirm,
      canEdit,
      onDecision: (approved, input, button) => {
        this.lock(button);
        this.handlers.onConfirm(this, approved, input);
        this.focusNote('.confirm-lead'); // the buttons are disabled now: the decision's line takes the focus
      },
    });
    this.interactive.replaceChildren(section);
    this.render();
  }

  /** disambiguation_pending: {kind, prompt, candidates: [{id, label, sublabel?, detail?}]} */
  showPicker({ kind, prompt, candidates }) {
    this.setStatus('pending');
    this.pickerPrompt = prompt ?? '';
    const section = buildPickerSection({
      toolUseId: this.id,
      kind,
      prompt: this.pickerPrompt,
      candidates,
      onPick: (candidate, button) => {
        this.lock(button);
        button.setAttribute('aria-pressed', 'true');
        this.handlers.onPick(this, candidate);
      },
    });
    this.interactive.replaceChildren(section);
    this.renderTitle();
    this.render();
  }

  /** Disable every button of the live section; mark the one that was clicked. */
  lock(clicked) {
    this.interactive.querySelectorAll('button').forEach((b) => {
      b.disabled = true;
    });
    this.interactive.querySelectorAll('textarea, input').forEach((field) => {
      field.readOnly = true;
      if (field.type === 'checkbox') field.disabled = true;
    });
    clicked?.classList.add('chosen');
  }

  /** Re-enable after a request that failed for a reason worth retrying. */
  unlock() {
    if (this.status !== 'pending') return;
    this.interactive.querySelectorAll('button').forEach((b) => {
      b.disabled = false;
      b.classList.remove('chosen');
      b.removeAttribute('aria-pressed');
    });
    this.interactive.querySelectorAll('textarea, input').forEach((field) => {
      field.readOnly = false;
      if (field.type === 'checkbox') field.disabled = false;
    });
  }

  /** The resume stream opened: reflect the decision until the server reports the outcome. */
  resolving(approved) {
    this.resolution = { by: state.me?.name || state.me?.email || '', at: new Date().toISOString(), approved };
    if (approved) {
      this.settleInteractive('approved');
      this.setStatus('running');
    } else {
      this.settleInteractive('rejected');
      this.setStatus('rejected_by_user');
    }
    this.render();
  }

  picking(candidate) {
    this.output = { pickedId: candidate.id, pickedLabel: candidate.label };
    this.settleInteractive('picked');
    this.setStatus('running');
    this.render();
  }

  /** A new message was sent while this card waited: the server marks it superseded. */
  supersede() {
    if (this.status !== 'pending') return;
    this.settleInteractive('superseded');
    this.setStatus('superseded');
    this.render();
  }

  /** Keep the resolved section visible but inert, tagged with how it was resolved. */
  settleInteractive(how) {
    const section = this.interactive.firstElementChild;
    if (!section) return;
    this.lock(null);
    section.dataset.resolved = section.dataset.resolved || how;
    // A decided confirmation no longer asks for approval: it says who decided and when.
    const lead = section.querySelector('.confirm-lead');
    if (lead && this.resolution) {
      lead.dataset.i18n = section.dataset.resolved === 'rejected' ? 'confirm.rejectedBy' : 'confirm.approvedBy';
      lead.dataset.i18nVars = JSON.stringify({ name: this.resolution.by, time: formatDateTime(this.resolution.at) });
      lead.setAttribute('data-testid', 'confirm-resolution');
      translateNode(lead);
    } else if (lead && how !== 'approved' && how !== 'rejected') {
      lead.dataset.i18n = `confirm.settled.${how}`;
      translateNode(lead);
    }
  }

  markUndone(inverse) {
    this.inverse = inverse ?? null;
    this.inverseAvailable = false;
    this.setStatus('undone');
    this.render();
    if (this.undoFocused) this.focusNote('[data-i18n="tool.undoneShort"]'); // the Undo button is gone
    this.undoFocused = false;
  }

  /** Move the focus to a line of this card (it becomes focusable by script only). */
  focusNote(selector) {
    const target = this.el.querySelector(selector) ?? this.el;
    target.tabIndex = -1;
    target.focus();
  }

  removeUndo() {
    this.inverseAvailable = false;
    this.renderActions();
    if (this.undoFocused) this.focusNote('.card-title');
    this.undoFocused = false;
  }

  enableUndo() {
    const button = this.actions.querySelector('[data-testid="undo"]');
    if (button) {
      button.disabled = false;
      button.removeAttribute('aria-busy');
    }
  }

  render() {
    this.renderSummary();
    this.renderDetails();
    this.renderActions();
  }

  renderTitle() {
    const isPicker = this.action === PICKER_ACTION || (!this.router && this.pickerPrompt !== undefined);
    if (isPicker) this.titleEl.replaceChildren(h('span', { i18n: 'picker.title' }));
    else if (this.router || this.action) {
      const name = [this.router, this.action].filter(Boolean).join('__');
      // Re-translated on a language switch; unknown tools fall back to their words ("Members search").
      this.titleEl.replaceChildren(h('span', { dir: 'auto', testid: 'tool-label', 'data-i18n-fallback': toolLabel(this.router, this.action), i18n: `tools.${name}` }));
    } else this.titleEl.replaceChildren(h('span', { i18n: 'tool.unnamed' }));
  }

  renderSummary() {
    const parts = [];
    const s = this.status;
    if (s === 'failed' && this.error) {
      parts.push(h('p', { class: 'card-error', testid: 'tool-error', dir: 'auto', text: this.error.message || t('tool.failedGeneric') }));
      parts.push(this.nextStepButton(this.error.nextStep));
    }
    if (s === 'succeeded' && this.output && typeof this.output === 'object') {
      parts.push(messageStatuses(this.output.messages, this.action === 'send'));
      parts.push(this.nextStepButton(this.output.nextStep)); // "Draft them a message" after a class is cancelled
    }
    if (this.resolution && !this.interactive.firstElementChild && this.confirm && this.confirm !== 'never'
        && ['succeeded', 'failed', 'rejected_by_user', 'undone'].includes(s)) {
      parts.push(note(s === 'rejected_by_user' ? 'confirm.rejectedBy' : 'confirm.approvedBy',
        { name: this.resolution.by, time: formatDateTime(this.resolution.at) }, 'card-note confirm-resolution'));
      parts[parts.length - 1].setAttribute('data-testid', 'confirm-resolution');
    }
    if (s === 'rejected_by_user') parts.push(note('tool.rejectedNote'));
    if (s === 'superseded') parts.push(note('tool.supersededNote'));
    if (s === 'expired') parts.push(note('tool.expiredNote'));
    if (s === 'pending' && !this.awaitingPerson) parts.push(note('tool.waitingNote'));
    if (this.output && typeof this.output === 'object' && 'pickedLabel' in this.output) {
      parts.push(note('picker.picked', { label: this.output.pickedLabel ?? this.output.pickedId }, 'card-picked'));
    }
    if (s === 'undone') parts.push(note('tool.undoneShort'));
    this.summary.replaceChildren(...parts.filter(Boolean));
  }

  /** The obvious next request a result offers ("Schedule anyway", "Add to the waitlist"): a button that sends it. */
  nextStepButton(step) {
    if (!step?.message || this.nextStepTaken) return null;
    const button = h('button', {
      type: 'button', class: 'btn small primary', testid: 'next-step', dir: 'auto',
      i18n: `nextSteps.${step.key}`, 'data-i18n-fallback': step.label || step.key,
    });
    button.addEventListener('click', () => {
      this.nextStepTaken = true;
      button.disabled = true;
      document.dispatchEvent(new CustomEvent('spotter:send', { detail: step.message }));
    });
    return h('div', { class: 'btn-row' }, button);
  }

  renderDetails() {
    // What a person can use of the input and the output, in words (details.js): no JSON, no ids, no tool names.
    const rows = [];
    const confirmOpen = this.awaitingPerson && this.interactive.querySelector('.confirm');
    const input = !confirmOpen && this.input != null ? describe(this.input) : null;
    const output = this.status !== 'running' && this.output != null && !('pickedLabel' in Object(this.output))
      ? describe(this.output) : null;
    const undone = this.inverse?.output != null ? describe(this.inverse.output) : null;
    if (input) rows.push(h('h4', { i18n: 'tool.input' }), input);
    if (output) rows.push(h('h4', { i18n: 'tool.output' }), output);
    if (undone) rows.push(h('h4', { i18n: 'tool.inverseOutput' }), undone);
    if (!rows.length) {
      this.detailsSlot.replaceChildren();
      return;
    }
    const wasOpen = this.detailsSlot.querySelector('details')?.open ?? false;
    this.detailsSlot.replaceChildren(
      h('details', { class: 'card-details', open: wasOpen || null }, h('summary', { i18n: 'tool.details' }), rows),
    );
  }

  renderActions() {
    if (!(this.status === 'succeeded' && this.inverseAvailable)) {
      this.actions.replaceChildren();
      return;
    }
    if (this.actions.querySelector('[data-testid="undo"]')) return;
    const button = h('button', { type: 'button', class: 'btn small', testid: 'undo', i18n: 'tool.undo' });
    button.addEventListener('click', () => {
      this.undoFocused = true;
      button.disabled = true;
      button.setAttribute('aria-busy', 'true');
      this.handlers.onUndo(this);
    });
    this.actions.replaceChildren(button);
  }
}
