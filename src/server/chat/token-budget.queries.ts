import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { executeRows } from "../db/execute";
import { aiTokenReservations } from "../db/schema/index";

export interface AnswerReservation {
  id: string;
  organizationId: string;
  /** The UTC day whose usage row serialises the organization's reservations. */
  day: string;
  budget: number;
  /** The answer's own cap: the most it may use. */
  tokens: number;
  now: Date;
  expiresAt: Date;
}

/** Where the budget stood when a reservation was refused. */
export interface BudgetSpent {
  used: number;
  reserved: number;
}

/**
 * Holds back `tokens` for one answer, or answers where the budget stands when it has no room
 * left: what the day's answers used plus what the answers still being written hold reaches the
 * budget. An answer is admitted while there is room, and may use up to its cap, so the day's
 * total stays within the budget plus one answer's cap however many answers start at once.
 *
 * Race: the budget used to be read and then spent by the answer's end, so ten parallel answers all
 * passed the check (15,550 tokens of a 3,000 budget). Here the organization's usage row of the day
 * is locked first (created at zero if the day has none yet); the next statement takes a new
 * snapshot (READ COMMITTED), so it sees every reservation committed by whoever held the lock
 * before, and reservations of one organization are made one at a time. The answer's end deletes
 * its reservation in the same statement that adds its usage (answer.queries.ts finishAnswer), so
 * the two are never both counted or both missing.
 *
 * Expiry rather than a sweep at start-up: replicas share the database, and a starting process
 * cannot tell its own dead reservations from a live replica's (nor would a process that never
 * restarts ever sweep). A reservation expires with the conversation's answer lease, which is
 * longer than any answer should take; expired rows are deleted here, under the same lock.
 */
export function reserveAnswerTokens(db: Db, reservation: AnswerReservation): Promise<BudgetSpent | null> {
  const { id, organizationId, day, budget, tokens } = reservation;
  const now = reservation.now.toISOString();
  return db.transaction(async (tx) => {
    const [usage] = await executeRows<{ used: string | number }>(
      tx,
      sql`insert into ai_token_usage (organization_id, day) values (${organizationId}, ${day}::date)
        on conflict (organization_id, day) do update set input_tokens = ai_token_usage.input_tokens
        returning input_tokens + output_tokens as used`,
    );
    const used = Number(usage.used);
    const [held] = await executeRows<{ reserved: string | number; admitted: string | number }>(
      tx,
      sql`with expired as (
        delete from ai_token_reservations where organization_id = ${organizationId} and expires_at <= ${now}::timestamptz
      ), held as (
        select coalesce(sum(tokens), 0) as reserved from ai_token_reservations
        where organization_id = ${organizationId} and expires_at > ${now}::timestamptz
      ), admitted as (
        insert into ai_token_reservations (id, organization_id, tokens, expires_at)
        select ${id}::uuid, ${organizationId}, ${tokens}::bigint, ${reservation.expiresAt.toISOString()}::timestamptz
        from held where ${used}::bigint + held.reserved < ${budget}::bigint
        returning id
      )
      select held.reserved, (select count(*) from admitted) as admitted from held`,
    );
    return Number(held.admitted) === 1 ? null : { used, reserved: Number(held.reserved) };
  });
}

/** Gives a reservation back when no usage follows it (refused before the stream, or the answer's save failed). */
export async function releaseReservation(db: Db, organizationId: string, id: string) {
  await db.delete(aiTokenReservations).where(and(eq(aiTokenReservations.organizationId, organizationId), eq(aiTokenReservations.id, id)));
}
