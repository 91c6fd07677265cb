// Point 7 of the reliability issue, where secrets are most likely to escape: CLI failures with a
// password in DATABASE_URL (malformed, unreachable; with DEBUG=1 and --verbose, which print
// stacks), and a served system (DEBUG=1) taking failed sign-ins, wrong and near-miss webhook
// secrets, tampered tokens, CSRF-rejected cookie requests and wrong invitation tokens. Every
// password, token, invitation token, webhook secret and database password used here is searched
// for in everything the processes printed and in every error body. (Every other file of the
// suite searches its own processes' output the same way.)
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createTestDatabase, type TestDatabase } from "../../helpers/databases.ts";
import { closedPort } from "../../helpers/local_server.ts";
import { AuthClient } from "../helpers/auth_client.ts";
import { type Outcome, send } from "../helpers/http_load.ts";
import { OutputLog } from "../helpers/output_log.ts";
import { runCliToEnd, type ServeChild, startServe } from "../helpers/serve_process.ts";
import {
  messageUpdate,
  migrateSystem,
  newPassword,
  newWebhookSecret,
  SECRET_HEADER,
  SYSTEM_APP,
  systemEnv,
  WEBHOOK_PATH,
} from "../helpers/system.ts";

const slow = { timeout: 600_000 };

describe("no secret in any output", () => {
  const log = new OutputLog();
  const client = new AuthClient(log);
  const secret = newWebhookSecret(log);
  const databasePassword = log.secret(
    `Db${crypto.randomUUID().replaceAll("-", "")}`,
    "database password",
  );
  const errorBodies: Array<{ source: string; text: string }> = [];
  let database: TestDatabase;
  let server: ServeChild;

  /** The test database's URL with a password (the local server trusts, so it is never used). */
  const urlWithPassword = (): string => {
    const url = new URL(database.url);
    url.password = databasePassword;
    return url.toString();
  };
  const record = (label: string, outcome: Outcome): Outcome => {
    if (outcome.status !== null && outcome.status >= 400) {
      errorBodies.push({ source: `${label} (${outcome.status})`, text: outcome.text });
    }
    return outcome;
  };

  before(async () => {
    database = await createTestDatabase();
    await migrateSystem(urlWithPassword(), log, secret);
    server = await startServe({
      app: SYSTEM_APP,
      env: systemEnv(urlWithPassword(), secret, { DEBUG: "1" }),
      log,
      label: "serve",
    });
  }, slow);

  after(async () => {
    // Teardown only (graceful shutdown is not under test here), within any runner's hook limit.
    await server?.kill("SIGKILL");
    await database?.drop();
  }, slow);

  it("CLI failures with a password in DATABASE_URL never print it", slow, async () => {
    const port = await closedPort();
    const urls = {
      malformed: `postgres://postgres:${databasePassword}@127.0.0.1:not-a-port/app`,
      unreachable: `postgres://postgres:${databasePassword}@127.0.0.1:${port}/app`,
    };
    for (const [kind, url] of Object.entries(urls)) {
      for (
        const args of [["db", "info", SYSTEM_APP], ["db", "migrate", SYSTEM_APP, "--verbose"], [
          "serve",
          SYSTEM_APP,
          "--port",
          "0",
        ]]
      ) {
        for (const debug of [false, true]) {
          const label = `${args.slice(0, 2).join(" ")} (${kind}${debug ? ", DEBUG=1" : ""})`;
          const result = await runCliToEnd(args, {
            log,
            label,
            env: systemEnv(url, secret, debug ? { DEBUG: "1" } : {}),
          });
          assert.equal(result.code, 1, `${label}: ${result.output}`);
          assert.ok(!result.output.includes(databasePassword), `${label}: ${result.output}`);
        }
      }
    }
    assert.match(log.text(), /Invalid PostgreSQL connection URL/);
    assert.match(log.text(), /postgres:\*\*\*@127\.0\.0\.1/);
  });

  it("a served system taking bad requests prints no secret and answers none", slow, async () => {
    const api = (path: string) => `${server.url}/api/auth${path}`;
    const owner = await client.signUp(server.url, "owner");
    const invitee = await client.signUp(server.url, "invitee");
    await client.verify(server.url, invitee);
    // Failed sign-ins: a wrong password (itself a secret a user typed), an unknown address.
    for (
      const [email, password] of [[owner.email, newPassword(log)], [
        "nobody@example.com",
        owner.password,
      ]]
    ) {
      const result = record("sign-in", await send(api("/sign-in"), { json: { email, password } }));
      assert.equal(result.status, 401);
    }
    // Tampered, truncated and foreign-looking tokens, as Bearer and as cookie.
    for (const token of [`${owner.token}x`, owner.token.slice(0, 20), owner.token.toUpperCase()]) {
      record("me", await client.call(server.url, "GET", "/me", token));
      record(
        "me (cookie)",
        await send(api("/me"), { headers: { cookie: `service_auth=${token}` } }),
      );
    }
    // A cookie-authenticated write from another origin: CSRF-rejected.
    const csrf = record(
      "csrf",
      await send(api("/organizations"), {
        json: { name: "x", slug: "csrf-x" },
        headers: { cookie: `service_auth=${owner.token}`, origin: "https://evil.example" },
      }),
    );
    assert.equal(csrf.status, 403);
    // Conflicting credentials.
    record(
      "conflict",
      await send(api("/me"), {
        headers: {
          authorization: `Bearer ${owner.token}`,
          cookie: `service_auth=${invitee.token}`,
        },
      }),
    );
    // An invitation answered with a wrong token, then accepted.
    const created = await client.call(server.url, "POST", "/organizations", owner.token, {
      name: "Secrets",
      slug: `s-${crypto.randomUUID().slice(0, 10)}`,
    });
    const organizationId = created.body.organization.id;
    const invited = await client.call(
      server.url,
      "POST",
      `/organizations/${organizationId}/invitations`,
      owner.token,
      { email: invitee.email },
    );
    const invitation = invited.body.invitation;
    log.secret(invitation.token, "invitation token");
    const wrongToken = record(
      "invitation",
      await client.call(
        server.url,
        "PATCH",
        `/organizations/invitations/${invitation.id}`,
        invitee.token,
        { action: "accept", token: `${invitation.token.slice(0, -2)}zz` },
      ),
    );
    assert.equal(wrongToken.status, 403);
    const accepted = await client.call(
      server.url,
      "PATCH",
      `/organizations/invitations/${invitation.id}`,
      invitee.token,
      { action: "accept", token: invitation.token },
    );
    assert.equal(accepted.status, 200, accepted.text);
    // Webhook: a near-miss secret (registered: it differs in one character), none, the right one.
    const nearMiss = log.secret(`${secret.slice(0, -1)}${secret.endsWith("A") ? "B" : "A"}`);
    for (const header of [nearMiss, secret.toLowerCase(), ""]) {
      const result = record(
        "webhook",
        await send(`${server.url}${WEBHOOK_PATH}`, {
          body: messageUpdate(1),
          headers: header ? { [SECRET_HEADER]: header } : {},
        }),
      );
      assert.equal(result.status, 401);
    }
    const delivered = await send(`${server.url}${WEBHOOK_PATH}`, {
      body: messageUpdate(2),
      headers: { [SECRET_HEADER]: secret },
    });
    assert.equal(delivered.status, 200, delivered.text);
    const out = await client.call(server.url, "POST", "/sign-out", owner.token);
    assert.equal(out.status, 204);
    record("me after sign-out", await client.call(server.url, "GET", "/me", owner.token));
    assert.ok(errorBodies.length >= 12);
  });

  it("every output and error body of this file is free of every secret", () => {
    assert.ok(log.secretCount >= 8);
    assert.ok(log.text("serve").includes("Server running on"));
    assert.deepEqual(log.leaks(errorBodies), []);
  });
});
