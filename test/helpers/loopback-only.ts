import net from "node:net";

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|::1|::ffff:127(\.\d{1,3}){3})$/i;

/** The host and port a `Socket#connect` call names, in any of its argument shapes (unix sockets have none). */
function targetOf(args: unknown[]): { host: string; port: unknown } | null {
  // net.connect() hands connect() its already normalized [options, callback] array.
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (typeof first === "object" && first !== null) {
    const options = first as { host?: string; port?: unknown; path?: string };
    if (options.path) return null; // a unix socket, as net.connect decides (http passes path: null)
    return { host: options.host ?? "localhost", port: options.port };
  }
  if (typeof first === "string" && !/^\d+$/.test(first)) return null;
  return { host: typeof args[1] === "string" ? args[1] : "localhost", port: first };
}

/**
 * Refuses, before any DNS lookup or packet, every TCP connection this process opens to anything but
 * loopback, and records it: tools run in-process (the bundler plugins, the Sentry CLI library under
 * them) must talk to the test server only. Child processes are not covered (give them env instead).
 */
export function loopbackOnly() {
  const original = net.Socket.prototype.connect;
  const refused: string[] = [];
  net.Socket.prototype.connect = function connect(this: net.Socket, ...args: unknown[]) {
    const target = targetOf(args);
    if (target && !LOOPBACK.test(target.host.replace(/^\[|\]$/g, ""))) {
      refused.push(`${target.host}:${String(target.port)}`);
      process.nextTick(() => this.destroy(new Error(`The test refused a connection to ${target.host}: loopback only`)));
      return this;
    }
    return (original as (...rest: unknown[]) => net.Socket).apply(this, args);
  } as typeof net.Socket.prototype.connect;
  return {
    refused,
    restore() {
      net.Socket.prototype.connect = original;
    },
  };
}
