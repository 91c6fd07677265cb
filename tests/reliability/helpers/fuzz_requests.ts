/**
 * fast-check arbitraries of HTTP requests to the routes of the world's modules: the route's own
 * method most of the time, path parameters from real ids or odd text (bad percent-encoding,
 * Unicode, dot segments), query strings with tampered cursors and page sizes, credentials valid,
 * tampered, missing, duplicated or conflicting, and bodies from random JSON to field-shaped
 * objects with wrong types, huge or deeply nested values, invalid JSON and invalid UTF-8.
 *
 * A generated {@link RequestSpec} names real data by reference (`$id:organization`, a person's
 * token), resolved against the world when the request is built, so a case stays meaningful
 * after the world repaired itself.
 *
 * @example
 * ```ts ignore
 * fc.assert(fc.asyncProperty(requestSpec(routes), async (spec) => {
 *   const response = await world.fetch(buildRequest(spec, routes, world));
 * }), { numRuns: 5000, seed });
 * ```
 *
 * @module
 */
import fc from "fast-check";
import {
  CURSOR_REFS,
  type CursorRef,
  type FuzzWorld,
  ID_REFS,
  type IdRef,
  PEOPLE,
  type Person,
} from "./fuzz_world.ts";

/** A route as modules list them. */
export interface RouteInfo {
  method: string;
  path: string;
}

/** How a real value is spoiled. */
export type Mangle = "none" | "flip" | "truncate" | "append" | "upper" | "pad" | "double";

/** A text that is either raw or a reference to real data, maybe spoiled. */
export type Ref =
  | { raw: string }
  | { id: IdRef; mangle: Mangle }
  | { cursor: CursorRef; mangle: Mangle };

/** The credential a request carries. */
export type AuthSpec =
  | { kind: "none" }
  | { kind: "raw"; header: string }
  | {
    kind: "person";
    person: Person;
    transport: "bearer" | "cookie" | "both" | "conflicting" | "duplicated";
    mangle: Mangle;
  };

/** The body of a request. */
export type BodySpec =
  | { kind: "json"; value: unknown }
  | { kind: "text"; text: string }
  | { kind: "bytes"; bytes: number[] }
  | { kind: "deep"; depth: number; open: string; close: string }
  | { kind: "huge"; size: number; wrap: "string" | "array" }
  | { kind: "update"; idText: string; kind2: string; extra: unknown };

/** One generated request. */
export interface RequestSpec {
  /** Index in the route list. */
  route: number;
  /** Another method than the route's, or `null`. */
  method: string | null;
  /** Values of the route's `:params`, in order (extra ones unused). */
  params: Ref[];
  /** Text appended to the path (`""` most of the time). */
  suffix: string;
  /** Query parameters, in order, duplicates allowed. */
  query: Array<[string, Ref]>;
  auth: AuthSpec;
  /** The webhook secret header: right, wrong, missing, duplicated. */
  webhookSecret: "right" | "wrong" | "missing" | "duplicated" | "padded" | "case";
  /** Extra headers. */
  headers: Array<[string, string]>;
  body: BodySpec | null;
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

const ODD_TEXT = [
  "",
  " ",
  "%",
  "%zz",
  "%C0%80",
  "%00",
  "%FF%FE",
  "%2F",
  "..",
  ".",
  "%2e%2e",
  "a%20b",
  "%F0%9F%98",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff\ud800",
  "😀",
  "\u202e\u0645",
  "e\u0301",
  "null",
  "undefined",
  "0",
  "-1",
  "1e999",
  "NaN",
  "00000000-0000-0000-0000-000000000000",
  "ffffffff-ffff-ffff-ffff-ffffffffffff",
  "' OR 1=1 --",
  '"; DROP TABLE auth.users; --',
  "<script>",
  "x".repeat(5000),
];

const mangle: fc.Arbitrary<Mangle> = fc.oneof(
  { weight: 10, arbitrary: fc.constant<Mangle>("none") },
  {
    weight: 6,
    arbitrary: fc.constantFrom<Mangle>("flip", "truncate", "append", "upper", "pad", "double"),
  },
);

const oddText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...ODD_TEXT),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.uuid().map(String),
  fc.integer().map(String),
);

const ref: fc.Arbitrary<Ref> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ id: fc.constantFrom(...ID_REFS), mangle }) },
  { weight: 2, arbitrary: oddText.map((raw) => ({ raw })) },
);

const cursorRef: fc.Arbitrary<Ref> = fc.oneof(
  fc.record({ cursor: fc.constantFrom(...CURSOR_REFS), mangle }),
  oddText.map((raw) => ({ raw })),
  fc.base64String({ maxLength: 80 }).map((raw) => ({ raw })),
);

const pageSize: fc.Arbitrary<Ref> = fc.oneof(
  fc.constantFrom("1", "20", "100", "101", "0", "-1", "1.5", "1e2", "0x10", "", "abc", " 5")
    .map((raw) => ({ raw })),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((n) => ({ raw: String(n) })),
);

const query: fc.Arbitrary<Array<[string, Ref]>> = fc.array(
  fc.oneof(
    fc.tuple(fc.constant("pageSize"), pageSize),
    fc.tuple(fc.constant("cursor"), cursorRef),
    fc.tuple(oddText, ref),
  ),
  { maxLength: 4 },
);

const auth: fc.Arbitrary<AuthSpec> = fc.oneof(
  { weight: 1, arbitrary: fc.constant<AuthSpec>({ kind: "none" }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "Bearer",
      "Bearer ",
      "bearer x",
      "Basic dXNlcjpwYXNz",
      "Bearer a b",
      "Bearer \u00ff\u00fe",
      `Bearer ${"A".repeat(4000)}`,
    ).map((header): AuthSpec => ({ kind: "raw", header })),
  },
  {
    weight: 10,
    arbitrary: fc.record({
      kind: fc.constant("person" as const),
      person: fc.constantFrom(...PEOPLE),
      transport: fc.constantFrom(
        "bearer" as const,
        "bearer" as const,
        "bearer" as const,
        "bearer" as const,
        "cookie" as const,
        "cookie" as const,
        "both" as const,
        "conflicting" as const,
        "duplicated" as const,
      ),
      mangle,
    }),
  },
);

/** Field names the routes read, so random objects reach the validators' branches. */
const FIELDS = [
  "email",
  "password",
  "name",
  "slug",
  "logoUrl",
  "metadata",
  "organizationId",
  "userId",
  "roles",
  "action",
  "token",
  "role",
  "update_id",
  "message",
  "__proto__",
  "constructor",
];

/** Values that mean something to the routes: references to real data, roles, actions. */
const meaningful = fc.constantFrom(
  "$id:organization",
  "$id:otherOrganization",
  "$id:ownerMember",
  "$id:memberMember",
  "$id:invitation",
  "$id:user",
  "$token:invitation",
  "$email:invitee",
  "$email:owner",
  "$password:owner",
  "owner",
  "admin",
  "member",
  "accept",
  "reject",
  "cancel",
  "user@example.com",
  "correct horse battery",
  "https://example.com/logo.png",
);

const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: meaningful },
  { weight: 2, arbitrary: oddText },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(fc.oneof(meaningful, oddText), { maxLength: 5 }) },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.double(),
      fc.integer(),
      fc.constantFrom(2 ** 53 + 1, -0, 1e308, Number.MAX_SAFE_INTEGER),
    ),
  },
);

const body: fc.Arbitrary<BodySpec> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 6 }).map((v) => ({
      kind: "json" as const,
      value: v,
    })),
  },
  {
    weight: 2,
    arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => ({ kind: "json" as const, value: v })),
  },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.constantFrom("", "{", "}", "[", '{"a":', "nul", "\ufeff{}", "{}{}", "{} x", "'a'", "NaN"),
      fc.string({ unit: "binary", maxLength: 60 }),
    ).map((text) => ({ kind: "text" as const, text })),
  },
  {
    weight: 1,
    arbitrary: fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 40 })
      .map((bytes) => ({ kind: "bytes" as const, bytes: [0x7b, 0x22, ...bytes, 0xc3, 0x28] })),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("deep" as const),
      depth: fc.constantFrom(64, 1_000, 10_000, 100_000),
      open: fc.constantFrom("[", '{"metadata":', '{"a":'),
      close: fc.constantFrom("]", "}"),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("huge" as const),
      size: fc.constantFrom(70_000, 1_100_000, 3_000_000),
      wrap: fc.constantFrom("string" as const, "array" as const),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("update" as const),
      idText: fc.oneof(
        fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String),
        fc.constantFrom(
          "1",
          "0",
          "-0",
          "1.0",
          "1e3",
          '"12"',
          "null",
          "9223372036854775807",
          "9223372036854775808",
          "00012",
          "true",
          "[1]",
        ),
      ),
      kind2: fc.constantFrom(
        "message",
        "edited_message",
        "channel_post",
        "callback_query",
        "message",
      ),
      extra: fc.jsonValue({ maxDepth: 2, stringUnit: "binary" }),
    }),
  },
);

const slug = fc.stringMatching(/^[a-z0-9][a-z0-9-]{2,20}$/);
const role = fc.constantFrom("owner", "admin", "member", "member", "ghost", "");
const email = fc.oneof(
  fc.constantFrom("$email:invitee", "$email:owner", "$email:outsider"),
  fc.emailAddress(),
  fc.nat().map((n) => `new-${n}@example.com`),
);

/** Characters a valid-looking text may carry that storage or parsing could choke on. */
const ODD_CHARACTERS = ["\u0000", "\ud800", "\udfff", "\u202e", "😀", "\u0301", "\t", "\u2028"];

/** `text` with an odd character inserted somewhere. */
function oddened(text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(text, fc.constantFrom(...ODD_CHARACTERS), fc.nat()).map(([t, c, at]) => {
    const i = at % (t.length + 1);
    return t.slice(0, i) + c + t.slice(i);
  });
}

/** JSON values whose strings and keys use any code unit (NUL and lone surrogates included). */
const anyJson = fc.jsonValue({ maxDepth: 2, stringUnit: "binary" });

/** Returns `valid` most of the time, else a wrong value: the field-by-field way into a route. */
function mostly<T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 5, arbitrary: valid }, { weight: 1, arbitrary: value });
}

/** Like {@link mostly}, and sometimes a valid text with an odd character inserted. */
function mostlyText(valid: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: valid },
    { weight: 1, arbitrary: oddened(valid) },
    { weight: 1, arbitrary: value },
  );
}

/** Bodies shaped like what each route reads, one field spoiled now and then. */
function shapedBody(route: RouteInfo): fc.Arbitrary<unknown> {
  const key = `${route.method} ${route.path.replace(/^\/api\/[a-z]+/, "")}`;
  switch (key) {
    case "POST /sign-up":
    case "POST /sign-in":
      return fc.record({
        email: mostlyText(email),
        password: mostlyText(
          fc.constantFrom("correct horse battery", "$password:owner", "short"),
        ),
      });
    case "POST /organizations":
      return fc.record({
        name: mostlyText(fc.constantFrom("Acme", "Ünïcødé Ltd", "x")),
        slug: mostlyText(fc.oneof(slug, fc.constant("$slug:organization"))),
        logoUrl: fc.oneof(
          mostlyText(fc.constant("https://example.com/a.png")),
          fc.constant(null),
        ),
        metadata: mostly(anyJson),
      }, { requiredKeys: ["name", "slug"] });
    case "PATCH /organizations/:organizationId":
      return fc.record({
        name: mostlyText(fc.constantFrom("Renamed", "")),
        slug: mostlyText(fc.oneof(slug, fc.constant("$slug:otherOrganization"))),
        logoUrl: fc.oneof(
          mostlyText(fc.constant("https://example.com/b.png")),
          fc.constant(null),
        ),
        metadata: mostly(anyJson),
      }, { requiredKeys: [] });
    case "POST /organizations/active":
      return fc.record({
        organizationId: mostly(
          fc.constantFrom("$id:organization", "$id:otherOrganization", null),
        ),
      });
    case "POST /organizations/:organizationId/members":
      return fc.record({
        userId: mostly(fc.constantFrom("$id:user", "$userId:invitee", "$userId:member")),
        roles: mostly(fc.array(role, { maxLength: 3 })),
      }, { requiredKeys: ["userId"] });
    case "PATCH /organizations/:organizationId/members/:memberId":
      return fc.record({ roles: mostly(fc.array(role, { maxLength: 3 })) });
    case "POST /organizations/:organizationId/invitations":
      return fc.record({
        email: mostlyText(email),
        roles: mostly(fc.array(role, { maxLength: 3 })),
      }, { requiredKeys: ["email"] });
    case "PATCH /organizations/invitations/:invitationId":
      return fc.record({
        action: mostlyText(fc.constantFrom("accept", "reject", "cancel")),
        token: mostlyText(fc.constant("$token:invitation")),
      });
    case "POST /verify-email":
      // Well-shaped tokens this module never issued, and other secrets in the wrong place.
      return fc.record({
        token: mostlyText(fc.constantFrom("A".repeat(43), "$token:invitation")),
      });
    default:
      return fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 4 });
  }
}

/** Header sets: content types, origins, odd headers (values kept to valid header bytes). */
const headers: fc.Arbitrary<Array<[string, string]>> = fc.array(
  fc.oneof(
    fc.tuple(
      fc.constant("content-type"),
      fc.constantFrom(
        "application/json",
        "text/plain",
        "application/json; charset=latin1",
        "multipart/form-data; boundary=x",
        "",
      ),
    ),
    fc.tuple(
      fc.constant("origin"),
      fc.constantFrom("http://localhost", "https://evil.example", "null", "http://localhost:1"),
    ),
    fc.tuple(fc.constant("sec-fetch-site"), fc.constantFrom("cross-site", "same-origin", "none")),
    fc.tuple(
      fc.constantFrom("x-forwarded-for", "x-forwarded-proto", "accept", "x-unknown"),
      fc.string({ unit: "grapheme-ascii", maxLength: 30 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
    ),
  ),
  { maxLength: 3 },
);

/**
 * Requests to `routes` (each module's `routes`, paths including the mount).
 *
 * One case in two is well-formed around its body: the route's own method and path, a valid
 * credential and no odd headers, so that the field-by-field spoiling of {@link shapedBody} reaches
 * the handlers' deep branches (created, conflict) often enough to be seen in 1,000 cases. Fully
 * random cases alone answered 201 about 3 times in 1,000, and none at all in one run of twenty.
 */
export function requestSpec(routes: readonly RouteInfo[]): fc.Arbitrary<RequestSpec> {
  return fc.oneof(
    { weight: 1, arbitrary: anyRequestSpec(routes) },
    { weight: 1, arbitrary: wellFormedRequestSpec(routes) },
  );
}

/** Real ids for a route's path parameters, by parameter name, so well-formed paths name rows. */
export const REAL_IDS: Record<string, readonly IdRef[]> = {
  organizationId: ["organization", "organization", "otherOrganization"],
  memberId: ["memberMember", "ownerMember"],
  invitationId: ["invitation"],
};

function realParams(path: string): fc.Arbitrary<Ref[]> {
  const names = [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);
  return fc.tuple(...names.map((name) =>
    fc.record({
      id: fc.constantFrom(...(REAL_IDS[name] ?? ID_REFS)),
      mangle: fc.constant<Mangle>("none"),
    })
  ));
}

const validAuth: fc.Arbitrary<AuthSpec> = fc.record({
  kind: fc.constant("person" as const),
  person: fc.constantFrom(...PEOPLE),
  transport: fc.constant("bearer" as const),
  mangle: fc.constant<Mangle>("none"),
});

function wellFormedRequestSpec(routes: readonly RouteInfo[]): fc.Arbitrary<RequestSpec> {
  return fc.integer({ min: 0, max: routes.length - 1 }).chain((route) =>
    fc.record({
      route: fc.constant(route),
      method: fc.constant(null),
      params: realParams(routes[route].path),
      suffix: fc.constant(""),
      query,
      auth: validAuth,
      webhookSecret: fc.constant("right" as const),
      headers: fc.constant([]),
      body: shapedBody(routes[route]).map((v): BodySpec => ({ kind: "json", value: v })),
    })
  );
}

function anyRequestSpec(routes: readonly RouteInfo[]): fc.Arbitrary<RequestSpec> {
  return fc.integer({ min: 0, max: routes.length - 1 }).chain((route) =>
    fc.record({
      route: fc.constant(route),
      method: fc.oneof(
        { weight: 8, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
      ),
      params: fc.array(ref, { minLength: 2, maxLength: 2 }),
      suffix: fc.oneof(
        { weight: 12, arbitrary: fc.constant("") },
        {
          weight: 1,
          arbitrary: fc.constantFrom("/", "//", "/x", "/..", "/%zz", "/%2F", "?", "#x"),
        },
      ),
      query,
      auth,
      webhookSecret: fc.constantFrom(
        "right" as const,
        "right" as const,
        "right" as const,
        "wrong" as const,
        "missing" as const,
        "duplicated" as const,
        "padded" as const,
        "case" as const,
      ),
      headers,
      body: fc.oneof(
        { weight: 1, arbitrary: fc.constant(null) },
        {
          weight: 4,
          arbitrary: shapedBody(routes[route]).map((v) => ({ kind: "json" as const, value: v })),
        },
        { weight: 3, arbitrary: body },
      ),
    })
  );
}

/** Builds the Request a spec describes, with the world's real values. */
export function buildRequest(
  spec: RequestSpec,
  routes: readonly RouteInfo[],
  world: FuzzWorld,
): Request {
  const route = routes[spec.route];
  const method = spec.method ?? route.method;
  let index = 0;
  const path = route.path.replace(
    /:[A-Za-z]+/g,
    () => encodePathText(resolve(spec.params[index++], world)),
  );
  const search = spec.query.map(([key, value]) =>
    `${encodeQueryText(key)}=${encodeQueryText(resolve(value, world))}`
  ).join("&");
  const url = `http://localhost${path}${spec.suffix}${search ? `?${search}` : ""}`;
  const headers = new Headers();
  for (const [name, value] of spec.headers) headers.append(name, value);
  applyAuth(spec.auth, headers, world);
  applyWebhookSecret(spec.webhookSecret, headers, world.webhookSecret);
  const withBody = spec.body !== null && method !== "GET" && method !== "HEAD";
  if (withBody && !headers.has("content-type")) headers.set("content-type", "application/json");
  return new Request(url, {
    method,
    headers,
    body: withBody ? bodyBytes(spec.body!, world) : undefined,
  });
}

function resolve(value: Ref, world: FuzzWorld): string {
  if ("raw" in value) return value.raw;
  const real = "id" in value
    ? world.ids.get(value.id) ?? ""
    : world.cursors.get(value.cursor) ?? "";
  return spoil(real, value.mangle);
}

function spoil(text: string, how: Mangle): string {
  if (text === "") return text;
  const middle = Math.floor(text.length / 2);
  switch (how) {
    case "none":
      return text;
    case "flip": {
      const c = text[middle];
      const swapped = c === "A" ? "B" : c === "a" ? "b" : c === "0" ? "1" : "A";
      return text.slice(0, middle) + swapped + text.slice(middle + 1);
    }
    case "truncate":
      return text.slice(0, middle);
    case "append":
      return `${text}x`;
    case "upper":
      return text.toUpperCase();
    case "pad":
      return ` ${text} `;
    case "double":
      return text + text;
  }
}

/** Path text: percent signs kept as written (bad encodings reach the router), the rest encoded. */
function encodePathText(text: string): string {
  return text.replace(/[^%A-Za-z0-9._~!$&'()*+,;=:@-]/gu, (c) => encodeUtf8(c));
}

function encodeQueryText(text: string): string {
  return text.replace(/[^%A-Za-z0-9._~!$'()*+,;:@/?-]/gu, (c) => encodeUtf8(c));
}

/** Percent-encodes a character as UTF-8; a lone surrogate as the bytes of U+FFFD. */
function encodeUtf8(c: string): string {
  return Array.from(
    new TextEncoder().encode(c),
    (b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`,
  )
    .join("");
}

function applyAuth(spec: AuthSpec, headers: Headers, world: FuzzWorld): void {
  if (spec.kind === "none") return;
  if (spec.kind === "raw") {
    headers.set("authorization", spec.header);
    return;
  }
  const token = spoil(world.accounts.get(spec.person)!.token, spec.mangle);
  const other = world.accounts.get(spec.person === "owner" ? "member" : "owner")!.token;
  switch (spec.transport) {
    case "bearer":
      headers.set("authorization", `Bearer ${token}`);
      break;
    case "cookie":
      headers.set("cookie", `theme=dark; service_auth=${token}`);
      break;
    case "both":
      headers.set("authorization", `Bearer ${token}`);
      headers.set("cookie", `service_auth=${token}`);
      break;
    case "conflicting":
      headers.set("authorization", `Bearer ${token}`);
      headers.set("cookie", `service_auth=${other}`);
      break;
    case "duplicated":
      headers.append("authorization", `Bearer ${token}`);
      headers.append("authorization", `Bearer ${other}`);
      headers.append("cookie", `service_auth=${token}`);
      headers.append("cookie", `service_auth=${other}`);
      break;
  }
}

function applyWebhookSecret(
  how: RequestSpec["webhookSecret"],
  headers: Headers,
  secret: string,
): void {
  const name = "x-messenger-bot-api-secret-token";
  switch (how) {
    case "right":
      headers.set(name, secret);
      break;
    case "wrong":
      headers.set(name, spoil(secret, "flip"));
      break;
    case "missing":
      break;
    case "duplicated":
      headers.append(name, secret);
      headers.append(name, secret);
      break;
    case "padded":
      headers.set(name, `${secret}\t`);
      break;
    case "case":
      headers.set(name, secret.toUpperCase());
      break;
  }
}

function bodyBytes(spec: BodySpec, world: FuzzWorld): string | Uint8Array<ArrayBuffer> {
  switch (spec.kind) {
    case "json":
      return JSON.stringify(substitute(spec.value, world)) ?? "null";
    case "text":
      return spec.text;
    case "bytes":
      return new Uint8Array(spec.bytes);
    case "deep":
      return spec.open.repeat(spec.depth) + "1" + spec.close.repeat(spec.depth);
    case "huge":
      return spec.wrap === "string"
        ? JSON.stringify({ name: "x".repeat(spec.size), email: "a@example.com" })
        : `[${"1,".repeat(spec.size / 2)}1]`;
    case "update":
      return `{"update_id":${spec.idText},"${spec.kind2}":{"message_id":1,"text":"hi"},` +
        `"extra":${JSON.stringify(spec.extra) ?? "null"}}`;
  }
}

/** Replaces `$id:…`, `$token:invitation`, `$email:…` and `$password:…` strings with real data. */
function substitute(value: unknown, world: FuzzWorld): unknown {
  if (typeof value === "string" && value.startsWith("$")) {
    const [kind, name] = value.slice(1).split(":");
    if (kind === "id") return world.ids.get(name as IdRef) ?? value;
    if (kind === "token") return world.invitationToken;
    if (kind === "slug") return world.slugs.get(name as IdRef) ?? value;
    if (kind === "userId") return world.accounts.get(name as Person)?.userId ?? value;
    if (kind === "email") return world.accounts.get(name as Person)?.email ?? value;
    if (kind === "password") return world.accounts.get(name as Person)?.password ?? value;
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, world));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, substitute(v, world)]),
    );
  }
  return value;
}
