import type { Session } from '../../app/session.ts';

/** A signed-in workshop staff member, for tests that record changes without a server (the author of the rows). */
export const staffSession = (): Session => ({
  token: 't',
  expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
  id: 7,
  username: 'staff',
  firstName: 'Stefan',
  lastName: 'Schlosser',
  roles: ['ROLE_WORKSHOP_STAFF'],
  workshop: null,
});
