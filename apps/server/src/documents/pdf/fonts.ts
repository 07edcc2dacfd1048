import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Font } from '@react-pdf/renderer';
import { SERVER_PACKAGE_JSON } from '../../paths.ts';

/** DejaVu Sans covers Cyrillic and every Latin diacritic of the twelve languages (ș ț ő ű ł ğ ı ş ě ř ů ...). */
export const FONT_FAMILY = 'DejaVu Sans';

let registered = false;

/** Registers the font once per process; the PDF library keeps the registry globally. */
export function registerFonts(): void {
  if (registered) return;
  const folder = join(dirname(createRequire(SERVER_PACKAGE_JSON).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
  Font.register({
    family: FONT_FAMILY,
    fonts: [
      { src: join(folder, 'DejaVuSans.ttf'), fontWeight: 'normal' },
      { src: join(folder, 'DejaVuSans-Bold.ttf'), fontWeight: 'bold' },
    ],
  });
  // Hyphenation is English-only and would break numbers and codes: words wrap whole.
  Font.registerHyphenationCallback((word) => [word]);
  registered = true;
}

/**
 * fontkit caches glyphs by id with the characters of their first use. Embedding a document's font subset loads
 * glyphs by id, without characters, and a later document's text layout then gets those glyphs and drops their
 * characters: letters go missing ("xchanged"; foliojs/fontkit#154, diegomura/react-pdf#3404). Each document
 * starts with an empty glyph cache, and documents are rendered one at a time (see renderPdf).
 */
export function forgetGlyphs(): void {
  for (const family of Object.values(Font.getRegisteredFonts())) {
    for (const source of family.sources) {
      const font = source.data as { _glyphs?: Record<number, unknown> } | null;
      if (font?._glyphs) font._glyphs = {};
    }
  }
}
