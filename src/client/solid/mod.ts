/**
 * Solid primitives over the browser store (`@app/fragment-cli/client/store`): the signed-in
 * state of the auth module and cached queries and mutations of any module, each an accessor that
 * follows its atom until the owning computation is cleaned up. Solid (≥ 1.6) is an optional peer
 * dependency: install it yourself.
 *
 * @example
 * ```ts ignore
 * import { createAuthClient } from "@app/fragment-cli/client";
 * import { createAuthStore } from "@app/fragment-cli/client/store";
 * import { useMe } from "@app/fragment-cli/solid";
 *
 * const auth = createAuthStore(createAuthClient({ baseUrl: "/api/auth" }));
 * // in a component:
 * const me = useMe(auth);
 * const email = () => me().data?.user.email;
 * ```
 *
 * @module
 */

// deno-lint-ignore no-import-prefix -- an optional peer: deno.json maps only what `deno task start` installs (scripts/build_npm.ts makes it bare).
import { createSignal, getOwner, onCleanup } from "npm:solid-js@^1.9.0";
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

/**
 * A Solid accessor (`solid-js`'s `Accessor`): call it to read the value, tracked in the current
 * computation.
 *
 * @example
 * ```ts ignore
 * const me: Accessor<AuthMeState> = useMe(auth);
 * const email = () => me().data?.user.email;
 * ```
 */
export type Accessor<T> = () => T;

/** An accessor that follows the atom for the life of the current owner. */
function useAtom<T>(store: StoreAtom<T>): Accessor<T> {
  // Every value the atom sets is new: no equality check to skip it.
  const [value, setValue] = createSignal(store.get(), { equals: false });
  const stop = store.subscribe((next) => setValue(() => next));
  if (getOwner()) onCleanup(stop);
  return value;
}

/**
 * The `GET /me` state of an auth store, as an accessor.
 *
 * @param auth The store of `createAuthStore`.
 * @returns An accessor of data, error, loading.
 *
 * @example
 * ```ts ignore
 * const me = useMe(auth); // me().data?.user.email
 * ```
 */
export function useMe(auth: AuthStore): Accessor<AuthMeState> {
  return useAtom(auth.me);
}

/**
 * The active organization of an auth store, as an accessor (`null` when none).
 *
 * @param auth The store of `createAuthStore`.
 * @returns An accessor of the entry.
 *
 * @example
 * ```ts ignore
 * const active = useActiveOrganization(auth); // active()?.organization.name
 * ```
 */
export function useActiveOrganization(auth: AuthStore): Accessor<AuthOrganizationEntry | null> {
  return useAtom(auth.activeOrganization);
}

/**
 * The user's organizations of an auth store, as an accessor.
 *
 * @param auth The store of `createAuthStore`.
 * @returns An accessor of the entries.
 *
 * @example
 * ```ts ignore
 * const organizations = useOrganizations(auth); // organizations().length
 * ```
 */
export function useOrganizations(auth: AuthStore): Accessor<readonly AuthOrganizationEntry[]> {
  return useAtom(auth.organizations);
}

/**
 * A `GET` route of any module, called with `input`, cached by the client's query store.
 *
 * @param client A client from `createModuleClient`.
 * @param key The route, `"GET /path"`.
 * @param input Its `params` and `query`.
 * @returns An accessor of data, error, loading.
 *
 * @example
 * ```ts ignore
 * const note = useQuery(notesClient, "GET /notes/:id", { params: { id } });
 * ```
 */
export function useQuery<Routes extends { [key: string]: RouteCall }, Key extends QueryKey<Routes>>(
  client: ModuleClient<Routes>,
  key: Key,
  ...input: CallInput<Routes[Key]>
): Accessor<StateOf<Routes, Key>> {
  return useAtom(queryStoreOf(client).query(key, ...input));
}

/**
 * What {@link useMutation} returns: an accessor of the last call's state, and `mutate`.
 *
 * @example
 * ```ts ignore
 * const { state, mutate } = useMutation(notesClient, "POST /notes");
 * ```
 */
export interface MutationAccessor<
  Routes extends { [key: string]: RouteCall },
  Key extends keyof Routes,
> {
  /** The state of the last call. */
  state: Accessor<StateOf<Routes, Key>>;
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
 * @returns The state accessor and `mutate`.
 *
 * @example
 * ```ts ignore
 * const { state, mutate } = useMutation(notesClient, "POST /notes");
 * ```
 */
export function useMutation<
  Routes extends { [key: string]: RouteCall },
  Key extends keyof Routes & string,
>(
  client: ModuleClient<Routes>,
  key: Key,
  options?: MutationOptions,
): MutationAccessor<Routes, Key> {
  const mutation = queryStoreOf(client).mutation(key, options);
  return { state: useAtom(mutation.state), mutate: mutation.mutate };
}
