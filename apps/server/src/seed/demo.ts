import { LANGUAGES, ROLES, type Role } from '@vers/domain';
import { count, sql } from 'drizzle-orm';
import { hashPassword } from '../auth/passwords.ts';
import type { Db } from '../db/client.ts';
import {
  defaultOptionValues,
  defaultOptions,
  emailAddresses,
  featureToggles,
  keeperMarkings,
  keepers,
  users,
  workshops,
} from '../db/schema.ts';
import { SEED_VALUE_LISTS } from './value-lists.ts';

export interface DemoLogin {
  username: string;
  role: Role;
  workshop: string | null;
  /** The keeper of a holder user (issue 22). */
  keeper?: string;
}

const NORTH = 'VERS Demo-Werkstatt Nord';
const SOUTH = 'VERS Demo-Werkstatt Süd';
/** The demo keeper (issue 22) and its VKM, as painted on its wagons (`D-GATX`). */
export const DEMO_KEEPER = { name: 'GATX Rail Europe', markings: ['GATX'] } as const;

/** One user for every role of the spec, and a second workshop with its own admin and staff. */
export const DEMO_LOGINS: readonly DemoLogin[] = [
  { username: 'admin', role: ROLES.ADMIN, workshop: null },
  { username: 'versadmin', role: ROLES.VERS_ADMIN, workshop: null },
  { username: 'werkadmin', role: ROLES.WORKSHOP_ADMIN, workshop: NORTH },
  { username: 'staff', role: ROLES.WORKSHOP_STAFF, workshop: NORTH },
  { username: 'wagonqa', role: ROLES.WORKSHOP_WAGON_QA, workshop: NORTH },
  { username: 'wheelsetqa', role: ROLES.WORKSHOP_WHEELSET_QA, workshop: NORTH },
  { username: 'qa', role: ROLES.WORKSHOP_QA, workshop: NORTH },
  { username: 'holder', role: ROLES.HOLDER, workshop: null, keeper: DEMO_KEEPER.name },
  { username: 'werkadmin2', role: ROLES.WORKSHOP_ADMIN, workshop: SOUTH },
  { username: 'staff2', role: ROLES.WORKSHOP_STAFF, workshop: SOUTH },
];

const DEMO_NAMES: Record<string, [string, string]> = {
  admin: ['Ada', 'Admin'],
  versadmin: ['Viktor', 'Systemverwalter'],
  werkadmin: ['Werner', 'Werkleiter'],
  staff: ['Stefan', 'Schlosser'],
  wagonqa: ['Waltraud', 'Wagenprüfer'],
  wheelsetqa: ['Rainer', 'Radsatzprüfer'],
  qa: ['Quirin', 'Qualität'],
  holder: ['Hanna', 'Halter'],
  werkadmin2: ['Sabine', 'Südleiter'],
  staff2: ['Sven', 'Südschlosser'],
};

/** Fills an empty database with the demo workshops, users, e-mail addresses and value lists. */
export async function seedDemo(db: Db, password: string): Promise<boolean> {
  const [existing] = await db.select({ n: count() }).from(workshops);
  if ((existing?.n ?? 0) > 0) return false;
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const [north, south] = await tx
      .insert(workshops)
      .values([
        {
          name: NORTH,
          countryCode: 'DE',
          email: 'werkstatt-nord@example.org',
          phone: '+49 40 1234 560',
          fax: '+49 40 1234 569',
          revNr: 'REV-DE-0815',
          siteId: 'DE-HH-01',
          addLastModifier: true,
        },
        {
          name: SOUTH,
          countryCode: 'AT',
          email: 'werkstatt-sued@example.org',
          phone: '+43 732 987 650',
          fax: '',
          revNr: 'REV-AT-4711',
          siteId: 'AT-LZ-02',
          addLastModifier: false,
        },
      ])
      .returning();
    if (!north || !south) throw new Error('demo workshops not created');
    const workshopId = (name: string | null) => (name === NORTH ? north.id : name === SOUTH ? south.id : null);
    const [keeper] = await tx.insert(keepers).values({ name: DEMO_KEEPER.name }).returning();
    if (!keeper) throw new Error('demo keeper not created');
    await tx.insert(keeperMarkings).values(DEMO_KEEPER.markings.map((vkm) => ({ vkm, keeperId: keeper.id })));
    await tx.insert(users).values(
      DEMO_LOGINS.map((login) => {
        const [firstName, lastName] = DEMO_NAMES[login.username] ?? ['Demo', login.username];
        return {
          username: login.username,
          firstName,
          lastName,
          passwordHash,
          roles: [login.role],
          workshopId: workshopId(login.workshop),
          keeperId: login.keeper === DEMO_KEEPER.name ? keeper.id : null,
        };
      }),
    );
    await tx.insert(emailAddresses).values([
      { workshopId: north.id, address: 'leitung-nord@example.org', languageCode: 'de' },
      { workshopId: north.id, address: 'quality-north@example.org', languageCode: 'en' },
      { workshopId: south.id, address: 'leitung-sued@example.org', languageCode: 'de' },
    ]);
    await tx.insert(featureToggles).values([
      { name: 'xmlImport', enabled: true },
      { name: 'imageCapture', enabled: true },
    ]);
    // The value lists of all twelve languages in two statements, their rows as one JSON parameter each (ids in the
    // order of the seed, as before): drizzle built the twelve statements of ~2,400 rows in ~460 ms of CPU, a sixth of
    // a first start's.
    const lists = LANGUAGES.flatMap((lang) =>
      SEED_VALUE_LISTS.map((seed) => ({ key: seed.key, lang, text: seed.text[lang], type: seed.superstructureType })),
    );
    await tx.execute(sql`
      INSERT INTO ${defaultOptions} (key, lang, name, text, superstructure_type)
      SELECT list.key, list.lang, list.key, list.text, list.type
      FROM json_to_recordset(${JSON.stringify(lists)}::json) AS list(key text, lang text, text text, type text)`);
    const values = LANGUAGES.flatMap((lang) =>
      SEED_VALUE_LISTS.flatMap((seed) =>
        seed.values.map(({ value, text }) => ({
          key: seed.key,
          lang,
          value,
          text: typeof text === 'string' ? text : text[lang],
        })),
      ),
    ).map((entry, n) => ({ ...entry, n }));
    await tx.execute(sql`
      INSERT INTO ${defaultOptionValues} (option_id, value, text, global)
      SELECT list.id, entry.value, entry.text, true
      FROM json_to_recordset(${JSON.stringify(values)}::json) AS entry(key text, lang text, value text, text text, n int)
      JOIN ${defaultOptions} list ON list.key = entry.key AND list.lang = entry.lang
      ORDER BY entry.n`);
  });
  return true;
}
