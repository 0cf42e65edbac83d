import express from "express";
import type { AppServices } from "../context";
import { apiNotFound } from "../rest/errors";
import { inMatchOrder } from "../rest/route-order";
import { handlerOf } from "./rest-access";
import { openApiDocument, REST_ROUTES } from "./rest-routes";

/** The /api/v1 product API: every route definition over the same services as tRPC, most specific first, then a JSON 404. */
export function createV1Router(services: AppServices) {
  // Built now, so a route whose answer has no named view fails at start-up, not on the first request.
  openApiDocument();
  const v1 = express.Router();
  for (const route of inMatchOrder(REST_ROUTES)) if (!("mountedBeforeJson" in route)) v1[route.method](route.path, handlerOf(services, route));
  v1.use(apiNotFound);
  return v1;
}
