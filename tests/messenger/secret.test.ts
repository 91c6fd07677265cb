/**
 * The messenger's `secret` (FRAGMENT_SECRET): the key of the cursors `api.listUpdates()` issues.
 * With one, every instance (every process) accepts the others' cursors; a forged or type-confused
 * cursor is `InvalidCursorError`, never a query error.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { ModuleConfigError } from "../../mod.ts";
import { migrate } from "../../src/migrate/mod.ts";
import { pgliteAdapter, type SqlAdapter } from "../../src/sql/mod.ts";
import { messenger, type MessengerModule, messengerSchema } from "../../src/messenger/mod.ts";

const WEBHOOK_SECRET = "test_secret-0123456789";
const SECRET = "the deployment's secret, at least 32 characters";
const NAMESPACE = "messenger_secret";

function bot(database: SqlAdapter, secret?: string): MessengerModule {
  return messenger({ database, webhookSecret: WEBHOOK_SECRET, namespace: NAMESPACE, secret });
}

function resign(cursor: string, edit: (payload: Record<string, unknown>) => void, key: string) {
  const payload = JSON.parse(Buffer.from(cursor.split(".")[0], "base64url").toString("utf8"));
  edit(payload);
  const body = Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
  return `${body}.${createHmac("sha256", key).update(body).digest("base64url").slice(0, 22)}`;
}

describe("messenger secret", () => {
  const database = pgliteAdapter();
  let cursor: string;
  before(async () => {
    await migrate(database, messengerSchema, { namespace: NAMESPACE });
    const first = bot(database, SECRET);
    for (const id of [1, 2, 3]) {
      const response = await first.fetch(
        new Request(`http://localhost${first.mountRoute}/messenger/webhook`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "X-Messenger-Bot-Api-Secret-Token": WEBHOOK_SECRET,
          },
          body: JSON.stringify({ update_id: id, message: { text: "hi" } }),
        }),
      );
      assert.equal(response.status, 200);
    }
    cursor = (await first.api.listUpdates({ pageSize: 1 })).cursor!;
  });
  after(() => database.close());

  it("refuses a secret shorter than 32 characters", () => {
    assert.throws(() => bot(database, "short"), ModuleConfigError);
  });

  it("another instance with the same secret accepts the cursor; another secret refuses it", async () => {
    const next = await bot(database, SECRET).api.listUpdates({ cursor });
    assert.deepEqual(next.updates.map((u) => u.updateId), ["2"]);
    await assert.rejects(
      bot(database, "another deployment's secret, 32+ chars").api.listUpdates({ cursor }),
      { name: "InvalidCursorError", code: "INVALID_CURSOR" },
    );
  });

  it("a cursor with a value that is not an int8, signed with the key, is refused before SQL", async () => {
    for (const value of ["not a number", "99999999999999999999", "1.5", 7]) {
      const forged = resign(cursor, (p) => (p.k = [value]), SECRET);
      await assert.rejects(bot(database, SECRET).api.listUpdates({ cursor: forged }), {
        name: "InvalidCursorError",
      });
    }
    const wellTyped = resign(cursor, (p) => (p.k = ["2"]), SECRET);
    const page = await bot(database, SECRET).api.listUpdates({ cursor: wellTyped });
    assert.deepEqual(page.updates.map((u) => u.updateId), ["3"]);
  });
});
