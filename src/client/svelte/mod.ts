/**
 * Svelte stores over the browser store (`@app/fragment-cli/client/store`). Svelte's store
 * contract is `subscribe(run)` calling `run` at once and returning the unsubscribe: nanostores
 * atoms keep it, so these functions hand out the atoms themselves, typed as {@link Readable}, and
 * `$me` in a component just works. Nothing of Svelte is imported: it is needed by your app only.
 *
 * @example
 * ```ts ignore
 * // auth.ts
 * import { createAuthClient } from "@app/fragment-cli/client";
 * import { createAuthStore } from "@app/fragment-cli/client/store";
 * import { me } from "@app/fragment-cli/svelte";
 *
 * export const auth = createAuthStore(createAuthClient({ baseUrl: "/api/auth" }));
 * export const meStore = me(auth); // in a component: {$meStore.data?.user.email}
 * ```
 *
 * @module
 */

import type { AuthOrganizationEntry } from "../../auth/mod.ts";
import type { ModuleClient } from "../module_client.ts";
import type { RouteCall } from "../module_routes.ts";
import type { ModuleClientErrorCode, ModuleResult } from "../result.ts";
import {
  type AuthMeState,
  type AuthStore,
  type CallInput,
  type MutationOptions,
  type QueryKey,
  queryStoreOf,
  type StateOf,
} from "../store/mod.ts";

/**
 * Svelte's readable store contract (`svelte/store`'s `Readable`, without its optional
 * `invalidate` argument).
 *
 * @example
 * ```ts ignore
 * const organizations: Readable<AuthOrganizationEntry[]> = organizationsOf(auth);
 * ```
 */
export interface Readable<T> {
  /** Calls `run` with the value now and on every change; returns the unsubscribe. */
  subscribe(run: (value: T) => void): () => void;
}

/**
 * The `GET /me` state of an auth store.
 *
 * @param auth The store of `createAuthStore`.
 * @returns A store of data, error, loading.
 *
 * @example
 * ```ts ignore
 * const meStore = me(auth); // {$meStore.data?.user.email}
 * ```
 */
export function me(auth: AuthStore): Readable<AuthMeState> {
  return auth.me;
}

/**
 * The active organization of an auth store (`null` when none).
 *
 * @param auth The store of `createAuthStore`.
 * @returns A store of the entry.
 *
 * @example
 * ```ts ignore
 * const active = activeOrganization(auth); // {$active?.organization.name}
 * ```
 */
export function activeOrganization(auth: AuthStore): Readable<AuthOrganizationEntry | null> {
  return auth.activeOrganization;
}

/**
 * The user's organizations of an auth store.
 *
 * @param auth The store of `createAuthStore`.
 * @returns A store of the entries.
 *
 * @example
 * ```ts ignore
 * const list = organizations(auth); // {#each $list as entry}…{/each}
 * ```
 */
export function organizations(auth: AuthStore): Readable<readonly AuthOrganizationEntry[]> {
  return auth.organizations;
}

/**
 * A `GET` route of any module, called with `input`, cached by the client's query store.
 *
 * @param client A client from `createModuleClient`.
 * @param key The route, `"GET /path"`.
 * @param input Its `params` and `query`.
 * @returns A store of data, error, loading.
 *
 * @example
 * ```ts ignore
 * const note = query(notesClient, "GET /notes/:id", { params: { id } }); // {$note.data?.text}
 * ```
 */
export function query<Routes extends { [key: string]: RouteCall }, Key extends QueryKey<Routes>>(
  client: ModuleClient<Routes>,
  key: Key,
  ...input: CallInput<Routes[Key]>
): Readable<StateOf<Routes, Key>> {
  return queryStoreOf(client).query(key, ...input);
}

/**
 * A store of a mutation's last state, with `mutate`.
 *
 * @example
 * ```ts ignore
 * const addNote: MutationReadable<NotesRoutes, "POST /notes"> = mutation(notesClient, "POST /notes");
 * ```
 */
export interface MutationReadable<
  Routes extends { [key: string]: RouteCall },
  Key extends keyof Routes,
> extends Readable<StateOf<Routes, Key>> {
  /** Calls the route; once it succeeded, invalidates the queries under its path. */
  mutate(
    ...input: CallInput<Routes[Key]>
  ): Promise<ModuleResult<Routes[Key]["data"], Routes[Key]["errorCode"] | ModuleClientErrorCode>>;
}

/**
 * A route of any module to call on demand, invalidating the queries under its path once it
 * succeeded (see `MutationOptions`).
 *
 * @param client A client from `createModuleClient`.
 * @param key The route, `"POST /path"`.
 * @param options What to invalidate.
 * @returns A store of the last call's state, with `mutate`.
 *
 * @example
 * ```ts ignore
 * const addNote = mutation(notesClient, "POST /notes"); // {$addNote.loading}, addNote.mutate(…)
 * ```
 */
export function mutation<
  Routes extends { [key: string]: RouteCall },
  Key extends keyof Routes & string,
>(
  client: ModuleClient<Routes>,
  key: Key,
  options?: MutationOptions,
): MutationReadable<Routes, Key> {
  const store = queryStoreOf(client).mutation(key, options);
  return { subscribe: (run) => store.state.subscribe(run), mutate: store.mutate };
}
