/**
 * How far a streaming-replication standby is behind its primary, from one poll (read-replica.ts).
 * Pure, so its edge cases are tested without a standby.
 */

/** A WAL position as PostgreSQL prints it (`16/B374D848`: high and low 32 bits in hex) as one number. */
export function parseLsn(text: string): bigint {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text);
  if (!match) throw new Error(`not a WAL position: ${text}`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

export interface LagReading {
  /** pg_current_wal_lsn() on the primary, read before the standby is asked. */
  primaryLsn: string;
  /** pg_is_in_recovery() on the standby: false is a primary (a promoted standby, a wrong URL). */
  inRecovery: boolean;
  /** pg_last_wal_replay_lsn() on the standby; null before it replayed anything. */
  replayedLsn: string | null;
  /** now() - pg_last_xact_replay_timestamp() on the standby, in seconds; null before it replayed a transaction. */
  secondsSinceLastReplay: number | null;
}

/**
 * Seconds of lag, or null when it cannot be told (then the standby is not used).
 * - Replayed up to the primary's position read just before: 0, however long ago the last
 *   transaction was (an idle primary writes nothing, so the replay timestamp ages while the
 *   standby is perfectly current).
 * - Behind: the age of the last replayed transaction, an upper bound of how old its data is.
 * - Not in recovery: another primary, whose data never follows DATABASE_URL's writes.
 */
export function replicaLagSeconds(reading: LagReading): number | null {
  if (!reading.inRecovery || reading.replayedLsn === null) return null;
  if (parseLsn(reading.replayedLsn) >= parseLsn(reading.primaryLsn)) return 0;
  if (reading.secondsSinceLastReplay === null) return null;
  // Clocks of two machines: a replay stamped a little in the standby's future is current.
  return Math.max(0, reading.secondsSinceLastReplay);
}
