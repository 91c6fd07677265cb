// deno-lint-ignore-file no-import-prefix -- React is an optional peer: deno.json maps only what
// `deno task start` installs (scripts/build_npm.ts makes the specifier bare).
/**
 * React hooks over the browser store (`@app/fragment-cli/client/store`): the signed-in state of
 * the auth module and cached queries and mutations of any module, each read with
 * `useSyncExternalStore`. React (≥ 18) is an optional peer dependency: install it yourself.
 *
 * @example
 * ```ts ignore
 * import { createAuthClient } from "@app/fragment-cli/client";
 * import { createAuthStore } from "@app/fragment-cli/client/store";
 * import { useMe } from "@app/fragment-cli/react";
 *
 * const auth = createAuthStore(createAuthClient({ baseUrl: "/api/auth" }));
 * export function Account() {
 *   const { data, loading } = useMe(auth);
 *   return loading ? "Loading…" : data ? data.user.email : "Signed out";
 * }
 * ```
 *
 * @module
 */

// @ts-types="npm:@types/react@^19.0.0"
import { useState, useSyncExternalStore } from "npm:react@^19.0.0";
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
  type StoreAtom,
} from "../store/mod.ts";

/** The atom's value, re-rendering when it changes. */
function useAtom<T>(store: StoreAtom<T>): T {
  return useSyncExternalStore((changed) => store.listen(() => changed()), store.get, store.get);
}

/**
 * The `GET /me` state of an auth store: data, error, loading.
 *
 * @param auth The store of `createAuthStore`.
 * @returns The state; the component re-renders when it changes.
 *
 * @example
 * ```ts ignore
 * const { data } = useMe(auth);
 * ```
 */
export function useMe(auth: AuthStore): AuthMeState {
  return useAtom(auth.me);
}

/**
 * The active organization of an auth store, `null` when none.
 *
 * @param auth The store of `createAuthStore`.
 * @returns The entry (organization and the user's membership).
 *
 * @example
 * ```ts ignore
 * const active = useActiveOrganization(auth);
 * return active ? active.organization.name : "Pick an organization";
 * ```
 */
export function useActiveOrganization(auth: AuthStore): AuthOrganizationEntry | null {
  return useAtom(auth.activeOrganization);
}

/**
 * The user's organizations of an auth store (`/me`'s first 100).
 *
 * @param auth The store of `createAuthStore`.
 * @returns The entries.
 *
 * @example
 * ```ts ignore
 * const entries = useOrganizations(auth);
 * const names = entries.map((entry) => entry.organization.name);
 * ```
 */
export function useOrganizations(auth: AuthStore): readonly AuthOrganizationEntry[] {
  return useAtom(auth.organizations);
}

/**
 * A `GET` route of any module, called with `input`, cached by the client's query store
 * (`queryStoreOf(client)`): components asking for the same route and input share one answer.
 *
 * @param client A client from `createModuleClient`.
 * @param key The route, `"GET /path"` as the module declares it.
 * @param input Its `params`, `query` (optional when the route needs none).
 * @returns The state: data, error (typed from the route), loading.
 *
 * @example
 * ```ts ignore
 * const { data, error } = useQuery(notesClient, "GET /notes/:id", { params: { id } });
 * ```
 */
export function useQuery<Routes extends { [key: string]: RouteCall }, Key extends QueryKey<Routes>>(
  client: ModuleClient<Routes>,
  key: Key,
  ...input: CallInput<Routes[Key]>
): StateOf<Routes, Key> {
  return useAtom(queryStoreOf(client).query(key, ...input));
}

/**
 * What {@link useMutation} returns: the state of the last call, and `mutate`.
 *
 * @example
 * ```ts ignore
 * const addNote: MutationResult<NotesRoutes, "POST /notes"> = useMutation(notesClient, "POST /notes");
 * ```
 */
export type MutationResult<Routes extends { [key: string]: RouteCall }, Key extends keyof Routes> =
  & StateOf<Routes, Key>
  & {
    /** Calls the route; once it succeeded, invalidates the queries under its path. */
    mutate(
      ...input: CallInput<Routes[Key]>
    ): Promise<
      ModuleResult<Routes[Key]["data"], Routes[Key]["errorCode"] | ModuleClientErrorCode>
    >;
  };

/**
 * A route of any module to call on demand (a form's submit): its state and `mutate`, which
 * invalidates the queries under the route's path once it succeeded (see `MutationOptions`).
 *
 * @param client A client from `createModuleClient`.
 * @param key The route, `"POST /path"` as the module declares it.
 * @param options What to invalidate.
 * @returns The state and `mutate`.
 *
 * @example
 * ```ts ignore
 * const { mutate, loading, error } = useMutation(notesClient, "POST /notes");
 * const onSubmit = (text: string) => mutate({ body: { text } });
 * ```
 */
export function useMutation<
  Routes extends { [key: string]: RouteCall },
  Key extends keyof Routes & string,
>(
  client: ModuleClient<Routes>,
  key: Key,
  options?: MutationOptions,
): MutationResult<Routes, Key> {
  const [mutation] = useState(() => queryStoreOf(client).mutation(key, options));
  return { ...useAtom(mutation.state), mutate: mutation.mutate };
}
