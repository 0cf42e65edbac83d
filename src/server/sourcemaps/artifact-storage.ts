import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { randomUUID } from "node:crypto";

export type ArtifactKind = "chunks" | "blobs";

/**
 * Where uploaded bytes live: in the row's `data` column (the default: one backup holds
 * everything), or as files under `ARTIFACT_DIR`, the row keeping only the SHA-1 and size. Both are
 * content-addressed per organization, so writing the same bytes twice is harmless.
 */
export interface ArtifactStorage {
  /** Stores the bytes; returns what the row's `data` column keeps (null: the bytes are on disk). */
  write(kind: ArtifactKind, organizationId: string, sha1: string, bytes: Uint8Array): Promise<Uint8Array | null>;
  /** The bytes of a row, from its `data` column or from disk. */
  read(kind: ArtifactKind, organizationId: string, sha1: string, data: Uint8Array | null): Promise<Uint8Array>;
  /** Forgets the bytes of rows being deleted (a no-op for the database, where the row holds them). */
  remove(kind: ArtifactKind, organizationId: string, sha1s: readonly string[]): Promise<void>;
}

const databaseStorage: ArtifactStorage = {
  write: async (_kind, _organizationId, _sha1, bytes) => bytes,
  read: async (kind, organizationId, sha1, data) => {
    if (!data) throw new Error(`${kind} ${sha1} of ${organizationId} has no bytes in the database (was it stored under ARTIFACT_DIR?)`);
    return data;
  },
  remove: async () => {},
};

function directoryStorage(root: string): ArtifactStorage {
  // Organization ids come from better-auth (letters and digits); encoded anyway so none can name a path.
  const fileOf = (kind: ArtifactKind, organizationId: string, sha1: string) =>
    path.join(root, kind, encodeURIComponent(organizationId), sha1.slice(0, 2), sha1);
  return {
    async write(kind, organizationId, sha1, bytes) {
      if (!/^[0-9a-f]{40}$/.test(sha1)) throw new Error("not a SHA-1");
      const file = fileOf(kind, organizationId, sha1);
      await mkdir(path.dirname(file), { recursive: true });
      // Written aside and renamed: a reader never sees half a file, and two writers of the same bytes both succeed.
      const temporary = `${file}.${randomUUID()}.tmp`;
      await writeFile(temporary, bytes);
      await rename(temporary, file);
      return null;
    },
    read: async (kind, organizationId, sha1, data) => data ?? new Uint8Array(await readFile(fileOf(kind, organizationId, sha1))),
    async remove(kind, organizationId, sha1s) {
      await Promise.all(sha1s.map((sha1) => rm(fileOf(kind, organizationId, sha1), { force: true })));
    },
  };
}

/** The storage `ARTIFACT_DIR` asks for: a directory when set, else the database. */
export function artifactStorage(env: { ARTIFACT_DIR?: string }): ArtifactStorage {
  return env.ARTIFACT_DIR ? directoryStorage(path.resolve(env.ARTIFACT_DIR)) : databaseStorage;
}
