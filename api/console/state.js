/** Shared session state of the console (one signed-in user, one active org, one stream). */
export const state = {
  /** GET /me answer: {id, email, name, memberships} */
  me: null,
  /** the active membership: {orgId, orgName, role} */
  membership: null,
  /** id of the conversation shown in the chat, null for a new one */
  conversationId: null,
  /** AbortController of the SSE stream being read, null when idle */
  stream: null,
};

export const STAFF_EDITORS = new Set(['owner', 'admin']);

export function orgId() {
  return state.membership?.orgId ?? null;
}

export function isStaff() {
  return Boolean(state.membership) && state.membership.role !== 'member';
}

/** Owners and admins may edit a tool's input before approving it. */
export function canEditInput() {
  return STAFF_EDITORS.has(state.membership?.role);
}
