// The auth module's routes as createModuleClient types them, checked by the compiler: `deno test`
// type-checks this file (the CI's `deno task test` runs it), and a mismatch, or a
// `@ts-expect-error` line that compiles, is a compile error that fails the run. The routes come
// from the operation declarations (their method and path literals, schemas' types and `errors`)
// through `AuthModule`, the type `auth()` returns, as a user module's come from `route()`. At run
// time the file has one test.
import { it } from "node:test";
import assert from "node:assert/strict";
import { auth, pgliteAdapter } from "../../mod.ts";
import type {
  AuthCredentialResponse,
  AuthCredentialsBody,
  AuthMe,
  AuthModule,
  AuthOrganizationEntry,
  AuthPageQuery,
  AuthRoute,
} from "../../src/auth/mod.ts";
import type * as routeKeys from "../../generated/client_routes.ts";
import {
  type AuthClient,
  type AuthClientErrorCode,
  type AuthResult,
  createModuleClient,
  type ModuleClient,
  type ModuleClientErrorCode,
  type ModuleResult,
  type ModuleRoutes,
  type ModuleRouteTypes,
} from "../../src/client/mod.ts";

/** Compiles only when `T` is `true`. */
function assertType<T extends true>(_proof: T): void {}
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true
  : false;

/** An instance, as an application makes one; never called (no database here). */
function authInstance() {
  return auth({ database: pgliteAdapter(), autoStart: false });
}
type Auth = ModuleRoutes<AuthModule>;
type Data<F> = F extends (...args: never[]) => Promise<AuthResult<infer T>> ? T : never;

// The instance's type, the factory's and `AuthModule` give the same routes; every route of the
// module is there, by the key the named client's table (generated/client_routes.ts) uses.
assertType<Equals<ModuleRoutes<ReturnType<typeof authInstance>>, Auth>>(true);
assertType<Equals<ModuleRoutes<typeof auth>, Auth>>(true);
assertType<Equals<ModuleRoutes<readonly AuthRoute[]>, Auth>>(true);
assertType<Equals<keyof Auth, (typeof routeKeys)[keyof typeof routeKeys]>>(true);
assertType<Equals<ModuleRouteTypes<AuthModule>["method"], "GET" | "POST" | "PATCH" | "DELETE">>(
  true,
);

// What a call sends: the declarations' params, query and body; what it gets: their answers.
assertType<Equals<Auth["POST /sign-up"]["body"], AuthCredentialsBody>>(true);
assertType<Equals<Auth["POST /sign-up"]["params"], undefined>>(true);
assertType<Equals<Auth["POST /sign-up"]["data"], AuthCredentialResponse>>(true);
assertType<Equals<Auth["GET /me"]["body"], undefined>>(true);
assertType<Equals<Auth["GET /me"]["data"], AuthMe>>(true);
assertType<
  Equals<Auth["GET /organizations/:organizationId"]["params"], { organizationId: string }>
>(true);
assertType<Equals<Auth["GET /organizations/:organizationId"]["data"], AuthOrganizationEntry>>(
  true,
);
assertType<Equals<Auth["GET /organizations/:organizationId/members"]["query"], AuthPageQuery>>(
  true,
);
assertType<Equals<Auth["DELETE /organizations/:organizationId"]["data"], null>>(true);
assertType<Equals<Auth["POST /sign-out"]["data"], null>>(true);

// Its error codes: the declaration's `errors`, the guard's (credential on a signed-in route,
// origin on an unsafe method) and SERVICE_UNAVAILABLE.
assertType<
  Equals<
    Auth["POST /sign-up"]["errorCode"],
    "EMAIL_TAKEN" | "RATE_LIMITED" | "SERVICE_BUSY" | "CSRF_REJECTED" | "SERVICE_UNAVAILABLE"
  >
>(true);
assertType<
  Equals<
    Auth["GET /me"]["errorCode"],
    "UNAUTHENTICATED" | "CONFLICTING_CREDENTIALS" | "SERVICE_UNAVAILABLE"
  >
>(true);
assertType<
  Equals<
    Auth["GET /organizations/:organizationId"]["errorCode"],
    | "NOT_FOUND"
    | "TWO_FACTOR_REQUIRED"
    | "UNAUTHENTICATED"
    | "CONFLICTING_CREDENTIALS"
    | "SERVICE_UNAVAILABLE"
  >
>(true);
// Every code a route declares is one the named client knows, so its calls are the generic ones.
assertType<Equals<Auth[keyof Auth]["errorCode"] extends AuthClientErrorCode ? true : false, true>>(
  true,
);
assertType<Equals<ModuleClientErrorCode extends AuthClientErrorCode ? true : false, true>>(true);

// The named client's results are the routes' data.
assertType<Equals<Data<AuthClient["me"]>, Auth["GET /me"]["data"]>>(true);
assertType<Equals<Data<AuthClient["signUp"]>, Auth["POST /sign-up"]["data"]>>(true);
assertType<
  Equals<
    Data<AuthClient["organizations"]["get"]>,
    Auth["GET /organizations/:organizationId"]["data"]
  >
>(true);

/** Calls that must compile, and calls that must not; never run (no server here). */
async function uses(client: ModuleClient<Auth>): Promise<void> {
  const signedUp = await client.request("POST /sign-up", {
    body: { email: "ada@example.com", password: "correct horse battery" },
  });
  if (signedUp.error) {
    const code: AuthClientErrorCode = signedUp.error.code;
    void code;
    // @ts-expect-error not a code sign-up answers
    const other: "NOT_FOUND" | "EMAIL_TAKEN" = signedUp.error.code;
    void other;
    return;
  }
  const token: string = signedUp.data.token;
  void token;
  const me: ModuleResult<AuthMe, Auth["GET /me"]["errorCode"] | ModuleClientErrorCode> =
    await client.request("GET /me", { headers: { cookie: "service_auth=…" } });
  void me;
  const organizationId = "0c7a5e1e-2f4b-4b8e-9d1a-6f3c2b1a0e9d";
  const { data } = await client.request("GET /organizations/:organizationId", {
    params: { organizationId },
  });
  const name: string | undefined = data?.organization.name;
  void name;
  await client.request("GET /organizations/:organizationId/members", {
    params: { organizationId },
    query: { pageSize: 20, cursor: "eyJ2Ijox" },
  });
  await client.request("POST /organizations", { body: { name: "Acme" } });
  await client.request("POST /sign-out");

  // @ts-expect-error a wrong path: no route GET /organisations/:organizationId
  await client.request("GET /organisations/:organizationId", { params: { organizationId } });
  // @ts-expect-error a wrong method for the path
  await client.request("PUT /organizations/:organizationId", { params: { organizationId } });
  // @ts-expect-error a path the module does not serve
  await client.request("GET /users");
  // @ts-expect-error a missing parameter
  await client.request("GET /organizations/:organizationId", {});
  // @ts-expect-error a missing parameter: no input at all
  await client.request("GET /organizations/:organizationId");
  // @ts-expect-error a misspelt parameter
  await client.request("GET /organizations/:organizationId", { params: { orgId: organizationId } });
  await client.request("PATCH /organizations/:organizationId/members/:memberId", {
    // @ts-expect-error one of two parameters missing
    params: { organizationId },
    body: { roles: ["admin"] },
  });
  await client.request("POST /sign-up", {
    // @ts-expect-error a misspelt body field
    body: { emial: "ada@example.com", password: "correct horse battery" },
  });
  // @ts-expect-error a body field of the wrong type
  await client.request("POST /sign-up", { body: { email: "ada@example.com", password: 42 } });
  // @ts-expect-error the body is required
  await client.request("POST /sign-up", {});
  // @ts-expect-error GET /me reads no body
  await client.request("GET /me", { body: { email: "ada@example.com" } });
  await client.request("GET /organizations", {
    // @ts-expect-error a query field the route does not read
    query: { page: 2 },
  });
}

it("createModuleClient<AuthModule>'s types follow the operation declarations (compile time)", () => {
  assert.equal(typeof uses, "function");
  assert.equal(typeof authInstance, "function");
  assert.equal(
    typeof createModuleClient<AuthModule>({ baseUrl: "/api/auth" }).request,
    "function",
  );
});
