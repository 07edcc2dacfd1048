// Documents: the time to generate each PDF type for a fully filled wagon order (rendering only, in this process,
// median of a few runs, beside a one-page baseline PDF rendered by the same library), and PDFs per second through
// the job queue with one and with two server processes on one PostgreSQL database (each process one worker):
// "any instance can take a job" is what the second figure shows. Printed, never asserted.
import type { Section } from './figures.ts';
import { randomUUID } from 'node:crypto';
import { Document, Page, Text, renderToBuffer } from '@react-pdf/renderer';
import { createElement } from 'react';
import {
  type Asset,
  PDF_DOCUMENT_TYPES,
  type PdfDocumentType,
  attributeValue,
  formatVehicleNumber,
  valueOf,
} from '@vers/domain';
import { filledOrderValues } from '../../apps/server/src/documents/filled-order.ts';
import { renderPdf } from '../../apps/server/src/documents/pdf/render.tsx';
import type { PdfDocumentInput } from '../../apps/server/src/documents/pdf/model.ts';
import { wheelsetNumbers } from '../../apps/server/src/test/orders.ts';
import { DEMO_PASSWORD, createTestDatabase, requestAt, startServerProcess } from '../../apps/server/src/test/server.ts';

const RUNS = 3;
const THROUGHPUT_DOCUMENTS = 16;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

function input(type: PdfDocumentType, values: Record<string, unknown>): PdfDocumentInput {
  const number = String(valueOf(values['$.Body.Wagen.technicalWaggonIncoming.Waggonnummer']) ?? '218124712173');
  return {
    type,
    language: 'de',
    order: {
      id: randomUUID(),
      number: '2026-000042',
      externalOrderNumber: 'EXT-42',
      maintenanceNumber: number,
      contractor: 'DB Cargo',
      type: 'WAGON',
      status: 'IN_WORK',
      created: new Date(),
    },
    workshop: {
      name: 'Werk Nord',
      countryCode: 'DE',
      email: '',
      phone: '',
      revNr: 'DE-REV-1',
      siteId: '1',
      logoPng: null,
    },
    values,
    subVehicles: 1,
    issuedBy: { firstName: 'Anna', lastName: 'Meister' },
    generatedAt: new Date(),
  };
}

/** The library's own floor: a one-page PDF with one line of text. */
async function baselinePdfMs(): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS + 2; i++) {
    const start = performance.now();
    await renderToBuffer(createElement(Document, null, createElement(Page, null, createElement(Text, null, 'VERS'))));
    times.push(performance.now() - start);
  }
  return median(times);
}

export interface DocumentFigures {
  baselineMs: number;
  values: number;
  perType: { type: PdfDocumentType; ms: number; pages: number; kb: number }[];
  throughput: { processes: number; documents: number; seconds: number }[] | string;
}

const pageCount = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;

export async function measureDocuments(databaseServerUrl?: string): Promise<DocumentFigures> {
  const values = filledOrderValues('WAGON');
  const perType: DocumentFigures['perType'] = [];
  await renderPdf(input('PREVIEW', values)); // fonts loaded once, as in a running server
  for (const type of PDF_DOCUMENT_TYPES) {
    const times: number[] = [];
    let pdf: Buffer = Buffer.alloc(0);
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      pdf = await renderPdf(input(type, values));
      times.push(performance.now() - start);
    }
    perType.push({ type, ms: median(times), pages: pageCount(pdf), kb: pdf.length / 1024 });
  }
  let throughput: DocumentFigures['throughput'];
  try {
    throughput = await measureThroughput(values, databaseServerUrl);
  } catch (error) {
    throughput = `not measured: ${String(error)}`;
  }
  return { baselineMs: await baselinePdfMs(), values: Object.keys(values).length, perType, throughput };
}

async function measureThroughput(
  values: Record<string, unknown>,
  databaseServerUrl = 'postgres://postgres@127.0.0.1:5432/postgres',
): Promise<{ processes: number; documents: number; seconds: number }[]> {
  process.env.TEST_DATABASE_URL = databaseServerUrl;
  const database = await createTestDatabase();
  if (!database) throw new Error('no PostgreSQL server');
  const processes = [await startServerProcess({ DATABASE_URL: database.url, VERS_DEMO_PASSWORD: DEMO_PASSWORD })];
  try {
    const url = processes[0]?.url ?? '';
    const call = <T>(method: string, route: string, body?: unknown, token?: string) =>
      requestAt<T>(url, method, route, { ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) });
    const signIn = await call<{ token: string }>('POST', '/api/v1/auth/signin', {
      userName: 'staff',
      password: DEMO_PASSWORD,
    });
    const token = signIn.body.token;
    const wagonNumber = String(valueOf(values['$.Body.Wagen.technicalWaggonIncoming.Waggonnummer']));
    const created = await call<{ id: string }>(
      'POST',
      '/api/v1/orders',
      {
        id: randomUUID(),
        type: 'WAGON',
        maintenanceNumber: formatVehicleNumber(wagonNumber),
        wagon: { number: wagonNumber, wheelsetsOutgoing: wheelsetNumbers(4).map((number) => ({ number })) },
      },
      token,
    );
    if (created.status !== 200) throw new Error(`order: ${created.status} ${JSON.stringify(created.body)}`);
    const orderId = created.body.id;
    const now = new Date();
    const changes = Object.entries(values).map(([key, stored]) => ({
      id: randomUUID(),
      oI: orderId,
      k: key,
      t: 'XML_MODIFICATION',
      oV: JSON.stringify(attributeValue(valueOf(stored) as string, now)),
      c: now.toISOString(),
    }));
    for (let i = 0; i < changes.length; i += 500) {
      const res = await call('POST', '/api/v1/activity/batch', { activities: changes.slice(i, i + 500) }, token);
      if (res.status !== 200) throw new Error(`values: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    }
    const run = async () => {
      const start = performance.now();
      const ids: string[] = [];
      for (let i = 0; i < THROUGHPUT_DOCUMENTS; i++) {
        const type = PDF_DOCUMENT_TYPES[i % PDF_DOCUMENT_TYPES.length] as PdfDocumentType;
        const res = await call<Asset[]>('POST', `/api/v1/export/${orderId}/de`, { types: [type] }, token);
        if (res.status !== 200) throw new Error(`export: ${res.status} ${JSON.stringify(res.body)}`);
        ids.push(...res.body.map((asset) => asset.id));
      }
      for (;;) {
        const list = await call<Asset[]>('GET', `/api/v1/assets/order/${orderId}`, undefined, token);
        const mine = list.body.filter((asset) => ids.includes(asset.id));
        if (mine.some((asset) => asset.status === 'FAILED')) throw new Error('a document failed');
        if (mine.every((asset) => asset.status === 'AVAILABLE')) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return (performance.now() - start) / 1000;
    };
    const figures = [{ processes: 1, documents: THROUGHPUT_DOCUMENTS, seconds: await run() }];
    processes.push(await startServerProcess({ DATABASE_URL: database.url, VERS_DEMO_PASSWORD: DEMO_PASSWORD }));
    figures.push({ processes: 2, documents: THROUGHPUT_DOCUMENTS, seconds: await run() });
    return figures;
  } finally {
    for (const server of processes) server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await database.drop();
  }
}

/** Rendering times per document type (charted against each other), then the job queue's throughput. */
export function documentsSections(f: DocumentFigures): Section[] {
  const rendering: Section = {
    id: 'documents',
    title: 'PDF documents, rendering',
    chart: true,
    figures: f.perType.map((row) => ({
      name: `render ${row.type}`,
      value: row.ms,
      unit: 'ms',
      digits: 0,
      baseline: { name: 'one-line page, same library', value: f.baselineMs },
      note: `${row.pages} pages, ${row.kb.toFixed(0)} KB`,
    })),
    notes: [`a fully filled wagon order (${f.values} values, 4 wheelsets), median of ${RUNS}`],
  };
  const queue: Section = {
    id: 'documents-queue',
    title: 'PDF documents through the job queue',
    figures: [],
    notes: [],
  };
  if (typeof f.throughput === 'string') {
    queue.notes.push(`not measured: ${f.throughput}`);
  } else {
    const [one] = f.throughput;
    for (const row of f.throughput) {
      queue.figures.push({
        name: `${row.processes} server process(es) on one PostgreSQL`,
        value: row.documents / row.seconds,
        unit: 'PDFs/s',
        digits: 2,
        higherIsBetter: true,
        ...(one && row !== one ? { baseline: { name: 'one process', value: one.documents / one.seconds } } : {}),
        note: `${row.documents} PDFs in ${row.seconds.toFixed(1)} s`,
      });
    }
  }
  return [rendering, queue];
}
