import { LANGUAGES, ROLES, type Language, type Role } from '@vers/domain';
import { count } from 'drizzle-orm';
import { hashPassword } from '../auth/passwords.ts';
import type { Db } from '../db/client.ts';
import { defaultOptionValues, defaultOptions, emailAddresses, featureToggles, users, workshops } from '../db/schema.ts';

export interface DemoLogin {
  username: string;
  role: Role;
  workshop: string | null;
}

const NORTH = 'VERS Demo-Werkstatt Nord';
const SOUTH = 'VERS Demo-Werkstatt Süd';

/** One user for every role of the spec, and a second workshop with its own admin and staff. */
export const DEMO_LOGINS: readonly DemoLogin[] = [
  { username: 'admin', role: ROLES.ADMIN, workshop: null },
  { username: 'versadmin', role: ROLES.VERS_ADMIN, workshop: null },
  { username: 'werkadmin', role: ROLES.WORKSHOP_ADMIN, workshop: NORTH },
  { username: 'staff', role: ROLES.WORKSHOP_STAFF, workshop: NORTH },
  { username: 'wagonqa', role: ROLES.WORKSHOP_WAGON_QA, workshop: NORTH },
  { username: 'wheelsetqa', role: ROLES.WORKSHOP_WHEELSET_QA, workshop: NORTH },
  { username: 'qa', role: ROLES.WORKSHOP_QA, workshop: NORTH },
  { username: 'holder', role: ROLES.HOLDER, workshop: NORTH },
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

/** The title of the contractor list in each language. */
const CONTRACTOR_LIST_TEXT: Record<Language, string> = {
  de: 'Auftraggeber',
  bg: 'Възложител',
  cs: 'Objednatel',
  en: 'Contractor',
  fr: "Donneur d'ordre",
  hu: 'Megrendelő',
  it: 'Committente',
  nl: 'Opdrachtgever',
  pl: 'Zleceniodawca',
  ro: 'Beneficiar',
  sv: 'Uppdragsgivare',
  tr: 'İşveren',
};

/** Wagon keepers as contractors: company names, the same in every language. */
const CONTRACTORS = [
  ['DBC', 'DB Cargo AG'],
  ['RCG', 'Rail Cargo Austria AG'],
  ['GATX', 'GATX Rail Europe'],
  ['VTG', 'VTG Rail Europe GmbH'],
  ['ERMEWA', 'Ermewa SAS'],
  ['WASCOSA', 'Wascosa AG'],
  ['ONRAIL', 'On Rail GmbH'],
] as const;

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
    for (const lang of LANGUAGES) {
      const [list] = await tx
        .insert(defaultOptions)
        .values({ key: 'ListAuftraggeber', lang, name: 'ListAuftraggeber', text: CONTRACTOR_LIST_TEXT[lang] })
        .returning();
      if (!list) throw new Error('contractor list not created');
      await tx
        .insert(defaultOptionValues)
        .values(CONTRACTORS.map(([value, text]) => ({ optionId: list.id, value, text, global: true })));
    }
  });
  return true;
}
