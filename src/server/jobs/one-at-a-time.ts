/**
 * Runs the tasks given to it one after another, in the order given. The job queue runs the jobs it
 * claims side by side; work that would only queue up inside the database (evaluations of one
 * project's rules lock the same storm-guard rows) waits here instead, without holding a pooled
 * connection that ingest's next batch needs.
 */
export function oneAtATime() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
}
