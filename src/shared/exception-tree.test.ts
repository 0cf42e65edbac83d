import { describe, expect, it } from "vitest";
import { exceptionTree } from "./exception-tree";
import type { ExceptionValueView } from "./occurrence-view";

const entry = (type: string, exceptionId: number | null, parentId: number | null, isExceptionGroup = false): ExceptionValueView => ({
  type,
  value: null,
  module: null,
  frames: [],
  mechanism: { type: "chained", handled: null, synthetic: false, description: null, helpLink: null, isExceptionGroup, exceptionId, parentId },
});

describe("exceptionTree", () => {
  it("shows a plain chain thrown first, then its causes", () => {
    const tree = exceptionTree([entry("Cause", 1, 0), entry("Thrown", 0, null)]);
    expect(tree.map((e) => [e.exception.type, e.depth, e.causedBy])).toEqual([
      ["Thrown", 0, false],
      ["Cause", 0, true],
    ]);
  });

  it("shows an exception group as a tree, root first, children indented under their parent", () => {
    const tree = exceptionTree([entry("ValueError", 3, 2), entry("Inner group", 2, 0, true), entry("TypeError", 1, 0), entry("ExceptionGroup", 0, null, true)]);
    expect(tree.map((e) => [e.exception.type, e.depth])).toEqual([
      ["ExceptionGroup", 0],
      ["Inner group", 1],
      ["ValueError", 2],
      ["TypeError", 1],
    ]);
  });

  it("survives ids that form a cycle", () => {
    const tree = exceptionTree([entry("A", 0, 1, true), entry("B", 1, 0, true)]);
    expect(tree).toHaveLength(2);
  });
});
