import { describe, expect, it } from 'vitest';
import { ALL_ROLES, ROLES } from '../roles.ts';
import {
  ALL_ORDER_STATUSES,
  maySetStatus,
  displayStatus,
  isOrderStatus,
  isReadOnlyStatus,
  isStartedStatus,
  ORDER_STATUSES as S,
  ORDER_TYPES,
  statusOptions,
} from './status.ts';

const { WAGON, WHEELSET } = ORDER_TYPES;
const { WORKSHOP_ADMIN, WORKSHOP_STAFF, WORKSHOP_QA, WORKSHOP_WAGON_QA, WORKSHOP_WHEELSET_QA } = ROLES;

describe('status basics', () => {
  it('lists the statuses in spec order', () => {
    expect(ALL_ORDER_STATUSES).toEqual([
      'CREATED',
      'IN_CREATION',
      'IN_WORK',
      'IN_QA',
      'DONE',
      'DONE_ARCHIVE_REQUESTED',
      'DONE_ARCHIVED',
    ]);
    expect(isOrderStatus('IN_QA')).toBe(true);
    expect(isOrderStatus('in_qa')).toBe(false);
    expect(isOrderStatus(3)).toBe(false);
  });
  it('shows DONE_ARCHIVE_REQUESTED as DONE', () => {
    expect(displayStatus(S.DONE_ARCHIVE_REQUESTED)).toBe(S.DONE);
    for (const status of ALL_ORDER_STATUSES.filter((s) => s !== S.DONE_ARCHIVE_REQUESTED)) {
      expect(displayStatus(status)).toBe(status);
    }
  });
  it('knows the started statuses', () => {
    expect(ALL_ORDER_STATUSES.filter(isStartedStatus)).toEqual([
      S.IN_WORK,
      S.IN_QA,
      S.DONE,
      S.DONE_ARCHIVE_REQUESTED,
      S.DONE_ARCHIVED,
    ]);
  });
  it('makes the done statuses read-only', () => {
    expect(ALL_ORDER_STATUSES.filter(isReadOnlyStatus)).toEqual([S.DONE, S.DONE_ARCHIVE_REQUESTED, S.DONE_ARCHIVED]);
  });
});

describe('statusOptions', () => {
  it('offers the wagon QA every other status, DONE_ARCHIVED included, on a wagon order', () => {
    expect(statusOptions(S.IN_WORK, WAGON, [WORKSHOP_WAGON_QA])).toEqual([
      S.CREATED,
      S.IN_CREATION,
      S.IN_QA,
      S.DONE,
      S.DONE_ARCHIVED,
    ]);
  });
  it('offers the wheelset QA every other status, DONE_ARCHIVED included, on a wheelset order', () => {
    expect(statusOptions(S.DONE, WHEELSET, [WORKSHOP_WHEELSET_QA])).toEqual([
      S.CREATED,
      S.IN_CREATION,
      S.IN_WORK,
      S.IN_QA,
      S.DONE_ARCHIVED,
    ]);
  });
  it('offers a workshop admin everything but DONE_ARCHIVED', () => {
    for (const type of [WAGON, WHEELSET]) {
      expect(statusOptions(S.CREATED, type, [WORKSHOP_ADMIN])).toEqual([S.IN_CREATION, S.IN_WORK, S.IN_QA, S.DONE]);
    }
  });
  it('offers an admin holding the matching QA role DONE_ARCHIVED too', () => {
    expect(statusOptions(S.CREATED, WAGON, [WORKSHOP_ADMIN, WORKSHOP_WAGON_QA])).toContain(S.DONE_ARCHIVED);
    expect(statusOptions(S.CREATED, WHEELSET, [WORKSHOP_ADMIN, WORKSHOP_WAGON_QA])).not.toContain(S.DONE_ARCHIVED);
  });
  it('treats the QA role of the other order type like staff: only IN_QA', () => {
    expect(statusOptions(S.IN_WORK, WAGON, [WORKSHOP_WHEELSET_QA])).toEqual([S.IN_QA]);
    expect(statusOptions(S.IN_WORK, WHEELSET, [WORKSHOP_WAGON_QA])).toEqual([S.IN_QA]);
  });
  it('offers staff and users without roles only IN_QA', () => {
    for (const roles of [[WORKSHOP_STAFF], [], [ROLES.ADMIN, ROLES.VERS_ADMIN, ROLES.HOLDER]]) {
      for (const type of [WAGON, WHEELSET]) {
        expect(statusOptions(S.CREATED, type, roles)).toEqual([S.IN_QA]);
        expect(statusOptions(S.DONE_ARCHIVED, type, roles)).toEqual([S.IN_QA]);
      }
    }
  });
  it('offers the quality manager IN_WORK, IN_QA and DONE, never the creation steps or DONE_ARCHIVED', () => {
    for (const type of [WAGON, WHEELSET]) {
      expect(statusOptions(S.IN_QA, type, [WORKSHOP_QA])).toEqual([S.IN_WORK, S.DONE]);
      expect(statusOptions(S.IN_WORK, type, [WORKSHOP_QA])).toEqual([S.IN_QA, S.DONE]);
      expect(statusOptions(S.CREATED, type, [WORKSHOP_QA])).toEqual([S.IN_WORK, S.IN_QA, S.DONE]);
      // A done order may go back to work or into the check; DONE_ARCHIVE_REQUESTED is shown and treated as DONE.
      expect(statusOptions(S.DONE, type, [WORKSHOP_QA])).toEqual([S.IN_WORK, S.IN_QA]);
      expect(statusOptions(S.DONE_ARCHIVE_REQUESTED, type, [WORKSHOP_QA])).toEqual([S.IN_WORK, S.IN_QA]);
    }
  });
  it('leaves DONE_ARCHIVED to the QA role of the order type, also when it is held beside the quality manager', () => {
    expect(statusOptions(S.DONE, WAGON, [WORKSHOP_QA, WORKSHOP_WAGON_QA])).toContain(S.DONE_ARCHIVED);
    expect(statusOptions(S.DONE, WHEELSET, [WORKSHOP_QA, WORKSHOP_WAGON_QA])).not.toContain(S.DONE_ARCHIVED);
    expect(statusOptions(S.DONE, WHEELSET, [WORKSHOP_QA, WORKSHOP_WAGON_QA])).toEqual([S.IN_WORK, S.IN_QA]);
  });
  it('gives staff who are quality managers too the quality manager’s options', () => {
    expect(statusOptions(S.IN_QA, WAGON, [WORKSHOP_STAFF, WORKSHOP_QA])).toEqual([S.IN_WORK, S.DONE]);
  });
  it('offers staff nothing while the order is already IN_QA', () => {
    expect(statusOptions(S.IN_QA, WAGON, [WORKSHOP_STAFF])).toEqual([]);
  });
  it('never offers the current status or DONE_ARCHIVE_REQUESTED, whoever asks', () => {
    for (const current of ALL_ORDER_STATUSES) {
      for (const type of [WAGON, WHEELSET]) {
        const options = statusOptions(current, type, ALL_ROLES);
        expect(options).not.toContain(current);
        expect(options).not.toContain(S.DONE_ARCHIVE_REQUESTED);
      }
    }
  });
  it('treats DONE_ARCHIVE_REQUESTED as DONE, so DONE is not offered', () => {
    expect(statusOptions(S.DONE_ARCHIVE_REQUESTED, WAGON, [WORKSHOP_WAGON_QA])).toEqual([
      S.CREATED,
      S.IN_CREATION,
      S.IN_WORK,
      S.IN_QA,
      S.DONE_ARCHIVED,
    ]);
  });
});

describe('maySetStatus', () => {
  it('agrees with the dialog options', () => {
    expect(maySetStatus(S.DONE_ARCHIVED, WAGON, [WORKSHOP_WAGON_QA])).toBe(true);
    expect(maySetStatus(S.DONE_ARCHIVED, WAGON, [WORKSHOP_ADMIN])).toBe(false);
    expect(maySetStatus(S.DONE_ARCHIVED, WHEELSET, [WORKSHOP_WAGON_QA])).toBe(false);
    expect(maySetStatus(S.IN_QA, WHEELSET, [WORKSHOP_STAFF])).toBe(true);
    expect(maySetStatus(S.DONE, WHEELSET, [WORKSHOP_STAFF])).toBe(false);
    // The status the order has already: recorded again, not refused (two tablets set it offline).
    expect(maySetStatus(S.IN_WORK, WHEELSET, [WORKSHOP_ADMIN])).toBe(true);
    expect(maySetStatus(S.DONE_ARCHIVE_REQUESTED, WAGON, [WORKSHOP_WAGON_QA])).toBe(false);
  });
  it('lets the quality manager set exactly IN_WORK, IN_QA and DONE, on both order types', () => {
    for (const type of [WAGON, WHEELSET]) {
      expect(ALL_ORDER_STATUSES.filter((status) => maySetStatus(status, type, [WORKSHOP_QA]))).toEqual([
        S.IN_WORK,
        S.IN_QA,
        S.DONE,
      ]);
    }
  });
});
