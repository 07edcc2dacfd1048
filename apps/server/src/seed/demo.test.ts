import { LANGUAGES } from '@vers/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../test/server.ts';
import { SEED_VALUE_LISTS } from './value-lists.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('the demo data', () => {
  it('holds every value list in every language with its values, in the order of the seed', async () => {
    const { executeSql } = server.database;
    const lists = (await executeSql(
      'SELECT key, lang, name, text, superstructure_type AS type FROM default_options ORDER BY id',
      [],
    )) as { rows: { key: string; lang: string; name: string; text: string; type: string | null }[] };
    expect(lists.rows).toEqual(
      LANGUAGES.flatMap((lang) =>
        SEED_VALUE_LISTS.map((seed) => ({
          key: seed.key,
          lang,
          name: seed.key,
          text: seed.text[lang],
          type: seed.superstructureType ?? null,
        })),
      ),
    );
    const values = (await executeSql(
      `SELECT list.key, list.lang, entry.value, entry.text, entry.global
       FROM default_option_values entry JOIN default_options list ON list.id = entry.option_id ORDER BY entry.id`,
      [],
    )) as { rows: { key: string; lang: string; value: string; text: string; global: boolean }[] };
    expect(values.rows).toEqual(
      LANGUAGES.flatMap((lang) =>
        SEED_VALUE_LISTS.flatMap((seed) =>
          seed.values.map(({ value, text }) => ({
            key: seed.key,
            lang,
            value,
            text: typeof text === 'string' ? text : text[lang],
            global: true,
          })),
        ),
      ),
    );
  });
});
