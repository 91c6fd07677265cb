/**
 * Vue composables over the browser store (`@app/fragment-cli/client/store`): the signed-in
 * state of the auth module and cached queries and mutations of any module, each a read-only
 * `shallowRef` that follows its atom until the calling component (its effect scope) is
 * disposed. Vue (≥ 3.3) is an optional peer dependency: install it yourself.
 *
 * @example
 * ```ts ignore
 * import { createAuthClient } from "@app/fragment-cli/client";
 * import { createAuthStore } from "@app/fragment-cli/client/store";
 * import { useMe } from "@app/fragment-cli/vue";
 *
 * const auth = createAuthStore(createAuthClient({ baseUrl: "/api/auth" }));
 * // in setup():
 * const me = useMe(auth);
 * const email = computed(() => me.value.data?.user.email);
 * ```
 *
 * @module
 */

// deno-lint-ignore no-import-prefix -- an optional peer: deno.json maps only what `deno task start` installs (scripts/build_npm.ts makes it bare).
import { getCurrentScope, onScopeDispose, shallowRef } from "npm:vue@^3.5.0";
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
 * A read-only ref: `value` is the atom's value, and reading it in a render, `computed` or
 * `watch` tracks it (the object is Vue's `shallowRef`, typed by its `value` alone).
 *
 * @example
 * ```ts ignore
 * const me: ReadonlyRef<AuthMeState> = useMe(auth);
 * const email = computed(() => me.value.data?.user.email);
 * ```
 */
export interface ReadonlyRef<T> {
  /** The value now (tracked by Vue). */
  readonly value: T;
}

/** A read-only ref that follows the atom for the life of the current effect scope. */
function useAtom<T>(store: StoreAtom<T>): ReadonlyRef<T> {
  const value = shallowRef(store.get());
  const stop = store.subscribe((next) => {
    value.value = next;
  });
  if (getCurrentScope()) onScopeDispose(stop);
  return value;
}

/**
 * The `GET /me` state of an auth store, as a ref.
 *
 * @param auth The store of `createAuthStore`.
 * @returns A ref of data, error, loading.
 *
 * @example
 * ```ts ignore
 * const me = useMe(auth); // me.value.data?.user.email
 * ```
 */
export function useMe(auth: AuthStore): ReadonlyRef<AuthMeState> {
  return useAtom(auth.me);
}

/**
 * The active organization of an auth store, as a ref (`null` when none).
 *
 * @param auth The store of `createAuthStore`.
 * @returns A ref of the entry.
 *
 * @example
 * ```ts ignore
 * const active = useActiveOrganization(auth); // active.value?.organization.name
 * ```
 */
export function useActiveOrganization(
  auth: AuthStore,
): ReadonlyRef<AuthOrganizationEntry | null> {
  return useAtom(auth.activeOrganization);
}

/**
 * The user's organizations of an auth store, as a ref.
 *
 * @param auth The store of `createAuthStore`.
 * @returns A ref of the entries.
 *
 * @example
 * ```ts ignore
 * const organizations = useOrganizations(auth); // organizations.value.length
 * ```
 */
export function useOrganizations(auth: AuthStore): ReadonlyRef<readonly AuthOrganizationEntry[]> {
  return useAtom(auth.organizations);
}

/**
 * A `GET` route of any module, called with `input`, cached by the client's query store.
 *
 * @param client A client from `createModuleClient`.
 * @param key The route, `"GET /path"`.
 * @param input Its `params` and `query`.
 * @returns A ref of data, error, loading.
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
): ReadonlyRef<StateOf<Routes, Key>> {
  return useAtom(queryStoreOf(client).query(key, ...input));
}

/**
 * What {@link useMutation} returns: a ref of the last call's state, and `mutate`.
 *
 * @example
 * ```ts ignore
 * const { state, mutate } = useMutation(notesClient, "POST /notes");
 * ```
 */
export interface MutationRef<
  Routes extends { [key: string]: RouteCall },
  Key extends keyof Routes,
> {
  /** The state of the last call. */
  state: ReadonlyRef<StateOf<Routes, Key>>;
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
 * @returns The state ref and `mutate`.
 *
 * @example
 * ```ts ignore
 * const { state, mutate } = useMutation(notesClient, "POST /notes");
 * await mutate({ body: { text: "Buy milk" } });
 * ```
 */
export function useMutation<
  Routes extends { [key: string]: RouteCall },
  Key extends keyof Routes & string,
>(
  client: ModuleClient<Routes>,
  key: Key,
  options?: MutationOptions,
): MutationRef<Routes, Key> {
  const mutation = queryStoreOf(client).mutation(key, options);
  return { state: useAtom(mutation.state), mutate: mutation.mutate };
}
