import { parse, protocol, type PGlite } from "@electric-sql/pglite";

const TEXT_LIKE_TYPES = new Set([25 /* text */, 114 /* json */, 1043 /* varchar */]);

interface PreparedStatement {
  name: string;
  parameterTypes: number[];
}

/**
 * Named prepared statements for PGlite. Its query() parses, analyses and plans the statement on
 * every call, in five protocol exchanges; for the ingest batch statement that was about as much
 * WebAssembly time as executing it. Here a statement is parsed once per database under a name,
 * and each later call is one Bind/Describe/Execute/Sync exchange.
 *
 * It holds the same two locks as query() (no other query interleaves, and it never runs inside
 * someone else's open transaction), and lets execProtocol raise PostgreSQL's errors as query() does.
 */
export function createPglitePreparedRunner(client: PGlite) {
  const prepared = new Map<string, PreparedStatement>();

  async function prepare(text: string): Promise<PreparedStatement> {
    const name = `faultline_prepared_${prepared.size + 1}`;
    const { messages } = await client.execProtocol(
      Buffer.concat([protocol.serialize.parse({ name, text }), protocol.serialize.describe({ type: "S", name }), protocol.serialize.sync()]),
    );
    // Recorded only once PostgreSQL accepted it: a failed Parse leaves no statement behind.
    const statement = { name, parameterTypes: parse.parseDescribeStatementResults(messages) };
    prepared.set(text, statement);
    return statement;
  }

  return function run<T>(text: string, params: unknown[]): Promise<T[]> {
    return client._runExclusiveTransaction(() =>
      client.runExclusive(async () => {
        const statement = prepared.get(text) ?? (await prepare(text));
        const values = params.map((value, i) => toWireValue(client, value, statement.parameterTypes[i]));
        const { messages } = await client.execProtocol(
          Buffer.concat([
            protocol.serialize.bind({ statement: statement.name, values }),
            protocol.serialize.describe({ type: "P" }),
            protocol.serialize.execute({}),
            protocol.serialize.sync(),
          ]),
        );
        return (parse.parseResults(messages, client.parsers)[0]?.rows ?? []) as T[];
      }),
    );
  };
}

/**
 * Text and JSON parameters go as UTF-8 bytes (binary format, which for these types is the text
 * itself): Buffer encodes natively, where the protocol writer would count and encode the large
 * batch documents character by character in JavaScript. Other types use PGlite's own serializers.
 */
function toWireValue(client: PGlite, value: unknown, type: number | undefined): string | Uint8Array | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string" && type !== undefined && TEXT_LIKE_TYPES.has(type)) return Buffer.from(value, "utf8");
  const serialize = type === undefined ? undefined : client.serializers[type];
  return serialize ? serialize(value) : String(value);
}
