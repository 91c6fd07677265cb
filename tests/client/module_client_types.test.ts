// createModuleClient's types, checked by the compiler: `deno test` type-checks this file (the CI's
// `deno task test` runs it), and a mismatch, or a `@ts-expect-error` line that compiles, is a
// compile error that fails the run. The module is docs/modules.md's `notes`, in a file of its own
// as a user writes it (tests/fixtures/notes_module.ts); the messenger module's webhook is typed the
// same way. At run time the file has one test.
import { it } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { createModule, type ModuleInstance, type Route, route } from "../../mod.ts";
import type { MessengerModule } from "../../src/messenger/mod.ts";
import {
  createModuleClient,
  type ModuleClient,
  type ModuleClientErrorCode,
  type ModuleResult,
  type ModuleRoutes,
  type ModuleRouteTypes,
  type RouteData,
  type RoutePathParams,
  type RouteRequest,
} from "../../src/client/mod.ts";
import { notes } from "../fixtures/notes_module.ts";

/** Compiles only when `T` is `true`. */
function assertType<T extends true>(_proof: T): void {}
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true
  : false;

type Notes = ModuleRoutes<typeof notes>;
const instance = notes({ config: { maxLength: 200 } });
const notesClient = createModuleClient<typeof notes>({ baseUrl: "/api/notes" });
type Result<Key extends keyof Notes> = Awaited<ReturnType<typeof notesClient.request<Key>>>;
type Input<Key extends keyof Notes> = RouteRequest<Notes[Key]>;

// The routes, by method and path: the factory's type and an instance's give the same map.
assertType<Equals<keyof Notes, "POST /notes" | "GET /notes/:id">>(true);
assertType<Equals<ModuleRoutes<typeof instance>, Notes>>(true);
assertType<Equals<ModuleRoutes<ModuleInstance<NonNullable<typeof instance.routeTypes>>>, Notes>>(
  true,
);

// What a call sends is what the route's schemas accept (z.input): `format` has a default, so the
// query is optional; the path parameter is the params schema's; POST /notes has no parameter.
assertType<Equals<Notes["GET /notes/:id"]["params"], { id: string }>>(true);
assertType<Equals<Notes["GET /notes/:id"]["query"], { format?: "short" | "full" | undefined }>>(
  true,
);
assertType<Equals<Notes["GET /notes/:id"]["body"], undefined>>(true);
assertType<Equals<Notes["POST /notes"]["body"], { text: string }>>(true);
assertType<Equals<Notes["POST /notes"]["params"], undefined>>(true);
assertType<Equals<Input<"POST /notes">["body"], { text: string }>>(true);

// What it gets: the 2xx `responses` schema's output, and the declared codes plus the generic ones.
assertType<Equals<Notes["GET /notes/:id"]["data"], { id: string; text: string }>>(true);
assertType<Equals<Notes["POST /notes"]["data"], { id: string; text: string }>>(true);
assertType<Equals<Notes["GET /notes/:id"]["errorCode"], "NOT_FOUND">>(true);
assertType<Equals<Notes["POST /notes"]["errorCode"], never>>(true);
assertType<
  Equals<
    Result<"GET /notes/:id">,
    ModuleResult<{ id: string; text: string }, "NOT_FOUND" | ModuleClientErrorCode>
  >
>(true);
assertType<Equals<string extends ModuleClientErrorCode ? true : false, false>>(true);

// The messenger module's webhook, read from the instance type `messenger()` returns.
type Webhook = ModuleRoutes<MessengerModule>["POST /messenger/webhook"];
assertType<Equals<keyof ModuleRoutes<MessengerModule>, "POST /messenger/webhook">>(true);
assertType<Equals<Webhook["body"], { update_id: number; [key: string]: unknown }>>(true);
assertType<Equals<Webhook["data"], { ok: true; duplicate?: true }>>(true);
assertType<
  Equals<
    Webhook["errorCode"],
    | "INVALID_JSON"
    | "INVALID_UPDATE"
    | "INVALID_BODY"
    | "UNAUTHORIZED"
    | "SERVICE_UNAVAILABLE"
    | "DATABASE_NOT_MIGRATED"
  >
>(true);

// A route without a params schema takes its path's parameters; without a query schema, any
// string, number or boolean values; without responses, `unknown` data; 204 is `null`.
const bare = createModule({
  name: "bare",
  routes: [
    route({ method: "DELETE", path: "/lists/:listId/items/:itemId", handler: () => undefined }),
    route({
      method: "PUT",
      path: "/flags/:name",
      body: z.object({ on: z.boolean() }),
      responses: { 204: null },
      handler: () => undefined,
    }),
  ],
});
type Bare = ModuleRoutes<typeof bare>;
assertType<
  Equals<
    Bare["DELETE /lists/:listId/items/:itemId"]["params"],
    RoutePathParams<
      "/lists/:listId/items/:itemId"
    >
  >
>(true);
assertType<
  Equals<
    keyof Bare["DELETE /lists/:listId/items/:itemId"]["params"],
    "listId" | "itemId"
  >
>(true);
assertType<
  Equals<
    Bare["DELETE /lists/:listId/items/:itemId"]["query"],
    { readonly [name: string]: string | number | boolean | undefined }
  >
>(true);
assertType<Equals<Bare["DELETE /lists/:listId/items/:itemId"]["data"], unknown>>(true);
assertType<Equals<Bare["PUT /flags/:name"]["data"], null>>(true);
assertType<Equals<RouteData<{ 201: z.ZodString; 404: z.ZodNumber }>, string>>(true);
assertType<Equals<RouteData<{ 200: z.ZodString; 201: z.ZodNumber }>, string | number>>(true);

// Routes whose types were erased (a `Route[]` built apart) give no callable route: a client of
// them calls nothing rather than anything.
function erasedRoutes(): Route[] {
  return [route({ method: "GET", path: "/health", handler: () => ({ ok: true }) })];
}
const erased = createModule({ name: "erased", routes: erasedRoutes() });
assertType<Equals<ModuleRouteTypes<typeof erased>, never>>(true);
assertType<Equals<keyof ModuleRoutes<typeof erased>, never>>(true);

// Existing code keeps compiling: a typed route is a `Route`, a typed instance a `ModuleInstance`.
const plainRoutes: Route[] = [
  route({ method: "GET", path: "/a/:id", params: z.object({ id: z.string() }), handler: () => 1 }),
];
const plainInstance: ModuleInstance = instance;

/** Calls that must compile, and calls that must not; never run (no server here). */
async function uses(client: ModuleClient<Notes>): Promise<void> {
  const created = await client.request("POST /notes", { body: { text: "Buy milk" } });
  if (created.error) {
    const code: "NOT_FOUND" | ModuleClientErrorCode = created.error.code;
    void code;
    return;
  }
  const id: string = created.data.id;
  const { data, error } = await client.request("GET /notes/:id", {
    params: { id },
    query: { format: "short" },
    headers: { cookie: "service_auth=…" },
    signal: AbortSignal.timeout(1_000),
  });
  // @ts-expect-error data may be null until error is ruled out
  data.text;
  if (error) {
    // @ts-expect-error not a code this route or the core answers
    const code: "NO_SUCH_CODE" = error.code;
    void code;
  }
  await client.request("GET /notes/:id", { params: { id } });

  // @ts-expect-error a wrong path: no route GET /note/:id
  await client.request("GET /note/:id", { params: { id } });
  // @ts-expect-error a wrong method for the path
  await client.request("DELETE /notes/:id", { params: { id } });
  // @ts-expect-error a missing parameter
  await client.request("GET /notes/:id", {});
  // @ts-expect-error a missing parameter: no input at all
  await client.request("GET /notes/:id");
  // @ts-expect-error a misspelt parameter
  await client.request("GET /notes/:id", { params: { ID: id } });
  // @ts-expect-error a misspelt body field
  await client.request("POST /notes", { body: { txt: "Buy milk" } });
  // @ts-expect-error a body field of the wrong type
  await client.request("POST /notes", { body: { text: 42 } });
  // @ts-expect-error a field the body schema does not have
  await client.request("POST /notes", { body: { text: "Buy milk", pinned: true } });
  // @ts-expect-error the body is required
  await client.request("POST /notes", {});
  // @ts-expect-error a query value the schema refuses
  await client.request("GET /notes/:id", { params: { id }, query: { format: "long" } });
  // @ts-expect-error GET /notes/:id reads no body
  await client.request("GET /notes/:id", { params: { id }, body: { text: "x" } });
}

/** The messenger's webhook and the routes without schemas, called; never run. */
async function otherUses(): Promise<void> {
  const webhook = createModuleClient<MessengerModule>({ baseUrl: "/api/messenger" });
  const { data } = await webhook.request("POST /messenger/webhook", { body: { update_id: 1 } });
  const duplicate: true | undefined = data?.duplicate;
  void duplicate;
  // @ts-expect-error update_id is a number
  await webhook.request("POST /messenger/webhook", { body: { update_id: "1" } });

  const bareClient = createModuleClient<typeof bare>({ baseUrl: "/api/bare" });
  await bareClient.request("DELETE /lists/:listId/items/:itemId", {
    params: { listId: "groceries", itemId: 3 },
    query: { hard: true },
  });
  // @ts-expect-error both path parameters are needed
  await bareClient.request("DELETE /lists/:listId/items/:itemId", { params: { listId: "a" } });
  await bareClient.request("PUT /flags/:name", { params: { name: "beta" }, body: { on: true } });

  const erasedClient = createModuleClient<typeof erased>({ baseUrl: "/api/erased" });
  // @ts-expect-error an erased route cannot be called by name
  await erasedClient.request("GET /health");
}

it("createModuleClient's types follow the routes' schemas (checked at compile time)", () => {
  assert.equal(typeof uses, "function");
  assert.equal(typeof otherUses, "function");
  assert.equal(plainRoutes.length, 1);
  assert.equal(plainInstance.name, "notes");
  assert.equal(
    typeof createModuleClient<typeof notes>({ baseUrl: "/api/notes" }).request,
    "function",
  );
});
