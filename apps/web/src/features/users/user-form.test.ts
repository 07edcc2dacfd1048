import { ROLES } from '@vers/domain';
import { describe, expect, it } from 'vitest';
import { exclusiveHolder, userFormErrors } from './user-form.ts';

const form = { username: 'gatx.user', firstName: 'Greta', lastName: 'Holm', enabled: true, keeperId: null };

describe('exclusiveHolder', () => {
  it('keeps the holder role alone when it is chosen', () => {
    expect(exclusiveHolder([ROLES.WORKSHOP_STAFF], [ROLES.WORKSHOP_STAFF, ROLES.HOLDER])).toEqual([ROLES.HOLDER]);
  });
  it('drops the holder role when another role is chosen', () => {
    expect(exclusiveHolder([ROLES.HOLDER], [ROLES.HOLDER, ROLES.WORKSHOP_QA])).toEqual([ROLES.WORKSHOP_QA]);
  });
  it('leaves an unchosen role unchosen', () => {
    expect(exclusiveHolder([ROLES.WORKSHOP_QA, ROLES.WORKSHOP_STAFF], [ROLES.WORKSHOP_QA])).toEqual([
      ROLES.WORKSHOP_QA,
    ]);
  });
});

describe('userFormErrors', () => {
  it('wants the keeper of a holder', () => {
    expect(userFormErrors({ ...form, roles: [ROLES.HOLDER] }, true)).toEqual({
      keeper: { key: 'users.validation.keeper' },
    });
    expect(userFormErrors({ ...form, roles: [ROLES.HOLDER], keeperId: 3 }, true)).toEqual({});
  });
  it('asks no keeper of anybody else', () => {
    expect(userFormErrors({ ...form, roles: [ROLES.WORKSHOP_STAFF] }, true)).toEqual({});
  });
});
