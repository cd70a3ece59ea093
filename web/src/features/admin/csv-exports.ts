/**
 * The two download buttons: the server streams every row (GET /api/admin/exports/*.csv, with the
 * byte-order mark and formula neutralisation); the browser only names and saves the file.
 */
import { feedbackCsvName, RATINGS_CSV_NAME } from '../../../../domain/csv-exports';
import { fetchExport, type AdminSession } from './admin-api';

export { feedbackCsvName, RATINGS_CSV_NAME };

/** The alerts when there is nothing to export (docs/product-rules.md, CSV rules), and when the export fails. */
const TEXTS = {
  ratings: { empty: 'No ratings to download from the currently displayed data.', failed: 'Failed to download ratings' },
  feedback: { empty: 'No feedback to download.', failed: 'Failed to download feedback' },
} as const;

/** Hands a file to the browser's download machinery. */
export function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The click has already handed the blob to the download; revoking later keeps slow browsers safe.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Downloads a full export, or alerts why not. */
export async function downloadExport(session: AdminSession, kind: 'ratings' | 'feedback'): Promise<void> {
  const result = await fetchExport(session, kind);
  const texts = TEXTS[kind];
  if (!result.ok) {
    window.alert(result.message === null ? `${texts.failed}.` : `${texts.failed}: ${result.message}`);
    return;
  }
  if ('empty' in result) {
    window.alert(texts.empty);
    return;
  }
  downloadBlob(kind === 'ratings' ? RATINGS_CSV_NAME : feedbackCsvName(new Date()), result.file);
}
