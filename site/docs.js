// The docs page: Swagger UI over our own OpenAPI document, every asset from this origin.
fetch("/v1/events", {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ event: "pageViewed", page: "docs" }),
  keepalive: true,
}).catch(() => {});
window.SwaggerUIBundle({ url: "/v1/openapi.json", dom_id: "#swagger-ui", deepLinking: true, tryItOutEnabled: false });
