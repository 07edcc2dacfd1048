import { readFileSync } from 'node:fs';
import { ORDER_ROOTS, type OrderType, attributeProblem, resolveKey } from '@vers/domain';
import { describe, expect, it } from 'vitest';
import { MAX_XML_BYTES, type XmlImportResult, parseOrderXml } from './xml-import.ts';
import { XSD_FILES, orderXsd } from './xml-schema.ts';

const repo = new URL('../../../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, repo), 'utf8');
const wagonXml = read('docs/xml/example-wagon.xml');
const wheelsetXml = read('docs/xml/example-wheelset.xml');

const WAGON_IN = ORDER_ROOTS.WAGON.in;
const WHEELSET_IN = ORDER_ROOTS.WHEELSET.in;

function accepted(result: XmlImportResult) {
  if (!result.ok) throw new Error(`refused: ${result.messageKey} ${result.message} (line ${result.line})`);
  return result;
}
const valueMap = (result: XmlImportResult) => new Map(accepted(result).values.map(({ key, value }) => [key, value]));

/** No refusal may carry data read from the file system or an expanded entity. */
function expectCleanRefusal(result: XmlImportResult, messageKey: string) {
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.messageKey).toBe(messageKey);
  expect(JSON.stringify(result)).not.toContain('root:');
  expect(result.message.length).toBeLessThan(500);
}

describe('XML schema', () => {
  it.each(['WAGON', 'WHEELSET'] as const)('the committed %s schema is the generated one', (type: OrderType) => {
    expect(read(XSD_FILES[type])).toBe(orderXsd(type));
  });

  it('marks only the incoming vehicle number and the list differentiators as mandatory', () => {
    const xsd = orderXsd('WAGON');
    const required = [...xsd.matchAll(/<xs:element name="(\w+)"[^>]*minOccurs="1"/g)].map((match) => match[1]);
    expect(required).toContain('Waggonnummer');
    expect(required).toContain('technicalWaggonIncoming');
    expect(required.filter((name) => name === 'Waggonnummer')).toHaveLength(1);
    expect(required).toContain('Position');
    expect(required).not.toContain('Eigengewicht');
  });
});

describe('parseOrderXml', () => {
  it('reads the wagon example into incoming result keys', async () => {
    const result = accepted(await parseOrderXml(wagonXml, 'WAGON'));
    expect(result.number).toBe('218124712173');
    expect(result.subNumbers).toEqual(['318001234513', '318001234521', '318001234539', '318001234547']);
    const values = valueMap(result);
    expect(values.get(`${WAGON_IN}.Waggonnummer`)).toBe('218124712173');
    expect(values.get(`${WAGON_IN}.Eigengewicht`)).toBe('24800');
    expect(values.get(`${WAGON_IN}.AllowableAxleLoad`)).toBe('22.5');
    expect(values.get(`${WAGON_IN}.TSIApproval`)).toBe(true);
    expect(values.get(`${WAGON_IN}.Labeling.Faehrbootfaehigkeit`)).toBe(false);
    expect(values.get(`${WAGON_IN}.Bemerkung`)).toBe(
      'Eingang nach Spurkranzschaden an Radsatz 4 & planmäßiger Revision.',
    );
    expect(values.get(`${WAGON_IN}.Understructure.BogieCollection.Bogie[1].PositionDrehgestell`)).toBe('2');
    const wheelset = `${WAGON_IN}.Understructure.WheelsetCollection.Wheelset`;
    expect(values.get(`${wheelset}[3].Position`)).toBe('4');
    expect(values.get(`${wheelset}[3].Wheelsetnumber`)).toBe('318001234547');
    expect(values.get(`${wheelset}[3].Wheels.Wheel[0].Sd`)).toBe('27.5');
    expect(values.get(`${wheelset}[0].Wheels.Wheel[1].Side`)).toBe('R');
    // Every value fits the catalogue as an activity would.
    for (const { key, value } of result.values) {
      const resolved = resolveKey('WAGON', key);
      expect(resolved?.side, key).toBe('in');
      expect(attributeProblem(resolved!.field!, { value, CaptureDate: '2026-03-02T08:00:00Z' }), key).toBeNull();
    }
  });

  it('reads the wheelset example into incoming result keys', async () => {
    const result = accepted(await parseOrderXml(wheelsetXml, 'WHEELSET'));
    expect(result.number).toBe('318001234513');
    expect(result.subNumbers).toEqual([]);
    const values = valueMap(result);
    expect(values.get(`${WHEELSET_IN}.Wheelsetnumber`)).toBe('318001234513');
    expect(values.get(`${WHEELSET_IN}.ArDimension`)).toBe('1360.5');
    expect(values.get(`${WHEELSET_IN}.Wheels.Wheel[0].Sd`)).toBe('21.5');
    expect(values.get(`${WHEELSET_IN}.Wheels.Wheel[1].Side`)).toBe('R');
    expect(values.get(`${WHEELSET_IN}.Bearings.Bearing[1].BearingPosition`)).toBe('RA');
    expect(values.get(`${WHEELSET_IN}.Audits.DateIS1`)).toBe('2019-05-14');
    for (const { key } of result.values) expect(resolveKey('WHEELSET', key)?.side, key).toBe('in');
  });

  it('refuses a file of the other order type', async () => {
    const result = await parseOrderXml(wagonXml, 'WHEELSET');
    expect(result).toMatchObject({ ok: false, messageKey: 'UNEXPECTED_ORDER_TYPE' });
    expect(await parseOrderXml(wheelsetXml, 'WAGON')).toMatchObject({ ok: false, messageKey: 'UNEXPECTED_ORDER_TYPE' });
  });

  it('refuses a wagon without its number', async () => {
    const missing = wagonXml.replace('<Waggonnummer>218124712173</Waggonnummer>', '');
    expect(await parseOrderXml(missing, 'WAGON')).toMatchObject({ ok: false, messageKey: 'MISSING_MANDATORY' });
    const empty = wagonXml.replace('<Waggonnummer>218124712173</Waggonnummer>', '<Waggonnummer> </Waggonnummer>');
    expect(await parseOrderXml(empty, 'WAGON')).toMatchObject({ ok: false, messageKey: 'MISSING_MANDATORY' });
  });

  it('refuses a wrong check digit', async () => {
    const wrong = wagonXml.replace(
      '<Waggonnummer>218124712173</Waggonnummer>',
      '<Waggonnummer>218124712174</Waggonnummer>',
    );
    expect(await parseOrderXml(wrong, 'WAGON')).toMatchObject({ ok: false, messageKey: 'NOT_VALID_XML' });
  });

  it('refuses broken XML with its line', async () => {
    const broken = wagonXml.replace('<Eigengewicht>24800</Eigengewicht>', '<Eigengewicht>24800</Eigen>');
    const result = await parseOrderXml(broken, 'WAGON');
    const line = wagonXml.split('\n').findIndex((text) => text.includes('<Eigengewicht>')) + 1;
    expect(result).toMatchObject({ ok: false, messageKey: 'NOT_VALID_XML', line });
  });

  it('refuses a value that does not match the schema, with its line', async () => {
    const wrong = wagonXml.replace('<Eigengewicht>24800</Eigengewicht>', '<Eigengewicht>heavy</Eigengewicht>');
    const result = await parseOrderXml(wrong, 'WAGON');
    const line = wagonXml.split('\n').findIndex((text) => text.includes('<Eigengewicht>')) + 1;
    expect(result).toMatchObject({ ok: false, messageKey: 'NOT_VALID_XML', line });
    if (!result.ok) expect(result.message).toContain('Eigengewicht');
    const unknown = wagonXml.replace('<Eigengewicht>24800</Eigengewicht>', '<Gewicht>24800</Gewicht>');
    expect(await parseOrderXml(unknown, 'WAGON')).toMatchObject({ ok: false, messageKey: 'NOT_VALID_XML' });
  });

  it('refuses two list entries with the same differentiator', async () => {
    const twice = wagonXml.replace(
      '<PositionDrehgestell>2</PositionDrehgestell>',
      '<PositionDrehgestell>1</PositionDrehgestell>',
    );
    expect(await parseOrderXml(twice, 'WAGON')).toMatchObject({ ok: false, messageKey: 'NOT_VALID_XML' });
  });

  it('refuses an external entity without reading the file', async () => {
    const xxe = wagonXml
      .replace('<Body>', '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n<Body>')
      .replace('A-RCW', '&e;');
    const result = await parseOrderXml(xxe, 'WAGON');
    expectCleanRefusal(result, 'NOT_VALID_XML');
    expect(result).toMatchObject({ line: 4 });
  });

  it('refuses an entity reference without a declaration', async () => {
    const result = await parseOrderXml(wagonXml.replace('A-RCW', '&e;'), 'WAGON');
    expectCleanRefusal(result, 'NOT_VALID_XML');
  });

  it('refuses billion laughs without expanding entities', async () => {
    const entities = ['<!ENTITY lol "lol">'];
    for (let i = 1; i <= 9; i++) entities.push(`<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`);
    const laughs = wagonXml
      .replace('<Body>', `<!DOCTYPE lolz [\n${entities.join('\n')}\n]>\n<Body>`)
      .replace('A-RCW', '&lol9;');
    const started = Date.now();
    const result = await parseOrderXml(laughs, 'WAGON');
    expectCleanRefusal(result, 'NOT_VALID_XML');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('refuses a file over the size limit before parsing it', async () => {
    const padding = `<!--${'x'.repeat(MAX_XML_BYTES)}-->`;
    const big = wagonXml.replace('<Body>', `${padding}\n<Body>`);
    expectCleanRefusal(await parseOrderXml(big, 'WAGON'), 'TOO_LARGE');
    // Multi-byte characters count as bytes.
    const wide = wagonXml.replace('<Body>', `<!--${'ü'.repeat(MAX_XML_BYTES / 2 + 1)}-->\n<Body>`);
    expectCleanRefusal(await parseOrderXml(wide, 'WAGON'), 'TOO_LARGE');
  });

  it('refuses a file whose root is not Body', async () => {
    expect(await parseOrderXml('<Order><Wagen/></Order>', 'WAGON')).toMatchObject({
      ok: false,
      messageKey: 'NOT_VALID_XML',
    });
  });
});
