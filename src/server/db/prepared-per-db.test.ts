import { describe, expect, it } from "vitest";
import type { Db } from "./client";
import { preparedPerDb } from "./prepared-per-db";

describe("preparedPerDb", () => {
  it("builds a query once per database handle, and apart for another handle (a transaction)", () => {
    const builds: Db[] = [];
    const query = preparedPerDb((db) => {
      builds.push(db);
      return { builtFor: db };
    });
    const db = {} as Db;
    const transaction = {} as Db;
    expect(query(db)).toBe(query(db));
    expect(query(transaction).builtFor).toBe(transaction);
    expect(builds).toEqual([db, transaction]);
  });
});
