/**
 * The exercise library as a picker (GET …/trainer/exercises): names in the UI language, search in any language,
 * what fits the current location first; an exercise an injury or never-rule blocks, or the location cannot host,
 * is listed but cannot be picked, and says why. Resolves with the picked item, or null.
 */
import { h } from './dom.js';
import { t } from './i18n.js';
import { trainerApp } from './member-api.js';
import { muscleName } from './member-cards.js';
import { showHow } from './member-format.js';
import { showError } from './notices.js';

let cache = null;

async function items() {
  if (!cache) cache = trainerApp.library().catch((err) => { cache = null; throw err; });
  return cache;
}

/** Forget the cached library (a language switch, another org). */
export function resetLibrary() {
  cache = null;
}

function matches(item, query) {
  if (!query) return true;
  const text = `${item.displayName} ${item.name} ${item.category}`.toLowerCase();
  return query.toLowerCase().split(/\s+/).every((word) => text.includes(word));
}

function reason(item, location) {
  if (item.blockedBy) return t('train.library.blocked', { rule: item.blockedBy.description });
  if (!item.available) return location ? t('train.library.notHere', { place: location }) : t('train.library.noLocation');
  return '';
}

export function openLibrary({ title, like = null } = {}) {
  return new Promise((resolve) => {
    const list = h('ul', { class: 'library-list', testid: 'library-list' });
    const search = h('input', { type: 'search', class: 'library-search', testid: 'library-search', dir: 'auto',
                                'aria-label': t('train.library.search'), placeholder: t('train.library.search') });
    const dialog = h('dialog', { class: 'modal library-dialog', testid: 'library-dialog', 'aria-labelledby': 'library-title' },
      h('h2', { id: 'library-title', dir: 'auto', text: title }), search, list,
      h('div', { class: 'modal-actions' },
        h('button', { type: 'button', class: 'btn', testid: 'library-cancel', i18n: 'train.confirm.cancel', onclick: () => done(null) })));
    let data = null;
    const done = (value) => {
      dialog.close();
      dialog.remove();
      resolve(value);
    };
    const draw = () => {
      if (!data) {
        list.replaceChildren(h('li', { class: 'muted', i18n: 'chat.loading' }));
        return;
      }
      const wanted = data.items.filter((i) => matches(i, search.value.trim()))
        .filter((i) => !like || i.kind === (like.type === 'intervals' ? 'reps' : like.type) || search.value.trim());
      wanted.sort((a, b) => Number(b.available && !b.blockedBy) - Number(a.available && !a.blockedBy)
        || (like ? sameMuscle(b, like) - sameMuscle(a, like) : 0) || a.displayName.localeCompare(b.displayName));
      list.replaceChildren(...wanted.slice(0, 80).map((item) => {
        const why = reason(item, data.location);
        return h('li', { class: 'library-item-row' },
          h('button', { type: 'button', class: 'library-item option', testid: 'library-item', 'data-name': item.name,
                        'data-available': String(!why), disabled: why ? true : null, onclick: () => done(item) },
            h('span', { class: 'option-label', dir: 'auto', text: item.displayName }),
            h('span', { class: 'option-sublabel', dir: 'auto', text: item.muscles.map(muscleName).join(', ') }),
            why ? h('span', { class: 'option-detail library-why', dir: 'auto', text: why }) : null),
          item.how ? h('button', { type: 'button', class: 'btn ghost small', i18n: 'train.howTo',
                                   'aria-label': t('train.howToLabel', { name: item.displayName }), onclick: () => showHow(item.how) })
            : null);
      }));
      if (!wanted.length) list.append(h('li', { class: 'muted', i18n: 'train.library.none' }));
    };
    search.addEventListener('input', draw);
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      done(null);
    });
    document.body.append(dialog);
    dialog.showModal();
    search.focus();
    draw();
    items().then((answer) => {
      data = answer;
      draw();
    }, (err) => {
      showError(err);
      done(null);
    });
  });
}

function sameMuscle(item, like) {
  const main = [...(like.muscles ?? [])].sort((a, b) => (b.share ?? 0) - (a.share ?? 0))[0]?.name;
  return main && item.muscles.includes(main) ? 1 : 0;
}
