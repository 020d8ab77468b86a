/** A run's error in words (what failed, whether a new run helps, a conflict's reasoning) and the physician's notes. */
import { h } from './dom.js';
import { medicalContextView } from './nutrition-medical.js';
import { agentLabel, enumLabel, num, qty, tr } from './nutrition-words.js';

/** The run's pipeline_error (004 §6): its type, failing agent and details, said in words. */
export function errorPanel(error) {
  const type = error.error_type ?? error.errorType ?? 'error';
  const agent = error.failing_agent ?? error.failingAgent;
  const conflict = error.conflict;
  const facts = [
    error.recoverable === undefined ? null
      : tr(error.recoverable ? 'recoverableYes' : 'recoverableNo', error.recoverable ? 'A new run can try again.' : 'This run cannot continue.'),
    error.retry_count ? tr('retries', 'Retried {n} times.', { n: num(error.retry_count) }) : null,
    error.timeout_duration_ms ? tr('timedOutAfter', 'No answer within {time}.', { time: qty(error.timeout_duration_ms / 1000, 's', 1) }) : null,
  ].filter(Boolean);
  return h('div', { class: 'nt-error', testid: 'run-error', role: 'alert', 'data-error-type': type },
    h('strong', { text: enumLabel('errorType', type) }),
    agent ? h('span', { text: ` · ${tr('failingAgent', 'at {agent}', { agent: agentLabel(agent) })}` }) : null,
    facts.length ? h('p', { class: 'small', text: facts.join(' ') }) : null,
    conflict ? h('div', { testid: 'conflict-detail' },
      h('p', { class: 'small', text: tr('conflictRule', 'Rule {rule}: {winner} stands over {loser}.', { rule: num(conflict.rule),
        winner: agentLabel(conflict.authoritative_agent), loser: agentLabel(conflict.overridden_agent) }) }),
      h('ul', { class: 'nt-notes' }, Object.entries(conflict.reasoning ?? {}).map(([who, why]) =>
        h('li', { dir: 'auto', text: `${agentLabel(who)}: ${why}` })))) : null,
    error.details ? h('p', { class: 'muted small', dir: 'auto', text: error.details }) : null);
}

/** Every medical_context of the run (the pipeline's red-flag checks and the user's questions), folded. */
export function medicalNotes(contexts) {
  if (!contexts?.length) return null;
  return h('details', { class: 'nt-panel', testid: 'medical-notes' },
    h('summary', { text: tr('medicalNotes', "Physician's notes ({n})", { n: num(contexts.length) }) }),
    contexts.map((context) => medicalContextView(context, 'medical-note')));
}
