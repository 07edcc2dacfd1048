import {
  DEFAULT_MAX_PICTURE_BYTES,
  assetSchema,
  assetThumbnailSchema,
  assetWithDataSchema,
  pngProblem,
} from '@vers/domain';
import { count, eq } from 'drizzle-orm';
import jpeg from 'jpeg-js';
import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../app.ts';
import { readConfig } from '../config.ts';
import { assetContents, assetThumbnails, assets } from '../db/schema.ts';
import { createWagonOrder } from '../test/orders.ts';
import { type TestServer, startTestServer } from '../test/server.ts';

let server: TestServer;
let staff: string;
let staff2: string;
let werkadmin: string;
let wagonqa: string;
let orderId: string;
let southOrderId: string;

beforeAll(async () => {
  server = await startTestServer();
  [staff, staff2, werkadmin, wagonqa] = await server.signInAll(['staff', 'staff2', 'werkadmin', 'wagonqa']);
  orderId = (await createWagonOrder(server, staff)).id;
  southOrderId = (await createWagonOrder(server, staff2)).id;
});
afterAll(async () => {
  await server?.close();
});

// --- PNG files made here: chunks with their CRCs, image data deflated from raw scanlines. ---

function chunk(type: string, data: Uint8Array): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** An 8-bit RGB PNG of `width` x `height` pixels; `padding` bytes of a private ancillary chunk make it bigger. */
function makePng(width = 3, height = 2, padding?: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type RGB, deflate, filter 0, no interlace
  const scanlines = Buffer.concat(
    Array.from({ length: height }, (_, y) =>
      Buffer.from([0, ...Array.from({ length: width * 3 }, (_, i) => (i * 40 + y * 90) % 256)]),
    ),
  );
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(scanlines)),
    ...(padding === undefined ? [] : [chunk('vpAd', Buffer.alloc(padding, 0x55))]),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A complete PNG of exactly `size` bytes. */
function pngOfSize(size: number): Buffer {
  const png = makePng(1, 1, 0);
  const result = makePng(1, 1, size - png.length);
  expect(result.length).toBe(size);
  return result;
}

const PNG = makePng();

// --- Helpers ---

interface ErrorBody {
  code: string;
  message: string;
  fields?: string[];
}

const picture = (bytes: Uint8Array, overrides: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  type: 'PICTURE',
  filename: 'radsatz-1.png',
  base64: Buffer.from(bytes).toString('base64'),
  size: bytes.length,
  orderId,
  creator: 'Tablet 3',
  ...overrides,
});

const upload = (body: unknown, token = staff) => server.request('POST', '/api/v1/assets', { token, body });

/**
 * The same upload as multipart/form-data (POST assets/upload): the text fields as they are, the file and the
 * thumbnail as bytes, decoded from the JSON body's base64.
 */
function form(body: Record<string, unknown>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(body)) {
    if (value !== undefined && key !== 'base64' && key !== 'thumbnail') data.append(key, String(value));
  }
  const bytes = (text: unknown) => Buffer.from(String(text), 'base64');
  data.append('file', new Blob([bytes(body.base64)], { type: 'image/png' }), String(body.filename));
  if (body.thumbnail !== undefined) data.append('thumbnail', new Blob([bytes(body.thumbnail)]), 'thumbnail');
  return data;
}

const uploadForm = (body: Record<string, unknown>, token = staff) =>
  server.request('POST', '/api/v1/assets/upload', { token, form: form(body) });

/** A JPEG of `width` x `height` pixels of one colour. */
const smallJpeg = (width: number, height: number) =>
  jpeg.encode({ width, height, data: Buffer.alloc(width * height * 4, 0x80) }, 80).data;

const listOf = async (id = orderId, token = staff, query = '') => {
  const res = await server.request('GET', `/api/v1/assets/order/${id}${query}`, { token });
  expect(res.status).toBe(200);
  return z.array(assetSchema).parse(res.body);
};

/** How many asset rows and contents the database holds. */
async function stored() {
  const db = server.database.db;
  const [rows] = await db.select({ n: count() }).from(assets);
  const [contents] = await db.select({ n: count() }).from(assetContents);
  return { rows: rows?.n, contents: contents?.n };
}

async function download(id: string, token = staff) {
  const response = await fetch(`${server.url}/api/v1/assets/download/${id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('the PNG files of these tests', () => {
  it('are complete PNGs by the shared rule', () => {
    expect(pngProblem(PNG)).toBeNull();
    expect(pngProblem(pngOfSize(4096))).toBeNull();
  });
});

describe('a picture of an order', () => {
  it('is uploaded, listed, read, downloaded and deleted', async () => {
    const body = picture(PNG, { created: '2026-03-04T05:06:07.000+01:00' });
    const res = await upload(body);
    expect(res.status).toBe(200);
    const asset = assetSchema.parse(res.body);
    expect(asset).toEqual({
      id: body.id,
      orderId,
      type: 'PICTURE',
      status: 'AVAILABLE',
      filename: 'radsatz-1.png',
      size: PNG.length,
      creator: 'Stefan Schlosser',
      created: '2026-03-04T04:06:07.000Z',
    });

    expect(await listOf()).toContainEqual(asset);
    expect(await listOf(orderId, staff, '?type=PICTURE&status=AVAILABLE')).toContainEqual(asset);
    expect(await listOf(orderId, staff, '?type=IMPORT')).toEqual([]);
    expect(await listOf(orderId, staff, '?status=IN_GENERATION')).toEqual([]);
    // Every order role of the workshop sees it.
    expect(await listOf(orderId, wagonqa)).toContainEqual(asset);

    const read = await server.request('GET', `/api/v1/assets/${asset.id}`, { token: werkadmin });
    expect(read.status).toBe(200);
    expect(assetWithDataSchema.parse(read.body)).toEqual({ ...asset, base64: body.base64 });

    const { response, bytes } = await download(asset.id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="radsatz-1.png"; filename*=UTF-8''radsatz-1.png`,
    );
    expect(bytes.equals(PNG)).toBe(true);

    const before = await stored();
    const deleted = await server.request('DELETE', `/api/v1/assets/${asset.id}`, { token: staff });
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBe('');
    expect(await stored()).toEqual({ rows: before.rows! - 1, contents: before.contents! - 1 });
    for (const path of [`/api/v1/assets/${asset.id}`, `/api/v1/assets/download/${asset.id}`]) {
      // Deleted on purpose, not lost: a device drops its copy instead of uploading it again.
      expect(await server.request('GET', path, { token: staff })).toMatchObject({
        status: 404,
        body: { code: 'DELETED', message: 'File was deleted' },
      });
    }
    expect(await server.request('DELETE', `/api/v1/assets/${asset.id}`, { token: staff })).toMatchObject({
      status: 404,
      body: { code: 'DELETED' },
    });
    expect((await listOf()).map((a) => a.id)).not.toContain(asset.id);
  });

  it('records the upload time as created when none is given, and lists the newest first', async () => {
    const since = Date.now();
    const now = assetSchema.parse((await upload(picture(PNG, { creator: undefined }))).body);
    expect(Date.parse(now.created)).toBeGreaterThanOrEqual(since - 1000);
    const old = assetSchema.parse((await upload(picture(PNG, { created: '2020-01-01T00:00:00Z' }))).body);
    const older = assetSchema.parse((await upload(picture(PNG, { created: '2019-01-01T00:00:00Z' }))).body);
    const ids = (await listOf()).map((a) => a.id);
    expect(ids.indexOf(now.id)).toBeLessThan(ids.indexOf(old.id));
    expect(ids.indexOf(old.id)).toBeLessThan(ids.indexOf(older.id));
  });

  it('keeps a name with quotes and letters beyond ASCII in the download', async () => {
    const asset = assetSchema.parse((await upload(picture(PNG, { filename: 'Rad "links" Größe.png' }))).body);
    const { response } = await download(asset.id);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Rad _links_ Gr__e.png"; filename*=UTF-8''Rad%20%22links%22%20Gr%C3%B6%C3%9Fe.png`,
    );
  });

  it('GET assets?ids= answers those of the own workshop, in the order asked, unknown ones left out', async () => {
    const a = assetSchema.parse((await upload(picture(PNG))).body);
    const b = assetSchema.parse((await upload(picture(PNG))).body);
    const south = assetSchema.parse((await upload(picture(PNG, { orderId: southOrderId }), staff2)).body);
    const ids = [b.id, randomUUID(), a.id, south.id].join(',');
    for (const path of [`/api/v1/assets?ids=${ids}`, `/api/v1/assets/?ids=${ids}`]) {
      const res = await server.request('GET', path, { token: staff });
      expect(res.status).toBe(200);
      expect(z.array(assetSchema).parse(res.body)).toEqual([b, a]);
    }
    expect((await server.request('GET', `/api/v1/assets?ids=${ids}`, { token: staff2 })).body).toEqual([south]);
    expect((await server.request('GET', '/api/v1/assets?ids=', { token: staff })).body).toEqual([]);
    expect(await server.request('GET', `/api/v1/assets?ids=${a.id},not-an-id`, { token: staff })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION' },
    });
  });

  it('answers a retried upload with the stored asset, storing nothing twice', async () => {
    const body = picture(PNG, { created: '2026-05-01T10:00:00Z' });
    const first = await upload(body);
    const before = await stored();
    const again = await upload(body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    // A retry without `created` still answers what was stored first.
    expect((await upload({ ...body, created: undefined })).body).toEqual(first.body);
    expect(await stored()).toEqual(before);
  });

  it('refuses other content under a used id with 409 and keeps the stored one', async () => {
    const body = picture(PNG);
    expect((await upload(body)).status).toBe(200);
    const before = await stored();
    const other = makePng(4, 4);
    const variants = [
      picture(other, { id: body.id }),
      { ...body, filename: 'other.png' },
      { ...body, orderId: (await createWagonOrder(server, staff)).id },
    ];
    for (const variant of variants) {
      expect(await upload(variant)).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    }
    // Another workshop cannot take over or even confirm the id.
    expect(await upload({ ...body, orderId: southOrderId }, staff2)).toMatchObject({
      status: 409,
      body: { code: 'CONFLICT' },
    });
    expect(await stored()).toEqual(before);
    const read = await server.request<{ base64: string }>('GET', `/api/v1/assets/${body.id}`, { token: staff });
    expect(read.body.base64).toBe(body.base64);
  });
});

describe('refused uploads', () => {
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const cases: [string, () => unknown, number, string, RegExp | string[]][] = [
    ['a JPEG named .png', () => picture(jpeg, { filename: 'photo.png' }), 400, 'NOT_PNG', /not a PNG/],
    ['a PNG cut in the middle', () => picture(PNG.subarray(0, PNG.length >> 1)), 400, 'NOT_PNG', /truncated PNG/],
    ['a PNG without its last byte', () => picture(PNG.subarray(0, PNG.length - 1)), 400, 'NOT_PNG', /truncated PNG/],
    ['a PNG with bytes after its end', () => picture(Buffer.concat([PNG, PNG])), 400, 'NOT_PNG', /not a PNG/],
    ['an empty file', () => picture(Buffer.alloc(0)), 400, 'NOT_PNG', /empty file/],
    ['a size other than the content', () => picture(PNG, { size: PNG.length + 1 }), 400, 'VALIDATION', ['body.size']],
    ['content that is not base64', () => picture(PNG, { base64: 'iVBOR!w0K' }), 400, 'VALIDATION', ['body.base64']],
    [
      'base64 with a data-URL prefix',
      () => picture(PNG, { base64: `data:image/png;base64,${PNG.toString('base64')}` }),
      400,
      'VALIDATION',
      ['body.base64'],
    ],
    ['a picture without an order', () => picture(PNG, { orderId: undefined }), 400, 'VALIDATION', ['body.orderId']],
    ['a picture of an unknown order', () => picture(PNG, { orderId: randomUUID() }), 404, 'NOT_FOUND', /Order/],
    ["a picture of another workshop's order", () => picture(PNG, { orderId: southOrderId }), 404, 'NOT_FOUND', /Order/],
    ['a negative size', () => picture(PNG, { size: -1 }), 400, 'VALIDATION', ['body.size']],
    ['an unknown type', () => picture(PNG, { type: 'REPORT' }), 400, 'VALIDATION', ['body.type']],
    [
      'a generated document type, which is made by POST export',
      () => picture(Buffer.from('%PDF-1.7'), { type: 'RELEASE_TO_SERVICE' }),
      400,
      'VALIDATION',
      ['body.type'],
    ],
  ];

  it.each(cases)('refuses %s, storing nothing', async (_name, body, status, code, detail) => {
    const before = await stored();
    const listed = await listOf();
    const res = await upload(body());
    expect(res.status).toBe(status);
    const error = res.body as ErrorBody;
    expect(error.code).toBe(code);
    if (detail instanceof RegExp) expect(error.message).toMatch(detail);
    else expect(error.fields).toEqual(detail);
    expect(await stored()).toEqual(before);
    expect(await listOf()).toEqual(listed);
  });

  // The base64 text is the JSON form's own: a form carries the bytes.
  const formCases = cases.filter(([name]) => !name.includes('base64'));
  it.each(formCases)('refuses %s as a form too (POST assets/upload), storing nothing', async (_n, body, s, code, d) => {
    const before = await stored();
    const res = await uploadForm(body() as Record<string, unknown>);
    expect(res.status).toBe(s);
    const error = res.body as ErrorBody;
    expect(error.code).toBe(code);
    if (d instanceof RegExp) expect(error.message).toMatch(d);
    else expect(error.fields).toEqual(d);
    expect(await stored()).toEqual(before);
  });

  it('takes a picture of the largest size and refuses one byte more with 413', async () => {
    const largest = picture(pngOfSize(DEFAULT_MAX_PICTURE_BYTES));
    const res = await upload(largest);
    expect(res.status).toBe(200);
    const before = await stored();
    const tooLarge = await upload(picture(pngOfSize(DEFAULT_MAX_PICTURE_BYTES + 1)));
    expect(tooLarge).toMatchObject({
      status: 413,
      body: { code: 'PAYLOAD_TOO_LARGE', message: `A picture may have at most ${DEFAULT_MAX_PICTURE_BYTES} bytes` },
    });
    expect(await stored()).toEqual(before);
    expect((await server.request('DELETE', `/api/v1/assets/${largest.id}`, { token: staff })).status).toBe(204);
  });
});

describe('the upload as multipart/form-data (POST assets/upload)', () => {
  it('answers a form it cannot read with 400 and stores nothing (fuzzing found a 500)', async () => {
    const before = await stored();
    for (const rawBody of ['[[[[[[]]]]]]', '--x\r\nContent-Disposition: form-data; name="type"\r\n\r\nPIC', '--x--']) {
      const res = await server.request('POST', '/api/v1/assets/upload', {
        token: staff,
        rawBody,
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: expect.stringMatching(/^(BAD_REQUEST|VALIDATION)$/) as string });
    }
    expect(await stored()).toEqual(before);
  });

  it('stores a picture as POST assets does: read back byte for byte, listed, its thumbnail kept as sent', async () => {
    const png = makePng(64, 32);
    const thumbnail = smallJpeg(32, 16);
    const body = picture(png, { created: '2026-03-04T05:06:07.000+01:00', thumbnail: thumbnail.toString('base64') });
    const res = await uploadForm(body);
    expect(res.status).toBe(200);
    expect(assetSchema.parse(res.body)).toEqual({
      id: body.id,
      orderId,
      type: 'PICTURE',
      status: 'AVAILABLE',
      filename: 'radsatz-1.png',
      size: png.length,
      creator: expect.any(String) as string,
      created: '2026-03-04T04:06:07.000Z',
    });
    expect((await listOf()).map((asset) => asset.id)).toContain(body.id);
    const read = await server.request('GET', `/api/v1/assets/${body.id}`, { token: staff });
    expect(assetWithDataSchema.parse(read.body).base64).toBe(body.base64);
    expect((await download(body.id)).bytes.equals(png)).toBe(true);
    const thumb = await server.request('GET', `/api/v1/assets/thumbnail/${body.id}`, { token: staff });
    expect(thumb.body).toEqual({ id: body.id, mime: 'image/jpeg', base64: thumbnail.toString('base64') });
  });

  it('is the same upload as POST assets: a retry in either form answers the stored asset, other content 409', async () => {
    const body = picture(PNG);
    const first = await upload(body);
    expect(first.status).toBe(200);
    const before = await stored();
    expect(await uploadForm(body)).toMatchObject({ status: 200, body: first.body });
    const byForm = picture(makePng(5, 5));
    const second = await uploadForm(byForm);
    expect(second.status).toBe(200);
    expect(await upload(byForm)).toMatchObject({ status: 200, body: second.body });
    expect(await stored()).toEqual({ rows: before.rows! + 1, contents: before.contents! + 1 });
    expect(await uploadForm(picture(makePng(4, 4), { id: body.id }))).toMatchObject({
      status: 409,
      body: { code: 'CONFLICT' },
    });
    expect(await stored()).toEqual({ rows: before.rows! + 1, contents: before.contents! + 1 });
  });

  it('takes a picture of the largest size and refuses larger ones with 413, storing nothing', async () => {
    const largest = picture(pngOfSize(DEFAULT_MAX_PICTURE_BYTES));
    expect((await uploadForm(largest)).status).toBe(200);
    const before = await stored();
    expect(await uploadForm(picture(pngOfSize(DEFAULT_MAX_PICTURE_BYTES + 1)))).toMatchObject({
      status: 413,
      body: { code: 'PAYLOAD_TOO_LARGE', message: `A picture may have at most ${DEFAULT_MAX_PICTURE_BYTES} bytes` },
    });
    // Far beyond: the reading stops at the limit.
    expect(await uploadForm(picture(pngOfSize(DEFAULT_MAX_PICTURE_BYTES + 4096)))).toMatchObject({
      status: 413,
      body: { code: 'PAYLOAD_TOO_LARGE' },
    });
    expect(await stored()).toEqual(before);
    expect((await server.request('DELETE', `/api/v1/assets/${largest.id}`, { token: staff })).status).toBe(204);
  });

  it('refuses a bad thumbnail, a missing file, an unknown part and a JSON body with 400, storing nothing', async () => {
    const before = await stored();
    for (const thumbnail of [
      Buffer.from('GIF89a, not a thumbnail'),
      smallJpeg(32, 16).subarray(0, 200), // cut: no end marker
      smallJpeg(600, 20), // wider than 512 px
      makePng(1, 1, 100 * 1024), // more than 96 KB
    ]) {
      const res = await uploadForm(picture(PNG, { thumbnail: thumbnail.toString('base64') }));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION', fields: ['body.thumbnail'] });
    }
    const withoutFile = form(picture(PNG));
    withoutFile.delete('file');
    expect(await server.request('POST', '/api/v1/assets/upload', { token: staff, form: withoutFile })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION', fields: ['body.file'] },
    });
    const extra = form(picture(PNG));
    extra.append('other', new Blob([PNG]), 'other.png');
    expect(await server.request('POST', '/api/v1/assets/upload', { token: staff, form: extra })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION', fields: ['body.other'] },
    });
    const json = await server.request('POST', '/api/v1/assets/upload', { token: staff, body: picture(PNG) });
    expect(json.status).toBe(415);
    expect(await stored()).toEqual(before);
  });

  it('answers 401 without a token and 403 to roles without order work, storing nothing', async () => {
    const before = await stored();
    expect(await uploadForm(picture(PNG), '')).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
    for (const user of ['holder', 'versadmin', 'qa']) {
      expect((await uploadForm(picture(PNG), await server.signIn(user))).status).toBe(403);
    }
    expect(await stored()).toEqual(before);
  });

  it('is in the OpenAPI document as multipart/form-data with the file as binary', async () => {
    const res = await server.request<{ paths: Record<string, { post?: { requestBody?: unknown } }> }>(
      'GET',
      '/api/docs/json',
    );
    expect(res.body.paths['/api/v1/assets/upload']?.post?.requestBody).toMatchObject({
      content: {
        'multipart/form-data': {
          schema: { properties: { file: { type: 'string', format: 'binary' }, size: {}, orderId: {} } },
        },
      },
    });
  });
});

describe('VERS_MAX_PICTURE_BYTES', () => {
  let small: FastifyInstance;
  const LIMIT = 1000;

  beforeAll(async () => {
    // A second app on the same database, as a server started with VERS_MAX_PICTURE_BYTES=1000.
    small = await buildApp({
      db: server.database.db,
      executeSql: server.database.executeSql,
      tokens: server.tokens,
      gitSha: '0123456789abcdef0123456789abcdef01234567',
      logLevel: 'silent',
      maxPictureBytes: readConfig({ VERS_MAX_PICTURE_BYTES: String(LIMIT) }).maxPictureBytes,
    });
  });
  afterAll(async () => {
    await small?.close();
  });

  const post = async (payload: string) => {
    const res = await small.inject({
      method: 'POST',
      url: '/api/v1/assets',
      headers: { authorization: `Bearer ${staff}`, 'content-type': 'application/json' },
      payload,
    });
    return { status: res.statusCode, body: res.json<ErrorBody>() };
  };

  it('takes a picture of the limit and refuses a larger one with 413, storing nothing', async () => {
    expect((await post(JSON.stringify(picture(pngOfSize(LIMIT))))).status).toBe(200);
    const before = await stored();
    expect(await post(JSON.stringify(picture(pngOfSize(LIMIT + 1))))).toEqual({
      status: 413,
      body: { statusCode: 413, code: 'PAYLOAD_TOO_LARGE', message: `A picture may have at most ${LIMIT} bytes` },
    });
    expect(await stored()).toEqual(before);
  });

  it('answers a body beyond even the largest picture with 413 before reading it', async () => {
    const before = await stored();
    const huge = JSON.stringify(picture(PNG, { filename: 'x'.repeat(200), base64: 'A'.repeat(2 * 1024 * 1024) }));
    const res = await post(huge);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await stored()).toEqual(before);
  });

  it('is read from the environment, 10 MB when unset, and must be a sensible positive number', () => {
    expect(readConfig({}).maxPictureBytes).toBe(10 * 1024 * 1024);
    expect(readConfig({ VERS_MAX_PICTURE_BYTES: '2048' }).maxPictureBytes).toBe(2048);
    for (const wrong of ['0', '-5', '1.5', 'ten', String(512 * 1024 * 1024)]) {
      expect(() => readConfig({ VERS_MAX_PICTURE_BYTES: wrong })).toThrow(/VERS_MAX_PICTURE_BYTES/);
    }
  });
});

describe('tenancy and rights', () => {
  let north: z.infer<typeof assetSchema>;
  beforeAll(async () => {
    north = assetSchema.parse((await upload(picture(PNG))).body);
  });

  it("keeps another workshop's pictures out of reach: list, read, download and delete answer 404", async () => {
    const before = await stored();
    for (const path of [
      `/api/v1/assets/order/${orderId}`,
      `/api/v1/assets/${north.id}`,
      `/api/v1/assets/download/${north.id}`,
      `/api/v1/assets/thumbnail/${north.id}`,
    ]) {
      const res = await server.request('GET', path, { token: staff2 });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'NOT_FOUND' });
      expect(JSON.stringify(res.body)).not.toContain('radsatz');
    }
    expect((await server.request('GET', `/api/v1/assets?ids=${north.id}`, { token: staff2 })).body).toEqual([]);
    expect(await server.request('DELETE', `/api/v1/assets/${north.id}`, { token: staff2 })).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND', message: 'File not found' },
    });
    expect(await stored()).toEqual(before);
    expect((await server.request('GET', `/api/v1/assets/${north.id}`, { token: staff })).status).toBe(200);
  });

  it('answers 404 for an unknown id and 400 for one that is no id, changing nothing', async () => {
    const before = await stored();
    expect(await server.request('DELETE', `/api/v1/assets/${randomUUID()}`, { token: staff })).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND', message: 'File not found' },
    });
    expect(await server.request('GET', `/api/v1/assets/order/${randomUUID()}`, { token: staff })).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
    expect(await server.request('DELETE', '/api/v1/assets/42', { token: staff })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION' },
    });
    expect(await stored()).toEqual(before);
  });

  const calls = (id: string): [string, string, unknown?][] => [
    ['POST', '/api/v1/assets', picture(PNG)],
    ['GET', `/api/v1/assets/order/${orderId}`],
    ['GET', `/api/v1/assets/${id}`],
    ['GET', `/api/v1/assets/download/${id}`],
    ['GET', `/api/v1/assets/thumbnail/${id}`],
    ['GET', `/api/v1/assets?ids=${id}`],
    ['DELETE', `/api/v1/assets/${id}`],
  ];

  it('answers 401 without a token', async () => {
    const before = await stored();
    for (const [method, path, body] of calls(north.id)) {
      expect(await server.request(method, path, { body })).toMatchObject({
        status: 401,
        body: { code: 'UNAUTHORIZED' },
      });
    }
    expect(await stored()).toEqual(before);
  });

  it('is for the four workshop order roles only; the quality manager only sees the pictures', async () => {
    const before = await stored();
    for (const user of ['holder', 'versadmin', 'qa']) {
      const token = await server.signIn(user);
      for (const [method, path, body] of calls(north.id)) {
        const answer = await server.request<{ code?: string }>(method, path, { token, body });
        const reads = user === 'qa' && method === 'GET';
        expect([answer.status, answer.body.code], `${user} ${method} ${path}`).toEqual(
          reads ? [200, undefined] : [403, method === 'GET' ? 'FORBIDDEN' : 'ORDER_WRITE_FORBIDDEN'],
        );
      }
    }
    expect(await stored()).toEqual(before);
  });

  it('goes with its order when the order is deleted', async () => {
    const order = await createWagonOrder(server, staff);
    const asset = assetSchema.parse((await upload(picture(PNG, { orderId: order.id }))).body);
    const before = await stored();
    expect((await server.request('DELETE', `/api/v1/orders/${order.id}`, { token: staff })).status).toBe(204);
    expect(await stored()).toEqual({ rows: before.rows! - 1, contents: before.contents! - 1 });
    expect((await server.request('GET', `/api/v1/assets/${asset.id}`, { token: staff })).status).toBe(404);
  });

  it('is in the OpenAPI document', async () => {
    const res = await server.request<{ paths: Record<string, unknown> }>('GET', '/api/docs/json');
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/assets',
        '/api/v1/assets/order/{orderId}',
        '/api/v1/assets/{id}',
        '/api/v1/assets/download/{id}',
        '/api/v1/assets/thumbnail/{id}',
      ]),
    );
  });
});

describe('thumbnails of pictures', () => {
  const thumbnailOf = (id: string, token = staff) => server.request('GET', `/api/v1/assets/thumbnail/${id}`, { token });
  const thumbnailsStored = async (id: string) =>
    (await server.database.db.select().from(assetThumbnails).where(eq(assetThumbnails.assetId, id))).length;

  it('are made by the server from a picture sent without one, once, at most 320 px a side', async () => {
    const big = makePng(800, 400);
    const asset = assetSchema.parse((await upload(picture(big))).body);
    expect(await thumbnailsStored(asset.id)).toBe(0); // made when first asked for, not at the upload
    const first = await thumbnailOf(asset.id);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toContain('immutable');
    const thumbnail = assetThumbnailSchema.parse(first.body);
    expect(thumbnail).toMatchObject({ id: asset.id, mime: 'image/jpeg' });
    const decoded = jpeg.decode(Buffer.from(thumbnail.base64, 'base64'));
    expect([decoded.width, decoded.height]).toEqual([320, 160]);
    expect(await thumbnailsStored(asset.id)).toBe(1);
    // The second call answers the stored one; any order role of the workshop may ask.
    expect((await thumbnailOf(asset.id, wagonqa)).body).toEqual(thumbnail);
  });

  it('keep a small picture its size, and show its colours', async () => {
    const asset = assetSchema.parse((await upload(picture(PNG))).body);
    const thumbnail = assetThumbnailSchema.parse((await thumbnailOf(asset.id)).body);
    const decoded = jpeg.decode(Buffer.from(thumbnail.base64, 'base64'));
    expect([decoded.width, decoded.height]).toEqual([3, 2]);
    // makePng's first pixel is (0, 40, 80); JPEG changes a little of it.
    const [r, g, b] = decoded.data;
    expect(Math.abs(r! - 0) + Math.abs(g! - 40) + Math.abs(b! - 80)).toBeLessThan(60);
  });

  it('sent with the picture are kept and answered as they came', async () => {
    const sent = smallJpeg(32, 16);
    const body = picture(makePng(64, 32), { thumbnail: sent.toString('base64') });
    expect((await upload(body)).status).toBe(200);
    expect((await thumbnailOf(body.id)).body).toEqual({
      id: body.id,
      mime: 'image/jpeg',
      base64: sent.toString('base64'),
    });
    // A PNG thumbnail is taken too.
    const png = makePng(8, 4);
    const other = picture(makePng(64, 32), { thumbnail: png.toString('base64') });
    expect((await upload(other)).status).toBe(200);
    expect((await thumbnailOf(other.id)).body).toMatchObject({ mime: 'image/png', base64: png.toString('base64') });
    // A retry of the upload keeps the first one.
    expect((await upload({ ...body, thumbnail: smallJpeg(8, 8).toString('base64') })).status).toBe(200);
    expect(assetThumbnailSchema.parse((await thumbnailOf(body.id)).body).base64).toBe(sent.toString('base64'));
  });

  it('that are no JPEG or PNG, too large or broken refuse the upload with 400, storing nothing', async () => {
    const before = await stored();
    for (const thumbnail of [
      'not base64!',
      Buffer.from('GIF89a, not a thumbnail').toString('base64'),
      smallJpeg(32, 16).subarray(0, 200).toString('base64'), // cut: no end marker
      smallJpeg(600, 20).toString('base64'), // wider than 512 px
      makePng(1, 1, 100 * 1024).toString('base64'), // more than 96 KB
      '',
    ]) {
      const res = await upload(picture(PNG, { thumbnail }));
      expect(res.status, thumbnail.slice(0, 20)).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION', fields: ['body.thumbnail'] });
    }
    expect(await stored()).toEqual(before);
  });

  it('of a picture that cannot be decoded are the picture itself', async () => {
    // A complete PNG by structure, but of colour type 3 (palette) without its palette.
    const header = Buffer.alloc(13);
    header.writeUInt32BE(4, 0);
    header.writeUInt32BE(4, 4);
    header.set([8, 3, 0, 0, 0], 8);
    const broken = Buffer.concat([
      SIGNATURE,
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(Buffer.alloc(4 * 5))),
      chunk('IEND', Buffer.alloc(0)),
    ]);
    expect(pngProblem(broken)).toBeNull();
    const asset = assetSchema.parse((await upload(picture(broken))).body);
    expect((await thumbnailOf(asset.id)).body).toEqual({
      id: asset.id,
      mime: 'image/png',
      base64: broken.toString('base64'),
    });
    expect(await thumbnailsStored(asset.id)).toBe(0);
  });

  it('are only of pictures, and go with them', async () => {
    const xml = Buffer.from('<?xml version="1.0"?><Auftrag/>');
    const imported = await upload({
      id: randomUUID(),
      type: 'IMPORT',
      filename: 'auftrag.xml',
      base64: xml.toString('base64'),
      size: xml.length,
    });
    expect(imported.status).toBe(200);
    expect(await thumbnailOf(assetSchema.parse(imported.body).id)).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
    const body = picture(PNG, { thumbnail: smallJpeg(4, 4).toString('base64') });
    expect((await upload(body)).status).toBe(200);
    expect(await thumbnailsStored(body.id)).toBe(1);
    expect((await server.request('DELETE', `/api/v1/assets/${body.id}`, { token: staff })).status).toBe(204);
    expect(await thumbnailsStored(body.id)).toBe(0);
    expect(await thumbnailOf(body.id)).toMatchObject({ status: 404, body: { code: 'DELETED' } });
  });
});
