/**
 * A local stand-in for GitHub's documented OAuth endpoints, for the GitHub preset's tests:
 * `/login/oauth/authorize` (approves at once), `/login/oauth/access_token` (checks the client,
 * the code, the redirect URL and the PKCE verifier; answers form-encoded unless asked for JSON,
 * and refuses with 200 and an `error` member, as GitHub does), and under `/api/v3` (an Enterprise
 * Server's layout) `/user` (whose `email` is null) and `/user/emails` (`{ email, primary,
 * verified }`).
 *
 * @example
 * ```ts ignore
 * const github = await startGitHubStandIn();
 * github.account.emails = [{ email: "octo@example.com", primary: true, verified: true }];
 * githubProvider({ ...github.client, webOrigin: github.url, apiOrigin: `${github.url}/api/v3` });
 * ```
 *
 * @module
 */
import { createHash } from "node:crypto";
import { listenLocal } from "./local_server.ts";

/** What the stand-in answers for the next sign-in. */
export interface GitHubAccount {
  id: number;
  emails: { email: string; primary: boolean; verified: boolean }[];
  /** The status of `GET /user` (200, or a failure). */
  userStatus: number;
}

/** A running stand-in. */
export interface GitHubStandIn {
  /** `http://127.0.0.1:<port>`: the `webOrigin`; the `apiOrigin` is `<url>/api/v3`. */
  url: string;
  client: { clientId: string; clientSecret: string };
  account: GitHubAccount;
  /** Every token request received: its `Accept` header and its form. */
  tokenRequests: { accept: string | null; form: URLSearchParams }[];
  close(): Promise<void>;
}

/** Starts the stand-in on 127.0.0.1. */
export async function startGitHubStandIn(): Promise<GitHubStandIn> {
  const client = {
    clientId: "Iv1.fragmenttest01",
    clientSecret: "github-stand-in-secret-0123456789abcdef",
  };
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  const tokens = new Set<string>();
  const standIn: GitHubStandIn = {
    url: "",
    client,
    account: { id: 1000, emails: [], userStatus: 200 },
    tokenRequests: [],
    close: () => server.close(),
  };
  const server = await listenLocal(async (request) => {
    const url = new URL(request.url);
    if (url.pathname === "/login/oauth/authorize") {
      const q = url.searchParams;
      if (q.get("client_id") !== client.clientId) {
        return new Response("unknown client", { status: 404 });
      }
      const code = crypto.randomUUID().replaceAll("-", "");
      codes.set(code, { challenge: q.get("code_challenge")!, redirectUri: q.get("redirect_uri")! });
      const back = new URL(q.get("redirect_uri")!);
      back.searchParams.set("code", code);
      back.searchParams.set("state", q.get("state")!);
      return new Response(null, { status: 302, headers: { location: back.href } });
    }
    if (url.pathname === "/login/oauth/access_token" && request.method === "POST") {
      const form = new URLSearchParams(await request.text());
      standIn.tokenRequests.push({ accept: request.headers.get("accept"), form });
      const issued = codes.get(form.get("code") ?? "");
      codes.delete(form.get("code") ?? "");
      const challenge = createHash("sha256").update(form.get("code_verifier") ?? "")
        .digest("base64url");
      const ok = issued !== undefined && form.get("client_id") === client.clientId &&
        form.get("client_secret") === client.clientSecret &&
        form.get("redirect_uri") === issued.redirectUri && challenge === issued.challenge;
      const body: Record<string, string> = ok
        ? {
          access_token: `gho_${crypto.randomUUID()}`,
          token_type: "bearer",
          scope: "read:user,user:email",
        }
        : {
          error: "bad_verification_code",
          error_description: "The code passed is incorrect or expired.",
        };
      if (ok) tokens.add(body.access_token);
      // GitHub's documented behaviour: 200 either way; JSON only when asked for.
      return request.headers.get("accept")?.includes("application/json")
        ? Response.json(body)
        : new Response(new URLSearchParams(body).toString(), {
          headers: { "content-type": "application/x-www-form-urlencoded" },
        });
    }
    const token = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
    if (url.pathname.startsWith("/api/v3/") && !tokens.has(token)) {
      return Response.json({ message: "Bad credentials" }, { status: 401 });
    }
    const account = standIn.account;
    if (url.pathname === "/api/v3/user") {
      if (account.userStatus !== 200) return new Response("oops", { status: account.userStatus });
      return Response.json({ id: account.id, login: `octo${account.id}`, email: null });
    }
    if (url.pathname === "/api/v3/user/emails") {
      return Response.json(account.emails.map((e) => ({ ...e, visibility: null })));
    }
    return Response.json({ message: "Not Found" }, { status: 404 });
  });
  standIn.url = server.url;
  return standIn;
}
