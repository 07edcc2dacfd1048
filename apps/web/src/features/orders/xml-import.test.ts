import { type ImportValidation, VALIDATION_POLL_MS } from '@vers/domain';
import { describe, expect, it } from 'vitest';
import { ApiFailure, type call } from '../../app/api.ts';
import { type ImportDeps, importTemplate } from './xml-import.ts';

const file = { name: 'wagon.xml', size: 5, arrayBuffer: async () => new TextEncoder().encode('<a/>').buffer };
const ID = '0b8c7a2e-6f1d-4c55-9a0e-2d9b1f3c4e5a';

/** A fake server: the upload answers, then the validation states in turn; calls and waits are recorded. */
function fake(states: ImportValidation['validationStatus'][], failUpload?: ApiFailure) {
  const calls: string[] = [];
  const waits: number[] = [];
  const request = (async (path: string, _schema: unknown, options?: { method?: string; body?: unknown }) => {
    calls.push(`${options?.method ?? 'GET'} ${path}`);
    if (path === 'assets') {
      if (failUpload) throw failUpload;
      return { id: ID };
    }
    const status = states.shift() ?? 'IN_VALIDATION';
    return {
      id: ID,
      validationStatus: status,
      messageKey: status === 'INVALID' ? 'MISSING_MANDATORY' : null,
      message: status === 'INVALID' ? 'Waggonnummer is missing' : null,
      number: status === 'VALID' ? '218124712173' : null,
      subNumbers: status === 'VALID' ? ['318001234513'] : [],
    };
  }) as typeof call;
  const deps: ImportDeps = {
    request,
    sleep: async (ms) => {
      waits.push(ms);
    },
    newId: () => ID,
  };
  return { calls, waits, deps };
}

describe('importTemplate', () => {
  it('uploads once and asks every 2 s while IN_VALIDATION, then answers VALID with the numbers', async () => {
    const { calls, waits, deps } = fake(['IN_VALIDATION', 'IN_VALIDATION', 'VALID']);
    const outcome = await importTemplate(file, 'WAGON', new AbortController().signal, deps);
    expect(outcome).toEqual({ status: 'VALID', assetId: ID, number: '218124712173', subNumbers: ['318001234513'] });
    expect(calls).toEqual([
      'POST assets',
      `GET assets/validation-result/${ID}/WAGON`,
      `GET assets/validation-result/${ID}/WAGON`,
      `GET assets/validation-result/${ID}/WAGON`,
    ]);
    expect(waits).toEqual([VALIDATION_POLL_MS, VALIDATION_POLL_MS]);
  });

  it("answers INVALID with the server's key and message", async () => {
    const { deps } = fake(['INVALID']);
    expect(await importTemplate(file, 'WHEELSET', new AbortController().signal, deps)).toEqual({
      status: 'INVALID',
      messageKey: 'MISSING_MANDATORY',
      message: 'Waggonnummer is missing',
    });
  });

  it('says what failed: too large (413), offline, other', async () => {
    for (const [failure, errorKey] of [
      [new ApiFailure(413, 'PAYLOAD_TOO_LARGE', 'x'), 'orders.import.TOO_LARGE'],
      [new ApiFailure(0, 'NO_CONNECTION', 'x'), 'errors.offline'],
      [new ApiFailure(400, 'VALIDATION', 'x'), 'orders.import.failed'],
    ] as const) {
      const { deps } = fake([], failure);
      expect(await importTemplate(file, 'WAGON', new AbortController().signal, deps)).toEqual({
        status: 'FAILED',
        errorKey,
      });
    }
  });

  it('stops asking when the row is gone (aborted)', async () => {
    const controller = new AbortController();
    const { calls, deps } = fake(['IN_VALIDATION', 'IN_VALIDATION', 'IN_VALIDATION']);
    deps.sleep = async () => controller.abort();
    await expect(importTemplate(file, 'WAGON', controller.signal, deps)).rejects.toThrow();
    expect(calls).toHaveLength(2);
  });
});
