import type { Asset } from '@vers/domain';
import { describe, expect, it } from 'vitest';
import { ApiFailure } from '../../app/api.ts';
import {
  documentsOf,
  failureMessage,
  offeredTypes,
  routeOrderType,
  routeSubVehicles,
  stillGenerating,
} from './documents-view.ts';

const asset = (over: Partial<Asset>): Asset => ({
  id: crypto.randomUUID(),
  orderId: crypto.randomUUID(),
  type: 'PREVIEW',
  status: 'AVAILABLE',
  filename: 'x.pdf',
  size: 10,
  creator: 'A B',
  created: '2026-11-22T10:00:00.000Z',
  ...over,
});

/** A translation that shows which key it was asked for. */
const t = (key: string) => `<${key}>`;

describe('documents screen rules', () => {
  it('offers mobile repair and the TAF TSI dataset only for wagons', () => {
    expect(offeredTypes('WAGON')).toEqual([
      'PREVIEW',
      'MOBILE_REPAIR',
      'RELEASE_TO_SERVICE',
      'WHEELSET_REPAIR_SHEET',
      'WHEELSET_REPORT',
      'XML_KEEPER',
      'XML_WORKSHOP',
      'XML_TAF_TSI',
    ]);
    expect(offeredTypes('WHEELSET')).toEqual([
      'PREVIEW',
      'RELEASE_TO_SERVICE',
      'WHEELSET_REPAIR_SHEET',
      'WHEELSET_REPORT',
      'XML_KEEPER',
      'XML_WORKSHOP',
    ]);
  });

  it('lists documents only, newest first, and asks again while one is in generation', () => {
    const old = asset({ created: '2026-11-20T10:00:00.000Z' });
    const fresh = asset({ type: 'XML_KEEPER', status: 'IN_GENERATION' });
    const list = documentsOf([old, asset({ type: 'PICTURE' }), asset({ type: 'IMPORT' }), fresh]);
    expect(list).toEqual([fresh, old]);
    expect(stillGenerating(list)).toBe(true);
    expect(stillGenerating([old, asset({ status: 'FAILED' })])).toBe(false);
  });

  it('reads the route: order type in any case, sub-vehicles 1 to 8', () => {
    expect(routeOrderType('wagon')).toBe('WAGON');
    expect(routeOrderType('WHEELSET')).toBe('WHEELSET');
    expect(routeOrderType('bogie')).toBeNull();
    expect(routeSubVehicles('2')).toBe(2);
    expect(routeSubVehicles(undefined)).toBeUndefined();
    expect(routeSubVehicles('0')).toBeUndefined();
    expect(routeSubVehicles('9')).toBeUndefined();
    expect(routeSubVehicles('two')).toBeUndefined();
  });

  it('names the field and tab of a stored value that does not fit (400 with its path)', () => {
    const error = new ApiFailure(400, 'INCOMPATIBLE_TYPE', 'x', ['$.Body.Wagen.technicalWaggonOutgoing.Eigengewicht']);
    expect(failureMessage(error, 'create', 'WAGON', t)).toEqual({
      key: 'documents.error.incompatible',
      values: { field: '<catalogue.field.Eigengewicht>', tab: '<catalogue.tab.WAGON.basedata>' },
    });
  });

  it('says no rights on 403, file not found on a download 404, offline without connection, else create/fetch', () => {
    expect(failureMessage(new ApiFailure(403, 'FORBIDDEN', 'x'), 'create', 'WAGON', t).key).toBe(
      'documents.error.forbidden',
    );
    expect(failureMessage(new ApiFailure(404, 'NOT_FOUND', 'x'), 'download', 'WAGON', t).key).toBe(
      'documents.error.notFound',
    );
    expect(failureMessage(new ApiFailure(0, 'NO_CONNECTION', 'x'), 'fetch', 'WAGON', t).key).toBe('errors.offline');
    expect(failureMessage(new ApiFailure(500, 'INTERNAL', 'x'), 'create', 'WAGON', t).key).toBe(
      'documents.error.create',
    );
    expect(failureMessage(new ApiFailure(404, 'NOT_FOUND', 'x'), 'fetch', 'WAGON', t).key).toBe(
      'documents.error.fetch',
    );
    expect(failureMessage(new Error('boom'), 'fetch', 'WAGON', t).key).toBe('documents.error.fetch');
  });
});
