import { customType } from "drizzle-orm/pg-core";

/**
 * A JSON document kept as the text the server wrote. For documents that are written once and read
 * whole (stored events): PostgreSQL never looks inside them, and parsing them into jsonb on insert
 * cost about a third of the database's CPU per ingested event (bench/README.md).
 */
export const jsonText = customType<{ data: unknown; driverData: string }>({
  dataType: () => "text",
  toDriver: (value) => JSON.stringify(value),
  fromDriver: (value) => JSON.parse(value),
});
