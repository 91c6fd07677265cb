/**
 * `createQueryStore`: the answers of any module's `GET` routes as nanostores atoms, cached by
 * method, path and input, read when first watched and read again when a path they fall under is
 * invalidated (by hand, or by a mutation through the store).
 *
 * @module
 */

import { atom, onMount, type WritableAtom } from "nanostores";
import type { ModuleClient } from "../module_client.ts";
import type { RouteCall, RouteRequest } from "../module_routes.ts";
import type { ModuleClientError, ModuleClientErrorCode, ModuleResult } from "../result.ts";
import { fillPath } from "../route_path.ts";

/**
 * A nanostores atom as the store hands it out: `get()` the value, `subscribe(fn)` (called at once
 * and on every change), `listen(fn)` (on changes only); both return the unsubscribe. Watching an
 * atom is what loads it. Svelte's store contract is `subscribe`: an atom is a Svelte store.
 *
 * @example
 * ```ts ignore
 * const stop = auth.user.subscribe((user) => console.log(user?.email ?? "signed out"));
 * stop();
 * ```
 */
export interface StoreAtom<T> {
  /** The value now. */
  get(): T;
  /** Calls `listener` with the value now and on every change; returns the unsubscribe. */
  subscribe(listener: (value: T) => void): () => void;
  /** Calls `listener` on every change; returns the unsubscribe. */
  listen(listener: (value: T) => void): () => void;
}

/**
 * The state of a query or a mutation: the last answer's data (`null` before it, or when it
 * failed), its error, and whether a call is under way.
 *
 * @example
 * ```ts
 * import type { CallState } from "@app/fragment-cli/client/store";
 *
 * function line(state: CallState<{ text: string }, "NOT_FOUND">): string {
 *   if (state.loading) return "…";
 *   return state.error ? state.error.code : state.data?.text ?? "";
 * }
 * ```
 */
export interface CallState<Data, Code extends string = string> {
  /** The data of the last successful answer; `null` before it or after a failure. */
  data: Data | null;
  /** The error of the last answer, `null` when it succeeded. */
  error: ModuleClientError<Code> | null;
  /** Whether a call is under way. */
  loading: boolean;
}

/**
 * The route keys of `Routes` whose method is `GET`: what {@link QueryStore.query} accepts.
 *
 * @example
 * ```ts
 * import type { ModuleRoutes } from "@app/fragment-cli/client";
 * import type { QueryKey } from "@app/fragment-cli/client/store";
 * import type { MessengerModule } from "@app/fragment-cli/messenger";
 *
 * type None = QueryKey<ModuleRoutes<MessengerModule>>; // never: the webhook is a POST
 * ```
 */
export type QueryKey<Routes> = keyof Routes & `GET ${string}`;

/**
 * The input of a call of `Key` (params, query, body), optional when the route needs none.
 *
 * @example
 * ```ts
 * import type { ModuleRoutes } from "@app/fragment-cli/client";
 * import type { CallInput } from "@app/fragment-cli/client/store";
 * import type { MessengerModule } from "@app/fragment-cli/messenger";
 *
 * type Routes = ModuleRoutes<MessengerModule>;
 * const input: CallInput<Routes["POST /messenger/webhook"]> = [{ body: { update_id: 1 } }];
 * ```
 */
export type CallInput<Call extends RouteCall> = Record<never, never> extends RouteRequest<Call>
  ? [input?: RouteRequest<Call>]
  : [input: RouteRequest<Call>];

/**
 * The state of one call of `Routes[Key]`, with the route's error codes.
 *
 * @example
 * ```ts
 * import type { ModuleRoutes } from "@app/fragment-cli/client";
 * import type { StateOf } from "@app/fragment-cli/client/store";
 * import type { MessengerModule } from "@app/fragment-cli/messenger";
 *
 * type Delivery = StateOf<ModuleRoutes<MessengerModule>, "POST /messenger/webhook">;
 * ```
 */
export type StateOf<Routes extends { [key: string]: RouteCall }, Key extends keyof Routes> =
  CallState<Routes[Key]["data"], Routes[Key]["errorCode"] | ModuleClientErrorCode>;

/**
 * A mutation of one route (see {@link QueryStore.mutation}): its state, and the call.
 *
 * @example
 * ```ts ignore
 * const addNote = queries.mutation("POST /notes");
 * addNote.state.subscribe((state) => console.log(state.loading));
 * await addNote.mutate({ body: { text: "Buy milk" } });
 * ```
 */
export interface MutationStore<
  Routes extends { [key: string]: RouteCall },
  Key extends keyof Routes,
> {
  /** The state of the last call. */
  readonly state: StoreAtom<StateOf<Routes, Key>>;
  /** Calls the route, then invalidates; resolves to the call's result. */
  mutate(
    ...input: CallInput<Routes[Key]>
  ): Promise<ModuleResult<Routes[Key]["data"], Routes[Key]["errorCode"] | ModuleClientErrorCode>>;
}

/**
 * What a mutation invalidates once it succeeded: paths (a query falls under `/notes` when its
 * path is `/notes` or starts with `/notes/`, as called or as the route declares it). Default: the
 * mutation's own path as called (`POST /notes` invalidates `GET /notes` and `GET /notes/:id`).
 *
 * @example
 * ```ts
 * import type { MutationOptions } from "@app/fragment-cli/client/store";
 *
 * const options: MutationOptions = { invalidates: ["/notes", "/stats"] };
 * ```
 */
export interface MutationOptions {
  /** The paths to invalidate; `[]` for none. */
  invalidates?: readonly string[];
}

/**
 * Cached queries and mutations of one module's client (see {@link createQueryStore}).
 *
 * @example
 * ```ts ignore
 * const queries: QueryStore<ModuleRoutes<typeof notes>> = createQueryStore(client);
 * ```
 */
export interface QueryStore<Routes extends { [key: string]: RouteCall }> {
  /**
   * The atom of a `GET` route called with `input`: the same atom for the same key and input
   * (`params`, `query`, `body`; not `headers` or `signal`), read when first watched or when
   * invalidated while watched. Throws a `TypeError` for a path parameter that is empty, `.` or
   * `..`.
   */
  query<Key extends QueryKey<Routes>>(
    key: Key,
    ...input: CallInput<Routes[Key]>
  ): StoreAtom<StateOf<Routes, Key>>;
  /** A mutation of the route `key` with its own state; see {@link MutationOptions}. */
  mutation<Key extends keyof Routes & string>(
    key: Key,
    options?: MutationOptions,
  ): MutationStore<Routes, Key>;
  /**
   * Reads again every watched query under `path` (all of them without one), and marks the others
   * to be read when next watched. Resolves once the reads answered.
   */
  invalidate(path?: string): Promise<void>;
}

/** One cached query. */
interface Entry {
  key: string;
  input: { params?: unknown; query?: unknown; body?: unknown };
  /** The path as called and as the route declares it, for invalidation. */
  paths: [string, string];
  state: WritableAtom<CallState<unknown>>;
  watched: boolean;
  stale: boolean;
  reads: number;
}

/** The query stores of clients, for bindings that take the client (`useQuery(client, …)`). */
const shared = new WeakMap<object, QueryStore<never>>();

/**
 * The query store of `client`, created on first use and the same afterwards: what the framework
 * bindings use, so that every component calling a route with the same input shares one answer.
 *
 * @param client A client from `createModuleClient`.
 * @returns The client's store.
 *
 * @example
 * ```ts ignore
 * const queries = queryStoreOf(client); // the same store on every call
 * await queries.invalidate("/notes");
 * ```
 */
export function queryStoreOf<Routes extends { [key: string]: RouteCall }>(
  client: ModuleClient<Routes>,
): QueryStore<Routes> {
  let store = shared.get(client) as QueryStore<Routes> | undefined;
  if (!store) shared.set(client, (store = createQueryStore(client)) as QueryStore<never>);
  return store;
}

/**
 * Creates a store of queries and mutations over a module's client.
 *
 * @param client A client from `createModuleClient`.
 * @returns The store.
 *
 * @example A note, read again after an edit elsewhere in the page
 * ```ts ignore
 * import { createModuleClient } from "@app/fragment-cli/client";
 * import { createQueryStore } from "@app/fragment-cli/client/store";
 * import type { notes } from "./notes.ts";
 *
 * const queries = createQueryStore(createModuleClient<typeof notes>({ baseUrl: "/api/notes" }));
 * const note = queries.query("GET /notes/:id", { params: { id: "0c7a…" } });
 * note.subscribe(({ data, loading }) => console.log(loading ? "…" : data?.text));
 * await queries.mutation("POST /notes").mutate({ body: { text: "Buy milk" } });
 * ```
 */
export function createQueryStore<Routes extends { [key: string]: RouteCall }>(
  client: ModuleClient<Routes>,
): QueryStore<Routes> {
  const cache = new Map<string, Entry>();
  // The client's signature is per route; the store calls it with keys known only at run time.
  const request = client.request as (
    key: string,
    input?: object,
  ) => Promise<ModuleResult<unknown, string>>;
  const read = async (entry: Entry): Promise<void> => {
    const reads = ++entry.reads;
    entry.stale = false;
    entry.state.set({ ...entry.state.get(), loading: true });
    const { data, error } = await request(entry.key, entry.input);
    if (reads === entry.reads) entry.state.set({ data, error, loading: false });
  };
  const under = (path: string, prefix: string) =>
    path === prefix || path.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`);
  const invalidate = async (path?: string): Promise<void> => {
    const reads: Promise<void>[] = [];
    for (const entry of cache.values()) {
      if (path !== undefined && !entry.paths.some((p) => under(p, path))) continue;
      if (entry.watched) reads.push(read(entry));
      else entry.stale = true;
    }
    await Promise.all(reads);
  };
  const pathOf = (key: string, params: unknown) => {
    const template = key.slice(key.indexOf(" ") + 1);
    return [fillPath(template, params as { [name: string]: unknown } | undefined), template] as [
      string,
      string,
    ];
  };
  return {
    query(key, ...[input = {}]) {
      const { params, query, body } = input as Entry["input"];
      const id = `${key} ${JSON.stringify([params, query, body])}`;
      let entry = cache.get(id);
      if (!entry) {
        const created: Entry = {
          key,
          input: { params, query, body },
          paths: pathOf(key, params),
          state: atom<CallState<unknown>>({ data: null, error: null, loading: true }),
          watched: false,
          stale: true,
          reads: 0,
        };
        onMount(created.state, () => {
          created.watched = true;
          if (created.stale) void read(created);
          return () => {
            created.watched = false;
          };
        });
        cache.set(id, entry = created);
      }
      return entry.state as unknown as StoreAtom<never>;
    },
    mutation(key, options = {}) {
      const state = atom<CallState<unknown>>({ data: null, error: null, loading: false });
      return {
        state: state as unknown as StoreAtom<never>,
        async mutate(...[input = {}]) {
          const params = (input as Entry["input"]).params;
          const paths = options.invalidates ?? [pathOf(key, params)[0]];
          state.set({ ...state.get(), loading: true });
          const result = await request(key, input);
          if (!result.error) await Promise.all(paths.map(invalidate));
          state.set({ data: result.data, error: result.error, loading: false });
          return result as never;
        },
      };
    },
    invalidate,
  };
}
