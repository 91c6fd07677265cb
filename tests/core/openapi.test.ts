// The OpenAPI 3.1 document every module serves at GET <mount>/openapi.json, over HTTP: the example
// app's modules (auth with organizations, messenger) validated by @readme/openapi-parser, every
// route of every module documented with its real schemas, and the error codes the routes really
// answer (provoked over HTTP) listed for them.
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { validate } from "@readme/openapi-parser";
import { z } from "zod";
import { zodOf, type ZodSchema } from "../../src/core/zod_schema.ts";
import { auth, authSchema, scryptPasswordHasher } from "../../src/auth/mod.ts";
import * as responses from "../helpers/auth_responses.ts";
import * as account from "../../src/auth/account/account_inputs.ts";
import * as emailLink from "../../src/auth/email_link/email_link_inputs.ts";
import {
  composeModules,
  createModule,
  HttpError,
  mergeOpenApiDocuments,
  type ModuleInstance,
  type OpenApiDocument,
  type OpenApiOperation,
  route,
} from "../../src/core/mod.ts";
import { migrate } from "../../src/migrate/mod.ts";
import { pgliteAdapter, type SqlAdapter } from "../../src/sql/mod.ts";
import { messenger, messengerSchema } from "../../src/messenger/mod.ts";
import { VERSION } from "../../src/version.ts";
import { listenLocal, type LocalServer } from "../helpers/local_server.ts";

const WEBHOOK_SECRET = "a-webhook-secret-of-at-least-32-characters";
const SECRET = "a-deployment-secret-of-at-least-32-characters";
/** PGlite's start and two migrations, or a sample of requests, outlast Bun's 5 s default. */
const SLOW = { timeout: 120_000 };

/** The documents the modules served, by module name. */
const documents = new Map<string, OpenApiDocument>();

/** The operation documenting a mounted route (full path, `:params`). */
function operationOf(module: ModuleInstance, method: string, fullPath: string): OpenApiOperation {
  const document = documents.get(module.name)!;
  const relative = fullPath.slice(module.mountRoute.length) || "/";
  const path = relative.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}");
  const operation = document.paths[path]?.[method.toLowerCase()];
  assert.ok(operation, `${method} ${fullPath} is missing from the ${module.name} document`);
  return operation;
}

function isPlaceholder(schema: unknown): boolean {
  return typeof schema !== "object" || schema === null || Object.keys(schema).length === 0;
}

function documentedCodes(operation: OpenApiOperation, status: number): string[] {
  const schema = operation.responses[String(status)]?.content?.["application/json"]?.schema as
    | { properties?: { error?: { properties?: { code?: { enum?: string[] } } } } }
    | undefined;
  return schema?.properties?.error?.properties?.code?.enum ?? [];
}

describe("GET <mount>/openapi.json of the example app's modules", () => {
  let db: SqlAdapter;
  let modules: ModuleInstance[];
  let server: LocalServer;

  // Set up by the first test that needs it, not in a hook: Bun caps hooks at 5 s whatever their
  // timeout, and PGlite's start with two migrations can take longer on a loaded machine.
  let setUp: Promise<void> | undefined;
  const ready = (): Promise<void> => setUp ??= start();

  async function start(): Promise<void> {
    db = pgliteAdapter();
    await migrate(db, authSchema, { namespace: "auth" });
    await migrate(db, messengerSchema, { namespace: "messenger" });
    modules = [
      auth({
        database: db,
        secret: SECRET,
        passwordHasher: scryptPasswordHasher({ params: { ln: 4 } }),
        sendVerificationEmail: () => {},
      }),
      messenger({ database: db, webhookSecret: WEBHOOK_SECRET }),
    ];
    server = await listenLocal(composeModules(modules));
    for (const module of modules) {
      const response = await fetch(`${server.url}${module.mountRoute}/openapi.json`);
      assert.equal(response.status, 200);
      assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
      documents.set(module.name, await response.json());
    }
  }

  after(async () => {
    if (!setUp) return;
    await setUp.catch(() => {});
    await server?.close();
    await db?.close();
  });

  it("is a valid OpenAPI 3.1 document for each module, and merged", SLOW, async () => {
    await ready();
    for (const [name, document] of documents) {
      assert.equal(document.openapi, "3.1.0");
      assert.deepEqual(document.info.title, name);
      assert.equal(document.info.version, VERSION);
      const result = await validate(structuredClone(document) as never);
      assert.equal(result.valid, true, `${name}: ${JSON.stringify(result)}`);
    }
    const merged = mergeOpenApiDocuments([...documents.values()], { title: "app" });
    const result = await validate(structuredClone(merged) as never);
    assert.equal(result.valid, true, JSON.stringify(result));
    assert.ok(merged.paths["/api/auth/sign-in"]?.post);
    assert.ok(merged.paths["/api/messenger/messenger/webhook"]?.post);
  });

  it(
    "documents every route of every module with real request and response schemas",
    SLOW,
    async () => {
      await ready();
      let count = 0;
      for (const module of modules) {
        for (const { method, path } of module.routes) {
          const operation = operationOf(module, method, path);
          count++;
          const where = `${method} ${path}`;
          for (const parameter of operation.parameters ?? []) {
            assert.ok(!isPlaceholder(parameter.schema), `${where}: parameter ${parameter.name}`);
          }
          const pathParams = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);
          assert.deepEqual(
            (operation.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name),
            pathParams,
            where,
          );
          const body = operation.requestBody?.content["application/json"].schema;
          if (body) {
            // An object, or a choice of objects (`POST /sign-in/two-factor`: a code, a recovery
            // code or a passkey).
            const shapes = (body.anyOf ?? [body]) as { properties?: unknown }[];
            assert.ok(
              !isPlaceholder(body) && shapes.every((shape) => shape.properties),
              `${where}: request body schema`,
            );
          }
          // A redirect (GET /verify-email's 303) is a success answer without a body.
          const successes = Object.entries(operation.responses).filter(([s]) => /^[23]/.test(s));
          assert.ok(successes.length > 0, `${where}: no success answer documented`);
          for (const [status, answer] of successes) {
            const schema = answer.content?.["application/json"].schema;
            if (status === "204" || status.startsWith("3")) assert.equal(schema, undefined, where);
            else assert.ok(!isPlaceholder(schema), `${where}: ${status} schema`);
          }
          assert.deepEqual(documentedCodes(operation, 500), ["INTERNAL_ERROR"], where);
        }
      }
      assert.ok(count >= 25, `only ${count} routes`);
    },
  );

  it("declares the security schemes and which routes need them", SLOW, async () => {
    await ready();
    const authDocument = documents.get("auth")!;
    assert.deepEqual(authDocument.components.securitySchemes?.sessionCookie, {
      type: "apiKey",
      in: "cookie",
      name: "service_auth",
      description: "The session cookie set by sign-up and sign-in (HttpOnly, SameSite=Lax)",
    });
    assert.equal(authDocument.components.securitySchemes?.bearerToken?.type, "http");
    const [authModule, messengerModule] = modules;
    assert.deepEqual(operationOf(authModule, "GET", "/api/auth/me").security, [
      { sessionCookie: [] },
      { bearerToken: [] },
    ]);
    assert.equal(operationOf(authModule, "POST", "/api/auth/sign-in").security, undefined);
    assert.equal(operationOf(authModule, "GET", "/api/auth/openapi.json").security, undefined);
    const webhook = operationOf(messengerModule, "POST", "/api/messenger/messenger/webhook");
    assert.deepEqual(webhook.security, [{ webhookSecret: [] }]);
    assert.deepEqual(documents.get("messenger")!.components.securitySchemes?.webhookSecret, {
      type: "apiKey",
      in: "header",
      name: "X-Messenger-Bot-Api-Secret-Token",
      description: "The webhook secret the messenger sends with every delivery",
    });
  });

  it(
    "documents each auth answer with the very schema AuthContract types the client from",
    SLOW,
    async () => {
      await ready();
      // Shared definitions (z.json()'s recursion) move to components.schemas under other names:
      // every reference reads the same on both sides.
      const refsOnly = (value: unknown): unknown => {
        if (Array.isArray(value)) return value.map(refsOnly);
        if (typeof value !== "object" || value === null) return value;
        if ("$ref" in value) return "$ref";
        return Object.fromEntries(
          Object.entries(value).filter(([k]) => k !== "$defs" && k !== "$schema").map((
            [k, v],
          ) => [k, refsOnly(v)]),
        );
      };
      const answers: [string, string, number, z.ZodType][] = [
        ["POST", "/sign-up", 200, responses.credentialResponse],
        ["POST", "/sign-in", 200, responses.signInResponse],
        ["GET", "/session", 200, responses.sessionResponse],
        ["GET", "/me", 200, responses.meResponse],
        ["POST", "/verify-email", 200, responses.verifyEmailResponse],
        ["POST", "/organizations", 201, responses.createdOrganizationResponse],
        ["GET", "/organizations", 200, responses.organizationPageResponse],
        ["GET", "/organizations/active", 200, responses.activeOrganizationResponse],
        ["POST", "/organizations/active", 200, responses.activeOrganizationResponse],
        ["GET", "/organizations/:organizationId", 200, responses.organizationEntryResponse],
        ["PATCH", "/organizations/:organizationId", 200, responses.updatedOrganizationResponse],
        ["GET", "/organizations/:organizationId/members", 200, responses.memberPageResponse],
        ["POST", "/organizations/:organizationId/members", 201, responses.memberEntryResponse],
        [
          "PATCH",
          "/organizations/:organizationId/members/:memberId",
          200,
          responses.memberEntryResponse,
        ],
        [
          "GET",
          "/organizations/:organizationId/invitations",
          200,
          responses.invitationPageResponse,
        ],
        [
          "POST",
          "/organizations/:organizationId/invitations",
          201,
          responses.createdInvitationResponse,
        ],
        ["GET", "/organizations/invitations", 200, responses.pendingInvitationPageResponse],
        [
          "PATCH",
          "/organizations/invitations/:invitationId",
          200,
          responses.invitationActionResponse,
        ],
        // The account lifecycle (issue 31).
        ["POST", "/password/forgot", 202, account.forgotPasswordResponse],
        ["POST", "/password/reset", 200, account.userAnswerResponse],
        ["POST", "/password/change", 200, account.changePasswordResponse],
        ["GET", "/sessions", 200, account.listSessionsResponse],
        ["POST", "/sessions/revoke-others", 200, account.revokedSessionsResponse],
        ["POST", "/email/change", 202, account.changeEmailResponse],
        ["POST", "/email/change/confirm", 200, account.userAnswerResponse],
        ["POST", "/account/delete", 200, account.deleteAccountResponse],
        // Email links (issue 40).
        ["POST", "/sign-in/email-link", 202, emailLink.emailLinkSentResponse],
        ["POST", "/sign-in/email-link/verify", 200, emailLink.emailLinkAnswerResponse],
      ];
      const authModule = modules[0];
      for (const [method, path, status, schema] of answers) {
        const operation = operationOf(authModule, method, `${authModule.mountRoute}${path}`);
        assert.deepEqual(
          refsOnly(operation.responses[String(status)]?.content?.["application/json"].schema),
          refsOnly(z.toJSONSchema(schema, { target: "draft-2020-12", io: "output" })),
          `${method} ${path}`,
        );
      }
      // The answers without a body: the verification link's redirect, a revoked session.
      const verifyLink = operationOf(authModule, "GET", "/api/auth/verify-email");
      assert.ok(verifyLink.responses["303"], "GET /verify-email redirects");
      assert.deepEqual(verifyLink.parameters?.map((p: { name: string }) => p.name), ["token"]);
      const revoke = operationOf(authModule, "DELETE", "/api/auth/sessions/:sessionId");
      assert.ok(revoke.responses["204"] && revoke.responses["404"]);
      assert.deepEqual(operationOf(authModule, "GET", "/api/auth/sessions").security, [
        { sessionCookie: [] },
        { bearerToken: [] },
      ]);
      assert.equal(
        operationOf(authModule, "POST", "/api/auth/password/forgot").security,
        undefined,
      );
    },
  );

  it(
    "lists, for each route, the error codes it answers (a sample provoked over HTTP)",
    SLOW,
    async () => {
      await ready();
      const [authModule, messengerModule] = modules;
      const json = { "content-type": "application/json" };
      const signUp = await fetch(`${server.url}/api/auth/sign-up`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ email: "openapi@example.com", password: "correct horse" }),
      });
      assert.equal(signUp.status, 200);
      const { token } = await signUp.json();
      const bearer = { authorization: `Bearer ${token}` };
      const cases: [ModuleInstance, string, string, RequestInit][] = [
        [authModule, "POST", "/api/auth/sign-in", { headers: json, body: "{" }],
        [authModule, "POST", "/api/auth/sign-in", { body: "{}" }],
        [authModule, "POST", "/api/auth/sign-in", { headers: json, body: "x".repeat(1_100_000) }],
        [authModule, "POST", "/api/auth/sign-in", {
          headers: json,
          body: JSON.stringify({ email: "openapi@example.com", password: "wrong password" }),
        }],
        [authModule, "POST", "/api/auth/sign-up", {
          headers: json,
          body: JSON.stringify({ email: "openapi@example.com", password: "correct horse" }),
        }],
        [authModule, "POST", "/api/auth/sign-up", {
          headers: { ...json, origin: "https://evil.example" },
          body: JSON.stringify({ email: "other@example.com", password: "correct horse" }),
        }],
        [authModule, "POST", "/api/auth/sign-up", { headers: json, body: '{"email": 1}' }],
        [authModule, "GET", "/api/auth/session", {}],
        [authModule, "GET", "/api/auth/organizations/:organizationId", { headers: bearer }],
        [authModule, "GET", "/api/auth/organizations", { headers: bearer }],
        [authModule, "POST", "/api/auth/organizations", {
          headers: { ...bearer, ...json },
          body: "{}",
        }],
        [authModule, "POST", "/api/auth/verify-email", {
          headers: json,
          body: JSON.stringify({ token: "not-a-token" }),
        }],
        [messengerModule, "POST", "/api/messenger/messenger/webhook", { body: "{}" }],
        [messengerModule, "POST", "/api/messenger/messenger/webhook", {
          headers: { "x-messenger-bot-api-secret-token": WEBHOOK_SECRET },
          body: "[]",
        }],
      ];
      const seen = new Set<string>();
      for (const [module, method, path, init] of cases) {
        const concrete = path.replace(":organizationId", "00000000-0000-0000-0000-000000000000") +
          (path === "/api/auth/organizations" ? "?pageSize=0" : "");
        const response = await fetch(`${server.url}${concrete}`, { method, ...init });
        const body = await response.json();
        const code = body.error?.code;
        assert.ok(code && response.status >= 400, `${method} ${concrete}: ${response.status}`);
        seen.add(code);
        assert.ok(
          documentedCodes(operationOf(module, method, path), response.status).includes(code),
          `${method} ${path} answered ${response.status} ${code}, which its document does not list`,
        );
      }
      // The sample covers the core's, the wrappers' and the handlers' codes.
      for (
        const code of [
          "INVALID_JSON",
          "UNSUPPORTED_MEDIA_TYPE",
          "PAYLOAD_TOO_LARGE",
          "INVALID_CREDENTIALS",
          "EMAIL_TAKEN",
          "CSRF_REJECTED",
          "VALIDATION_ERROR",
          "UNAUTHENTICATED",
          "NOT_FOUND",
          "INVALID_PAGE_SIZE",
          "INVALID_VERIFICATION_TOKEN",
          "UNAUTHORIZED",
          "INVALID_UPDATE",
        ]
      ) assert.ok(seen.has(code), code);
    },
  );

  it("needs no credential and answers the same document every time", SLOW, async () => {
    await ready();
    const first = await fetch(`${server.url}/api/auth/openapi.json`);
    const second = await fetch(`${server.url}/api/auth/openapi.json`, {
      headers: { cookie: "service_auth=not-a-session" },
    });
    assert.equal(first.status, 200);
    assert.equal(second.status, 200);
    assert.equal(await first.text(), await second.text());
  });
});

describe("a module's document follows its route definitions", () => {
  const item = z.object({ id: z.string(), title: z.string().min(1).max(80) });
  const routes = [
    route({
      method: "GET",
      path: "/items/:id",
      params: z.object({ id: z.uuid() }),
      query: z.object({ fields: z.string().optional(), limit: z.string() }),
      responses: { 200: item },
      errors: { 404: ["NOT_FOUND"] },
      handler: () => {
        throw new HttpError(404, "NOT_FOUND", "No such item");
      },
    }),
    route({
      method: "POST",
      path: "/items",
      body: z.object({ title: z.string().min(1).max(80), tags: z.array(z.string()).optional() }),
      responses: { 201: item },
      handler: ({ body }) => Response.json({ id: "1", title: body.title }, { status: 201 }),
    }),
    route({
      method: "DELETE",
      path: "/items/:id",
      responses: { 204: null },
      security: ["apiKey"],
      handler: () => undefined,
    }),
  ];
  const notes = createModule({
    name: "notes",
    routes,
    securitySchemes: { apiKey: { type: "apiKey", in: "header", name: "x-api-key" } },
  });

  it("each route's zod schemas, converted by zod, are the document's schemas", SLOW, async () => {
    const response = await notes.fetch(new Request("http://localhost/api/notes/openapi.json"));
    const document: OpenApiDocument = await response.json();
    assert.equal((await validate(structuredClone(document) as never)).valid, true);
    assert.deepEqual(document.servers, [{ url: "/api/notes" }]);
    const toJson = (schema: ZodSchema, io: "input" | "output") => {
      const { $schema: _, ...rest } = z.toJSONSchema(zodOf(schema), {
        target: "draft-2020-12",
        io,
      });
      return rest;
    };
    for (const r of routes) {
      const operation = document.paths[r.path.replace(/:(\w+)/g, "{$1}")][r.method.toLowerCase()];
      if (r.body) {
        assert.deepEqual(
          operation.requestBody?.content["application/json"].schema,
          toJson(r.body, "input"),
        );
      }
      for (const [status, schema] of Object.entries(r.responses ?? {})) {
        assert.deepEqual(
          operation.responses[status].content?.["application/json"].schema,
          schema ? toJson(schema, "output") : undefined,
        );
      }
      const byName = Object.fromEntries((operation.parameters ?? []).map((p) => [p.name, p]));
      if (r.params) {
        assert.deepEqual(byName.id, {
          name: "id",
          in: "path",
          required: true,
          schema: (toJson(r.params, "input").properties as Record<string, unknown>).id,
        });
      }
      if (r.query) {
        assert.equal(byName.fields.required, false);
        assert.equal(byName.limit.required, true);
      }
    }
    const get = document.paths["/items/{id}"].get;
    assert.deepEqual(documentedCodes(get, 404), ["NOT_FOUND"]);
    assert.deepEqual(documentedCodes(get, 400), ["INVALID_HOST", "VALIDATION_ERROR"]);
    const post = document.paths["/items"].post;
    assert.deepEqual(documentedCodes(post, 415), ["UNSUPPORTED_MEDIA_TYPE"]);
    assert.deepEqual(document.paths["/items/{id}"].delete.security, [{ apiKey: [] }]);
  });

  it("refuses a route naming a security scheme the module does not declare", () => {
    assert.throws(
      () => createModule({ name: "bad", routes: [routes[2]] }),
      /names the security scheme "apiKey"/,
    );
  });
});
