/**
 * Markdown for assistant replies, built as DOM nodes (never innerHTML), so model or user text can
 * never inject HTML: paragraphs, headings, bullet and numbered lists, tables, fenced code, and inline
 * **bold**, *italic*, `code` and [links](https://…) (http/https only).
 */
import { localizeText } from './localize.js';
import { translateNode, t, formatNumber } from './i18n.js';

const INLINE = /(\*\*[^*]+\*\*|__[^_]+__|`[^`]+`|\*[^*\s][^*]*\*|\[[^\]]+\]\([^)\s]+\))/g;

function inline(text) {
  const out = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > last) out.push(document.createTextNode(localizeText(text.slice(last, match.index))));
    const token = match[0];
    let node;
    if (token.startsWith('**') || token.startsWith('__')) {
      node = document.createElement('strong');
      node.append(...inline(token.slice(2, -2)));
    } else if (token.startsWith('`')) {
      node = document.createElement('code');
      node.textContent = token.slice(1, -1);
    } else if (token.startsWith('[')) {
      const [, label, href] = token.match(/^\[([^\]]+)\]\(([^)\s]+)\)$/);
      const member = href.match(/^member:([0-9a-f-]{36})$/i);
      if (member) {
        // A member the answer names: the console opens it (chat.js asks "find <name>" in the UI language).
        node = document.createElement('a');
        node.href = `#member=${member[1]}`;
        node.className = 'member-link';
        node.dataset.memberId = member[1];
        node.dataset.memberName = label;
        node.dataset.testid = 'member-link';
        node.setAttribute('data-testid', 'member-link');
        node.append(...inline(label));
      } else if (/^https?:\/\//i.test(href)) {
        node = document.createElement('a');
        node.href = href;
        node.target = '_blank';
        node.rel = 'noopener noreferrer';
        node.append(...inline(label));
      } else node = document.createTextNode(token);
    } else {
      node = document.createElement('em');
      node.append(...inline(token.slice(1, -1)));
    }
    out.push(node);
    last = match.index + token.length;
  }
  if (last < text.length) out.push(document.createTextNode(localizeText(text.slice(last))));
  return out;
}

function el(tag, children = []) {
  const node = document.createElement(tag);
  node.append(...children);
  return node;
}

const BOOLEAN = { true: 'chat.yes', false: 'chat.no' };
const NUMBER = /^-?\d+(?:\.\d+)?$/;

/** A cell's words for people: yes/no for a raw boolean, a number in the reader's format; its header as its label
 * (a phone shows each row as a card of "label value" lines). */
function tableCell(text, label) {
  const raw = text.trim();
  const key = BOOLEAN[raw.toLowerCase()];
  const node = key ? el('td', [document.createTextNode(t(key))])
    : NUMBER.test(raw) ? el('td', [document.createTextNode(formatNumber(Number(raw)))]) : el('td', inline(text));
  node.dataset.label = label;
  if (NUMBER.test(raw) || /^[\d:–\-/ .,%∞]+$/.test(raw)) node.className = 'md-num';
  return node;
}

const cells = (line) => line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
const isDivider = (line) => /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(line);
const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*\d+[.)]\s+(.*)$/;

/** The table's cells as CSV (RFC 4180 quoting), headers first. */
export function tableCsv(table) {
  const quote = (text) => (/[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  return [...table.rows].map((row) => [...row.cells].map((cell) => quote(cell.textContent.trim())).join(',')).join('\r\n');
}

function csvButton(table) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'btn ghost small csv-export';
  button.setAttribute('data-testid', 'csv-export');
  button.setAttribute('data-i18n', 'chat.exportCsv');
  translateNode(button);
  button.addEventListener('click', () => {
    const blob = new Blob([`\ufeff${tableCsv(table)}`], { type: 'text/csv;charset=utf-8' });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = 'spotter-table.csv';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  });
  return button;
}

/** The reply as a DocumentFragment. */
export function renderMarkdown(source) {
  const lines = String(source ?? '').replace(/\r\n?/g, '\n').split('\n');
  const frag = document.createDocumentFragment();
  let i = 0;
  const label = lines.findIndex((line) => line.trim());
  if (label >= 0 && /^\[[^\]]+\]$/.test(lines[label].trim())) {
    // A model's label line ("[Offline demo model — not an LLM]"): shown, never copied as the answer's text.
    const p = document.createElement('p');
    p.className = 'model-label';
    p.textContent = lines[label].trim();
    frag.append(p);
    i = label + 1;
  }
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i += 1;
      continue;
    }
    if (line.trim().startsWith('```')) {
      const code = [];
      i += 1;
      while (i < lines.length && !lines[i].trim().startsWith('```')) code.push(lines[i++]);
      i += 1;
      const pre = el('pre', [el('code', [document.createTextNode(code.join('\n'))])]);
      pre.className = 'md-code';
      pre.dir = 'ltr';
      frag.append(pre);
      continue;
    }
    const heading = line.match(/^(#{1,6})\s+(.*)$/);
    if (heading) {
      frag.append(el(`h${Math.min(6, heading[1].length + 2)}`, inline(heading[2])));
      i += 1;
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && isDivider(lines[i + 1])) {
      const head = el('tr', cells(line).map((c) => {
        const th = el('th', inline(c));
        th.scope = 'col';
        return th;
      }));
      const labels = [...head.cells].map((th) => th.textContent);
      const body = [];
      i += 2;
      while (i < lines.length && lines[i].includes('|') && lines[i].trim()) {
        body.push(el('tr', cells(lines[i]).map((c, n) => tableCell(c, labels[n] ?? ''))));
        i += 1;
      }
      const table = el('table', [el('thead', [head]), el('tbody', body)]);
      table.className = 'md-table';
      table.dataset.testid = 'answer-table';
      table.setAttribute('data-testid', 'answer-table');
      const wrap = el('div', [table]);
      wrap.className = 'md-table-wrap';
      frag.append(wrap, csvButton(table));
      continue;
    }
    const listKind = BULLET.test(line) ? BULLET : NUMBERED.test(line) ? NUMBERED : null;
    if (listKind) {
      const items = [];
      while (i < lines.length && listKind.test(lines[i])) {
        items.push(el('li', inline(lines[i].match(listKind)[1])));
        i += 1;
      }
      frag.append(el(listKind === BULLET ? 'ul' : 'ol', items));
      continue;
    }
    const para = [];
    while (i < lines.length && lines[i].trim() && !BULLET.test(lines[i]) && !NUMBERED.test(lines[i])
           && !/^#{1,6}\s/.test(lines[i]) && !lines[i].trim().startsWith('```')
           && !(lines[i].includes('|') && i + 1 < lines.length && isDivider(lines[i + 1]))) {
      para.push(lines[i]);
      i += 1;
    }
    const p = document.createElement('p');
    para.forEach((text, n) => {
      if (n) p.append(document.createElement('br'));
      p.append(...inline(text));
    });
    frag.append(p);
  }
  return frag;
}
