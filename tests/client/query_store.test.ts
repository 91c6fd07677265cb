// createQueryStore over docs/modules.md's `notes` module served over real HTTP: a query read when
// first watched, cached by method, path and input; a mutation that invalidates the paths it falls
// under (watched queries read again, others when next watched); the route's typed errors.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createModuleClient } from "../../src/client/mod.ts";
import { createQueryStore, queryStoreOf, type StoreAtom } from "../../src/client/store/mod.ts";
import { listenLocal, type LocalServer } from "../helpers/local_server.ts";
import { notes } from "../fixtures/notes_module.ts";

const instance = notes({ config: { maxLength: 40 } });
/** The GETs the server received, as `path?query`. */
const reads: string[] = [];
let server: LocalServer;
let baseUrl: string;

before(async () => {
  server = await listenLocal((request) => {
    const url = new URL(request.url);
    if (request.method === "GET") {
      reads.push(url.pathname.slice(instance.mountRoute.length) + url.search);
    }
    return instance.fetch(request);
  });
  baseUrl = `${server.url}${instance.mountRoute}`;
});
after(async () => {
  await server.close();
  await instance.close();
});

/** Watches `store` until `ok` holds (10 s at most); answers the value and the unsubscribe. */
function watchUntil<T>(
  store: StoreAtom<T>,
  ok: (value: T) => boolean,
): Promise<{ value: T; stop: () => void }> {
  return new Promise((resolve, reject) => {
    let stop = () => {};
    const timer = setTimeout(() => reject(new Error(JSON.stringify(store.get()))), 10_000);
    let done = false;
    stop = store.subscribe((value) => {
      if (done || !ok(value)) return;
      done = true;
      clearTimeout(timer);
      resolve({ value, stop: () => stop() });
    });
  });
}

describe("createQueryStore()", () => {
  let shared: ReturnType<typeof createModuleClient<typeof notes>> | undefined;
  const client = () => shared ??= createModuleClient<typeof notes>({ baseUrl });

  it("reads a query when watched, once per key and input, with its typed error", async () => {
    const queries = createQueryStore(client());
    const id = crypto.randomUUID();
    const missing = queries.query("GET /notes/:id", { params: { id } });
    assert.equal(queries.query("GET /notes/:id", { params: { id } }), missing, "cached");
    assert.notEqual(
      queries.query("GET /notes/:id", { params: { id }, query: { format: "short" } }),
      missing,
      "another input, another entry",
    );
    const before = reads.length;
    const { value, stop } = await watchUntil(missing, (state) => !state.loading);
    assert.equal(value.data, null);
    assert.equal(value.error?.status, 404);
    assert.equal(value.error?.code, "NOT_FOUND");
    assert.deepEqual(reads.slice(before), [`/notes/${id}`]);
    stop();
    assert.throws(() => queries.query("GET /notes/:id", { params: { id: ".." } }), TypeError);
  });

  it("invalidates by path: a mutation reads watched queries again, others when next watched", async () => {
    const queries = queryStoreOf(client());
    assert.equal(queryStoreOf(client()), queries, "one store per client");
    const created = await queries.mutation("POST /notes").mutate({ body: { text: "Buy milk" } });
    assert.ok(created.data, JSON.stringify(created.error));
    const id = created.data.id;
    const full = queries.query("GET /notes/:id", { params: { id } });
    const short = queries.query("GET /notes/:id", { params: { id }, query: { format: "short" } });
    const watched = await watchUntil(full, (state) => state.data?.text === "Buy milk");
    // `short` stays unwatched (nanostores keeps a store mounted 1 s after its last watcher left,
    // so one that was watched would still count as watched here).

    const before = reads.length;
    await queries.invalidate("/elsewhere");
    await queries.invalidate("/note");
    assert.deepEqual(reads.slice(before), [], "no query under those paths");
    await queries.invalidate(`/notes/${id}`);
    assert.deepEqual(reads.slice(before), [`/notes/${id}`], "the watched one only");
    // A mutation invalidates its own path by default: POST /notes covers /notes/:id.
    const addNote = queries.mutation("POST /notes");
    const states: boolean[] = [];
    const stopStates = addNote.state.subscribe((state) => states.push(state.loading));
    const second = await addNote.mutate({ body: { text: "Walk the dog" } });
    stopStates();
    assert.ok(second.data);
    assert.deepEqual(states, [false, true, false]);
    assert.equal(addNote.state.get().data?.text, "Walk the dog");
    assert.deepEqual(reads.slice(before), [`/notes/${id}`, `/notes/${id}`]);
    // The unwatched one was marked stale: read when watched again.
    const again = await watchUntil(short, (state) => !state.loading);
    again.stop();
    assert.deepEqual(reads.slice(before).at(-1), `/notes/${id}?format=short`);
    watched.stop();

    // A failed mutation invalidates nothing; `invalidates: []` neither.
    const count = reads.length;
    const refused = await queries.mutation("POST /notes").mutate({ body: { text: "" } });
    assert.equal(refused.error?.code, "VALIDATION_ERROR");
    await queries.mutation("POST /notes", { invalidates: [] }).mutate({ body: { text: "x" } });
    assert.equal(reads.length, count);
  });
});
