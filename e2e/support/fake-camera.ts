import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { FRAME, type ScanPictureSpec, renderScanPicture } from '../../bench/src/scan-pictures.ts';
import { launchBrowser } from './browser.ts';

/**
 * Chromium's fake camera playing a picture of a number (issue 24): the scanner's own picture generator
 * (bench/src/scan-pictures.ts) draws it, and it is written as a one-frame YUV4MPEG2 file, which Chromium's
 * `--use-file-for-fake-video-capture` plays in a loop.
 *
 * Chromium shares its one camera among all its pages and opens the file again only when the camera starts after the
 * last page stopped it. A page that stops the camera and starts it again is ordered (one renderer's messages), so
 * `show` serves a second picture within one page. A page of another context may start the camera before the
 * browser has handled the stop of a context just closed, and would still get the picture before: `restart` gives a
 * test a browser of its own.
 */
export interface FakeCamera {
  /** The Chromium whose camera plays the picture shown last. */
  readonly browser: Browser;
  /** Puts this picture in front of the camera, from the next time it starts after every page stopped it. */
  show(spec: ScanPictureSpec): Promise<void>;
  /** Closes the browser (and its pages) and starts another whose camera plays this picture. */
  restart(spec: ScanPictureSpec): Promise<Browser>;
  close(): Promise<void>;
}

/** A painted number as the scanner's benchmark paints its easy pictures: printed groups, dark on a light panel. */
export function paintedNumber(digits: string): ScanPictureSpec {
  return {
    kind: 'text',
    digits,
    layout: 'hyphen',
    font: 'bold "DejaVu Sans"',
    size: 64,
    paint: 'dark',
    blur: 0,
    rotate: 0,
    shear: 0,
    noise: 4,
    occlusion: 0,
    exposure: 1,
    dx: 0,
    dy: 0,
  };
}

/**
 * Converts RGBA pixels to a YUV4MPEG2 file of one 4:2:0 frame (BT.601, studio range, as Chromium reads it), the
 * chroma of each 2x2 block averaged.
 */
export function y4mOf(rgba: Uint8Array, width: number, height: number): Buffer {
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F30:1 Ip A1:1 C420jpeg\nFRAME\n`, 'ascii');
  const luma = Buffer.alloc(width * height);
  const chromaWidth = width / 2;
  const chromaHeight = height / 2;
  const u = Buffer.alloc(chromaWidth * chromaHeight);
  const v = Buffer.alloc(chromaWidth * chromaHeight);
  for (let i = 0, p = 0; p < luma.length; p++, i += 4) {
    luma[p] = Math.round(16 + 0.257 * rgba[i]! + 0.504 * rgba[i + 1]! + 0.098 * rgba[i + 2]!);
  }
  for (let cy = 0; cy < chromaHeight; cy++) {
    for (let cx = 0; cx < chromaWidth; cx++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const) {
        const i = ((cy * 2 + dy) * width + cx * 2 + dx) * 4;
        r += rgba[i]!;
        g += rgba[i + 1]!;
        b += rgba[i + 2]!;
      }
      r /= 4;
      g /= 4;
      b /= 4;
      u[cy * chromaWidth + cx] = Math.round(128 - 0.148 * r - 0.291 * g + 0.439 * b);
      v[cy * chromaWidth + cx] = Math.round(128 + 0.439 * r - 0.368 * g - 0.071 * b);
    }
  }
  return Buffer.concat([header, luma, u, v]);
}

/** The picture's RGBA pixels, rendered and decoded in `page` (any page will do). */
async function pixelsOf(page: Page, spec: ScanPictureSpec): Promise<Uint8Array> {
  const png = await renderScanPicture(page, spec);
  const base64 = await page.evaluate(async (source) => {
    const image = new Image();
    image.src = `data:image/png;base64,${source}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    const data = context.getImageData(0, 0, image.width, image.height).data;
    // As base64 in slices: one String.fromCharCode over millions of bytes overflows the stack.
    let binary = '';
    for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
    return btoa(binary);
  }, png.toString('base64'));
  return new Uint8Array(Buffer.from(base64, 'base64'));
}

/**
 * A Chromium whose camera plays `first` (and later what `show` or `restart` puts there), allowed without asking
 * (`--use-fake-ui-for-media-stream`; a context may still be refused the camera by its permissions).
 */
export async function launchWithFakeCamera(first: ScanPictureSpec): Promise<FakeCamera> {
  const folder = mkdtempSync(path.join(tmpdir(), 'vers-fake-camera-'));
  const file = path.join(folder, 'camera.y4m');
  // The pictures are drawn in a Chromium of their own: the camera's must know its file when it starts.
  const painter = await launchBrowser();
  const page = await painter.newPage();
  const show = async (spec: ScanPictureSpec) => {
    const rgba = await pixelsOf(page, spec);
    // Written beside and renamed: Chromium never opens a half-written file.
    writeFileSync(`${file}.part`, y4mOf(rgba, FRAME.width, FRAME.height));
    renameSync(`${file}.part`, file);
  };
  const launch = () =>
    launchBrowser([
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${file}`,
    ]);
  await show(first);
  let browser = await launch();
  return {
    get browser() {
      return browser;
    },
    show,
    async restart(spec) {
      await browser.close();
      await show(spec);
      browser = await launch();
      return browser;
    },
    close: async () => {
      await browser.close();
      await painter.close();
    },
  };
}
