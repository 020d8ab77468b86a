/**
 * The nutrition page's member picker: staff find a member by name (members with runs are listed first
 * before anything is typed); each shows their latest run's state and whether they need medical clearance.
 * Names found are remembered so run lists and headers can say who a run is for.
 */
import { h } from './dom.js';
import { nutritionApi } from './nutrition-api.js';
import { stateLabel, tr } from './nutrition-words.js';

const SEARCH_DELAY_MS = 250;

export class MemberPicker {
  /** list: the <ul>; search: the search <input>; onPick(member) when a member is chosen. */
  constructor({ list, search, onPick, onError }) {
    this.list = list;
    this.search = search;
    this.onPick = onPick;
    this.onError = onError;
    this.org = null;
    this.selected = null;
    this.known = new Map();
    this.timer = null;
    this.asked = 0;
    search.addEventListener('input', () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.refresh().catch(onError), SEARCH_DELAY_MS);
    });
    search.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      event.preventDefault();
      clearTimeout(this.timer);
      this.refresh({ pickFirst: true }).catch(onError);
    });
  }

  /** The member's name, if the picker has seen them. */
  name(id) {
    return this.known.get(id)?.name ?? null;
  }

  member(id) {
    return this.known.get(id) ?? null;
  }

  /** Load the list for the search box's text (members with runs first when it is empty). */
  async refresh({ pickFirst = false } = {}) {
    if (!this.org) return [];
    const asked = ++this.asked;
    const { members } = await nutritionApi.members(this.org, this.search.value.trim());
    if (asked !== this.asked) return members;
    for (const member of members) this.known.set(member.membershipId, member);
    this.render(members);
    if (pickFirst && members.length) await this.onPick(members[0]);
    return members;
  }

  render(members) {
    const items = members.map((member) => h('li', {},
      h('button', { type: 'button', class: `nt-run-link nt-member${member.membershipId === this.selected ? ' active' : ''}`,
        testid: 'member-link', 'data-member-id': member.membershipId, 'aria-pressed': String(member.membershipId === this.selected),
        onclick: () => this.onPick(member).catch(this.onError) },
      h('span', { class: 'nt-member-name', dir: 'auto', text: member.name }),
      member.latestRunState
        ? h('span', { class: 'nt-badge small', 'data-state': member.latestRunState, text: stateLabel(member.latestRunState) })
        : h('span', { class: 'muted small', text: tr('noPlanYet', 'no plan yet') }),
      member.clearanceRequired ? h('span', { class: 'nt-badge danger small', testid: 'needs-clearance',
        text: tr('needsClearance', 'needs medical clearance') }) : null)));
    if (!items.length) items.push(h('li', { class: 'muted', testid: 'no-members', text: tr('noMembersFound', 'No member by that name.') }));
    this.list.replaceChildren(...items);
  }

  /** Mark `id` as the chosen member and re-read their line (its state and clearance may have changed). */
  async select(id) {
    this.selected = id;
    await this.refresh();
  }
}
