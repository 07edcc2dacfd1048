/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { Document, renderToBuffer } from '@react-pdf/renderer';
import type { ReactElement } from 'react';
import {
  mobileRepairPages,
  previewPages,
  releaseToServicePages,
  wheelsetRepairSheetPages,
  wheelsetReportPages,
} from './documents.tsx';
import { forgetGlyphs, registerFonts } from './fonts.ts';
import { type Texts, texts } from './labels.ts';
import type { PdfDocumentInput } from './model.ts';
import { type PdfDocumentType, withCalculatedValues } from '@vers/domain';
import { vehicleNumber } from './sections.tsx';

/** The pages of each document; functions rather than components, as each returns a list of page elements. */
const PAGES: Record<PdfDocumentType, (props: { input: PdfDocumentInput; x: Texts }) => ReactElement[]> = {
  PREVIEW: previewPages,
  MOBILE_REPAIR: mobileRepairPages,
  RELEASE_TO_SERVICE: releaseToServicePages,
  WHEELSET_REPAIR_SHEET: wheelsetRepairSheetPages,
  WHEELSET_REPORT: wheelsetReportPages,
};

/** The document being rendered: the next waits for it, as the PDF library's font state is shared. */
let rendering: Promise<unknown> = Promise.resolve();

/**
 * Renders one PDF document of an order (docs/requirements/administration.md#documents-screen), all A4 in the requested
 * language. Pure apart from reading the label files once per language: the caller reads the order from the database.
 * Documents are rendered one after the other, each with a fresh glyph cache (see forgetGlyphs).
 */
export function renderPdf(input: PdfDocumentInput): Promise<Buffer> {
  const result = rendering.then(() => render(input));
  rendering = result.catch(() => undefined);
  return result;
}

async function render(given: PdfDocumentInput): Promise<Buffer> {
  // Every calculated value is printed, also where the order holds only its inputs (issue 21).
  const input = { ...given, values: withCalculatedValues(given.order.type, given.values, given.generatedAt) };
  registerFonts();
  forgetGlyphs();
  const x = texts(input.language, input.optionTexts);
  const pages = PAGES[input.type]({ input, x });
  const title = `${x.t(`title.${input.type}`)} ${input.order.number} ${vehicleNumber(input)}`;
  return renderToBuffer(
    <Document
      title={title}
      author={input.workshop.name}
      creator="VERS"
      producer="VERS"
      language={input.language}
      creationDate={input.generatedAt}
    >
      {pages}
    </Document>,
  );
}
