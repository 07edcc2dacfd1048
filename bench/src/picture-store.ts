// Storing and reading one 1 MB picture's bytes on PGlite, in this process: the asset storage the server uses
// (apps/server/src/assets/storage.ts) against the bare ways in the same run, the same bytes as base64 text into and
// out of a text column, and a bytea parameter as PGlite's driver encodes it (the storage's way until issue 19).
// Wall time and this process's CPU time (PGlite runs in it), median of the runs.
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { postgresAssetStorage } from '../../apps/server/src/assets/storage.ts';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import type { Figure, Section } from './figures.ts';

const BYTES = 1024 * 1024;

interface Timing {
  wallMs: number;
  cpuMs: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Times several ways of one job together: three warm-up rounds of each, then the runs, each run trying every way
 * once in a rotating order. So the background work of a fresh process (V8 compiling PGlite's WebAssembly on other
 * threads, whose CPU time is this process's too) and the garbage one way leaves behind fall on all ways alike, not
 * on whichever was timed first.
 */
async function timedTogether<K extends string>(
  runs: number,
  ways: Record<K, () => Promise<unknown>>,
): Promise<Record<K, Timing>> {
  const names = Object.keys(ways) as K[];
  const wall = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>;
  const cpu = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>;
  for (let round = 0; round < 3; round++) for (const name of names) await ways[name]();
  for (let i = 0; i < runs; i++) {
    for (let j = 0; j < names.length; j++) {
      const name = names[(i + j) % names.length]!;
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      await ways[name]();
      wall[name].push(performance.now() - started);
      const used = process.cpuUsage(cpuBefore);
      cpu[name].push((used.user + used.system) / 1000);
    }
  }
  return Object.fromEntries(
    names.map((name) => [name, { wallMs: median(wall[name]), cpuMs: median(cpu[name]) }]),
  ) as Record<K, Timing>;
}

export async function measurePictureStore(runs = 9) {
  const database = await openDatabase({ pgliteDir: null });
  const { db } = database;
  try {
    // The storage's rows belong to assets (a foreign key); the benchmark stores contents without asset rows.
    await db.execute(sql`ALTER TABLE asset_contents DROP CONSTRAINT IF EXISTS asset_contents_asset_id_assets_id_fk`);
    await db.execute(sql`CREATE TABLE bench_text (id uuid PRIMARY KEY, content text NOT NULL)`);
    await db.execute(sql`CREATE TABLE bench_bytea (id uuid PRIMARY KEY, content bytea NOT NULL)`);
    const storage = postgresAssetStorage(db);
    const bytes = new Uint8Array(randomBytes(BYTES));
    const base64 = Buffer.from(bytes).toString('base64');
    const ids = { storage: randomUUID(), text: randomUUID(), bytea: randomUUID() };

    const stores = await timedTogether(runs, {
      store: async () => storage.put(randomUUID(), bytes),
      storeText: async () => db.execute(sql`INSERT INTO bench_text VALUES (${randomUUID()}, ${base64})`),
      storeBytea: async () => db.execute(sql`INSERT INTO bench_bytea VALUES (${randomUUID()}, ${bytes})`),
    });

    await storage.put(ids.storage, bytes);
    await db.execute(sql`INSERT INTO bench_text VALUES (${ids.text}, ${base64})`);
    await db.execute(sql`INSERT INTO bench_bytea VALUES (${ids.bytea}, ${bytes})`);
    const reads = await timedTogether(runs, {
      read: async () => {
        const got = await storage.get(ids.storage);
        if (got?.length !== BYTES) throw new Error('the storage read back another picture');
      },
      readText: async () => {
        const { rows } = await database.executeSql('SELECT content FROM bench_text WHERE id = $1', [ids.text]);
        return Buffer.from((rows[0] as { content: string }).content, 'base64');
      },
      readBytea: async () => db.execute(sql`SELECT content FROM bench_bytea WHERE id = ${ids.bytea}`),
    });
    return { runs, ...stores, ...reads };
  } finally {
    await database.close();
  }
}

export function pictureStoreSection(f: Awaited<ReturnType<typeof measurePictureStore>>): Section {
  const pair = (name: string, t: Timing, base: Timing, baseName: string, aimRatio?: number): Figure[] => [
    {
      name: `${name}, CPU time`,
      value: t.cpuMs,
      unit: 'ms',
      digits: 1,
      baseline: { name: baseName, value: base.cpuMs },
      ...(aimRatio ? { aim: { text: `ratio <= ${aimRatio}x`, met: t.cpuMs <= aimRatio * base.cpuMs } } : {}),
    },
    { name, value: t.wallMs, unit: 'ms', digits: 1, baseline: { name: baseName, value: base.wallMs } },
  ];
  const text = 'the same base64 as text';
  return {
    id: 'picture-store',
    title: 'one 1 MB picture in the database (PGlite)',
    figures: [
      ...pair('store a picture: asset storage', f.store, f.storeText, text, 3),
      ...pair('store a picture: a bytea parameter (the way before)', f.storeBytea, f.storeText, text),
      ...pair('read a picture: asset storage', f.read, f.readText, text, 2),
      ...pair('read a picture: a bytea column (the way before)', f.readBytea, f.readText, text),
    ],
    notes: [
      `median of ${f.runs} after three warm-up rounds, the ways of each job taking turns in a rotating order; PGlite in this process, so its CPU time is this process's`,
    ],
  };
}
