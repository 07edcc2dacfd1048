/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Image, Text, View } from '@react-pdf/renderer';
import {
  CATALOGUE,
  type OrderType,
  type Scope,
  type TabDef,
  type Values,
  allRows,
  collectionEntries,
  entryScope,
  formatVehicleNumber,
  isFilled,
  layoutTab,
  perEntrySummary,
  rootScope,
  valueOf,
  formatSignOffCode,
} from '@vers/domain';
import type { ReactElement } from 'react';
import {
  type ChapterTable,
  type TabSection,
  type ValueRow,
  type Wheelset,
  chapterTables,
  measureFields,
  tabSection,
  wheelsetMeasures,
  wheelsets,
  wheelsetsTab,
} from './collect.ts';
import type { Texts } from './labels.ts';
import type { PdfDocumentInput } from './model.ts';
import {
  ChapterBlock,
  DocumentPage,
  FillLines,
  Pairs,
  PartTitle,
  Section,
  Signatures,
  SimpleTable,
  TabTitle,
  isLong,
  styles,
  vehicleNumber,
} from './sections.tsx';

/** The pages of each document type (docs/requirements/administration.md#documents-screen). */

interface Props {
  input: PdfDocumentInput;
  x: Texts;
}

/** A tab, or one entry of a tab that repeats per entry: documents are cut into page elements between blocks. */
interface Block {
  key: string;
  /** Estimated height in table lines, for packing blocks onto pages. */
  lines: number;
  node: ReactElement;
}

/** Table lines a page holds below the header (A4 portrait, 8.5 pt rows). */
const PAGE_LINES = 50;

/** Lines a value row takes: long labels and texts wrap. */
const rowLines = (row: ValueRow) =>
  Math.max(1, Math.ceil(row.label.length / 44), Math.ceil(row.in.length / 27), Math.ceil(row.out.length / 27));

const chapterLines = (chapters: readonly ChapterTable[]) =>
  chapters.reduce(
    (sum, chapter) =>
      sum +
      2.5 +
      chapter.groups.reduce(
        (n, group) => n + (group.title ? 1 : 0) + group.rows.reduce((m, r) => m + rowLines(r), 0),
        0,
      ),
    0,
  );

/** A tab's (or entry's) chapters, its titles kept with the first chapter's first line. */
function Chapters({ chapters, x, titles }: { chapters: readonly ChapterTable[]; x: Texts; titles: ReactElement }) {
  return (
    <>
      {chapters.map((chapter, i) => (
        <ChapterBlock key={i} chapter={chapter} x={x} {...(i === 0 ? { headings: titles } : {})} />
      ))}
    </>
  );
}

/** A tab's blocks: the whole tab, or each entry of a tab that repeats per entry. */
function tabBlocks(section: TabSection, x: Texts, key: string): Block[] {
  return section.parts.map((part, index) => ({
    key: `${key}-${index}`,
    lines: chapterLines(part.chapters) + (index === 0 ? 2.5 : 0) + (part.title ? 2 : 0),
    node: (
      <Chapters
        key={`${key}-${index}`}
        chapters={part.chapters}
        x={x}
        titles={
          <View>
            {index === 0 ? <TabTitle title={section.title} /> : null}
            {part.title ? <PartTitle title={part.title} /> : null}
          </View>
        }
      />
    ),
  }));
}

/** Table lines one page element holds before the next tab starts a new one: about three A4 pages. */
const CHUNK_LINES = 3 * PAGE_LINES;

/**
 * The blocks on pages. The PDF library lays out the rest of a page element again for every page it breaks, which
 * grows with the square of its length: a long document is cut between tabs into page elements of about three
 * pages, each starting on a new page.
 */
function pagesOf(
  props: Props & { title: string; landscape?: boolean; key?: string; empty?: string },
  blocks: readonly Block[],
  tail: ReactElement | null = null,
): ReactElement[] {
  const groups: Block[][] = [[]];
  let used = 0;
  for (const block of blocks) {
    if (used > 0 && used + block.lines > CHUNK_LINES) {
      groups.push([]);
      used = 0;
    }
    groups.at(-1)!.push(block);
    used += block.lines;
  }
  return groups.map((group, index) => (
    <DocumentPage
      key={`${props.key ?? 'page'}-${index}`}
      input={props.input}
      x={props.x}
      title={props.title}
      {...(props.landscape ? { landscape: true } : {})}
    >
      {index === 0 && blocks.length === 0 ? <Empty text={props.empty ?? props.x.t('empty')} /> : null}
      {group.map((block) => block.node)}
      {index === groups.length - 1 ? tail : null}
    </DocumentPage>
  ));
}

const sections = (type: OrderType, tabs: readonly TabDef[], values: Values, x: Texts): TabSection[] =>
  tabs.map((tab) => tabSection(type, tab, values, x)).filter((section): section is TabSection => section !== null);

const sectionBlocks = (shown: readonly TabSection[], x: Texts) =>
  shown.flatMap((section, index) => tabBlocks(section, x, `tab${index}`));

function Empty({ text }: { text: string }) {
  return <Text style={[styles.paragraph, { marginTop: 12 }]}>{text}</Text>;
}

const outsideLimit = (chapters: readonly ChapterTable[]) =>
  chapters.some((c) => c.groups.some((g) => g.rows.some((r) => r.outsideLimit)));

function LimitNote({ chapters, x }: { chapters: readonly ChapterTable[]; x: Texts }) {
  return outsideLimit(chapters) ? <Text style={styles.note}>{x.t('outsideLimit')}</Text> : null;
}

const allChapters = (shown: readonly TabSection[]) => shown.flatMap((s) => s.parts.flatMap((p) => p.chapters));

/** PREVIEW: every tab in drawer order, only the rows with a value. */
export function previewPages({ input, x }: Props): ReactElement[] {
  const shown = sections(input.order.type, CATALOGUE[input.order.type], input.values, x);
  return pagesOf(
    { input, x, title: x.t('title.PREVIEW') },
    sectionBlocks(shown, x),
    <LimitNote chapters={allChapters(shown)} x={x} />,
  );
}

/** The tabs of the mobile repair team's works: base data, brake and mobile service. */
const MOBILE_REPAIR_TABS = ['basedata', 'brake', 'mobileService'];

/** MOBILE_REPAIR: what the mobile team recorded, and the technician's signature. */
export function mobileRepairPages({ input, x }: Props): ReactElement[] {
  const tabs = CATALOGUE[input.order.type].filter((tab) => MOBILE_REPAIR_TABS.includes(tab.id));
  const shown = sections(input.order.type, tabs, input.values, x);
  return pagesOf(
    { input, x, title: x.t('title.MOBILE_REPAIR') },
    sectionBlocks(shown, x),
    <>
      <LimitNote chapters={allChapters(shown)} x={x} />
      <Signatures captions={[x.t('signature.technician'), x.t('signature.date'), x.t('signature.signature')]} />
    </>,
  );
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Release to service                                                                                           */
/* ------------------------------------------------------------------------------------------------------------ */

const outText = (values: Values, scope: Scope, path: string) => {
  const stored = values[`${scope.out}.${path}`];
  return isFilled(stored) ? String(valueOf(stored)) : '';
};
const inText = (values: Values, scope: Scope, path: string) => {
  const stored = values[`${scope.in}.${path}`];
  return isFilled(stored) ? String(valueOf(stored)) : '';
};
const outOrIn = (values: Values, scope: Scope, path: string) =>
  outText(values, scope, path) || inText(values, scope, path);

/** The tabs in which the workshop recorded an outgoing value: the works performed. */
function worksPerformed(type: OrderType, values: Values, x: Texts): string[] {
  return CATALOGUE[type]
    .filter((tab) => {
      const entries = tab.perEntry
        ? (perEntrySummary(type, tab, values)?.entries ?? []).map((entry) => entry.entry.value)
        : [undefined];
      return entries.some((entry) =>
        allRows(layoutTab(type, tab, values, entry)).some((row) => row.out && isFilled(values[row.out.key])),
      );
    })
    .map((tab) => x.catalogue(`tab.${type}.${tab.id}`));
}

/**
 * The outgoing values of the revision deadline tab: the cycle, extension and deadline that give the next due
 * dates. The record of past works by level (a collection of that tab) is history, not a due date, and is left out.
 */
function dueDates(type: OrderType, values: Values, x: Texts): [string, string][] {
  const tab = CATALOGUE[type].find((candidate) => candidate.id === 'revisionDeadline');
  if (!tab) return [];
  return chapterTables(type, tab, values, x).flatMap((chapter) =>
    chapter.groups
      .filter((group) => group.title === undefined)
      .flatMap((group) =>
        group.rows
          .filter((row) => row.out !== '')
          .map((row): [string, string] => [row.label, row.unit ? `${row.out} ${row.unit}` : row.out]),
      ),
  );
}

const number = (digits: string) => (digits ? formatVehicleNumber(digits) : '–');

/** A collection of the wheelset chapters by its path (the wheels, the bearings). */
const wheelsetCollection = (type: OrderType, path: string) =>
  CATALOGUE[type].flatMap((tab) => tab.chapters).find((chapter) => chapter.collection?.path === path)?.collection;

/** Components changed in a wheelset order: renewed wheels and axle, bearings with a new serial number. */
function wheelsetComponentChanges(type: OrderType, values: Values, scope: Scope, x: Texts): string[][] {
  const changes: string[][] = [];
  const entries = (path: string) => {
    const collection = wheelsetCollection(type, path);
    if (!collection) return [];
    return collectionEntries(values, scope, collection).map((entry) => ({
      title: x.entry(collection.differentiator, entry.value),
      scope: entryScope(scope, collection, entry),
    }));
  };
  for (const wheel of entries('Wheels.Wheel')) {
    if (valueOf(values[`${wheel.scope.out}.Repair.Renewed`]) !== true) continue;
    changes.push([
      wheel.title,
      inText(values, wheel.scope, 'Radnummer') || '–',
      outText(values, wheel.scope, 'Radnummer') || '–',
    ]);
  }
  if (valueOf(values[`${scope.out}.Repairs.Axle.Renewed`]) === true) {
    changes.push([
      x.catalogue('field.axleNumber'),
      inText(values, scope, 'Axle.Number') || '–',
      outText(values, scope, 'Axle.Number') || '–',
    ]);
  }
  for (const bearing of entries('Bearings.Bearing')) {
    const serial = {
      in: inText(values, bearing.scope, 'SerialNumber'),
      out: outText(values, bearing.scope, 'SerialNumber'),
    };
    if (serial.in && serial.out && serial.in !== serial.out) changes.push([bearing.title, serial.in, serial.out]);
  }
  return changes;
}

/** Wheelsets split evenly in position order across the wagon's sub-vehicles. */
function splitBySubVehicle(all: Wheelset[], units: number): Wheelset[][] {
  return Array.from({ length: units }, (_, k) =>
    all.slice(Math.floor((k * all.length) / units), Math.floor(((k + 1) * all.length) / units)),
  );
}

function Checkbox({ checked, text }: { checked: boolean; text: string }) {
  return (
    <View style={{ flexDirection: 'row', marginBottom: 4 }} wrap={false}>
      <Text style={{ width: 14, fontSize: 10 }}>{checked ? '☒' : '☐'}</Text>
      <Text style={{ flexGrow: 1, flexBasis: 0 }}>{text}</Text>
    </View>
  );
}

function TextOrLines({ text, lines = 3 }: { text: string; lines?: number }) {
  return text ? <Text style={styles.paragraph}>{text}</Text> : <FillLines count={lines} />;
}

/** RELEASE_TO_SERVICE (Regulation (EU) 2019/779, domain notes "Release to service"). */
export function releaseToServicePages({ input, x }: Props): ReactElement[] {
  const { order, workshop, values } = input;
  const type = order.type;
  const root = rootScope(type);
  const wagon = type === 'WAGON';
  // The ECM is the labeling tab's marking. Without one the document says so: the contractor, who stood in before, is
  // not the ECM, and a release to service must not name a guessed one (issue 21).
  const ecm = (wagon ? outOrIn(values, root, 'Labeling.ECM') : '') || x.t('release.notEntered');
  const level = outText(values, root, wagon ? 'ExecutedMaintenanceLevel' : 'MaintenanceLevel');
  const works = worksPerformed(type, values, x);
  const mobile = (path: string) => (wagon ? outText(values, root, `MobileService.${path}`) : '');
  const yes = (path: string) => wagon && valueOf(values[`${root.out}.MobileService.${path}`]) === true;
  const due = dueDates(type, values, x);
  const all = wheelsets(type, values, x);
  const units = wagon ? Math.max(1, Math.floor(input.subVehicles)) : 1;
  // The release's date, person and role as the order states them, never the moment or the user of "Generate": a
  // release printed before anyone granted it said so by its unticked boxes only (issue 21).
  // Where the order states none, the electronic sign-off does: its signer authorised the release with their password.
  const notEntered = x.t('release.notEntered');
  const signOff = input.signOff;
  const issueDate = mobile('IssuingDateCurrentReleaseToService') || signOff?.signedAt;
  const person = mobile('AuthorisedPerson') || signOff?.signer || notEntered;
  const role = mobile('AuthorisedPersonRole') || (signOff ? x.t(`role.${signOff.role}`) : '') || notEntered;
  const signatureCaptions = [x.t('signature.placeDate'), x.t('release.authorisedSignature'), x.t('signature.stamp')];
  const changedHead = [x.t('release.component'), x.t('release.removed'), x.t('release.fitted')];
  const changedWidths = ['34%', '33%', '33%'];

  const exchanged = all
    .filter((wheelset) => wheelset.numberIn && wheelset.numberOut && wheelset.numberIn !== wheelset.numberOut)
    .map((wheelset) => [wheelset.title, number(wheelset.numberIn), number(wheelset.numberOut)]);
  const changes = wagon ? exchanged : wheelsetComponentChanges(type, values, root, x);
  const changedText = mobile('ChangedComponents');

  return [
    <DocumentPage key="release" input={input} x={x} title={x.t('title.RELEASE_TO_SERVICE')}>
      <Text style={[styles.note, { marginTop: 0 }]}>{x.t('release.basis')}</Text>
      <Section title={x.t(wagon ? 'release.vehicle' : 'release.wheelset')} keep>
        <Pairs
          pairs={[
            [x.t(wagon ? 'header.wagonNumber' : 'header.wheelsetNumber'), vehicleNumber(input)],
            wagon
              ? [x.t('release.keeperMarking'), outOrIn(values, root, 'Halterkurzkennzeichen')]
              : [x.catalogue('field.OwnerMark'), outOrIn(values, root, 'OwnerMark')],
            [x.t('release.ecm'), ecm],
            ...(wagon && units > 1 ? [[x.t('release.subVehicles'), String(units)] as const] : []),
          ]}
        />
      </Section>
      <Section title={x.t('release.workshop')} keep>
        <Pairs
          pairs={[
            [x.t('release.workshopName'), workshop.name],
            [x.t('release.country'), workshop.countryCode],
            [x.t('release.revSite'), [workshop.revNr, workshop.siteId].filter(Boolean).join(' / ')],
          ]}
        />
      </Section>
      <Section title={x.t('release.references')} keep>
        <Pairs
          pairs={[
            [x.t('header.orderNumber'), order.number],
            [x.t('header.externalOrderNumber'), order.externalOrderNumber],
            [x.t('header.contractor'), order.contractor],
            [x.t('release.orderDate'), x.date(order.created)],
          ]}
        />
      </Section>
      <Section title={x.t('release.maintenance')}>
        <Pairs
          pairs={[
            [x.t('release.level'), level],
            [x.t('release.works'), works.join(', ')],
            ...(mobile('PerformedMaintenanceSteps')
              ? [[x.t('release.steps'), mobile('PerformedMaintenanceSteps')] as const]
              : []),
            ...(mobile('DeadlineExtension')
              ? [[x.t('release.deadlineExtension'), `${mobile('DeadlineExtension')} ${x.unit('months')}`] as const]
              : []),
          ]}
        />
      </Section>
      <Section title={x.t('release.components')}>
        {changes.length > 0 ? (
          <SimpleTable head={changedHead} rows={changes} widths={changedWidths} />
        ) : changedText ? null : (
          <Text>{x.t('release.noComponents')}</Text>
        )}
        {changedText ? <Text style={[styles.paragraph, { marginTop: 4 }]}>{changedText}</Text> : null}
      </Section>
      <Section title={x.t('release.deferred')} keep={!isLong(mobile('DeferredWork'))}>
        <TextOrLines text={mobile('DeferredWork')} />
      </Section>
      <Section title={x.t('release.restrictions')} keep={!isLong(mobile('RestrictionsOfUse'))}>
        <TextOrLines text={mobile('RestrictionsOfUse')} />
      </Section>
      <Section title={x.t('release.nextDue')} keep>
        {due.length > 0 ? <Pairs pairs={due} /> : <FillLines count={2} />}
      </Section>
      <Section title={x.t('release.statements')} keep>
        <Checkbox checked={yes('MaintenancePerformedCorrectly')} text={x.t('release.performedCorrectly')} />
        <Checkbox
          checked={yes('ReleaseToServiceGranted')}
          text={x.t(wagon ? 'release.granted' : 'release.grantedWheelset')}
        />
        <Pairs
          pairs={[
            [x.t('release.issueDate'), issueDate ? x.date(issueDate) : notEntered],
            [x.t('release.authorisedPerson'), person],
            [x.t('release.role'), role],
          ]}
        />
        {units <= 1 ? <Signatures captions={signatureCaptions} /> : null}
      </Section>
      {signOff ? <SignOffSection signOff={signOff} x={x} /> : null}
      {/* A wagon's wheelsets, incoming and outgoing: per sub-vehicle with its own signature when it has several. */}
      {wagon && (units > 1 || all.length > 0)
        ? splitBySubVehicle(all, units).map((unit, k) => (
            <Section
              key={k}
              title={units > 1 ? x.t('release.subVehicle', { k: k + 1, n: units }) : x.t('release.wheelsets')}
              keep
            >
              {unit.length > 0 ? (
                <SimpleTable
                  head={[
                    x.t('release.position'),
                    x.t('release.wheelsetIn'),
                    x.t('release.wheelsetOut'),
                    x.t('release.exchanged'),
                  ]}
                  widths={['16%', '32%', '32%', '20%']}
                  rows={unit.map((wheelset) => [
                    wheelset.position,
                    number(wheelset.numberIn),
                    number(wheelset.numberOut),
                    x.t(
                      wheelset.numberIn && wheelset.numberOut && wheelset.numberIn !== wheelset.numberOut
                        ? 'yes'
                        : 'no',
                    ),
                  ])}
                />
              ) : (
                <Text>{x.t('release.noWheelsets')}</Text>
              )}
              {units > 1 ? <Signatures captions={signatureCaptions} /> : null}
            </Section>
          ))
        : null}
    </DocumentPage>,
  ];
}

/** The electronic sign-off: who stated what and when, over which content, and how a holder checks it. */
function SignOffSection({ signOff, x }: { signOff: NonNullable<PdfDocumentInput['signOff']>; x: Texts }) {
  const time = `${x.date(signOff.signedAt)} ${signOff.signedAt.toISOString().slice(11, 16)} UTC`;
  return (
    <Section title={x.t('release.signOff')} keep>
      <View style={{ flexDirection: 'row' }}>
        <View style={{ flexGrow: 1, flexShrink: 1, flexBasis: 0, paddingRight: 12 }}>
          <Pairs
            pairs={[
              [x.t('release.signedBy'), signOff.signer],
              [x.t('release.role'), x.t(`role.${signOff.role}`)],
              [x.t('release.signedAt'), time],
              [x.t('release.meaning'), x.t(`meaning.${signOff.meaning}`)],
              // In groups of eight: wrapped between groups, never hyphenated inside one.
              [x.t('release.contentHash'), signOff.contentHash.match(/.{1,8}/g)?.join(' ') ?? signOff.contentHash],
              [x.t('release.checkCode'), formatSignOffCode(signOff.code)],
            ]}
          />
          <Text style={[styles.note, { marginTop: 4 }]}>{x.t('release.checkHint', { url: signOff.checkUrl })}</Text>
        </View>
        <Image style={{ width: 72, height: 72, flexShrink: 0 }} src={{ data: signOff.qrPng, format: 'png' }} />
      </View>
    </Section>
  );
}

/* ------------------------------------------------------------------------------------------------------------ */
/* Wheelsets                                                                                                    */
/* ------------------------------------------------------------------------------------------------------------ */

function WheelsetTitle({ wheelset, x }: { wheelset: Wheelset; x: Texts }) {
  const exchanged = wheelset.numberIn && wheelset.numberOut && wheelset.numberIn !== wheelset.numberOut;
  return (
    <View style={{ marginTop: 4 }}>
      <Text style={styles.tabTitle}>
        {[wheelset.title, number(wheelset.numberOut || wheelset.numberIn)].filter(Boolean).join(' · ')}
      </Text>
      {exchanged ? (
        <Text style={styles.note}>
          {x.t('sheet.exchanged', { removed: number(wheelset.numberIn), fitted: number(wheelset.numberOut) })}
        </Text>
      ) : null}
    </View>
  );
}

/** WHEELSET_REPAIR_SHEET: a wagon's wheelsets each from a new page, or the wheelset order's tabs. */
export function wheelsetRepairSheetPages({ input, x }: Props): ReactElement[] {
  const { order, values } = input;
  const title = x.t('title.WHEELSET_REPAIR_SHEET');
  const tail = (chapters: readonly ChapterTable[]) => (
    <>
      <LimitNote chapters={chapters} x={x} />
      <Signatures captions={[x.t('signature.inspector'), x.t('signature.date'), x.t('signature.signature')]} />
    </>
  );
  const all = wheelsets(order.type, values, x);
  if (order.type === 'WHEELSET') {
    const shown = sections(order.type, CATALOGUE.WHEELSET, values, x);
    const head: Block[] = all[0]
      ? [
          {
            key: 'head',
            lines: 3,
            node: <WheelsetTitle key="head" wheelset={{ ...all[0], title: x.t('sheet.wheelset') }} x={x} />,
          },
        ]
      : [];
    return pagesOf({ input, x, title }, [...head, ...sectionBlocks(shown, x)], tail(allChapters(shown)));
  }
  const tab = wheelsetsTab(order.type);
  if (!tab || all.length === 0) return pagesOf({ input, x, title, empty: x.t('release.noWheelsets') }, []);
  return all.flatMap((wheelset) => {
    const chapters = chapterTables(order.type, tab, values, x, wheelset.entry);
    const block: Block = {
      key: `wheelset-${wheelset.position}`,
      lines: chapterLines(chapters) + 3,
      node: (
        <Chapters
          key={`wheelset-${wheelset.position}`}
          chapters={chapters}
          x={x}
          titles={<WheelsetTitle wheelset={wheelset} x={x} />}
        />
      ),
    };
    return pagesOf({ input, x, title, key: `wheelset-${wheelset.position}` }, [block], tail(chapters));
  });
}

/** WHEELSET_REPORT: one line per wheelset with its main measures, incoming → outgoing. */
export function wheelsetReportPages({ input, x }: Props): ReactElement[] {
  const { order, values } = input;
  const fields = measureFields(order.type);
  const all = wheelsets(order.type, values, x);
  const rows = all.map((wheelset) => ({ wheelset, measures: wheelsetMeasures(order.type, wheelset, values, x) }));
  const head = (label: string, unit: string) => (unit ? `${label} (${unit})` : label);
  // Landscape A4 holds 778 pt between the margins: position, number, wheel, the wheel measures (the first, the
  // diameter, has the longest label), the wheelset measures (SR has three decimals).
  const width = { position: 44, number: 106, wheel: 46, wheelset: 102 };
  const wheelWidth = (m: number) => (m === 0 ? 114 : 88);
  const cell = { paddingVertical: 2.5, paddingHorizontal: 3 };
  const shown = (measure: { in: string; out: string; outsideLimit: boolean }) =>
    measure.in || measure.out ? `${measure.in || '–'} → ${measure.out || '–'}${measure.outsideLimit ? ' *' : ''}` : '';
  const anyOutside = rows.some(
    ({ measures }) =>
      measures.measures.some((m) => m.outsideLimit) ||
      measures.wheels.some((wheel) => wheel.measures.some((m) => m.outsideLimit)),
  );
  return [
    <DocumentPage key="report" input={input} x={x} title={x.t('title.WHEELSET_REPORT')} landscape>
      <Text style={[styles.note, { marginBottom: 6 }]}>{x.t('report.legend')}</Text>
      <View style={styles.headRow}>
        <Text style={[cell, styles.bold, { width: width.position }]}>{x.t('report.position')}</Text>
        <Text style={[cell, styles.bold, { width: width.number }]}>{x.t('report.number')}</Text>
        <Text style={[cell, styles.bold, { width: width.wheel }]}>{x.t('report.wheel')}</Text>
        {fields.wheel.map((field, m) => (
          <Text key={field.path} style={[cell, styles.bold, { width: wheelWidth(m) }]}>
            {head(x.field(field), x.unit(field.unit))}
          </Text>
        ))}
        {fields.wheelset.map((field) => (
          <Text key={field.path} style={[cell, styles.bold, { width: width.wheelset }]}>
            {head(x.field(field), x.unit(field.unit))}
          </Text>
        ))}
      </View>
      {rows.map(({ wheelset, measures }, r) => {
        const exchanged = wheelset.numberIn && wheelset.numberOut && wheelset.numberIn !== wheelset.numberOut;
        return (
          <View key={r} style={[styles.row, { borderBottomWidth: 0.8 }]} wrap={false}>
            <Text style={[cell, styles.bold, { width: width.position }]}>{wheelset.position || '–'}</Text>
            <View style={[cell, { width: width.number }]}>
              <Text style={styles.bold}>{number(wheelset.numberOut || wheelset.numberIn)}</Text>
              {exchanged ? (
                <Text style={styles.note}>
                  {x.t('report.removed', { number: number(wheelset.numberIn).replaceAll(' ', '\u00a0') })}
                </Text>
              ) : null}
            </View>
            <View>
              {measures.wheels.map((wheel, w) => (
                <View
                  key={w}
                  style={[
                    { flexDirection: 'row' },
                    w === 0 ? { borderBottomWidth: 0.3, borderBottomColor: '#d5dce2' } : {},
                  ]}
                >
                  <Text style={[cell, { width: width.wheel }]}>{wheel.side}</Text>
                  {wheel.measures.map((measure, m) => (
                    <Text key={m} style={[cell, { width: wheelWidth(m) }, measure.outsideLimit ? styles.bold : {}]}>
                      {shown(measure)}
                    </Text>
                  ))}
                </View>
              ))}
            </View>
            {measures.measures.map((measure, m) => (
              <Text key={m} style={[cell, { width: width.wheelset }, measure.outsideLimit ? styles.bold : {}]}>
                {shown(measure)}
              </Text>
            ))}
          </View>
        );
      })}
      {rows.length === 0 ? <Text style={styles.paragraph}>{x.t('release.noWheelsets')}</Text> : null}
      {anyOutside ? <Text style={styles.note}>{x.t('outsideLimit')}</Text> : null}
      <Signatures captions={[x.t('signature.inspector'), x.t('signature.date'), x.t('signature.signature')]} />
    </DocumentPage>,
  ];
}
