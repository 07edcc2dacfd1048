import { type ImportValidation, VALIDATION_POLL_MS, WHEELSETS_PER_WAGON } from '@vers/domain';
import { act, createElement, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiFailure, type call } from '../../app/api.ts';
import { useXmlImports } from './XmlImportButton.tsx';
import {
  type ImportDeps,
  type ImportState,
  MAX_IMPORT_BYTES,
  MAX_POLLS,
  POLL_RETRIES,
  importTemplate,
  messageKeysOf,
  sleep,
  stateOf,
  wheelsetNumbersOf,
} from './xml-import.ts';

// React reads this flag to allow act() outside a test renderer.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const XML = '<Wagen/>';
const file = (size = XML.length, name = 'wagon.xml') => ({
  name,
  size,
  arrayBuffer: async () => new TextEncoder().encode(XML).buffer,
});
const ID = '0b8c7a2e-6f1d-4c55-9a0e-2d9b1f3c4e5a';
const POLL = `GET assets/validation-result/${ID}/WAGON`;

type Answer = ImportValidation['validationStatus'] | ApiFailure;

/**
 * A fake server: the upload answers (or fails), then the checks answer in turn (IN_VALIDATION when none is left).
 * Calls, bodies and waits are recorded; `sleep` resolves at once unless a test puts in its own.
 */
function fake(answers: Answer[], failUpload?: ApiFailure) {
  const calls: string[] = [];
  const bodies: unknown[] = [];
  const waits: number[] = [];
  const request = (async (path: string, _schema: unknown, options?: { method?: string; body?: unknown }) => {
    calls.push(`${options?.method ?? 'GET'} ${path}`);
    if (path === 'assets') {
      bodies.push(options?.body);
      if (failUpload) throw failUpload;
      return { id: ID };
    }
    const answer = answers.shift() ?? 'IN_VALIDATION';
    if (answer instanceof ApiFailure) throw answer;
    return {
      id: ID,
      validationStatus: answer,
      messageKey: answer === 'INVALID' ? 'MISSING_MANDATORY' : null,
      message: answer === 'INVALID' ? 'Waggonnummer is missing (line 3)' : null,
      number: answer === 'VALID' ? '218124712173' : null,
      subNumbers: answer === 'VALID' ? ['318001234513', '318001234521'] : [],
    };
  }) as typeof call;
  const deps: ImportDeps = {
    request,
    sleep: async (ms) => {
      waits.push(ms);
    },
    newId: () => ID,
  };
  return { calls, bodies, waits, deps };
}

const live = () => new AbortController().signal;

afterEach(() => {
  vi.useRealTimers();
});

describe('importTemplate', () => {
  it('uploads the file once as an IMPORT asset, asks every 2 s while IN_VALIDATION, then answers VALID', async () => {
    const { calls, bodies, waits, deps } = fake(['IN_VALIDATION', 'IN_VALIDATION', 'VALID']);
    const outcome = await importTemplate(file(), 'WAGON', live(), deps);
    expect(outcome).toEqual({
      status: 'VALID',
      assetId: ID,
      number: '218124712173',
      subNumbers: ['318001234513', '318001234521'],
    });
    expect(calls).toEqual(['POST assets', POLL, POLL, POLL]);
    expect(bodies).toEqual([{ id: ID, type: 'IMPORT', filename: 'wagon.xml', base64: btoa(XML), size: XML.length }]);
    expect(waits).toEqual([VALIDATION_POLL_MS, VALIDATION_POLL_MS]);
    expect(VALIDATION_POLL_MS).toBe(2000);
  });

  it('asks for the check as the given order type', async () => {
    const { calls, deps } = fake(['VALID']);
    await importTemplate(file(), 'WHEELSET', live(), deps);
    expect(calls[1]).toBe(`GET assets/validation-result/${ID}/WHEELSET`);
  });

  it('waits 2 s of real time between two checks', async () => {
    vi.useFakeTimers();
    const { calls, deps } = fake(['IN_VALIDATION', 'VALID']);
    const outcome = importTemplate(file(), 'WAGON', live(), { ...deps, sleep });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(['POST assets', POLL]);
    await vi.advanceTimersByTimeAsync(VALIDATION_POLL_MS - 1);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(3);
    await expect(outcome).resolves.toMatchObject({ status: 'VALID' });
  });

  it("answers INVALID with the server's key and message", async () => {
    const { deps } = fake(['IN_VALIDATION', 'INVALID']);
    expect(await importTemplate(file(), 'WHEELSET', live(), deps)).toEqual({
      status: 'INVALID',
      messageKey: 'MISSING_MANDATORY',
      message: 'Waggonnummer is missing (line 3)',
    });
  });

  it('stops asking when aborted while waiting (the row or the screen went)', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const { calls, deps } = fake([]);
    const outcome = importTemplate(file(), 'WAGON', controller.signal, { ...deps, sleep });
    const settled = expect(outcome).rejects.toThrow();
    await vi.advanceTimersByTimeAsync(VALIDATION_POLL_MS * 2);
    expect(calls).toEqual(['POST assets', POLL, POLL, POLL]);
    controller.abort();
    await settled;
    await vi.advanceTimersByTimeAsync(VALIDATION_POLL_MS * 5);
    expect(calls).toHaveLength(4);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not answer VALID when aborted while the check was on its way', async () => {
    const controller = new AbortController();
    const { deps } = fake([]);
    const { request } = deps;
    deps.request = (async (...args: Parameters<typeof call>) => {
      const answer = await request(...args);
      if (args[0] !== 'assets') {
        controller.abort();
        return { ...(answer as object), validationStatus: 'VALID', number: '218124712173' };
      }
      return answer;
    }) as typeof call;
    await expect(importTemplate(file(), 'WAGON', controller.signal, deps)).rejects.toThrow();
  });

  it('refuses a file over 2 MB without sending it', async () => {
    const { calls, deps } = fake(['VALID']);
    expect(await importTemplate(file(MAX_IMPORT_BYTES + 1), 'WAGON', live(), deps)).toEqual({
      status: 'FAILED',
      reason: 'TOO_LARGE',
      code: null,
    });
    expect(calls).toEqual([]);
  });

  it('says why the upload failed: too large (413), offline, another error with its code', async () => {
    for (const [failure, reason] of [
      [new ApiFailure(413, 'PAYLOAD_TOO_LARGE', 'at most 2097152 bytes'), 'TOO_LARGE'],
      [new ApiFailure(0, 'NO_CONNECTION', 'No connection to the server'), 'OFFLINE'],
      [new ApiFailure(400, 'VALIDATION', 'not base64'), 'ERROR'],
      [new ApiFailure(500, 'INTERNAL', 'boom'), 'ERROR'],
    ] as const) {
      const { calls, deps } = fake([], failure);
      expect(await importTemplate(file(), 'WAGON', live(), deps)).toEqual({
        status: 'FAILED',
        reason,
        code: failure.code,
      });
      expect(calls).toEqual(['POST assets']);
    }
  });

  it('says "file not found" when the check does not know the file (404)', async () => {
    const { deps } = fake([new ApiFailure(404, 'NOT_FOUND', 'Import file not found')]);
    expect(await importTemplate(file(), 'WAGON', live(), deps)).toEqual({
      status: 'FAILED',
      reason: 'NOT_FOUND',
      code: 'NOT_FOUND',
    });
  });

  it('goes on asking after a few lost answers, and gives up as offline after more', async () => {
    const lost = () => new ApiFailure(0, 'NO_CONNECTION', 'No connection to the server');
    const flaky = fake([lost(), lost(), 'IN_VALIDATION', lost(), 'VALID']);
    await expect(importTemplate(file(), 'WAGON', live(), flaky.deps)).resolves.toMatchObject({ status: 'VALID' });
    expect(flaky.waits).toHaveLength(4);

    const gone = fake(Array.from({ length: POLL_RETRIES + 1 }, lost));
    await expect(importTemplate(file(), 'WAGON', live(), gone.deps)).resolves.toEqual({
      status: 'FAILED',
      reason: 'OFFLINE',
      code: 'NO_CONNECTION',
    });
    expect(gone.calls).toHaveLength(1 + POLL_RETRIES + 1);
  });

  it('gives up a check that never ends', async () => {
    const { calls, deps } = fake([]);
    await expect(importTemplate(file(), 'WAGON', live(), deps)).resolves.toEqual({
      status: 'FAILED',
      reason: 'TIMEOUT',
      code: null,
    });
    expect(calls).toHaveLength(1 + MAX_POLLS);
  });
});

describe('what the control shows', () => {
  it('names the reason with catalogue keys, the server detail beside it', () => {
    expect(stateOf({ status: 'INVALID', messageKey: 'NOT_VALID_XML', message: 'line 2' }, 'a.xml')).toEqual({
      kind: 'invalid',
      filename: 'a.xml',
      messageKeys: ['orders.import.NOT_VALID_XML'],
      detail: 'line 2',
    });
    expect(messageKeysOf({ status: 'INVALID', messageKey: null, message: null })).toEqual(['orders.import.invalid']);
    expect(messageKeysOf({ status: 'FAILED', reason: 'TOO_LARGE', code: 'PAYLOAD_TOO_LARGE' })).toEqual([
      'orders.import.TOO_LARGE',
    ]);
    expect(messageKeysOf({ status: 'FAILED', reason: 'OFFLINE', code: 'NO_CONNECTION' })).toEqual(['errors.offline']);
    expect(messageKeysOf({ status: 'FAILED', reason: 'NOT_FOUND', code: 'NOT_FOUND' })).toEqual([
      'orders.import.notFound',
    ]);
    expect(messageKeysOf({ status: 'FAILED', reason: 'ERROR', code: 'INTERNAL' })).toEqual([
      'errors.INTERNAL',
      'orders.import.failed',
    ]);
    expect(messageKeysOf({ status: 'FAILED', reason: 'ERROR', code: null })).toEqual(['orders.import.failed']);
  });

  it("keeps a wagon's wheelsets within 2 to 8 rows", () => {
    const numbers = (n: number) => Array.from({ length: n }, (_, i) => `3180012345${i}`);
    expect(wheelsetNumbersOf(numbers(1), WHEELSETS_PER_WAGON)).toEqual([numbers(1)[0], '']);
    expect(wheelsetNumbersOf(numbers(4), WHEELSETS_PER_WAGON)).toEqual(numbers(4));
    expect(wheelsetNumbersOf(numbers(10), WHEELSETS_PER_WAGON)).toEqual(numbers(8));
  });
});

describe('useXmlImports', () => {
  it('reports the spinner and the outcome, and stops asking when the screen goes', async () => {
    vi.useFakeTimers();
    const { calls, deps } = fake([]);
    const withTimer = { ...deps, sleep };
    const reports: ImportState['kind'][] = [];
    let start: ReturnType<typeof useXmlImports>['start'] | undefined;
    function Screen() {
      const imports = useXmlImports(withTimer);
      useEffect(() => {
        start = imports.start;
      });
      return null;
    }
    const root = createRoot(document.createElement('div'));
    await act(async () => root.render(createElement(Screen)));
    const picked = file();
    let done: Promise<void> | undefined;
    await act(async () => {
      done = start!('vehicle', picked, 'WAGON', (state) => reports.push(state.kind));
      await vi.advanceTimersByTimeAsync(VALIDATION_POLL_MS);
    });
    expect(reports).toEqual(['busy']);
    expect(calls).toEqual(['POST assets', POLL, POLL]);
    await act(async () => root.unmount());
    await done;
    await vi.advanceTimersByTimeAsync(VALIDATION_POLL_MS * 5);
    expect(calls).toHaveLength(3);
    expect(reports).toEqual(['busy']);
  });

  it('gives up the file still being checked when another is picked for the same slot', async () => {
    const { calls, deps } = fake(['IN_VALIDATION', 'VALID']);
    let release: () => void = () => undefined;
    const held = { ...deps, sleep: () => new Promise<void>((resolve) => (release = resolve)) };
    const reports: string[] = [];
    let start: ReturnType<typeof useXmlImports>['start'] | undefined;
    function Screen() {
      const imports = useXmlImports(held);
      useEffect(() => {
        start = imports.start;
      });
      return null;
    }
    const root = createRoot(document.createElement('div'));
    await act(async () => root.render(createElement(Screen)));
    const first = start!('row', file(XML.length, 'first.xml'), 'WHEELSET', (s) => reports.push(`first ${s.kind}`));
    // The first file is checked once and waits for the next check.
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    await start!('row', file(XML.length, 'second.xml'), 'WHEELSET', (s) => reports.push(`second ${s.kind}`));
    release();
    await first;
    expect(reports).toEqual(['first busy', 'second busy', 'second valid']);
    await act(async () => root.unmount());
  });
});
