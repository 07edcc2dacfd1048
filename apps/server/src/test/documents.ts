import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Asset, ExportType, TafValues } from '@vers/domain';
import { randomUUID } from 'node:crypto';
import { OUT, push } from './orders.ts';
import type { TestServer } from './server.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** POST export: asks for documents of an order. */
export function generate(
  server: TestServer,
  token: string,
  orderId: string,
  types: ExportType[],
  language = 'de',
  tafTsi?: TafValues,
) {
  return server.request<Asset[]>('POST', `/api/v1/export/${orderId}/${language}`, {
    token,
    body: { types, ...(tafTsi ? { tafTsi } : {}) },
  });
}

/** Asks for the order's documents every 100 ms until the named ones are no longer IN_GENERATION. */
export async function waitForDocuments(server: TestServer, token: string, orderId: string, ids: string[]) {
  for (let i = 0; i < 1800; i++) {
    const res = await server.request<Asset[]>('GET', `/api/v1/assets/order/${orderId}`, { token });
    const mine = res.body.filter((asset) => ids.includes(asset.id));
    if (mine.length === ids.length && mine.every((asset) => asset.status !== 'IN_GENERATION')) return mine;
    await sleep(100);
  }
  throw new Error('documents not generated in time');
}

export async function download(server: TestServer, token: string, id: string) {
  const response = await fetch(`${server.url}/api/v1/assets/download/${id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

/** A PDF's text as pdftotext (poppler-utils) reads it, with its layout. */
export function pdfText(bytes: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'vers-pdf-'));
  writeFileSync(path.join(dir, 'doc.pdf'), bytes);
  return execFileSync('pdftotext', ['-layout', path.join(dir, 'doc.pdf'), '-'], { encoding: 'utf8' });
}

/** What a wagon's release to service needs entered (packages/domain `releaseGaps`): ECM, level, both statements. */
export function wagonReleaseEntries(orderId: string) {
  return [
    push(orderId, `${OUT}.Labeling.ECM`, 'ECM-DE-0815', randomUUID()),
    push(orderId, `${OUT}.ExecutedMaintenanceLevel`, 'G42', randomUUID()),
    push(orderId, `${OUT}.MobileService.MaintenancePerformedCorrectly`, true, randomUUID()),
    push(orderId, `${OUT}.MobileService.ReleaseToServiceGranted`, true, randomUUID()),
  ];
}
