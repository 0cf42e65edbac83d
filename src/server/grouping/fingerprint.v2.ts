import type { NormalizedException, NormalizedOccurrence } from "../../shared/occurrence.types";
import { crashSignature, frameLocation } from "./crash-signature";
import { hashComponents, type Grouping } from "./fingerprint.v1";
import { issueCulprit, issueTitle } from "./issue-title";
import { messageTemplate } from "./message-template";

/**
 * Grouping algorithm version 2: one issue per defect. Compared with v1 (exception types + every
 * in-app frame without line numbers, else the normalised message):
 * - a stack is identified by its crashing in-app frame and what lies below it (crash-signature.ts),
 *   so other callers, a new wrapper frame, a truncated stack or the depth of a recursion do not split;
 * - two throws in one function differ by their source line's text (or, without source, message);
 * - messages are parameterised further (message-template.ts: ids with digits, durations, paths);
 * - an error with no in-app frame adds its message template, keeping a network error's target port,
 *   so unreachable services do not merge through the runtime's identical socket frames;
 * - a JavaScript non-Error (a rejected string or plain object, a synthetic exception whose stack is
 *   only the capture site) groups by the value's template or the object's shape. A native crash's
 *   synthetic exception (generic signal type and value) groups by its crashing frames, so every
 *   segfault does not land in one issue.
 * Identical components hash alike in both versions (same meaning), so such a group keeps its issue.
 * Pure: runs at ingest on the normalised occurrence, no database access. v1 issues are linked, not
 * regrouped: ingest computes both fingerprints (see grouping.ts).
 */
export const GROUPING_VERSION_V2 = 2;

/** The parts "similar issues" compares, stored with each fingerprint (issue_fingerprints). */
export interface SimilarityParts {
  exceptionType: string | null;
  crashFrame: string | null;
  messageTemplate: string | null;
}

export interface GroupingV2 extends Grouping {
  parts: SimilarityParts;
}

const DEFAULT_VARIABLE = /^\{\{\s*default\s*\}\}$/i;
const JS_PLATFORMS = new Set(["javascript", "node", "react-native"]);
const OBJECT_CAPTURED = /^Object captured as (?:exception|promise rejection) with keys: /;
/** Fields of a rejected plain object that name its kind rather than carry data. */
const KIND_FIELDS = new Set(["code", "type", "name", "kind", "reason", "status", "error"]);

interface Components {
  components: string[];
  parts: SimilarityParts;
}

/** The shape of a rejected plain object: its keys, plus the values of fields that name its kind. */
function objectShape(occ: NormalizedOccurrence, value: string): string {
  const serialized = occ.extra.__serialized__;
  const keys = value.replace(OBJECT_CAPTURED, "");
  if (!serialized || typeof serialized !== "object" || Array.isArray(serialized)) return `shape:${keys}`;
  const kinds = Object.entries(serialized as Record<string, unknown>)
    .filter(([key, v]) => KIND_FIELDS.has(key.toLowerCase()) && (typeof v === "string" || typeof v === "number"))
    .map(([key, v]) => `${key}=${messageTemplate(String(v))}`)
    .sort();
  return `shape:${keys}${kinds.length > 0 ? `|${kinds.join(",")}` : ""}`;
}

function isJavaScriptNonError(occ: NormalizedOccurrence, exception: NormalizedException): boolean {
  return exception.mechanism?.synthetic === true && JS_PLATFORMS.has(occ.platform);
}

function exceptionComponents(occ: NormalizedOccurrence, exception: NormalizedException): Components {
  const type = `type:${exception.type}`;
  const value = exception.value ?? "";
  if (isJavaScriptNonError(occ, exception)) {
    const shape = OBJECT_CAPTURED.test(value) ? objectShape(occ, value) : `value:${messageTemplate(value)}`;
    return { components: [type, shape], parts: { exceptionType: exception.type, crashFrame: null, messageTemplate: shape.slice(shape.indexOf(":") + 1) } };
  }
  const signature = crashSignature(exception.frames);
  if (signature) {
    const template = messageTemplate(value);
    const withValue = signature.hasSourceLine ? [] : [`value:${template}`];
    return {
      components: [type, ...signature.components, ...withValue],
      parts: { exceptionType: exception.type, crashFrame: signature.crashFrame, messageTemplate: template },
    };
  }
  // No in-app frame: the message (with a network error's target) and where in the runtime it surfaced.
  const template = messageTemplate(value, { keepTargetPort: true });
  const innermost = exception.frames.length > 0 ? frameLocation(exception.frames[exception.frames.length - 1]) : null;
  return {
    components: [type, `value:${template}`, ...(innermost ? [`below:${innermost}`] : [])],
    parts: { exceptionType: exception.type, crashFrame: innermost, messageTemplate: template },
  };
}

function messageComponents(occ: NormalizedOccurrence): Components {
  const text = occ.logentryTemplate ?? occ.message ?? occ.exceptions.at(-1)?.value ?? null;
  if (text) {
    // Parameterised even when it is the logging template: loggers are often handed text already
    // formatted (`log.error("Retrying batch %s" % n)` sends the data as the "template").
    const template = messageTemplate(text);
    return { components: [`message:${template}`], parts: { exceptionType: null, crashFrame: null, messageTemplate: template } };
  }
  const signature = crashSignature(occ.exceptions.at(-1)?.frames ?? occ.stacktrace);
  return signature
    ? { components: signature.components, parts: { exceptionType: null, crashFrame: signature.crashFrame, messageTemplate: null } }
    : { components: ["unlabeled"], parts: { exceptionType: null, crashFrame: null, messageTemplate: null } };
}

function defaultComponents(occ: NormalizedOccurrence): Components {
  // Causes first, the thrown exception last; typeless entries are captureMessage's stack vehicle.
  const chain = occ.exceptions.filter((e) => e.type !== null);
  if (chain.length === 0) return messageComponents(occ);
  const each = chain.map((exception) => exceptionComponents(occ, exception));
  return { components: each.flatMap((c) => c.components), parts: each[each.length - 1].parts };
}

/** The event's own fingerprint wins; `{{ default }}` splices in the default components (as v1). */
function groupingComponents(occ: NormalizedOccurrence): Components {
  const defaults = defaultComponents(occ);
  if (!occ.fingerprint) return defaults;
  return {
    components: occ.fingerprint.flatMap((part) => (DEFAULT_VARIABLE.test(part.trim()) ? defaults.components : [`custom:${part}`])),
    parts: defaults.parts,
  };
}

export function computeGroupingV2(occ: NormalizedOccurrence): GroupingV2 {
  const { components, parts } = groupingComponents(occ);
  return {
    fingerprint: hashComponents(components),
    components,
    version: GROUPING_VERSION_V2,
    title: issueTitle(occ),
    culprit: issueCulprit(occ),
    parts,
  };
}
