import { crc32, deflateRawSync } from "node:zlib";

export interface ZipEntryInput {
  name: string;
  data: Uint8Array | string;
  /** A lie about the inflated size, written in both headers (a zip bomb that hides its size). */
  declaredSize?: number;
  store?: boolean;
}

/**
 * A minimal ZIP writer for hostile and ordinary test bundles (no ZIP writer is a dependency). With
 * `sysb`, the 8-byte `SYSB` + version 2 header comes first and the offsets count from the file's
 * start, as symbolic's SourceBundleWriter (sentry-cli) writes them.
 */
export function writeZip(entries: ZipEntryInput[], options: { sysb?: boolean } = {}): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  const push = (buffer: Buffer) => {
    parts.push(buffer);
    offset += buffer.length;
  };
  if (options.sysb) {
    const header = Buffer.alloc(8);
    header.write("SYSB", 0, "latin1");
    header.writeUInt32LE(2, 4);
    push(header);
  }
  for (const entry of entries) {
    const data = typeof entry.data === "string" ? Buffer.from(entry.data) : Buffer.from(entry.data);
    const compressed = entry.store ? data : deflateRawSync(data);
    const name = Buffer.from(entry.name);
    const size = entry.declaredSize ?? data.length;
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(entry.store ? 0 : 8, 8);
    local.writeUInt32LE(0, 10);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const localOffset = offset;
    push(local);
    push(name);
    push(compressed);
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(0x0800, 8);
    record.writeUInt16LE(entry.store ? 0 : 8, 10);
    record.writeUInt32LE(0, 12);
    record.writeUInt32LE(crc, 16);
    record.writeUInt32LE(compressed.length, 20);
    record.writeUInt32LE(size, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt32LE(localOffset, 42);
    central.push(record, name);
  }
  const centralStart = offset;
  for (const buffer of central) push(buffer);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(offset - centralStart, 12);
  end.writeUInt32LE(centralStart, 16);
  push(end);
  return Buffer.concat(parts);
}

/** An artifact bundle as sentry-cli writes it: `manifest.json` plus the files it names. */
export function writeBundle(
  files: { path: string; type: string; url: string; headers?: Record<string, string>; data: string | Uint8Array }[],
  manifest: Record<string, unknown> = {},
): Buffer {
  const manifestJson = {
    files: Object.fromEntries(files.map((file) => [file.path, { type: file.type, url: file.url, headers: file.headers ?? {} }])),
    ...manifest,
  };
  return writeZip([{ name: "manifest.json", data: JSON.stringify(manifestJson) }, ...files.map((file) => ({ name: file.path, data: file.data }))], {
    sysb: true,
  });
}
