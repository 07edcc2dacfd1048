import { describe, expect, it } from 'vitest';
import { cameraProblemOf } from './ScanDialog.tsx';

describe('the camera problem told to the user', () => {
  it('names a refusal, a missing camera, and anything else as a camera that could not start', () => {
    expect(cameraProblemOf(new DOMException('refused', 'NotAllowedError'))).toBe('denied');
    // An insecure page or a policy that forbids the camera: refused as well, in the user's eyes.
    expect(cameraProblemOf(new DOMException('policy', 'SecurityError'))).toBe('denied');
    expect(cameraProblemOf(new DOMException('none', 'NotFoundError'))).toBe('noCamera');
    // No rear camera and no other that fits: no camera to use.
    expect(cameraProblemOf(new DOMException('constraints', 'OverconstrainedError'))).toBe('noCamera');
    // Another app holds it, or the hardware failed.
    expect(cameraProblemOf(new DOMException('busy', 'NotReadableError'))).toBe('busy');
    expect(cameraProblemOf('something else')).toBe('busy');
  });
});
