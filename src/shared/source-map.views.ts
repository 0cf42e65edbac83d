import { z } from "zod";

/** One artifact bundle uploaded for a project (sentry-cli `sourcemaps upload`, a bundler plugin). */
export const SourceMapBundleView = z.object({
  id: z.uuid(),
  /** SHA-1 of the bundle as uploaded. */
  checksum: z.string(),
  /** The bundle's own debug id from its manifest, if any. */
  debugId: z.string().nullable(),
  release: z.string().nullable(),
  dist: z.string().nullable(),
  fileCount: z.number().int(),
  /** Bytes of the bundle as uploaded. */
  size: z.number().int(),
  createdAt: z.date(),
});
export type SourceMapBundleView = z.infer<typeof SourceMapBundleView>;

export const SourceMapBundleList = z.array(SourceMapBundleView);

export const DeletedSourceMapBundles = z.object({ deleted: z.number().int() });
export type DeletedSourceMapBundles = z.infer<typeof DeletedSourceMapBundles>;
