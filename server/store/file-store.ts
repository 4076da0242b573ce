// The file store: document bytes by content hash. Local directory by default; the interface is small so S3 or GCS can replace it.
// A file is first staged (a temporary object, hashed while it streams), then published to its content address inside the
// database transaction that records its document row, or discarded. Nothing half-written is ever published.
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../domain/errors';

export interface StoredFile {
  sha256: string;
  size: number;
}

/** A file written to a temporary place; `publish` moves it to its content address, `discard` removes it. */
export interface StagedFile extends StoredFile {
  /** Opaque name of the temporary copy. */
  tempKey: string;
}

/** One entry of the store, for the orphan sweep: a published file (by hash) or a temporary one. */
export interface StoreEntry {
  kind: 'file' | 'temp';
  key: string;
  modifiedAt: Date;
}

export interface FileStore {
  /** Streams `source` into a temporary object; never holds the whole file in memory. Rejects (and keeps nothing) if `source` errors. */
  stage(source: Readable): Promise<StagedFile>;
  /** Moves a staged file to its content address (the same bytes already there are simply replaced). */
  publish(file: StagedFile): Promise<void>;
  /** Removes the temporary copy if it is still there; never fails. */
  discard(file: StagedFile): Promise<void>;
  open(sha256: string): Promise<Readable | undefined>;
  /** Every published and temporary entry with its last modification time. */
  list(): AsyncIterable<StoreEntry>;
  /** Removes one entry; a missing one is not an error. */
  remove(entry: Pick<StoreEntry, 'kind' | 'key'>): Promise<void>;
  /** When a write last found the disk full, until a write succeeds again (/readyz reports it); undefined otherwise. */
  fullSince?(): Date | undefined;
}

/** ENOSPC (no space left) or EDQUOT (over quota): the store's disk cannot take the file, whatever the request. */
const isDiskFull = (err: unknown): boolean => ['ENOSPC', 'EDQUOT'].includes((err as { code?: string } | undefined)?.code ?? '');

/** What a request that met a full disk is answered: 507 with Retry-After, the service still serving everything else. */
const diskFull = () => new AppError('INSUFFICIENT_STORAGE', 'The service cannot store files right now: its storage is full. Try again later.');

const SHA256 = /^[0-9a-f]{64}$/;
const TEMP_KEY = /^[0-9a-f]{24}$/;

/** Files under `dir/<first two hex>/<sha256>`, temporaries under `dir/tmp`; directories 0700 and files 0600 (KYC documents). */
export class LocalFileStore implements FileStore {
  private ready: Promise<void> | undefined;
  private full: Date | undefined;

  fullSince(): Date | undefined {
    return this.full;
  }

  /** Runs a write: a full disk becomes INSUFFICIENT_STORAGE (and is remembered); a success clears it. */
  private async writing<T>(fn: () => Promise<T>): Promise<T> {
    try {
      const result = await fn();
      this.full = undefined;
      return result;
    } catch (err) {
      if (!isDiskFull(err)) throw err;
      this.full ??= new Date();
      throw diskFull();
    }
  }

  constructor(private readonly dir: string) {}

  private ensure(): Promise<void> {
    this.ready ??= (async () => {
      await mkdir(join(this.dir, 'tmp'), { recursive: true, mode: 0o700 });
      // mkdir's mode does not apply to directories that already exist (an older install made them 0755).
      await chmod(this.dir, 0o700);
      await chmod(join(this.dir, 'tmp'), 0o700);
    })().catch((err) => {
      this.ready = undefined;
      throw err;
    });
    return this.ready;
  }

  stage(source: Readable): Promise<StagedFile> {
    return this.writing(() => this.stageNow(source));
  }

  protected async stageNow(source: Readable): Promise<StagedFile> {
    await this.ensure();
    const tempKey = randomBytes(12).toString('hex');
    const tmp = join(this.dir, 'tmp', tempKey);
    const hash = createHash('sha256');
    let size = 0;
    const count = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        hash.update(chunk);
        size += chunk.length;
        cb(null, chunk);
      },
    });
    const out = createWriteStream(tmp, { mode: 0o600 });
    try {
      await pipeline(source, count, out);
    } catch (err) {
      // The stream opens its file asynchronously: a source that fails first would otherwise leave the file created after the rm.
      if (!out.closed) await once(out, 'close').catch(() => undefined);
      await rm(tmp, { force: true });
      throw err;
    }
    return { sha256: hash.digest('hex'), size, tempKey };
  }

  async publish(file: StagedFile): Promise<void> {
    if (!SHA256.test(file.sha256) || !TEMP_KEY.test(file.tempKey)) throw new Error('not a staged file of this store');
    await this.writing(async () => {
      await this.ensure();
      await mkdir(join(this.dir, file.sha256.slice(0, 2)), { recursive: true, mode: 0o700 });
      await rename(join(this.dir, 'tmp', file.tempKey), this.path(file.sha256));
    });
  }

  async discard(file: StagedFile): Promise<void> {
    if (!TEMP_KEY.test(file.tempKey)) return;
    await rm(join(this.dir, 'tmp', file.tempKey), { force: true }).catch(() => undefined);
  }

  async open(sha256: string): Promise<Readable | undefined> {
    if (!SHA256.test(sha256)) return undefined;
    const p = this.path(sha256);
    return (await stat(p).catch(() => undefined)) ? createReadStream(p) : undefined;
  }

  async *list(): AsyncIterable<StoreEntry> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    for (const name of names) {
      const sub = join(this.dir, name);
      if (name === 'tmp') {
        for (const key of await readdir(sub).catch(() => [] as string[])) {
          if (!TEMP_KEY.test(key)) continue;
          const s = await stat(join(sub, key)).catch(() => undefined);
          if (s?.isFile()) yield { kind: 'temp', key, modifiedAt: s.mtime };
        }
      } else if (/^[0-9a-f]{2}$/.test(name)) {
        for (const key of await readdir(sub).catch(() => [] as string[])) {
          if (!SHA256.test(key) || !key.startsWith(name)) continue;
          const s = await stat(join(sub, key)).catch(() => undefined);
          if (s?.isFile()) yield { kind: 'file', key, modifiedAt: s.mtime };
        }
      }
    }
  }

  async remove(entry: Pick<StoreEntry, 'kind' | 'key'>): Promise<void> {
    if (entry.kind === 'file' && SHA256.test(entry.key)) await rm(this.path(entry.key), { force: true });
    else if (entry.kind === 'temp' && TEMP_KEY.test(entry.key)) await rm(join(this.dir, 'tmp', entry.key), { force: true });
  }

  private path(sha256: string): string {
    return join(this.dir, sha256.slice(0, 2), sha256);
  }
}
