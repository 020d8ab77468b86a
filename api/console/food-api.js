/**
 * The member's food log client (/organizations/{org}/nutrition/log/…): library search, a day's log, entries (each
 * sent with its own Idempotency-Key, so a retry after a lost answer logs nothing twice), body weights per day, the
 * trend with the expenditure estimate, and the TDEE choice.
 */
import { json } from './api.js';
import { orgId } from './state.js';
import { newKey } from './member-api.js';

const base = () => `/organizations/${encodeURIComponent(orgId())}/nutrition/log`;

export const foodLog = {
  foods: (query) => json(`${base()}/foods${query ? `?q=${encodeURIComponent(query)}` : ''}`),
  day: (day = 'today') => json(`${base()}/days/${encodeURIComponent(day)}`),
  addFood: (body, key = newKey()) => json(`${base()}/entries`, { method: 'POST', body, headers: { 'Idempotency-Key': key } }),
  addQuick: (body, key = newKey()) => json(`${base()}/quick-entries`, { method: 'POST', body,
                                                                       headers: { 'Idempotency-Key': key } }),
  remove: (entryId) => json(`${base()}/entries/${encodeURIComponent(entryId)}`, { method: 'DELETE' }),
  putWeight: (day, weight) => json(`${base()}/weights/${encodeURIComponent(day)}`, { method: 'PUT', body: { weight } }),
  deleteWeight: (day) => json(`${base()}/weights/${encodeURIComponent(day)}`, { method: 'DELETE' }),
  trend: (days = 30) => json(`${base()}/trend?days=${days}`),
  chooseTdee: (choice) => json(`${base()}/tdee-choice`, { method: 'PUT', body: { choice } }),
};
