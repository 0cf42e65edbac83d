import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export interface AppProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `src/server/main.ts` as its own process (what `npm start` runs), API only. A start that
 * builds the client needs a longer `startTimeoutMs`.
 */
export async function startAppProcess(env: Record<string, string>, port?: number, nodeArgs: string[] = [], startTimeoutMs = 90_000): Promise<AppProcess> {
  const listenPort = port ?? (await freePort());
  const url = `http://127.0.0.1:${listenPort}`;
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", path.join(ROOT, "src/server/main.ts")], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "test",
      PORT: String(listenPort),
      HOST: "127.0.0.1",
      API_URL: url,
      LOG_LEVEL: "warn",
      CLIENT_MODE: "none",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  // Generous: on a shared 2-core machine under a parallel suite, start-up has taken over 30 s.
  const deadline = Date.now() + startTimeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return { child, url, output: () => output, exited };
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill("SIGKILL");
  throw new Error(`app did not start:\n${output}`);
}

/**
 * The chaos tests' crash: starts the app on `port`, runs `load` against it (given the current
 * app's URL, which survives the restart), kills the app with SIGKILL two seconds in and starts it
 * again on the same port; resolves to the load's result once the restarted app has stopped.
 */
export async function loadAcrossSigkill<T>(env: Record<string, string>, port: number, load: (appUrl: () => string) => Promise<T>): Promise<T> {
  let app = await startAppProcess(env, port);
  const running = load(() => app.url);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  app.child.kill("SIGKILL");
  await app.exited;
  app = await startAppProcess(env, port);
  const result = await running;
  app.child.kill("SIGTERM");
  await app.exited;
  return result;
}
