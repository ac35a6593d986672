import { Hono } from "hono";
import { openApiDocument } from "../openapi/document";

/** `GET /v1/openapi.json`: the API description, built once. */
export function openApiRoutes() {
  const document = openApiDocument();
  return new Hono().get("/v1/openapi.json", (c) => c.json(document));
}
