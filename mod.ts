/**
 * fragment-cli: modules ("fragments") that bundle Web-standard HTTP routes, a versioned Postgres
 * schema and durable background hooks, and mount anywhere.
 *
 * @example A module with one route, answered in memory
 * ```ts
 * import { defineModule, route } from "@app/fragment-cli";
 * import { z } from "zod";
 *
 * const greeter = defineModule({
 *   name: "greeter",
 *   routes: () => [
 *     route({
 *       method: "GET",
 *       path: "/hello/:name",
 *       params: z.object({ name: z.string() }),
 *       handler: ({ params }) => ({ message: `Hello, ${params.name}` }),
 *     }),
 *   ],
 * });
 * const instance = greeter();
 * const response = await instance.fetch(new Request("http://localhost/api/greeter/hello/ada"));
 * console.log(await response.json()); // { message: "Hello, ada" }
 * ```
 *
 * @module
 */
export * from "./src/core/mod.ts";
export * from "./src/sql/mod.ts";
export * from "./src/schema/mod.ts";
export * from "./src/migrate/mod.ts";
export * from "./src/hooks/mod.ts";
export * from "./src/pagination/mod.ts";
export * from "./src/auth/mod.ts";
export * from "./src/messenger/mod.ts";
export { VERSION } from "./src/version.ts";
