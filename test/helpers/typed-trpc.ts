/**
 * Typed tRPC calls over HTTP for API tests: the procedure path, its input and its output are
 * checked against `AppRouter` (inferRouterInputs/Outputs), while the call still goes through the
 * real transport, cookies and all, with HttpSession.
 */
import { appRouter } from "../../src/server/composition/trpc.router";
import type { HttpSession } from "./http-session";
import type { RouterInputs as Inputs, RouterOutputs as Outputs } from "./trpc-caller";

/** "namespace.procedure" for every procedure of the app router. */
export type ProcedurePath = { [N in keyof Inputs & string]: `${N}.${keyof Inputs[N] & string}` }[keyof Inputs & string];

type Lookup<Table, P extends string> = P extends `${infer N}.${infer K}`
  ? N extends keyof Table
    ? K extends keyof Table[N]
      ? Table[N][K]
      : never
    : never
  : never;
export type ProcedureInput<P extends ProcedurePath> = Lookup<Inputs, P>;
export type ProcedureOutput<P extends ProcedurePath> = Lookup<Outputs, P>;

export interface TrpcResult<T> {
  status: number;
  data?: T;
  error?: { message: string; code: string; httpStatus: number };
}

/** Every procedure path of the running router, from its own definition. */
export const procedurePaths = () => Object.keys(appRouter._def.procedures) as ProcedurePath[];

/** Whether the router declares the procedure a query or a mutation (so a table of calls needs not say). */
export function procedureKind(path: ProcedurePath): "query" | "mutation" {
  const procedure = (appRouter._def.procedures as unknown as Record<string, { _def: { type: string } } | undefined>)[path];
  if (!procedure) throw new Error(`No procedure ${path} on the app router`);
  if (procedure._def.type !== "query" && procedure._def.type !== "mutation") throw new Error(`${path} is a ${procedure._def.type}`);
  return procedure._def.type;
}

export function callProcedure<P extends ProcedurePath>(session: HttpSession, path: P, input: ProcedureInput<P>): Promise<TrpcResult<ProcedureOutput<P>>> {
  return procedureKind(path) === "query" ? session.query<ProcedureOutput<P>>(path, input) : session.mutation<ProcedureOutput<P>>(path, input);
}

/**
 * An input with fields its schema does not have (organizationId, projectId, …): a tenancy probe
 * checks that they are stripped, never obeyed. The one deliberate escape from the input type.
 */
export const massAssigned = <T>(input: T, extra: Record<string, unknown>): T => ({ ...input, ...extra });
