// generated/client_routes.ts is generated from the auth operation declarations (`deno task
// spa:client`): the client calls each operation by the route key (`"METHOD /path"`) its
// declaration gives, and knows every operation there is. A declaration added, removed or moved
// without regenerating fails here, on every runtime (and the client's types: each key must be a
// route of `AuthModule`, see auth_module_client_types.test.ts).
import assert from "node:assert/strict";
import { it } from "node:test";
import * as operations from "../../src/auth/operations.ts";
import * as routes from "../../generated/client_routes.ts";

function declaredKeys(): { [name: string]: string } {
  return Object.fromEntries(
    Object.entries(operations as { [name: string]: { method?: unknown; path?: unknown } })
      .filter(([, value]) => typeof value?.method === "string" && typeof value?.path === "string")
      .map(([name, value]) => [name, `${value.method} ${value.path}`]),
  );
}

it("generated/client_routes.ts matches the declarations (run deno task spa:client)", () => {
  const declared = declaredKeys();
  assert.ok(Object.keys(declared).length > 20, "the declarations were read");
  assert.equal(declared.listMembers, "GET /organizations/:organizationId/members");
  assert.deepEqual({ ...routes }, declared);
});
