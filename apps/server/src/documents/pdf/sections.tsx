/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Image, Page, StyleSheet, Text, View } from '@react-pdf/renderer';
import { formatVehicleNumber, pngProblem } from '@vers/domain';
import { Fragment, type ReactNode } from 'react';
import type { ChapterTable, ValueRow } from './collect.ts';
import { FONT_FAMILY } from './fonts.ts';
import type { Texts } from './labels.ts';
import type { PdfDocumentInput } from './model.ts';

/** The building blocks of every document: page frame with header and footer, value tables, signature places. */

const PRIMARY = '#005087';
const RULE = '#b8c4ce';
const SHADE = '#eef2f5';
const MUTED = '#5a6570';

export const styles = StyleSheet.create({
  page: { fontFamily: FONT_FAMILY, fontSize: 8.5, paddingTop: 24, paddingBottom: 40, paddingHorizontal: 32 },
  header: { marginBottom: 10 },
  headerTop: { flexDirection: 'row', alignItems: 'flex-start', marginBottom: 6 },
  logo: { height: 36, width: 90, objectFit: 'contain', objectPosition: 'left', marginRight: 10 },
  workshop: { flexGrow: 1, flexBasis: 0 },
  workshopName: { fontSize: 10.5, fontWeight: 'bold' },
  muted: { color: MUTED },
  title: { fontSize: 14, fontWeight: 'bold', color: PRIMARY, textAlign: 'right', maxWidth: 260, marginLeft: 14 },
  infoStrip: {
    flexDirection: 'row',
    borderTopWidth: 1.2,
    borderTopColor: PRIMARY,
    borderBottomWidth: 0.6,
    borderBottomColor: RULE,
    paddingVertical: 3,
  },
  infoCell: { flexGrow: 1, flexBasis: 0, paddingRight: 6 },
  caption: { fontSize: 6.5, color: MUTED, marginBottom: 1 },
  infoValue: { fontSize: 8.5, fontWeight: 'bold' },
  footer: {
    position: 'absolute',
    bottom: 16,
    left: 32,
    right: 32,
    flexDirection: 'row',
    justifyContent: 'space-between',
    borderTopWidth: 0.6,
    borderTopColor: RULE,
    paddingTop: 3,
    fontSize: 7,
    color: MUTED,
  },
  tabTitle: {
    fontSize: 11.5,
    fontWeight: 'bold',
    color: PRIMARY,
    marginTop: 10,
    marginBottom: 2,
    paddingBottom: 2,
    borderBottomWidth: 1,
    borderBottomColor: PRIMARY,
  },
  partTitle: { fontSize: 10, fontWeight: 'bold', marginTop: 8, marginBottom: 1 },
  chapterTitle: { fontSize: 9, fontWeight: 'bold', color: PRIMARY, marginTop: 7, marginBottom: 2 },
  headRow: { flexDirection: 'row', backgroundColor: SHADE, borderBottomWidth: 0.8, borderBottomColor: RULE },
  row: { flexDirection: 'row', borderBottomWidth: 0.4, borderBottomColor: RULE },
  groupRow: { flexDirection: 'row', backgroundColor: '#f6f8f9', borderBottomWidth: 0.4, borderBottomColor: RULE },
  cell: { paddingVertical: 2, paddingHorizontal: 3 },
  bold: { fontWeight: 'bold' },
  sectionTitle: {
    fontSize: 9.5,
    fontWeight: 'bold',
    color: '#ffffff',
    backgroundColor: PRIMARY,
    paddingVertical: 2.5,
    paddingHorizontal: 4,
    marginTop: 8,
  },
  sectionBody: { borderWidth: 0.6, borderTopWidth: 0, borderColor: RULE, padding: 5 },
  pair: { flexDirection: 'row', marginBottom: 2 },
  pairLabel: { width: '38%', color: MUTED, paddingRight: 6 },
  pairValue: { width: '62%' },
  fillLine: { borderBottomWidth: 0.6, borderBottomColor: '#8a949c', height: 16 },
  signatures: { flexDirection: 'row', marginTop: 10 },
  signature: { flexGrow: 1, flexBasis: 0, marginRight: 12 },
  signatureSpace: { height: 34, borderBottomWidth: 0.8, borderBottomColor: '#333333' },
  paragraph: { marginBottom: 3 },
  note: { fontSize: 7, color: MUTED, marginTop: 4 },
});

/** The vehicle the order is about, printed `NN NN NNNN NNN-C`. */
export const vehicleNumber = (input: PdfDocumentInput) => formatVehicleNumber(input.order.maintenanceNumber);

function Header({ input, x, title }: { input: PdfDocumentInput; x: Texts; title: string }) {
  const { workshop, order } = input;
  const info: [string, string][] = [
    [x.t('header.orderNumber'), order.number],
    [x.t('header.externalOrderNumber'), order.externalOrderNumber || '–'],
    [x.t('header.contractor'), order.contractor || '–'],
    [x.t(order.type === 'WAGON' ? 'header.wagonNumber' : 'header.wheelsetNumber'), vehicleNumber(input)],
    [x.t('header.generated'), x.date(input.generatedAt)],
  ];
  const site = [
    workshop.countryCode,
    workshop.revNr ? x.t('header.revNr', { value: workshop.revNr }) : '',
    workshop.siteId ? x.t('header.siteId', { value: workshop.siteId }) : '',
  ].filter(Boolean);
  return (
    <View style={styles.header} fixed>
      <View style={styles.headerTop}>
        {workshop.logoPng && pngProblem(workshop.logoPng) === null ? (
          <Image style={styles.logo} src={{ data: workshop.logoPng, format: 'png' }} />
        ) : null}
        <View style={styles.workshop}>
          <Text style={styles.workshopName}>{workshop.name}</Text>
          <Text style={styles.muted}>{site.join(' · ')}</Text>
        </View>
        <Text style={styles.title}>{title}</Text>
      </View>
      <View style={styles.infoStrip}>
        {info.map(([caption, value]) => (
          <View key={caption} style={styles.infoCell}>
            <Text style={styles.caption}>{caption}</Text>
            <Text style={styles.infoValue}>{value}</Text>
          </View>
        ))}
      </View>
    </View>
  );
}

function Footer({ input, x }: { input: PdfDocumentInput; x: Texts }) {
  return (
    <View style={styles.footer} fixed>
      <Text>{`${input.workshop.name} · ${input.order.number} · ${vehicleNumber(input)}`}</Text>
      <Text render={({ pageNumber, totalPages }) => x.t('footer.page', { page: pageNumber, pages: totalPages ?? 1 })} />
    </View>
  );
}

/** An A4 page with the document's header and footer on every page it flows over. */
export function DocumentPage(props: {
  input: PdfDocumentInput;
  x: Texts;
  title: string;
  landscape?: boolean;
  children: ReactNode;
}) {
  return (
    <Page size="A4" orientation={props.landscape ? 'landscape' : 'portrait'} style={styles.page}>
      <Header input={props.input} x={props.x} title={props.title} />
      {props.children}
      <Footer input={props.input} x={props.x} />
    </Page>
  );
}

const COLUMNS = { label: '40%', in: '25%', out: '25%', unit: '10%' } as const;

function TableHead({ x }: { x: Texts }) {
  return (
    <View style={styles.headRow}>
      <Text style={[styles.cell, styles.bold, { width: COLUMNS.label }]}>{x.t('table.field')}</Text>
      <Text style={[styles.cell, styles.bold, { width: COLUMNS.in }]}>{x.t('table.incoming')}</Text>
      <Text style={[styles.cell, styles.bold, { width: COLUMNS.out }]}>{x.t('table.outgoing')}</Text>
      <Text style={[styles.cell, styles.bold, { width: COLUMNS.unit }]}>{x.t('table.unit')}</Text>
    </View>
  );
}

/**
 * Texts from this length on (a remark may hold 4000 characters) may be longer than a page: their line wraps
 * between pages, any shorter line stays whole.
 */
export const LONG_TEXT = 500;
export const isLong = (...texts: string[]) => texts.some((text) => text.length >= LONG_TEXT);

function Row({ row }: { row: ValueRow }) {
  return (
    <View style={styles.row} wrap={isLong(row.label, row.in, row.out)}>
      <Text style={[styles.cell, { width: COLUMNS.label }]}>{row.label}</Text>
      <Text style={[styles.cell, { width: COLUMNS.in }]}>{row.in}</Text>
      <Text style={[styles.cell, { width: COLUMNS.out }, row.outsideLimit ? styles.bold : {}]}>
        {row.outsideLimit ? `${row.out} *` : row.out}
      </Text>
      <Text style={[styles.cell, { width: COLUMNS.unit }]}>{row.unit}</Text>
    </View>
  );
}

function GroupTitle({ title }: { title: string }) {
  return (
    <View style={styles.groupRow} wrap={false}>
      <Text style={[styles.cell, styles.bold]}>{title}</Text>
    </View>
  );
}

/**
 * A chapter's table: label | incoming | outgoing | unit, a sub-heading per collection entry. The lines are
 * returned flat, not inside a wrapping view: the PDF library puts a wrapping view whose first line does not fit
 * whole on the page it starts on, squeezed, when nothing precedes it there. Headings go with the line after them.
 */
export function ChapterBlock({ chapter, x, headings }: { chapter: ChapterTable; x: Texts; headings?: ReactNode }) {
  const lines = chapter.groups.flatMap((group, g) =>
    group.rows.map((row, r) => {
      const key = `${g}-${r}`;
      const head =
        g === 0 && r === 0 ? (
          <>
            {headings}
            <Text style={styles.chapterTitle}>{chapter.title}</Text>
            <TableHead x={x} />
          </>
        ) : null;
      const title = r === 0 && group.title ? <GroupTitle title={group.title} /> : null;
      if (!head && !title) return <Row key={key} row={row} />;
      // A long line does not go with its headings: the headings alone are kept together.
      return isLong(row.label, row.in, row.out) ? (
        <Fragment key={key}>
          <View wrap={false}>
            {head}
            {title}
          </View>
          <Row row={row} />
        </Fragment>
      ) : (
        <View key={key} wrap={false}>
          {head}
          {title}
          <Row row={row} />
        </View>
      );
    }),
  );
  return <>{lines}</>;
}

export function TabTitle({ title }: { title: string }) {
  return <Text style={styles.tabTitle}>{title}</Text>;
}

export function PartTitle({ title }: { title: string }) {
  return <Text style={styles.partTitle}>{title}</Text>;
}

/** A titled box of the release to service. */
export function Section({ title, children, keep }: { title: string; children: ReactNode; keep?: boolean }) {
  return (
    <View wrap={!keep}>
      <Text style={styles.sectionTitle} minPresenceAhead={40}>
        {title}
      </Text>
      <View style={styles.sectionBody}>{children}</View>
    </View>
  );
}

/** Label and value lines. */
export function Pairs({ pairs }: { pairs: readonly (readonly [string, string])[] }) {
  return (
    <>
      {pairs.map(([label, value]) => (
        <View key={label} style={styles.pair} wrap={isLong(value)}>
          <Text style={styles.pairLabel}>{label}</Text>
          <Text style={styles.pairValue}>{value || '–'}</Text>
        </View>
      ))}
    </>
  );
}

/** Empty lines to write on by hand. */
export function FillLines({ count }: { count: number }) {
  return (
    <>
      {Array.from({ length: count }, (_, i) => (
        <View key={i} style={styles.fillLine} />
      ))}
    </>
  );
}

/** Places to sign: a caption under a line each. */
export function Signatures({ captions, prefilled = {} }: { captions: string[]; prefilled?: Record<string, string> }) {
  return (
    <View style={styles.signatures} wrap={false}>
      {captions.map((caption) => (
        <View key={caption} style={styles.signature}>
          <View style={[styles.signatureSpace, { justifyContent: 'flex-end' }]}>
            {prefilled[caption] ? <Text style={{ marginBottom: 2 }}>{prefilled[caption]}</Text> : null}
          </View>
          <Text style={styles.caption}>{caption}</Text>
        </View>
      ))}
    </View>
  );
}

/** A simple table of text cells with given widths (percent strings), head row shaded. */
export function SimpleTable({ head, rows, widths }: { head: string[]; rows: string[][]; widths: string[] }) {
  return (
    <>
      <View style={styles.headRow} wrap={false}>
        {head.map((text, i) => (
          <Text key={i} style={[styles.cell, styles.bold, { width: widths[i] }]}>
            {text}
          </Text>
        ))}
      </View>
      {rows.map((row, r) => (
        <View key={r} style={styles.row} wrap={false}>
          {row.map((text, i) => (
            <Text key={i} style={[styles.cell, { width: widths[i] }]}>
              {text}
            </Text>
          ))}
        </View>
      ))}
    </>
  );
}
