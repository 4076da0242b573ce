// Checks a file before it is sent, as the server will after: size first (no read), then the type by its first bytes, never by name.
import { MAX_DOCUMENT_BYTES } from '../../contract/documents';

export type FileKind = 'jpg' | 'png' | 'pdf';
export const DOCUMENT_KINDS: readonly FileKind[] = ['jpg', 'png', 'pdf'];
export const IMAGE_KINDS: readonly FileKind[] = ['jpg', 'png'];

/** The signatures the server's sniffer (file-type) recognises for the three accepted formats. */
const signatures: ReadonlyArray<readonly [FileKind, readonly number[]]> = [
  ['jpg', [0xff, 0xd8, 0xff]],
  ['png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['pdf', [0x25, 0x50, 0x44, 0x46]], // %PDF
];

export function sniffKind(head: Uint8Array): FileKind | undefined {
  return signatures.find(([, bytes]) => bytes.every((b, i) => head[i] === b))?.[0];
}

export type FileRefusal = 'tooLarge' | 'badType' | 'empty';

export interface FileCheckOptions {
  kinds?: readonly FileKind[];
  maxBytes?: number;
}

/** Why a file would be refused, or undefined when it may go. Reads at most 8 bytes, whatever the file's size. */
export async function checkFile(file: Blob, options: FileCheckOptions = {}): Promise<FileRefusal | undefined> {
  if (file.size === 0) return 'empty';
  if (file.size > (options.maxBytes ?? MAX_DOCUMENT_BYTES)) return 'tooLarge';
  const head = new Uint8Array(await file.slice(0, 8).arrayBuffer());
  const kind = sniffKind(head);
  return kind && (options.kinds ?? DOCUMENT_KINDS).includes(kind) ? undefined : 'badType';
}

/** `1536` → `1.5 kB`, `19` → `19 bytes`, in the reader's number format (the short unit for bytes reads "19 byte"). */
export function formatBytes(bytes: number, locale: string): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return new Intl.NumberFormat(locale, { style: 'unit', unit: units[unit], unitDisplay: unit === 0 ? 'long' : 'short', maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value);
}
