// A worker thread starts without the TypeScript loader the server runs under (tsx): register it,
// then load the worker itself (payload-workers.ts passes its URL).
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
await import(workerData.entry);
