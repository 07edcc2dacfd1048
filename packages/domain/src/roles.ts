/** The eight roles of the specification (docs/requirements/administration.md#roles). */
export const ROLES = {
  ADMIN: 'ROLE_ADMIN',
  HOLDER: 'ROLE_HOLDER',
  VERS_ADMIN: 'ROLE_VERS_ADMIN',
  WORKSHOP_ADMIN: 'ROLE_WORKSHOP_ADMIN',
  WORKSHOP_QA: 'ROLE_WORKSHOP_QA',
  WORKSHOP_STAFF: 'ROLE_WORKSHOP_STAFF',
  WORKSHOP_WAGON_QA: 'ROLE_WORKSHOP_WAGON_QA',
  WORKSHOP_WHEELSET_QA: 'ROLE_WORKSHOP_WHEELSET_QA',
} as const;

export type Role = (typeof ROLES)[keyof typeof ROLES];

export const ALL_ROLES: readonly Role[] = Object.values(ROLES);

export function isRole(value: string): value is Role {
  return (ALL_ROLES as readonly string[]).includes(value);
}

/** True when `held` contains at least one of `required`; an empty or missing requirement admits everyone. */
export function hasAnyRole(held: readonly string[], required: readonly Role[] | undefined): boolean {
  if (!required || required.length === 0) return true;
  return required.some((role) => held.includes(role));
}
