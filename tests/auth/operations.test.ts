// The operations of the auth module are declared once (src/auth/operations.ts): the OpenAPI
// document names each route's operation after its declaration, which is also its
// `authModule.api` method, and types the list routes' `pageSize` as an integer.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { auth, messenger, pgliteAdapter } from "../../mod.ts";
import * as operations from "../../src/auth/operations.ts";
import { googleProvider } from "../../src/auth/mod.ts";

const database = pgliteAdapter();
const SECRET = "x".repeat(32);
after(() => database.close());

interface Operation {
  operationId: string;
  parameters?: { name: string; in: string; schema: unknown }[];
}

async function documentOf(module: { fetch(request: Request): Promise<Response> }, url: string) {
  const response = await module.fetch(new Request(url));
  assert.equal(response.status, 200);
  const document = await response.json() as { paths: Record<string, Record<string, Operation>> };
  return Object.values(document.paths).flatMap((methods) => Object.values(methods));
}

describe("auth operations", () => {
  it("names every OpenAPI operation after its declaration, which is its api method", async () => {
    const authModule = auth({
      database,
      secret: SECRET,
      autoStart: false,
      telegram: { botToken: "1:operations-test-token-0123456789", botUsername: "ops_test_bot" },
      oauth: {
        providers: { google: googleProvider({ clientId: "ops", clientSecret: "ops-secret" }) },
      },
    });
    const documented = await documentOf(authModule, "http://localhost/api/auth/openapi.json");
    const ids = documented.map((operation) => operation.operationId).sort();
    assert.deepEqual(ids, [...Object.keys(operations), "getOpenApiDocument"].sort());
    for (const name of Object.keys(operations)) {
      assert.equal(typeof (authModule.api as unknown as Record<string, unknown>)[name], "function");
    }
    assert.ok(ids.includes("listMembers") && ids.includes("signIn"));
  });

  it("documents the audit log, ownership transfer and the entries' permissions (issue 32)", async () => {
    const response = await auth({ database, secret: SECRET, autoStart: false }).fetch(
      new Request("http://localhost/api/auth/openapi.json"),
    );
    // deno-lint-ignore no-explicit-any
    const document: any = await response.json();
    const audit = document.paths["/organizations/{organizationId}/audit-log"]?.get;
    assert.equal(audit?.operationId, "listAuditLog");
    assert.deepEqual(
      audit.parameters.map((p: { name: string }) => p.name).sort(),
      ["cursor", "organizationId", "pageSize"],
    );
    const transfer = document.paths["/organizations/{organizationId}/transfer-ownership"]
      ?.post;
    assert.equal(transfer?.operationId, "transferOwnership");
    assert.ok(transfer.responses["409"] && transfer.responses["403"] && transfer.responses["404"]);
    const text = JSON.stringify(document);
    assert.match(text, /ALREADY_OWNER/);
    assert.match(text, /MEMBER_NOT_VERIFIED/);
    // Each organization entry has its `permissions`: one schema, wherever it is referenced.
    const resolve = (schema: { $ref?: string }) =>
      schema.$ref ? document.components.schemas[schema.$ref.split("/").at(-1)!] : schema;
    const entry = resolve(
      document.paths["/organizations/{organizationId}"].get.responses["200"]
        .content["application/json"].schema,
    );
    assert.deepEqual(entry.properties.permissions.type, "array");
    assert.ok(entry.required.includes("permissions"));
    const page = resolve(audit.responses["200"].content["application/json"].schema);
    const item = resolve(page.properties.entries.items);
    assert.deepEqual(
      Object.keys(item.properties).sort(),
      ["action", "actorUserId", "createdAt", "data", "id", "target"],
    );
  });

  it("documents the second step: the sign-ins answer a credential or a challenge", async () => {
    const response = await auth({ database, secret: SECRET, autoStart: false }).fetch(
      new Request("http://localhost/api/auth/openapi.json"),
    );
    // deno-lint-ignore no-explicit-any
    const document: any = await response.json();
    const answers = (path: string) =>
      document.paths[path].post.responses["200"].content["application/json"].schema.anyOf
        .map((schema: { required: string[] }) => [...schema.required].sort().join(","));
    assert.deepEqual(answers("/sign-in"), [
      "expiresAt,token,user",
      "challenge,methods,twoFactorRequired",
    ]);
    assert.deepEqual(answers("/sign-in/email-link/verify"), [
      "expiresAt,redirectTo,token,user",
      "challenge,methods,redirectTo,twoFactorRequired",
    ]);
    const second = document.paths["/sign-in/two-factor"].post;
    assert.equal(second.operationId, "signInWithSecondFactor");
    assert.ok(second.responses["400"] && second.responses["401"] && second.responses["410"]);
    assert.match(JSON.stringify(second), /INVALID_TWO_FACTOR_CODE/);
    assert.equal(document.paths["/two-factor"].get.operationId, "twoFactorStatus");
  });

  it("types pageSize as an integer from 1 to 100, 20 by default", async () => {
    const documented = await documentOf(
      auth({ database, secret: SECRET, autoStart: false }),
      "http://localhost/api/auth/openapi.json",
    );
    const lists = documented.filter((op) => op.parameters?.some((p) => p.name === "pageSize"));
    assert.deepEqual(lists.map((op) => op.operationId).sort(), [
      "listAuditLog",
      "listInvitations",
      "listMembers",
      "listMyInvitations",
      "listOrganizations",
    ]);
    for (const list of lists) {
      const pageSize = list.parameters!.find((p) => p.name === "pageSize")!;
      assert.equal(pageSize.in, "query");
      assert.deepEqual(pageSize.schema, {
        type: "integer",
        minimum: 1,
        maximum: 100,
        default: 20,
        description: "Items per page",
      });
    }
  });

  it("mounts no organizations operation with organizations: false", async () => {
    const documented = await documentOf(
      auth({ database, secret: SECRET, autoStart: false, organizations: false }),
      "http://localhost/api/auth/openapi.json",
    );
    const ids = documented.map((operation) => operation.operationId);
    assert.ok(ids.includes("signUp") && ids.includes("me"));
    assert.ok(!ids.some((id) => /Organization|Member|Invitation/.test(id)), ids.join(" "));
  });

  it("mounts the Telegram operations only with the telegram option", async () => {
    const documented = await documentOf(
      auth({ database, secret: SECRET, autoStart: false }),
      "http://localhost/api/auth/openapi.json",
    );
    const ids = documented.map((operation) => operation.operationId);
    assert.ok(ids.includes("signIn"));
    assert.ok(!ids.some((id) => /Telegram/.test(id)), ids.join(" "));
  });

  it("mounts the provider operations only with the oauth option (issue 40)", async () => {
    const documented = await documentOf(
      auth({ database, secret: SECRET, autoStart: false }),
      "http://localhost/api/auth/openapi.json",
    );
    const ids = documented.map((operation) => operation.operationId);
    assert.ok(!ids.some((id) => /OAuth|Identit/.test(id)), ids.join(" "));
  });

  it("names the messenger's webhook receiveUpdate", async () => {
    const bot = messenger({ database, webhookSecret: "s3cret-token", secret: SECRET });
    const documented = await documentOf(bot, "http://localhost/api/messenger/openapi.json");
    assert.deepEqual(documented.map((op) => op.operationId).sort(), [
      "getOpenApiDocument",
      "receiveUpdate",
    ]);
  });
});
