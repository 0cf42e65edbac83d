import { readFileSync } from "node:fs";
import path from "node:path";
import { Router } from "express";
import { ROOT } from "./client-build-stamp";

/** The one icon file, also what the React client links to (public/favicon.svg). */
const FAVICON_FILE = path.join(ROOT, "public/favicon.svg");
export const FAVICON_PATH = "/favicon.svg";

/**
 * The icon for every page the server renders itself (the dev outbox, auth pages) and whatever the
 * client mode, even API-only: browsers ask for /favicon.ico on any page without an icon link, and
 * a 404 there is noise in every log and console. Modern browsers take an SVG at that address.
 */
export function faviconRoutes() {
  const svg = readFileSync(FAVICON_FILE);
  const routes = Router();
  routes.get(["/favicon.ico", FAVICON_PATH], (_req, res) => {
    res.setHeader("Cache-Control", "public, max-age=86400");
    res.type("image/svg+xml").send(svg);
  });
  return routes;
}
