/**
 * The tables kept in week partitions (migration 0025) and what each is partitioned by. Occurrences
 * by `received_on`, a date beside `received_at` (the event id's unique index has to hold the key,
 * and a timestamp in it would make every delivery unique); native events by `created_at` itself.
 */
export interface PartitionedTable {
  name: "occurrences" | "events";
  /** The partition key column. */
  key: "received_on" | "created_at";
  /** The timestamp retention compares with the cutoff (the key's own day for `received_on`). */
  time: "received_at" | "created_at";
  /** How a day is written as a bound of the key: a date, or midnight UTC of a timestamptz. */
  keyType: "date" | "timestamptz";
}

export const PARTITIONED_TABLES: readonly PartitionedTable[] = [
  { name: "occurrences", key: "received_on", time: "received_at", keyType: "date" },
  { name: "events", key: "created_at", time: "created_at", keyType: "timestamptz" },
];

/** `occurrences_p20261123`: the partition of the week starting that Monday. */
export const partitionNameOf = (table: PartitionedTable, week: string) => `${table.name}_p${week.replaceAll("-", "")}`;
