// The auth client's path parameters: encoded, and never a value that URL parsing turns into
// another route's path (`/organizations/..` is the mount itself). A refused value rejects the call
// with a TypeError and sends nothing.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createAuthClient } from "../../src/client/mod.ts";

/** A client whose fetch records each URL and answers 200 `{}`. */
function recordingClient(): { client: ReturnType<typeof createAuthClient>; urls: string[] } {
  const urls: string[] = [];
  const client = createAuthClient({
    baseUrl: "https://app.example.com/api/auth",
    fetch: (input) => {
      urls.push(String(input));
      return Promise.resolve(Response.json({}));
    },
  });
  return { client, urls };
}

describe("auth client path parameters", () => {
  it("encodes a parameter into its one segment", async () => {
    const { client, urls } = recordingClient();
    await client.organizations.get("a b/c");
    assert.deepEqual(urls, ["https://app.example.com/api/auth/organizations/a%20b%2Fc"]);
  });

  it("refuses '', '.' and '..' before sending anything", async () => {
    const { client, urls } = recordingClient();
    for (const id of ["", ".", ".."]) {
      await assert.rejects(() => client.organizations.get(id), TypeError);
    }
    assert.throws(() => client.oauth.authorizeUrl(".."), TypeError);
    assert.deepEqual(urls, []);
  });
});
