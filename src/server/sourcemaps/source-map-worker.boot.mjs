// A worker thread starts without the TypeScript loader the server runs under (tsx): register it,
// then load the worker itself (source-map-workers.ts passes its URL). The same boot as
// src/server/ingest/prepare/payload-worker.boot.mjs.
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
await import(workerData.entry);
