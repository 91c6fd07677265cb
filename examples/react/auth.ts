// The signed-in state every component reads: the auth module's client, wrapped in the store that
// keeps `GET /me` fresh after each call that changes it and tells the browser's other tabs.
import { createAuthClient } from "@app/fragment-cli/client";
import { createAuthStore } from "@app/fragment-cli/client/store";

/** Served by `deno task start`, the API is on the page's own origin. */
export const auth = createAuthStore(createAuthClient({ baseUrl: "/api/auth" }));
