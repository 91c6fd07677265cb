// createModuleClient against docs/modules.md's `notes` module (tests/fixtures/notes_module.ts)
// served over real HTTP: what a call sends (the path with its parameters encoded, the query, the
// JSON body, the client's and the call's headers) as the server receives it, and what it resolves
// to: the data, the route's typed 404, a validation error with its fields, a network failure.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import {
  createModuleClient,
  type ModuleClientErrorCode,
  type ModuleResult,
} from "../../src/client/mod.ts";
import { closedPort, listenLocal, type LocalServer } from "../helpers/local_server.ts";
import { notes } from "../fixtures/notes_module.ts";

/** What the server received: method, path with its query, cookie, and body text. */
interface Received {
  method: string;
  url: string;
  cookie: string | null;
  trace: string | null;
  contentType: string | null;
}

const instance = notes({ config: { maxLength: 40 } });
const received: Received[] = [];
let server: LocalServer;
let baseUrl: string;

before(async () => {
  server = await listenLocal((request) => {
    const url = new URL(request.url);
    received.push({
      method: request.method,
      url: url.pathname + url.search,
      cookie: request.headers.get("cookie"),
      trace: request.headers.get("x-trace"),
      contentType: request.headers.get("content-type"),
    });
    return instance.fetch(request);
  });
  baseUrl = `${server.url}${instance.mountRoute}`;
});
after(async () => {
  await server.close();
  await instance.close();
});

/** The data of a successful result. */
function dataOf<T>(result: ModuleResult<T, string>): T {
  assert.equal(result.error, null, `unexpected error: ${JSON.stringify(result.error)}`);
  return result.data as T;
}

/** The error of a failed result, checked for its status and code. */
function errorOf<T, Code extends string>(
  result: ModuleResult<T, Code>,
  status: number,
  code: Code,
): NonNullable<ModuleResult<T, Code>["error"]> {
  assert.equal(result.data, null);
  assert.ok(result.error, "an error");
  assert.equal(result.error.status, status, JSON.stringify(result.error));
  assert.equal(result.error.code, code, JSON.stringify(result.error));
  return result.error;
}

/** The requests the server received while `action` ran. */
async function receivedDuring(action: () => Promise<unknown>): Promise<Received[]> {
  const before = received.length;
  await action();
  return received.slice(before);
}

describe("createModuleClient() over HTTP", () => {
  const client = () => createModuleClient<typeof notes>({ baseUrl });

  it("creates a note and reads it back, with its query", async () => {
    const notesClient = client();
    let created: { id: string; text: string } | undefined;
    const sent = await receivedDuring(async () => {
      created = dataOf(
        await notesClient.request("POST /notes", { body: { text: "Buy milk, eggs and flour" } }),
      );
    });
    assert.ok(created);
    assert.match(created.id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(sent.map((r) => [r.method, r.url, r.contentType]), [
      ["POST", "/api/notes/notes", "application/json"],
    ]);

    const full = dataOf(
      await notesClient.request("GET /notes/:id", { params: { id: created.id } }),
    );
    assert.deepEqual(full, created);
    const short = await receivedDuring(async () => {
      const { data } = await notesClient.request("GET /notes/:id", {
        params: { id: created!.id },
        query: { format: "short" },
      });
      assert.equal(data?.text, created!.text.slice(0, 20));
    });
    assert.equal(short[0].url, `/api/notes/notes/${created.id}?format=short`);
  });

  it("resolves an unknown note to the route's 404 NOT_FOUND, with the id it was sent", async () => {
    const id = crypto.randomUUID();
    const result = await client().request("GET /notes/:id", { params: { id } });
    const error = errorOf(result, 404, "NOT_FOUND");
    assert.equal(error.message, `Note ${id} not found`);
    // The code's type is the route's declared codes and the generic ones, not `string`.
    const code: "NOT_FOUND" | ModuleClientErrorCode = error.code;
    assert.equal(code, "NOT_FOUND");
  });

  it("resolves input its schemas refuse to a 400 VALIDATION_ERROR naming each field", async () => {
    const notesClient = client();
    const tooLong = errorOf(
      await notesClient.request("POST /notes", { body: { text: "x".repeat(41) } }),
      400,
      "VALIDATION_ERROR",
    );
    assert.deepEqual(tooLong.issues?.map((issue) => issue.path), ["body.text"]);

    const notAnId = errorOf(
      await notesClient.request("GET /notes/:id", { params: { id: "not-a-uuid" } }),
      400,
      "VALIDATION_ERROR",
    );
    assert.deepEqual(notAnId.issues?.map((issue) => issue.path), ["params.id"]);

    // A JavaScript caller, whom no compiler stops: the server still has the last word.
    const wrongQuery = errorOf(
      await notesClient.request("GET /notes/:id", {
        params: { id: crypto.randomUUID() },
        query: { format: "long" as "short" },
      }),
      400,
      "VALIDATION_ERROR",
    );
    assert.deepEqual(wrongQuery.issues?.map((issue) => issue.path), ["query.format"]);
  });

  it("encodes path parameters: a value with / ? # stays one parameter of this route", async () => {
    const sent = await receivedDuring(async () => {
      const result = await client().request("GET /notes/:id", { params: { id: "a/b?c#d e" } });
      // Reached GET /notes/:id (not a 404 for /notes/a/b), whose schema refused the value.
      const error = errorOf(result, 400, "VALIDATION_ERROR");
      assert.deepEqual(error.issues?.map((issue) => issue.path), ["params.id"]);
    });
    assert.deepEqual(sent.map((r) => r.url), ["/api/notes/notes/a%2Fb%3Fc%23d%20e"]);
  });

  it("refuses a parameter that would reach another route, sending nothing", async () => {
    const notesClient = client();
    const sent = await receivedDuring(async () => {
      for (const id of ["", ".", ".."]) {
        // `/notes/` is POST /notes's path and URL parsing turns `/notes/..` into the mount.
        await assert.rejects(
          notesClient.request("GET /notes/:id", { params: { id } }),
          (error) => error instanceof TypeError && error.message.includes(`"id"`),
        );
      }
      await assert.rejects(
        notesClient.request("GET /notes/:id", { params: {} as { id: string } }),
        TypeError,
      );
      await assert.rejects(
        notesClient.request("FETCH /notes" as "POST /notes", { body: { text: "x" } }),
        TypeError,
      );
    });
    assert.deepEqual(sent, []);
  });

  it("sends the client's headers and the call's: a cookie reaches the module", async () => {
    const serverSide = createModuleClient<typeof notes>({
      baseUrl,
      headers: { cookie: "service_auth=visitor-token", "x-trace": "client" },
    });
    const sent = await receivedDuring(async () => {
      await serverSide.request("GET /notes/:id", { params: { id: crypto.randomUUID() } });
      await serverSide.request("GET /notes/:id", {
        params: { id: crypto.randomUUID() },
        headers: { "x-trace": "call" },
      });
    });
    assert.deepEqual(sent.map((r) => [r.cookie, r.trace]), [
      ["service_auth=visitor-token", "client"],
      ["service_auth=visitor-token", "call"],
    ]);
  });

  it("reads a headers function before every call; null and undefined values are left out", async () => {
    const cookies = ["service_auth=first", null, undefined, "service_auth=last"];
    let reads = 0;
    const serverSide = createModuleClient<typeof notes>({
      baseUrl,
      // Async, as a framework's request-scoped `headers()` may be.
      headers: async () => {
        await Promise.resolve();
        return { cookie: cookies[reads++], "x-trace": reads === 2 ? null : "client" };
      },
    });
    const sent = await receivedDuring(async () => {
      for (let i = 0; i < cookies.length; i++) {
        await serverSide.request("GET /notes/:id", {
          params: { id: crypto.randomUUID() },
          headers: { "x-trace": i === 3 ? "call" : undefined },
        });
      }
    });
    assert.equal(reads, 4);
    assert.deepEqual(sent.map((r) => [r.cookie, r.trace]), [
      ["service_auth=first", "client"],
      [null, null],
      [null, "client"],
      ["service_auth=last", "call"],
    ]);
  });

  it("calls through the given fetch, with the given credentials mode", async () => {
    const modes: (RequestCredentials | undefined)[] = [];
    const counted = createModuleClient<typeof instance>({
      baseUrl: `${baseUrl}/`,
      credentials: "omit",
      fetch: (url, init) => {
        modes.push(init.credentials);
        return fetch(url, init);
      },
    });
    const { data } = await counted.request("POST /notes", { body: { text: "via fetch" } });
    assert.equal(data?.text, "via fetch");
    assert.deepEqual(modes, ["omit"]);
  });

  it("resolves to NETWORK_ERROR when nothing answers, and when the call is aborted", async () => {
    const port = await closedPort();
    const offline = createModuleClient<typeof notes>({
      baseUrl: `http://127.0.0.1:${port}/api/notes`,
    });
    const down = await offline.request("POST /notes", { body: { text: "lost" } });
    assert.equal(errorOf(down, 0, "NETWORK_ERROR").message.length > 0, true);

    const aborted = await client().request("POST /notes", {
      body: { text: "never sent" },
      signal: AbortSignal.abort(),
    });
    errorOf(aborted, 0, "NETWORK_ERROR");
  });
});

it("calls the very module docs/modules.md declares (the fixture is its example)", () => {
  const declaration = (path: string) => {
    const text = readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
    return /^export const notes = defineModule\(\{$[\s\S]*?^\}\);$/m.exec(text)?.[0];
  };
  const documented = declaration("docs/modules.md");
  assert.ok(documented, "docs/modules.md declares notes");
  assert.equal(declaration("tests/fixtures/notes_module.ts"), documented);
});
