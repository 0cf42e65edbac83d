// postinstall: patches a crash in postgres.js 3.4.9 (the driver the design card names).
//
// When a connection closes while a small write is queued behind setImmediate, `nextWrite` runs
// with `socket === null` and throws from a timer — an uncaught exception that kills the process
// (porsager/postgres#1066, #1154, #1208; fixes proposed in #1168, #1176, #1209, not released).
// Teardown also clears that timer without forgetting it, so a reconnected socket never flushes
// small writes again. Ingest must survive a PostgreSQL restart, so until upstream ships a fix we
// settle the queued query with CONNECTION_CLOSED and reset the write state on teardown.
// Idempotent; `src/server/db/postgres-driver-patch.test.ts` fails if the patch is not in place.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const MARKER = "/* faultline: null-socket guard */";
const require = createRequire(import.meta.url);

function driverRoot() {
  try {
    return path.resolve(path.dirname(require.resolve("postgres")), "../..");
  } catch {
    return null;
  }
}

const replacements = [
  [
    "  function nextWrite(fn) {\n",
    `  function nextWrite(fn) {\n    ${MARKER}\n    if (!socket) {\n      chunk = nextWriteTimer = null\n      error(Errors.connection('CONNECTION_CLOSED', options, socket))\n      return false\n    }\n`,
  ],
  [
    "    clearImmediate(nextWriteTimer)\n    if (socket) {\n",
    "    clearImmediate(nextWriteTimer)\n    nextWriteTimer = null\n    chunk = null\n    if (socket) {\n",
  ],
  [
    "    clearImmediate(nextWriteTimer)\n    socket.removeListener('data', data)\n",
    "    clearImmediate(nextWriteTimer)\n    nextWriteTimer = null\n    chunk = null\n    socket.removeListener('data', data)\n",
  ],
];

export function patchDriver(root = driverRoot()) {
  if (!root) return [];
  const results = [];
  for (const file of ["src/connection.js", "cjs/src/connection.js"]) {
    const target = path.join(root, file);
    if (!existsSync(target)) continue;
    let source = readFileSync(target, "utf8");
    if (source.includes(MARKER)) {
      results.push(`${file}: already patched`);
      continue;
    }
    const missing = replacements.filter(([from]) => !source.includes(from));
    if (missing.length > 0) {
      results.push(`${file}: NOT patched (driver changed; check whether upstream fixed nextWrite)`);
      continue;
    }
    for (const [from, to] of replacements) source = source.replace(from, to);
    writeFileSync(target, source);
    results.push(`${file}: patched`);
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of patchDriver()) console.log(`postgres driver patch: ${line}`);
}
