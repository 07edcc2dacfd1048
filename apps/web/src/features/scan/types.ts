// The scanner's interface, apart from its engine: the camera dialog and the benchmark code against these types
// without importing the engine, which is loaded only by dynamic import when the camera opens.

export type ScanReading =
  | { kind: 'number'; digits: string; source: 'text' | 'code' } // 12 digits, check digit right
  | { kind: 'nothing'; reason: 'tooDark' | 'noNumber' | 'checkDigit' }; // checkDigit: 12 digits seen, none valid

export interface NumberScanner {
  /** Reads one frame (the UI passes the <video> or a canvas); `aim` is the frame-to-aim rectangle in the
   *  source's pixel coordinates, where to look first. */
  read(
    frame: HTMLVideoElement | HTMLCanvasElement | ImageBitmap,
    aim?: { x: number; y: number; width: number; height: number },
  ): Promise<ScanReading>;
  dispose(): Promise<void>;
}
