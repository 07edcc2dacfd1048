import { API_BASE, type Asset } from '@vers/domain';
import { ApiFailure } from '../../app/api.ts';
import { sessionStore } from '../../app/session.ts';

/**
 * Fetches a document with the session's token and hands it to the browser as a download under its filename. `route`:
 * where the document is read (the holder reads theirs under `holder/documents`).
 */
export function downloadDocument(
  asset: Pick<Asset, 'id' | 'filename'>,
  route: 'assets/download' | 'holder/documents' = 'assets/download',
): Promise<void> {
  return downloadFile(`${route}/${asset.id}`, asset.filename);
}

/** Fetches `path` below the API with the session's token and hands it to the browser as the file `filename`. */
export async function downloadFile(path: string, filename: string): Promise<void> {
  const token = sessionStore.get()?.token;
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/${path}`, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    });
  } catch {
    throw new ApiFailure(0, 'NO_CONNECTION', 'No connection to the server');
  }
  if (response.status !== 200) throw new ApiFailure(response.status, 'NOT_FOUND', response.statusText);
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = filename;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the file over; a moment later the URL may go.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
