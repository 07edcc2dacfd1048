import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deflateSync } from 'node:zlib';
import {
  type Language,
  type OrderType,
  PDF_DOCUMENT_TYPES,
  type PdfDocumentType,
  attributeValue,
  formatVehicleNumber,
  resolveKey,
  valueOf,
} from '@vers/domain';
import { describe, expect, it } from 'vitest';
import { FILLED_WAGON_NUMBER, FILLED_WHEELSET_NUMBER, filledOrderValues } from '../filled-order.ts';
import { texts } from './labels.ts';
import type { PdfDocumentInput } from './model.ts';
import { renderPdf } from './render.tsx';

const run = promisify(execFile);

/** The text (`pdftotext -layout`) and page count (`pdfinfo`) of a PDF, read by poppler as a viewer would. */
async function readPdf(pdf: Buffer): Promise<{ text: string; pages: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'vers-pdf-'));
  try {
    const file = join(dir, 'document.pdf');
    await writeFile(file, pdf);
    const { stdout: text } = await run('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-']);
    const { stdout: info } = await run('pdfinfo', [file]);
    return { text, pages: Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? 0) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A small PNG logo (a blue bar), made here so that the test needs no file. */
function logoPng(width = 120, height = 40): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, Buffer.from([0x00, 0x50, 0x87]))]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const ORDER_NUMBER = 'A-2026-0042';
const NOW = new Date('2026-11-22T10:00:00Z');
const VALUES = { WAGON: filledOrderValues('WAGON', NOW), WHEELSET: filledOrderValues('WHEELSET', NOW) };
const LOGO = logoPng();

function input(type: OrderType, document: PdfDocumentType, language: Language, subVehicles = 1): PdfDocumentInput {
  return {
    type: document,
    language,
    order: {
      id: '6f1f7a8e-2d7c-4a52-9a53-0c2f3b1f0a11',
      number: ORDER_NUMBER,
      externalOrderNumber: 'EXT-7781',
      maintenanceNumber: type === 'WAGON' ? FILLED_WAGON_NUMBER : FILLED_WHEELSET_NUMBER,
      contractor: 'GATX Rail Austria GmbH',
      type,
      status: 'IN_WORK',
      created: new Date('2026-11-02T07:00:00Z'),
    },
    workshop: {
      name: 'Waggonwerkstatt Ruse',
      countryCode: 'BG',
      email: 'werkstatt@example.org',
      phone: '+359 82 000 000',
      revNr: 'REV-BG-0042',
      siteId: 'RS-01',
      logoPng: LOGO,
    },
    values: VALUES[type],
    subVehicles,
    issuedBy: { firstName: 'Žofie', lastName: 'Şahin-Łęcka' },
    generatedAt: NOW,
  };
}

/** A value the document shows with its unit (outgoing value, then the unit column or a heading's unit). */
function valueWithUnit(type: OrderType, document: PdfDocumentType, language: Language): RegExp {
  const x = texts(language);
  if (document === 'RELEASE_TO_SERVICE') return new RegExp(`\\b6 ${x.unit('years')}`); // the revision cycle
  if (document === 'WHEELSET_REPORT') return /912 → 905[\s\S]*\(mm\)|\(mm\)[\s\S]*912 → 905/; // D of wheel L
  if (type === 'WAGON' && document !== 'WHEELSET_REPAIR_SHEET') return /\b23420\s+kg\b/; // Eigengewicht
  return /\b905\s+mm\b/; // the left wheel's tread diameter, outgoing
}

/** A label from the language's catalogue that the document prints on one line. */
function catalogueLabel(type: OrderType, document: PdfDocumentType, language: Language): string {
  const x = texts(language);
  switch (document) {
    case 'PREVIEW':
    case 'MOBILE_REPAIR':
      return x.catalogue(type === 'WAGON' ? 'field.Eigengewicht' : 'field.Wheelsetnumber');
    case 'RELEASE_TO_SERVICE':
      return x.catalogue(`tab.${type}.basedata`);
    case 'WHEELSET_REPAIR_SHEET':
      return x.catalogue('field.Wheelsetnumber');
    case 'WHEELSET_REPORT':
      return x.catalogue('field.Qr');
  }
}

/** Page counts a tidy document of the filled orders has. */
const PAGES: Record<OrderType, Partial<Record<PdfDocumentType, [number, number]>>> = {
  WAGON: {
    PREVIEW: [15, 60],
    MOBILE_REPAIR: [3, 15],
    RELEASE_TO_SERVICE: [1, 4],
    WHEELSET_REPAIR_SHEET: [4, 24],
    WHEELSET_REPORT: [1, 1],
  },
  WHEELSET: { PREVIEW: [3, 10], RELEASE_TO_SERVICE: [1, 3], WHEELSET_REPAIR_SHEET: [3, 10], WHEELSET_REPORT: [1, 1] },
};

const count = (text: string, part: string) => text.split(part).length - 1;

describe('renderPdf', () => {
  const cases = (['de', 'bg'] as const).flatMap((language) =>
    (['WAGON', 'WHEELSET'] as const).flatMap((type) =>
      PDF_DOCUMENT_TYPES.filter((document) => type === 'WAGON' || document !== 'MOBILE_REPAIR').map(
        (document) => [language, type, document] as const,
      ),
    ),
  );

  it.each(cases)('renders the %s %s %s of a filled order', async (language, type, document) => {
    const pdf = await renderPdf(input(type, document, language, 2));
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { text, pages } = await readPdf(pdf);
    const x = texts(language);
    expect(text).toContain(ORDER_NUMBER);
    expect(text).toContain(formatVehicleNumber(type === 'WAGON' ? FILLED_WAGON_NUMBER : FILLED_WHEELSET_NUMBER));
    expect(text).toContain(x.t(`title.${document}`));
    expect(text).toMatch(valueWithUnit(type, document, language));
    expect(text).toContain(catalogueLabel(type, document, language));
    expect(text).toContain(x.t('footer.page', { page: pages, pages }));
    const [least, most] = PAGES[type][document]!;
    expect(pages).toBeGreaterThanOrEqual(least);
    expect(pages).toBeLessThanOrEqual(most);
    if (type === 'WAGON' && document === 'RELEASE_TO_SERVICE') {
      // One section per sub-vehicle, each with its wheelsets and its own signature place.
      expect(count(text, x.t('release.subVehicle', { k: 1, n: 2 }))).toBe(1);
      expect(count(text, x.t('release.subVehicle', { k: 2, n: 2 }))).toBe(1);
      expect(count(text, x.t('release.authorisedSignature'))).toBe(2);
      // Every letter of a bold caption, also after other documents (fontkit's glyph cache, see forgetGlyphs).
      expect(text).toContain(x.t('release.exchanged'));
      expect(text).toContain(formatVehicleNumber(FILLED_WAGON_NUMBER));
      // The authorised person the order names, not the user who generated the document.
      expect(text).toContain('Jana Nováková');
      expect(text).not.toContain('Žofie Şahin-Łęcka');
    }
  });

  it("prints an option field's value as its value list names it in the document's language", async () => {
    const base = input('WAGON', 'PREVIEW', 'de');
    // The first option field with a value list that the filled order holds.
    const [key, field] =
      Object.keys(base.values)
        .map((candidate) => [candidate, resolveKey('WAGON', candidate)?.field] as const)
        .find(([, candidate]) => candidate?.kind === 'option' && candidate.list !== undefined) ?? [];
    expect(field?.list).toBeDefined();
    const code = String(valueOf(base.values[key!]));
    const named = 'Zweiachsiger Kesselwagen Ölsorte Ä';
    const { text } = await readPdf(await renderPdf({ ...base, optionTexts: { [field!.list!]: { [code]: named } } }));
    expect(text.replace(/\s+/g, ' ')).toContain(named);
  });

  it('has no sub-vehicle sections for a wagon of one unit', async () => {
    const { text } = await readPdf(await renderPdf(input('WAGON', 'RELEASE_TO_SERVICE', 'de', 1)));
    const x = texts('de');
    expect(text).not.toContain(x.t('release.subVehicle', { k: 1, n: 1 }));
    expect(count(text, x.t('release.authorisedSignature'))).toBe(1);
    expect(text).toContain(x.t('release.performedCorrectly'));
  });

  it('renders documents asked for at the same time one after the other, each with every letter', async () => {
    const asked = [
      input('WAGON', 'RELEASE_TO_SERVICE', 'de', 2),
      input('WHEELSET', 'WHEELSET_REPORT', 'bg'),
      input('WAGON', 'RELEASE_TO_SERVICE', 'bg', 2),
    ];
    const read = await Promise.all(asked.map(async (one) => readPdf(await renderPdf(one))));
    for (const [index, { text }] of read.entries()) {
      const x = texts(asked[index]!.language);
      expect(text).toContain(x.t(`title.${asked[index]!.type}`));
      if (asked[index]!.type === 'RELEASE_TO_SERVICE') expect(text).toContain(x.t('release.exchanged'));
    }
  });

  it('wraps a remark longer than a page over pages, and renders an order with almost no values', async () => {
    const root = '$.Body.Wagen.technicalWaggonOutgoing';
    const remark = `${'Befund am Untergestell, Schweißnaht nachgearbeitet. '.repeat(75)}ENDMARK`;
    expect(remark.length).toBeLessThanOrEqual(4000);
    const values = {
      [`${root}.Waggonnummer`]: attributeValue(FILLED_WAGON_NUMBER, NOW),
      [`${root}.Bemerkung`]: attributeValue(remark, NOW),
      [`${root}.MobileService.DeferredWork`]: attributeValue(remark, NOW),
    };
    for (const document of ['PREVIEW', 'RELEASE_TO_SERVICE'] as const) {
      const { text, pages } = await readPdf(await renderPdf({ ...input('WAGON', document, 'de'), values }));
      expect(text, document).toContain('ENDMARK');
      expect(pages, document).toBeGreaterThanOrEqual(2);
    }
    for (const document of ['WHEELSET_REPAIR_SHEET', 'WHEELSET_REPORT'] as const) {
      const { text } = await readPdf(await renderPdf({ ...input('WAGON', document, 'de'), values: {} }));
      expect(text).toContain(texts('de').t('release.noWheelsets'));
    }
  });

  it.each(['cs', 'pl', 'tr', 'hu', 'ro'] as const)('prints the diacritics of the %s catalogue', async (language) => {
    const { text } = await readPdf(await renderPdf(input('WHEELSET', 'PREVIEW', language)));
    const x = texts(language);
    const labels = ['Wheelsetnumber', 'OwnerMark', 'DismountDate', 'MountDate', 'RemovalReason', 'MaintenanceLevel']
      .map((field) => x.catalogue(`field.${field}`))
      .filter((label) => /[^\x20-\x7e]/.test(label));
    expect(labels.length).toBeGreaterThan(0);
    for (const label of labels) expect(text).toContain(label);
  });
});

describe('calculated values', () => {
  it('prints SR in the wheelset report from its inputs when the order holds no stored SR (an import, an API client)', async () => {
    for (const type of ['WHEELSET', 'WAGON'] as const) {
      const withoutSr = Object.fromEntries(Object.entries(VALUES[type]).filter(([key]) => !key.endsWith('.SrMass')));
      const stored = Object.entries(VALUES[type]).filter(([key]) => key.endsWith('.SrMass'));
      expect(stored.length).toBeGreaterThan(0);
      const withStored = await readPdf(await renderPdf(input(type, 'WHEELSET_REPORT', 'de')));
      const computed = await readPdf(await renderPdf({ ...input(type, 'WHEELSET_REPORT', 'de'), values: withoutSr }));
      // The stored SR values print (German decimal comma), and the same figures come from the inputs alone.
      const srFigures = (text: string) => [...text.matchAll(/\b1\d{3},\d{3}\b/g)].map((m) => m[0]);
      expect(srFigures(withStored.text).length).toBeGreaterThan(0);
      expect(srFigures(computed.text)).toEqual(srFigures(withStored.text));
    }
  });
});
