// The auth module through the generic client, createModuleClient<AuthModule>, served over real
// HTTP (PGlite): sign-up with the cookie, /me, an organization's routes with their path parameter
// and query, the Bearer credential as a header, and the route's error codes. Then what makes
// createAuthClient a named layer over it: each named call sends exactly the request of the
// module client's call by route key (method, URL, headers, body), the `token` option included.
import assert from "node:assert/strict";
import type { z } from "zod";
import { after, before, describe, it } from "node:test";
import * as responses from "../helpers/auth_responses.ts";
import type { AuthModule } from "../../src/auth/mod.ts";
import {
  type AuthFetch,
  type AuthResult,
  createAuthClient,
  createModuleClient,
  type ModuleResult,
} from "../../src/client/mod.ts";
import { type AuthTarget, closeSharedDatabase, serveAuth } from "../security/harness.ts";
import { cookieJar } from "./cookie_jar.ts";
import { expectData as expectAuthData, expectError } from "./helpers.ts";

/** `expectData` of helpers.ts, its type taken from the response schema alone. */
function expectData<T>(result: ModuleResult<NoInfer<T>, string>, schema: z.ZodType<T, T>): T {
  return expectAuthData(result as AuthResult<T>, schema);
}

const PASSWORD = "correct horse battery";
const UNKNOWN_ID = "0c7a5e1e-2f4b-4b8e-9d1a-6f3c2b1a0e9d";
let target: AuthTarget;

before(async () => {
  target = await serveAuth();
});
after(async () => {
  await target.close();
  await closeSharedDatabase();
});

describe("createModuleClient of the auth module over HTTP", () => {
  it("signs up, reads /me, creates and reads an organization, signs out (cookie)", async () => {
    const jar = cookieJar();
    // The type of the served instance itself: what a user writes with their own `auth()`.
    const client = createModuleClient<typeof target.module>({
      baseUrl: target.url,
      fetch: jar.fetch,
    });
    const signedUp = expectData(
      await client.request("POST /sign-up", {
        body: { email: "module-client@example.com", password: PASSWORD },
      }),
      responses.credentialResponse,
    );
    assert.ok(jar.cookies.has("service_auth"), "the cookie was set");
    const taken = await client.request("POST /sign-up", {
      body: { email: "module-client@example.com", password: PASSWORD },
    });
    expectError(taken, 409, "EMAIL_TAKEN");
    const invalid = expectError(
      await client.request("POST /sign-up", { body: { email: "nope", password: PASSWORD } }),
      400,
      "VALIDATION_ERROR",
    );
    assert.deepEqual(invalid.issues?.map((issue) => issue.path), ["body.email"]);

    const me = expectData(await client.request("GET /me"), responses.meResponse);
    assert.equal(me.user.id, signedUp.user.id);
    assert.deepEqual(me.organizations, []);

    const created = expectData(
      await client.request("POST /organizations", { body: { name: "Acme" } }),
      responses.createdOrganizationResponse,
    );
    const organizationId = created.organization.id;
    const entry = expectData(
      await client.request("GET /organizations/:organizationId", { params: { organizationId } }),
      responses.organizationEntryResponse,
    );
    assert.equal(entry.organization.name, "Acme");
    assert.equal(entry.member.userId, signedUp.user.id);
    const members = expectData(
      await client.request("GET /organizations/:organizationId/members", {
        params: { organizationId },
        query: { pageSize: 1 },
      }),
      responses.memberPageResponse,
    );
    assert.deepEqual(members.members.map((member) => member.userId), [signedUp.user.id]);
    assert.equal(members.hasNextPage, false);
    expectError(
      await client.request("GET /organizations/:organizationId", {
        params: { organizationId: UNKNOWN_ID },
      }),
      404,
      "NOT_FOUND",
    );
    expectError(
      await client.request("GET /organizations", { query: { pageSize: 0 } }),
      400,
      "INVALID_PAGE_SIZE",
    );

    const signedOut: ModuleResult<null, string> = await client.request("POST /sign-out");
    assert.deepEqual(signedOut, { data: null, error: null });
    assert.ok(!jar.cookies.has("service_auth"), "the cookie was cleared");
    expectError(await client.request("GET /me"), 401, "UNAUTHENTICATED");
  });

  it("calls as the holder of a Bearer token given in headers (a server calling the module)", async () => {
    const signUp = createModuleClient<AuthModule>({ baseUrl: target.url });
    const { token } = expectData(
      await signUp.request("POST /sign-up", {
        body: { email: "module-bearer@example.com", password: PASSWORD },
      }),
      responses.credentialResponse,
    );
    const client = createModuleClient<AuthModule>({
      baseUrl: target.url,
      headers: { authorization: `Bearer ${token}` },
    });
    const me = expectData(await client.request("GET /me"), responses.meResponse);
    assert.equal(me.user.email, "module-bearer@example.com");
    const { organization } = expectData(
      await client.request("POST /organizations", { body: { name: "Beta" } }),
      responses.createdOrganizationResponse,
    );
    const renamed = await client.request("PATCH /organizations/:organizationId", {
      params: { organizationId: organization.id },
      body: { name: "Beta Two" },
    });
    assert.equal(renamed.data?.organization.name, "Beta Two");
  });
});

/** What one request carried, as the server would read it. */
interface Sent {
  method: string;
  url: string;
  headers: [string, string][];
  body: string | null;
}

/** A fetch that records each request and answers 200 `{}`. */
function recorder(): { fetch: AuthFetch; sent: Sent[] } {
  const sent: Sent[] = [];
  return {
    sent,
    fetch: (url, init) => {
      sent.push({
        method: init.method ?? "GET",
        url,
        headers: [...new Headers(init.headers)].sort(),
        body: typeof init.body === "string" ? init.body : null,
      });
      return Promise.resolve(Response.json({}));
    },
  };
}

describe("createAuthClient is a named layer over the module client", () => {
  const options = { baseUrl: "https://app.example.com/api/auth/", token: "t0k3n" };
  const id = "7c1f";

  it("sends, for each named call, the module client's request of its route", async () => {
    const named = recorder();
    const client = createAuthClient({ ...options, fetch: named.fetch });
    await client.signUp({ email: "ada@example.com", password: PASSWORD });
    await client.me();
    await client.organizations.get(id);
    await client.organizations.list({ pageSize: 5, cursor: "c1" });
    await client.organizations.setActive(id);
    await client.members.updateRoles(id, "m1", { roles: ["admin"] });
    await client.invitations.accept("i1", { token: "k3J9" });
    await client.sessions.revoke("s1");
    await client.oauth.link("github", { redirectTo: "/settings" });

    const generic = recorder();
    // The token as the header the named client adds: the module client takes headers only.
    const module = createModuleClient<AuthModule>({
      baseUrl: options.baseUrl,
      fetch: generic.fetch,
      headers: { authorization: `Bearer ${options.token}` },
    });
    await module.request("POST /sign-up", {
      body: { email: "ada@example.com", password: PASSWORD },
    });
    await module.request("GET /me");
    await module.request("GET /organizations/:organizationId", { params: { organizationId: id } });
    await module.request("GET /organizations", { query: { pageSize: 5, cursor: "c1" } });
    await module.request("POST /organizations/active", { body: { organizationId: id } });
    await module.request("PATCH /organizations/:organizationId/members/:memberId", {
      params: { organizationId: id, memberId: "m1" },
      body: { roles: ["admin"] },
    });
    await module.request("PATCH /organizations/invitations/:invitationId", {
      params: { invitationId: "i1" },
      body: { token: "k3J9", action: "accept" },
    });
    await module.request("DELETE /sessions/:sessionId", { params: { sessionId: "s1" } });
    await module.request("POST /oauth/:provider/link", {
      params: { provider: "github" },
      body: { redirectTo: "/settings" },
    });

    assert.equal(named.sent.length, 9);
    assert.deepEqual(named.sent, generic.sent);
    assert.equal(
      named.sent[3].url,
      "https://app.example.com/api/auth/organizations?pageSize=5&cursor=c1",
    );
    assert.ok(
      named.sent.every((request) =>
        request.headers.some(([name, value]) =>
          name === "authorization" && value === "Bearer t0k3n"
        )
      ),
    );
  });

  it("resolves to the module client's result, errors included", async () => {
    const answer: AuthFetch = () =>
      Promise.resolve(
        Response.json({ error: { code: "NOT_FOUND", message: "No such organization" } }, {
          status: 404,
        }),
      );
    const named = await createAuthClient({ baseUrl: "/api/auth", fetch: answer }).organizations
      .get(id);
    const generic = await createModuleClient<AuthModule>({ baseUrl: "/api/auth", fetch: answer })
      .request("GET /organizations/:organizationId", { params: { organizationId: id } });
    assert.deepEqual(named, generic);
    assert.equal(named.error?.code, "NOT_FOUND");
  });
});
